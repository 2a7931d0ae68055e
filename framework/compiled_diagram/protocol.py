"""The compiled form of a LeafSystem: the protocol a block implements to join a compiled diagram.

A leaf's *compiled form* describes its output ports and time derivatives as compiled
functions over flat float64 arrays, all with one signature::

    fn(t, x, u, p, work, out)

``t`` : float
    The context time (s).
``x`` : ndarray, shape (nx,)
    The leaf's state: its continuous state, laid out [q; v; z] as in its own context,
    followed by its discrete state groups concatenated in group order (nx = nxc + nxd).
``u`` : ndarray, shape (nu,)
    The leaf's vector input ports concatenated in port order (the value each port
    evaluates to: its source's output, a fixed value or its default; zeros for an
    optional port left unconnected). Abstract input ports are not part of ``u``: a form
    whose leaf has some says in `CompiledForm.check` which wirings it accepts.
``p`` : ndarray
    The leaf's parameter vector, as `CompiledForm.parameters` returned it for the
    context; an output port with ``p_offset = k`` gets ``p[k:]``.
``work`` : ndarray, shape (CompiledForm.work_size,)
    Scratch space, owned by the caller, contents unspecified on entry.
``out`` : ndarray
    Written: the output port's value, shape (port size,), the time derivatives, shape
    (nxc,), or the discrete update, shape (nxd,).

A leaf with discrete state joins a compiled diagram when its form gives
`CompiledForm.discrete_update`: the new value of every discrete group (concatenated)
that the handler of its one periodic discrete-update event writes, from the state ``x``
and inputs ``u`` at the event time. The compiled simulation loop
(``event_loop``) calls it at that event's times (Drake's order: the updates due at a time
are applied at the start of the step after it, all computed from the state before any is
written). A leaf with discrete state whose form has none stays Python. A discrete update
that allocates (a merganser kernel declared ``allocates=True``, e.g. the contact plant's
step) makes the generated ``discrete_update`` run with numba's runtime.

A form with `CompiledForm.arrays` passes a seventh argument ``arrays``, the tuple of
arrays that callable returned (integer tables, matrices, a kernel workspace: what does
not fit a flat float vector), to those of its functions that take seven.

The functions are numba dispatchers (``merganser.framework.compilation.kernel``, or any
``numba.njit`` function) defined at module level, so that generated code can import them
by name and numba can cache the result. They must compute exactly what the block's
Python path computes, operation for operation (the compiled diagram is bit-for-bit
equal to the block-by-block evaluation: a matrix product goes through one kernel that
both paths call, such as ``framework.matvec``, since numpy picks its BLAS routine by
shape). Which outputs depend on which inputs at the same instant (direct
feedthrough) is the system's own ``has_direct_feedthrough``: one source of truth for the
block-by-block and the compiled paths.

A form is registered for a class (and its subclasses) by the layer that defines the
class, without the framework importing it::

    register_compiled_form(MySystem, lambda system: CompiledForm(...))

The factory may return None for instances that have no compiled form (e.g. a
Saturation whose limits come from input ports). Users give their own LeafSystem a form the same way.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Optional

import numpy as np

from ..compiled_form_loaders import run_compiled_form_loader

__all__ = ["CompiledForm", "CompiledPort", "register_compiled_form", "compiled_form_of",
           "EMPTY_PARAMETERS"]

EMPTY_PARAMETERS = np.zeros(0)
EMPTY_PARAMETERS.flags.writeable = False


def _no_parameters(context):
    return EMPTY_PARAMETERS


@dataclasses.dataclass(frozen=True)
class CompiledPort:
    """One output port's compiled function.

    Attributes
    ----------
    fn : numba dispatcher
        ``fn(t, x, u, p, work, y)`` (module docstring).
    p_offset : int
        The function receives the leaf's parameter vector from this index on.
    """

    fn: Callable
    p_offset: int = 0


@dataclasses.dataclass(frozen=True)
class CompiledForm:
    """The compiled form of one LeafSystem instance.

    Attributes
    ----------
    outputs : tuple of (CompiledPort or None)
        One entry per output port, in port order; None for a port without a compiled
        function (a diagram needing that port is not compiled).
    derivatives : numba dispatcher or None
        ``fn(t, x, u, p, work, xdot)``; required when the leaf has continuous state.
    discrete_update : numba dispatcher or None
        ``fn(t, x, u, p, work, xd_next)``: what the leaf's periodic discrete-update event
        writes (every group, concatenated; shape (nxd,)). Without it a leaf with
        discrete state is evaluated in Python.
    parameters : callable
        ``parameters(leaf_context) -> ndarray (np,)``: the values the functions read as
        ``p`` in that context (constants of the system and its numeric parameters).
        Called again whenever a parameter of the leaf or a fixed input value changes.
    work_size : int
        Size of the scratch array the functions get.
    arrays : callable or None
        ``arrays(leaf_context) -> tuple of ndarrays``, passed to every function as its
        seventh argument (None: the functions take six).
    check : callable or None
        ``check(leaf_context) -> str or None``: why this context's wiring of the leaf
        cannot run the compiled functions (e.g. an input the functions do not read is
        connected), or None when it can.
    """

    outputs: tuple
    derivatives: Optional[Callable] = None
    discrete_update: Optional[Callable] = None
    parameters: Callable = _no_parameters
    work_size: int = 0
    arrays: Optional[Callable] = None
    check: Optional[Callable] = None

    def __post_init__(self):
        object.__setattr__(self, "outputs", tuple(
            o if o is None or isinstance(o, CompiledPort) else CompiledPort(o)
            for o in self.outputs))
        if int(self.work_size) < 0:
            raise ValueError(f"CompiledForm: work_size must be >= 0, got {self.work_size}")


#: class -> factory(system) -> CompiledForm or None
_factories: dict = {}


def register_compiled_form(system_class, factory):
    """Give instances of ``system_class`` (and of its subclasses) a compiled form.

    Parameters
    ----------
    system_class : type
        A LeafSystem subclass.
    factory : callable
        ``factory(system) -> CompiledForm or None``.

    Returns
    -------
    callable
        ``factory`` (so the call can decorate the factory).
    """
    if not isinstance(system_class, type):
        raise TypeError(f"register_compiled_form: system_class must be a class, got "
                        f"{type(system_class).__name__}")
    if not callable(factory):
        raise TypeError(f"register_compiled_form: factory must be callable, got "
                        f"{type(factory).__name__}")
    _factories[system_class] = factory
    return factory


def compiled_form_of(system):
    """The compiled form of ``system`` (from the nearest registered class in its MRO), or
    None when it has none.

    Raises
    ------
    TypeError
        When the factory returns something other than a CompiledForm or None, or the
        form's outputs do not match the system's output ports.
    """
    for cls in type(system).__mro__:
        factory = _factories.get(cls)
        if factory is None and run_compiled_form_loader(cls):
            factory = _factories.get(cls)
        if factory is not None:
            form = factory(system)
            break
    else:
        return None
    if form is None:
        return None
    if not isinstance(form, CompiledForm):
        raise TypeError(f"compiled_form_of: the factory registered for {cls.__name__} returned "
                        f"{type(form).__name__} for system '{system.get_name()}', expected a "
                        f"CompiledForm or None")
    if len(form.outputs) != system.num_output_ports():
        raise TypeError(f"compiled_form_of: the compiled form of system '{system.get_name()}' "
                        f"({type(system).__name__}) has {len(form.outputs)} output entries, "
                        f"expected {system.num_output_ports()} (one per output port)")
    if system.num_continuous_states() and form.derivatives is None:
        raise TypeError(f"compiled_form_of: system '{system.get_name()}' "
                        f"({type(system).__name__}) has continuous state but its compiled "
                        f"form has no derivatives function")
    return form
