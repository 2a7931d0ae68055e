"""Fused evaluation of time-invariant affine diagrams.

When every leaf of a root Diagram is a time-invariant affine primitive (LinearSystem,
AffineSystem, MatrixGain, Gain, Adder, Integrator, PassThrough, Multiplexer,
Demultiplexer, ConstantVectorSource, FirstOrderLowPassFilter: leaves whose class sets
``is_time_invariant_affine()``), the diagram has no input ports, and no leaf has
discrete or abstract state, events or witness functions, the diagram's time derivatives
are exactly ``ẋ = A x + f0``. ``A`` and ``f0`` are composed once from the leaves' exact
linearizations (``framework.analysis``) and reused until a parameter or a fixed input
value changes; each derivative evaluation is then one matrix-vector product instead of a
walk through every block. Output ports are still evaluated block by block.

Set ``diagram.affine_fusion = False`` to always evaluate block by block.
"""

import numpy as np

from .cache import CacheEntryValue


class AffinePlan:
    """ẋ = A x + f0 for one root DiagramContext, valid while ``is_current`` holds."""

    __slots__ = ("A", "f0", "version", "watch")

    def __init__(self, A, f0, version, watch):
        self.A = np.ascontiguousarray(A, dtype=float)
        self.f0 = np.ascontiguousarray(f0, dtype=float)
        self.version = version
        self.watch = watch

    def is_current(self, ctx):
        return self.watch.valid and self.version == ctx._root.version

    def evaluate(self, ctx, out):
        np.dot(self.A, ctx._root.xc, out=out)
        out += self.f0


def _eligible(diagram, ctx):
    if ctx._parent is not None or diagram.num_input_ports() or ctx.num_continuous_states() == 0:
        return False
    for leaf in ctx._leaves:
        s = leaf._system
        if not s.is_time_invariant_affine():
            return False
        if (leaf._xd or leaf._xa or s._periodic_events or s._per_step_events
                or s._initialization_events or s._witnesses):
            return False
    return True


def make_affine_plan(diagram, ctx):
    """An AffinePlan for ``ctx``, or False when the diagram is not eligible."""
    if not _eligible(diagram, ctx):
        return False
    from .analysis.linearize import (InputPortSelection, OutputPortSelection,
                                     first_order_taylor_approximation)

    diagram.affine_fusion = False      # the approximation evaluates block by block
    try:
        approx = first_order_taylor_approximation(
            diagram, ctx, InputPortSelection.NO_INPUT, OutputPortSelection.NO_OUTPUT,
            method="exact")
    except ValueError:
        return False
    finally:
        del diagram.affine_fusion       # back to the class default
    watch = CacheEntryValue(None, "affine fusion parameters")
    for leaf in ctx._leaves:
        for trk in leaf.trk_p + leaf.trk_pa:
            trk.subscribe(watch)
    ctx._root.version += 1      # new subscriptions: recompute cached invalidation closures
    watch.valid = True
    return AffinePlan(approx.A(), approx.f0() if approx.f0() is not None else
                      np.zeros(approx.A().shape[0]), ctx._root.version, watch)
