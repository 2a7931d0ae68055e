"""Affine fusion: the compiled diagram (``framework.compiled_diagram``) of an affine diagram.

The names below predate compiled diagrams and are kept: a root Diagram whose leaves are
all time-invariant affine primitives (LinearSystem, AffineSystem, MatrixGain, Gain,
Adder, Integrator, PassThrough, Multiplexer, Demultiplexer, ConstantVectorSource,
FirstOrderLowPassFilter: leaves whose class sets ``is_time_invariant_affine()``) is one
case of a diagram whose blocks all have a compiled form. :func:`fuse_affine_dynamics`
installs that compiled evaluation (one generated function, bit-for-bit equal to the
block-by-block path, parameters re-read when they change); there is no second
mechanism. The Simulator installs the compiled evaluation on any eligible diagram
(``compiled_diagram.fuse_by_default``), affine or not.
"""

from .context import DiagramContext
from .compiled_diagram import (compile_diagram_dynamics, compiled_dynamics_status,
                               fuse_by_default, unfuse_compiled_dynamics)

__all__ = ["fuse_affine_dynamics", "unfuse_affine_dynamics", "is_affine_fused",
           "fuse_by_default"]


def _all_affine(ctx):
    return all(leaf._system.is_time_invariant_affine() for leaf in ctx._leaves)


def fuse_affine_dynamics(diagram, context):
    """Evaluate the time derivatives of affine ``diagram`` in root ``context`` with its
    compiled function.

    Parameters
    ----------
    diagram : Diagram
    context : DiagramContext
        The root context of ``diagram``.

    Returns
    -------
    bool
        True when every leaf is time-invariant affine and the context now evaluates
        through the compiled function; False leaves the context unchanged.
    """
    ctx = diagram._check_context(context, "fuse_affine_dynamics")
    if not isinstance(ctx, DiagramContext) or not _all_affine(ctx):
        return False
    return compile_diagram_dynamics(diagram, ctx)


def unfuse_affine_dynamics(context):
    """Evaluate block by block again in ``context`` (and keep the Simulator from fusing it)."""
    unfuse_compiled_dynamics(context)


def is_affine_fused(context):
    """True while affine ``context`` evaluates its derivatives through the compiled
    function (installed, also while it waits to compile)."""
    return (isinstance(context, DiagramContext) and _all_affine(context)
            and compiled_dynamics_status(context).path != "block_by_block")
