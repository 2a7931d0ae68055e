"""Compiled diagrams: a diagram's time derivatives, discrete updates and logging in
compiled code.

When the blocks that a root Diagram's continuous state depends on all have a compiled
form (``protocol``: the primitives, LinearSystem/AffineSystem, PidController, user
LeafSystems that register one), the diagram's time derivatives are evaluated by one
numba function generated from the wiring (``layout``, ``codegen``): no Python runs per
block. When moreover every periodic event is a compiled leaf's discrete update
(ZeroOrderHold, DiscreteTimeDelay, DiscreteTimeIntegrator, a discrete
LinearSystem/AffineSystem, the discrete MultibodyPlant without contact or with point
contact (TAMSI, SAP family), a user form's
``discrete_update``) or a VectorLogSink recording a compiled port, the Simulator runs
whole stretches of ``advance_to`` in one compiled call (``event_loop``). Both are
bit-for-bit equal to the block-by-block path, and are cached across processes in
`cache_directory()` (bounded by `clean_cache`).

The Simulator installs it on its context (`fuse_by_default`) unless the user chose
otherwise for that context (`unfuse_compiled_dynamics`); it compiles a wiring seen for
the first time once its block-by-block evaluation has taken `COMPILE_AFTER_SECONDS`.
`compile_diagram_dynamics` installs and compiles at once. `compiled_dynamics_status`
tells which path a context runs and why::

    from merganser.framework.compiled_diagram import compiled_dynamics_status
    print(compiled_dynamics_status(simulator.get_context()))

A leaf without a compiled form (a Python LeafSystem, a leaf with abstract state, or
with discrete state and no compiled ``discrete_update``) stays Python: the compiled call
runs between Python's evaluation of the ports of such leaves that it reads and of their
derivatives (the compiled loops then do not apply); the status names them. When no leaf with continuous state compiles,
the diagram evaluates block by block.
"""

import dataclasses
import warnings

from ..context import DiagramContext
from . import forms as _forms  # noqa: F401  (registers the primitives' forms)
from .codegen import CACHE_LIMIT, cache_directory, cache_limit, clean_cache
from .layout import NotCompilable, build_layout
from .plan import COMPILE_AFTER_SECONDS, CompiledPlan
from .protocol import (CompiledForm, CompiledPort, compiled_form_of,
                       register_compiled_form)

__all__ = ["CompiledForm", "CompiledPort", "register_compiled_form", "compiled_form_of",
           "compile_diagram_dynamics", "unfuse_compiled_dynamics", "compiled_dynamics_status",
           "CompiledDynamicsStatus", "fuse_by_default", "cache_directory", "clean_cache",
           "cache_limit", "CACHE_LIMIT", "COMPILE_AFTER_SECONDS"]


@dataclasses.dataclass(frozen=True)
class CompiledDynamicsStatus:
    """Which path evaluates a context's time derivatives.

    Attributes
    ----------
    path : str
        ``"compiled"`` (one generated function), ``"pending"`` (installed, block by block
        until the compilation threshold) or ``"block_by_block"``.
    reason : str
        For block by block: why (the block or port that prevents compilation, or the
        user's choice). For a compiled path with Python leaves: why each one is Python.
    python_systems : tuple of str
        For a compiled path: the reasons of the leaves whose ports and derivatives
        Python evaluates around the compiled call (empty: all compiled).
    python_events : tuple of str
        For a compiled path: why the Simulator's Python loop runs the events (a leaf
        whose periodic or per-step events are not compiled, a logger of a Python port);
        empty when its compiled simulation loop can run them (with an explicit
        Runge-Kutta integrator, no witness, monitor, pacing or forced publishing).
    """

    path: str
    reason: str = ""
    python_systems: tuple = ()
    python_events: tuple = ()

    def __str__(self):
        return self.path + (f": {self.reason}" if self.reason else "")


def _plan(context):
    calc = getattr(context, "_calc_xcdot", None)
    return calc if isinstance(calc, CompiledPlan) else None


def compile_diagram_dynamics(diagram, context, wait=0):
    """Evaluate ``diagram``'s time derivatives in root ``context`` with one compiled
    function.

    Parameters
    ----------
    diagram : Diagram
    context : DiagramContext
        The root context of ``diagram``.
    wait : float
        Seconds of block-by-block evaluation before a wiring never compiled before is
        compiled (0: now; the numba compilation itself happens at the first evaluation).

    Returns
    -------
    bool
        True when the context now evaluates through the compiled function; False leaves
        it unchanged (`compiled_dynamics_status` says why).
    """
    ctx = diagram._check_context(context, "compile_diagram_dynamics")
    try:
        plan = CompiledPlan(ctx, wait)
    except NotCompilable:
        return False
    ctx._install_derivative_calc(plan)
    ctx._affine_choice = True
    return True


def unfuse_compiled_dynamics(context):
    """Evaluate block by block again in ``context`` (and keep the Simulator from
    compiling it)."""
    if isinstance(context, DiagramContext):
        context._install_derivative_calc(None)
        context._affine_choice = False


def compiled_dynamics_status(context):
    """The `CompiledDynamicsStatus` of a root ``context``."""
    plan = _plan(context)
    if plan is not None:
        python = tuple(plan.python_reasons())
        return CompiledDynamicsStatus("compiled" if plan.compiled else "pending",
                                      "; ".join(python), python,
                                      tuple(plan._layout.event_blockers.values()))
    if isinstance(context, DiagramContext) and context._affine_choice is False:
        return CompiledDynamicsStatus("block_by_block", "unfuse_compiled_dynamics was called "
                                      "on this context")
    try:
        build_layout(context)
    except NotCompilable as e:
        return CompiledDynamicsStatus("block_by_block", str(e))
    return CompiledDynamicsStatus("block_by_block", "not installed (a Simulator installs it; "
                                  "or call compile_diagram_dynamics)")


def fuse_by_default(system, context):
    """The Simulator's policy: install the compiled evaluation (waiting
    `COMPILE_AFTER_SECONDS` of block-by-block evaluation) unless the user chose for this
    context."""
    if (isinstance(context, DiagramContext) and context._parent is None
            and context._affine_choice is None):
        try:
            compile_diagram_dynamics(system, context, wait=COMPILE_AFTER_SECONDS)
        except Exception as error:       # noqa: BLE001 (a broken form must not stop a run)
            warnings.warn(f"compiled diagram: not compiling diagram '{system.get_name()}': "
                          f"{type(error).__name__}: {error}", RuntimeWarning, stacklevel=3)
