"""Affine fusion: an explicit transform of a root diagram context's derivative evaluation.

When every leaf of a root Diagram is a time-invariant affine primitive (LinearSystem,
AffineSystem, MatrixGain, Gain, Adder, Integrator, PassThrough, Multiplexer,
Demultiplexer, ConstantVectorSource, FirstOrderLowPassFilter: leaves whose class sets
``is_time_invariant_affine()``), the diagram has no input ports, and no leaf has
discrete or abstract state, events, witness functions or fixed input values, the
diagram's time derivatives are exactly ``ẋ = A x + f0``. :func:`fuse_affine_dynamics`
composes ``A`` and ``f0`` once from the leaves' exact linearizations
(``framework.analysis``) and installs them as the context's derivative evaluation: each
evaluation is then one matrix-vector product instead of a walk through every block.
The map is recomposed when a parameter changes. Output ports are still evaluated block by
block.

The Simulator applies the transform to its context (``fuse_by_default``) unless the user
called :func:`unfuse_affine_dynamics` on that context first; a context that nobody fused
evaluates block by block.
"""

import numpy as np

from .analysis.linearize import (InputPortSelection, OutputPortSelection,
                                 first_order_taylor_approximation)
from .cache import CacheEntryValue
from .context import DiagramContext


class AffinePlan:
    """ẋ = A x + f0 for one root DiagramContext, recomposed when a parameter changed.

    Installed as the context's derivative evaluation: ``plan(ctx, out)``.
    """

    __slots__ = ("diagram", "A", "f0", "watch")

    def __init__(self, diagram, ctx):
        self.diagram = diagram
        self.watch = CacheEntryValue(None, "affine fusion parameters")
        for leaf in ctx._leaves:
            leaf.trk_params.subscribe(self.watch)
        ctx._root.version += 1      # new subscriptions: recompute cached invalidation closures
        self.A = self.f0 = None

    def compose(self, ctx):
        """Compose A and f0 at ``ctx``; False when the diagram is not exactly affine."""
        # The approximation works on a fresh context of its own (block by block).
        try:
            approx = first_order_taylor_approximation(
                self.diagram, ctx, InputPortSelection.NO_INPUT, OutputPortSelection.NO_OUTPUT,
                method="exact")
        except ValueError:
            return False
        A = approx.A()
        self.A = np.ascontiguousarray(A, dtype=float)
        f0 = approx.f0()
        self.f0 = (np.zeros(A.shape[0]) if f0 is None
                   else np.ascontiguousarray(f0, dtype=float))
        self.watch.valid = True
        return True

    def __call__(self, ctx, out):
        if not self.watch.valid:
            self.compose(ctx)
        np.dot(self.A, ctx._root.xc, out=out)
        out += self.f0


def _eligible(diagram, ctx):
    if (not isinstance(ctx, DiagramContext) or ctx._parent is not None
            or diagram.num_input_ports() or ctx.num_continuous_states() == 0):
        return False
    for leaf in ctx._leaves:
        s = leaf._system
        if not s.is_time_invariant_affine():
            return False
        if (leaf._xd or leaf._xa or leaf._fixed or s._periodic_events or s._per_step_events
                or s._initialization_events or s._witnesses):
            return False
    return True


def fuse_affine_dynamics(diagram, context):
    """Evaluate ``diagram``'s time derivatives in root ``context`` as one affine map.

    Parameters
    ----------
    diagram : Diagram
    context : DiagramContext
        The root context of ``diagram``.

    Returns
    -------
    bool
        True when the diagram is eligible (see the module docstring) and the context now
        evaluates ẋ = A x + f0; False leaves the context's evaluation unchanged.
    """
    ctx = diagram._check_context(context, "fuse_affine_dynamics")
    if not _eligible(diagram, ctx):
        return False
    plan = AffinePlan(diagram, ctx)
    if not plan.compose(ctx):
        return False
    ctx._install_derivative_calc(plan)
    ctx._affine_choice = True
    return True


def unfuse_affine_dynamics(context):
    """Evaluate block by block again in ``context`` (and keep the Simulator from fusing it)."""
    if isinstance(context, DiagramContext):
        context._install_derivative_calc(None)
        context._affine_choice = False


def is_affine_fused(context):
    """True while ``context`` evaluates its derivatives through a fused affine map."""
    return isinstance(context, DiagramContext) and isinstance(context._calc_xcdot, AffinePlan)


def fuse_by_default(system, context):
    """The Simulator's policy: fuse unless the user chose for this context."""
    if isinstance(context, DiagramContext) and context._affine_choice is None:
        fuse_affine_dynamics(system, context)
