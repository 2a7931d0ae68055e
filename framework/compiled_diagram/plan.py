"""The compiled evaluation installed on a root DiagramContext (``ctx._calc_xcdot``).

`CompiledPlan` holds the generated kernel of the context's wiring and the flat arrays
it reads: the parameters ``p`` (every compiled leaf's `CompiledForm.parameters`, packed
again when a parameter or a fixed input value changes) and the workspace ``w``. A change
of the wiring (``fix_value`` on a new port) builds the layout again; a wiring that is no
longer compilable puts the context back to block by block.

A plan that the Simulator installs waits (block by block, bit-for-bit the same numbers)
until a wiring seen for the first time has spent `COMPILE_AFTER_SECONDS` evaluating its
derivatives block by block in this process (summed over every context with that
wiring, so that many short runs of one diagram compile too): compiling a new wiring
takes seconds, so a run pays it only once the Python evaluation has cost as much. A
wiring compiled before (in this process or, through the cache directory, in another) is
used at once.
"""

import copy
import os
import time
import warnings

import numpy as np

from ..cache import UncountedCacheEntryValue
from ..compiled_form_changes import _generation, compiled_form_generation
from ..context import calc_derivatives_block_by_block
from . import codegen
from .layout import NotCompilable, build_layout

__all__ = ["CompiledPlan", "COMPILE_AFTER_SECONDS"]

#: Seconds of block-by-block derivative evaluation of a new wiring after which a
#: Simulator compiles it (``MERGANSER_COMPILE_DIAGRAM_AFTER`` overrides; 0 compiles at
#: once).
COMPILE_AFTER_SECONDS = float(os.environ.get("MERGANSER_COMPILE_DIAGRAM_AFTER", "2.0"))
#: generated source -> [seconds left before it compiles], shared by the plans
_waits: dict = {}


class CompiledPlan:
    """``plan(ctx, out)``: the time derivatives of root context ``ctx`` into ``out``.

    Parameters
    ----------
    ctx : DiagramContext
        The root context it is installed on.
    wait : float
        Seconds of block-by-block evaluation before compiling a wiring not compiled
        before (0: compile now).

    Raises
    ------
    NotCompilable
        When the context's wiring cannot be compiled (the reason).
    """

    def __init__(self, ctx, wait=0):
        self._fn = self._module = None
        self._checked = False
        self._build(ctx)
        if wait <= 0 or codegen.is_cached(self._source):
            self._module = codegen.load_kernel(self._source)
            self._fn = self._module.time_derivatives
        else:
            self._wait = _waits.setdefault(self._source, [float(wait)])

    # ---- building ---------------------------------------------------------------------------
    def _build(self, ctx):
        layout = build_layout(ctx)
        self._source = codegen.generate_source(layout)
        self._layout = layout
        self._p = np.zeros(layout.p_size)
        self._w = np.zeros(layout.w_size)
        self._arrays = self._make_arrays(ctx)
        # the Python part: (port, leaf index, w slice) before the call, (system, leaf
        # index, state index) after it
        self._python_ports = [
            (ctx._leaves[n.leaf]._system.get_output_port(n.port), n.leaf, slice(*n.y_area))
            for n in layout.python_ports]
        self._python_derivatives = [(ctx._leaves[k]._system, k, index)
                                    for k, index in layout.python_derivatives]
        self._discrete_areas = [(lay.index, lay.xd_area[0])
                                for lay in layout.leaves if lay.xd_area[1] > lay.xd_area[0]]
        # uncounted: made valid here, not by a leaf evaluation (framework.cache)
        self._watch = UncountedCacheEntryValue(
            None, "compiled diagram parameters and fixed inputs")
        # The forms' arrays may be made from abstract states of any leaf (e.g. a contact
        # plant's tables from the SceneGraph's geometry state, which the plant's form
        # reads through its query input): remade when one changes.
        self._watch_xa = UncountedCacheEntryValue(None, "compiled diagram abstract states")
        self._watch_xa.valid = True
        for leaf in ctx._leaves:
            leaf.trk_xa_all.subscribe(self._watch_xa)
        for lay in layout.leaves:
            leaf = ctx._leaves[lay.index]
            leaf.trk_params.subscribe(self._watch)
            for _, source in lay.fixed:
                if hasattr(source, "subscribe"):
                    source.subscribe(self._watch)
        ctx._root.version += 1   # new subscriptions: cached invalidation closures are stale
        self._version = ctx._root.version
        self._generation = compiled_form_generation()
        if self._fn is not None:
            self._module = codegen.load_kernel(self._source)
            self._fn = self._module.time_derivatives

    def _make_arrays(self, ctx):
        """The forms' arrays for the leaves of `ctx` (each form's check first: a leaf
        that no longer has a compiled form raises NotCompilable)."""
        for lay in self._layout.leaves:
            form, leaf = lay.form, ctx._leaves[lay.index]
            reason = form.check(leaf) if form.check is not None else None
            if reason is not None:
                raise NotCompilable(f"system '{lay.name}': {reason}")
        return tuple(tuple(lay.form.arrays(ctx._leaves[lay.index]))
                     for lay in self._layout.leaves if lay.arrays >= 0)

    def _pack(self, ctx):
        """Write every leaf's parameters and fixed or default inputs into p and w."""
        p, w = self._p, self._w
        for lay in self._layout.leaves:
            leaf = ctx._leaves[lay.index]
            values = np.asarray(lay.form.parameters(leaf), dtype=float).reshape(-1)
            a, b = lay.p_area
            if values.size != b - a:
                raise NotCompilable(f"the parameters of system '{lay.name}' changed size")
            p[a:b] = values
            for offset, source in lay.fixed:
                value = source.value if hasattr(source, "subscribe") else source
                value = np.asarray(value, dtype=float).reshape(-1)
                w[offset:offset + value.size] = value
        self._watch.valid = True

    def _current(self, ctx):
        return (self._version == ctx._root.version and self._watch.valid
                and self._watch_xa.valid and self._generation == _generation[0])

    def _refresh(self, ctx):
        if self._version != ctx._root.version or self._generation != _generation[0]:
            self._build(ctx)
        elif not self._watch_xa.valid:
            self._arrays = self._make_arrays(ctx)
            self._watch_xa.valid = True
        self._pack(ctx)

    # ---- evaluating -------------------------------------------------------------------------
    @property
    def compiled(self):
        """True once the generated kernel runs (False while the plan waits)."""
        return self._fn is not None

    def source(self):
        """The generated module's source (str)."""
        return self._source

    def compile_now(self):
        """Load (compile or read from the cache) the kernel now."""
        if self._fn is None:
            self._module = codegen.load_kernel(self._source)
            self._fn = self._module.time_derivatives
        return self._fn

    def prepare_loop(self, ctx):
        """The generated module of this wiring with p and w current (its discrete states
        too), or None when the plan waits to compile, has Python parts, or the wiring no
        longer compiles. A plan whose wait is over compiles here (a diagram without
        continuous state evaluates no derivatives that would compile it)."""
        if self._python_ports or self._python_derivatives:
            return None
        if self._fn is None:
            if self._wait[0] > 0.0 and not codegen.is_loaded(self._source):
                return None
            try:
                self.compile_now()
            except NotCompilable as error:      # e.g. the cache directory is read-only
                self.give_up(ctx, error)
                return None
        if not self._current(ctx):
            try:
                self._refresh(ctx)
            except NotCompilable:
                ctx._install_derivative_calc(None)
                return None
        self._load_discrete(ctx)
        return self._module

    def prepare_simulation(self, ctx):
        """As `prepare_loop`, for the compiled simulation loop (None too when an event
        of the wiring is not compiled)."""
        if self._layout.event_blockers:
            return None
        return self.prepare_loop(ctx)

    def charge(self, seconds):
        """Count ``seconds`` of Python evaluation toward the compilation threshold."""
        if self._fn is None:
            self._wait[0] -= seconds

    def _load_discrete(self, ctx):
        """Copy the compiled leaves' discrete states into their areas of w."""
        w, leaves = self._w, ctx._leaves
        for k, offset in self._discrete_areas:
            for group in leaves[k]._xd:
                w[offset:offset + group.size] = group
                offset += group.size

    def __call__(self, ctx, out):
        fn = self._fn
        if fn is None:
            wait = self._wait
            if wait[0] > 0.0 and not codegen.is_loaded(self._source):
                start = time.perf_counter()
                calc_derivatives_block_by_block(ctx, out)
                wait[0] -= time.perf_counter() - start
                return
            try:
                fn = self.compile_now()
            except NotCompilable as error:      # e.g. the cache directory is read-only
                self.give_up(ctx, error)
                calc_derivatives_block_by_block(ctx, out)
                return
        root = ctx._root
        if not self._current(ctx):
            try:
                self._refresh(ctx)
            except NotCompilable:
                ctx._install_derivative_calc(None)      # the wiring changed: block by block
                calc_derivatives_block_by_block(ctx, out)
                return
            fn = self._fn or self.compile_now()
        if self._discrete_areas:
            self._load_discrete(ctx)
        if self._python_ports or self._python_derivatives:
            self._call_with_python(ctx, fn, out)
            return
        if self._checked:
            if fn(root.time, root.xc, self._p, self._w, out, self._arrays):
                calc_derivatives_block_by_block(ctx, out)       # a form declined
            return
        try:                  # the first call compiles: a form that numba rejects
            declined = fn(root.time, root.xc, self._p, self._w, out, self._arrays)
        except Exception as error:         # noqa: BLE001 (any compilation failure)
            self.give_up(ctx, error)
            calc_derivatives_block_by_block(ctx, out)
            return
        self._checked = True
        if declined:
            calc_derivatives_block_by_block(ctx, out)

    def _call_with_python(self, ctx, fn, out):
        """The compiled call between the Python leaves' output ports and derivatives."""
        leaves, w = ctx._leaves, self._w
        for port, k, area in self._python_ports:
            w[area] = port.eval(leaves[k])
        root = ctx._root
        if self._checked:
            declined = fn(root.time, root.xc, self._p, w, out, self._arrays)
        else:
            try:              # the first call compiles: a form that numba rejects
                declined = fn(root.time, root.xc, self._p, w, out, self._arrays)
            except Exception as error:     # noqa: BLE001 (any compilation failure)
                self.give_up(ctx, error)
                calc_derivatives_block_by_block(ctx, out)
                return
            self._checked = True
        for system, k, index in self._python_derivatives:
            out[index] = system.eval_time_derivatives(leaves[k])
        if declined:      # a compiled form declined (the Python leaves' parts are finite)
            calc_derivatives_block_by_block(ctx, out)

    def python_reasons(self):
        """Why each leaf that the compiled call leaves to Python is not compiled (list of
        str; empty when the whole derivative evaluation is compiled)."""
        return list(self._layout.python_reasons.values())

    def give_up(self, ctx, error):
        """Evaluate ``ctx`` block by block from now on, with a warning naming ``error``
        (the generated code did not compile)."""
        message = str(error).splitlines()[0] if str(error) else ""
        warnings.warn(f"compiled diagram: the generated code of diagram "
                      f"'{ctx._system.get_name()}' failed to compile, evaluating block by "
                      f"block: {type(error).__name__}: {message}",
                      RuntimeWarning, stacklevel=3)
        ctx._install_derivative_calc(None)
        ctx._affine_choice = False

    # ---- copying (Context.clone deep-copies the tree, this plan with it) ----------------------
    def __deepcopy__(self, memo):
        clone = object.__new__(CompiledPlan)
        memo[id(self)] = clone
        clone.__dict__.update(self.__dict__)
        clone._p = self._p.copy()
        clone._w = self._w.copy()
        clone._arrays = copy.deepcopy(self._arrays, memo)
        clone._watch = copy.deepcopy(self._watch, memo)
        clone._watch_xa = copy.deepcopy(self._watch_xa, memo)
        return clone

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_fn"] = state["_module"] = None       # reloaded at the next call
        state["_wait"] = [0.0]
        return state
