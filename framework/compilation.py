"""How merganser compiles its kernels: the one module that imports numba.

Every compiled function of the four packages is declared with `kernel`::

    from merganser.framework.compilation import kernel, prange

    @kernel                       # no allocation, no reference counting
    def rnea_pass(ip, fp, q, ws): ...

    @kernel(allocates=True)       # creates arrays (np.empty, np.zeros, ...)
    def contact_pairs(...): ...

    @kernel(parallel=True)        # prange loops over cores
    def aba_batch(...): ...

What a kernel gets, and why (each is tested in ``tests/framework/test_compilation.py``
so that a numba upgrade that breaks one fails a test):

- an on-disk cache (``cache=True``) whose freshness covers the kernel's whole source:
  numba checks a cached function against its own file only, so a kernel that inlines a
  helper from another module would keep stale machine code after that helper changed.
  Here the stamp a cache entry is checked against also covers the source file of every
  kernel reachable from it and of every merganser module its module imports names from
  (`kernel_sources`); nothing is deleted, numba just recompiles a stale entry.
- numpy's float error model: a division by zero gives inf/nan instead of raising, so
  hot loops carry no exception branches.
- no reference counting (numba's private ``_nrt=False``) unless ``allocates=True`` or
  ``parallel=True``: with it every call between kernels increments and decrements the
  count of each array argument with atomic operations.
- LLVM's inlining threshold raised while a kernel compiles (`INLINE_THRESHOLD`; the
  option is process-wide, so it is set for the duration of the compilation and then put
  back): the dynamics kernels are many small functions of many arrays, and without it
  the calls between them stay (``inline=False`` where it does not pay). Measured with
  ``benchmarks/compile_times.py``, it costs about 4 % of the compilation's CPU time.
- one signature per kernel: a call from another kernel is typed with its arguments'
  plain types, so constant offsets and flags compile no specialization of their own.
- a warm start loads machine code only: a cache entry is loaded without numba's refresh
  of its implementation registries (its runtime is initialized; a cache miss compiles,
  and numba's compiler refreshes then).
- never silent: when compiling has taken more than `NOTICE_AFTER_SECONDS` in a process,
  one line on stderr says so (`COMPILE_NOTICE`); ``merganser warmup`` compiles ahead.
- ahead-of-time machine code when installed: ``pip install`` builds the extension
  ``merganser.framework._aot_kernels`` (``merganser/aot_build.py``, numba's ``pycc``, for
  the host CPU) from the kernels a program calls from Python. A kernel called from Python
  then runs its function from the extension, with nothing to compile, provided the hash
  of its sources (`aot_source_hash`) is the one built in, and the CPU the extension was
  built for is the one numba's JIT targets here (`aot_target_cpu`, recorded in each
  module at the build); else it compiles as without the extension, and one line on stderr
  says so (`AOT_STALE_NOTICE`, or `AOT_OTHER_CPU_NOTICE` for an extension built on
  another CPU, which could fault with an illegal instruction). ``MERGANSER_AOT=0``
  turns it off. Kernels calling kernels, and generated code, always use the dispatcher.

Nothing of numba loads at import: `kernel` returns a `Kernel`, a plain Python object
holding the function; its first call (or the first compilation of a kernel that calls
it) imports numba and builds the numba dispatcher, which compiles or loads its cache for
each new argument type signature; a first call from Python with a fresh ahead-of-time
function builds instead a second dispatcher over the extension's functions (see
`_aot_dispatcher`). After that the names bound to the `Kernel` in its own
module, and in each merganser module that calls it, are rebound to the dispatcher, so
later calls cost what a dispatcher call costs. ``prange`` is ``range`` until a
``parallel=True`` kernel is built, which puts numba's ``prange`` in its module instead.

Known to work with numba 0.68 / llvmlite 0.50 (pinned in pyproject.toml).
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import sys
import threading
import time

__all__ = ["kernel", "Kernel", "prange", "get_num_threads", "set_num_threads",
           "parallel_chunksize", "registered_kernels", "compile_statistics", "kernel_sources",
           "inlining", "COMPILE_NOTICE", "NOTICE_AFTER_SECONDS", "INLINE_THRESHOLD",
           "AOT_ENABLED", "AOT_MODULES", "AOT_STALE_NOTICE", "aot_symbol", "aot_source_hash",
           "aot_types_hash", "aot_status", "aot_target_cpu", "aot_cpu_hash",
           "AOT_OTHER_CPU_NOTICE",
           "NUMBA_VERSION"]  # noqa: F822 (NUMBA_VERSION: module __getattr__, loads numba)

#: LLVM's inlining threshold at -O3, and the one used while compiling the kernels.
_DEFAULT_INLINE_THRESHOLD = 250
#: (``MERGANSER_INLINE_THRESHOLD`` overrides it, to measure what it buys.)
INLINE_THRESHOLD = int(os.environ.get("MERGANSER_INLINE_THRESHOLD", "10000"))

#: Compile time (s, summed over the process) after which `COMPILE_NOTICE` is printed;
#: the environment variable ``MERGANSER_COMPILE_NOTICE_AFTER`` overrides it.
NOTICE_AFTER_SECONDS = float(os.environ.get("MERGANSER_COMPILE_NOTICE_AFTER", "2.0"))
COMPILE_NOTICE = ("merganser: compiling dynamics kernels for this machine, first run only "
                  "(`merganser warmup` does it ahead)...")

#: ``MERGANSER_AOT=0`` in the environment: never use the ahead-of-time extension.
AOT_ENABLED = os.environ.get("MERGANSER_AOT", "1").strip().lower() not in ("0", "no", "false", "off")
AOT_STALE_NOTICE = ("merganser: the ahead-of-time compiled kernels do not match the sources "
                    "(edited since the install?); those kernels compile at first use "
                    "instead. Rebuild them with `pip install -e .` (or `python -m "
                    "merganser.aot_build`); MERGANSER_AOT=0 silences this.")
AOT_OTHER_CPU_NOTICE = ("merganser: the ahead-of-time compiled kernels were built for "
                        "another CPU than this one (moved from another machine, or "
                        "NUMBA_CPU_NAME / NUMBA_CPU_FEATURES set); those kernels compile at "
                        "first use instead. Rebuild them here with `pip install .` (or "
                        "`python -m merganser.aot_build`); MERGANSER_AOT=0 silences this.")
#: The extension modules of the ahead-of-time kernels (``merganser/aot_build.py``), by the
#: LLVM inlining threshold they are compiled with: `INLINE_THRESHOLD`, LLVM's default.
AOT_MODULES = ("merganser.framework._aot_kernels", "merganser.framework._aot_kernels_plain")

_PACKAGE_PREFIX = "merganser."
#: name -> Kernel, in definition order.
_registry: dict[str, Kernel] = {}
#: the numba dispatchers built so far (the compile notice counts theirs only).
_dispatchers: set = set()
#: name -> [seconds inside its compilations, excluding those of nested kernels].
_statistics: dict[str, list] = {}


# ---------------------------------------------------------------- numba, loaded on demand
_numba_lock = threading.RLock()
_numba_parts: dict = {}


def _numba():
    """numba's pieces used here, importing numba (and registering the compile notice) at
    the first need: {"numba", "llvm", "caching", "cache_class"}."""
    if _numba_parts:
        return _numba_parts
    with _numba_lock:
        if not _numba_parts:
            import llvmlite.binding as llvm
            import numba
            from numba.core import caching, event
            from numba.core.runtime import rtsys as runtime

            class _KernelCacheImpl(caching.CompileResultCacheImpl):
                _locator_classes = [_stamped(c) for c in
                                    caching.CompileResultCacheImpl._locator_classes]

            class _KernelCache(caching.FunctionCache):
                _impl_class = _KernelCacheImpl

                def load_overload(self, sig, target_context):
                    # numba refreshes its target context before loading a cache entry:
                    # that imports and installs every implementation registry (a second
                    # or more on the first load), which machine code loaded from the
                    # cache does not use; it needs the runtime (NRT) only. A cache miss
                    # compiles, and numba's compiler refreshes the context then.
                    runtime.initialize(target_context)
                    with self._guard_against_spurious_io_errors():
                        return self._load_overload(sig, target_context)

            event.register("numba:compile", _compile_notice_listener(event.Listener))
            _numba_parts.update(numba=numba, llvm=llvm, caching=caching,
                                cache_class=_KernelCache)
    return _numba_parts


def __getattr__(name):
    if name == "NUMBA_VERSION":
        return _numba()["numba"].__version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def prange(*args):
    """``range`` in Python; numba's ``prange`` in a ``parallel=True`` kernel (its module's
    name is rebound to numba's when the kernel is built)."""
    return range(*args)


def get_num_threads():
    """numba's ``get_num_threads()``: the threads a ``parallel=True`` kernel uses."""
    return _numba()["numba"].get_num_threads()


def set_num_threads(n):
    """numba's ``set_num_threads(n)``."""
    return _numba()["numba"].set_num_threads(n)


def parallel_chunksize(n):
    """numba's ``parallel_chunksize(n)`` context manager (iterations per work item)."""
    return _numba()["numba"].parallel_chunksize(n)


# ---------------------------------------------------------------- the freshness stamp
def _module_file(name):
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    return pathlib.Path(path).resolve() if path else None


def kernel_sources(py_func):
    """The source files a cached `py_func` depends on.

    Its own file, the files of the kernels it reaches (recursively, through its
    module's globals) and, for each module met, the files of the merganser modules it
    imports names from (enums and constants that numba folds into the code).

    Returns
    -------
    list of pathlib.Path
        Sorted, without duplicates.
    """
    files, seen = set(), set()
    stack = [py_func]
    while stack:
        fn = stack.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        own = _module_file(fn.__module__)
        if own is not None:
            files.add(own)
        for value in fn.__globals__.values():
            inner = getattr(value, "py_func", None) if callable(value) else None
            if inner is not None and getattr(inner, "__module__", "").startswith(_PACKAGE_PREFIX):
                stack.append(inner)
                continue
            name = value.__name__ if isinstance(value, type(sys)) else getattr(value, "__module__", None)
            if isinstance(name, str) and name.startswith(_PACKAGE_PREFIX):
                path = _module_file(name)
                if path is not None:
                    files.add(path)
    return sorted(files)


def _stamp(paths):
    out = []
    for path in paths:
        try:
            st = path.stat()
            out.append((path.name, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((path.name, None, None))
    return (_numba()["numba"].__version__, INLINE_THRESHOLD, tuple(out))


def _stamped(locator_class):
    """`locator_class` with a source stamp over all of `kernel_sources`."""
    class Locator(locator_class):
        def get_source_stamp(self):
            return _stamp(kernel_sources(self._merganser_py_func))

        @classmethod
        def from_function(cls, py_func, py_file):
            locator = super().from_function(py_func, py_file)
            if locator is not None:
                locator._merganser_py_func = py_func
            return locator

    Locator.__name__ = f"Kernel{locator_class.__name__}"
    return Locator


# ---------------------------------------------------------------- inlining and timing
_state = threading.local()
_notice = {"spent": 0.0, "printed": False, "lock": threading.Lock()}


@contextlib.contextmanager
def inlining(threshold=INLINE_THRESHOLD):
    """Set LLVM's inlining threshold to `threshold` for the block, then put back the
    one before (LLVM's default outside any block).

    Blocks nest: a kernel's compilation compiles the kernels it calls on the way, each
    inside its own block.
    """
    set_option = _numba()["llvm"].set_option
    stack = getattr(_state, "inline_stack", None)
    if stack is None:
        stack = _state.inline_stack = [_DEFAULT_INLINE_THRESHOLD]
    if threshold != stack[-1]:
        set_option("merganser", f"-inline-threshold={threshold}")
    stack.append(threshold)
    try:
        yield
    finally:
        stack.pop()
        if threshold != stack[-1]:
            set_option("merganser", f"-inline-threshold={stack[-1]}")


def _print_notice():
    with _notice["lock"]:
        if _notice["printed"]:
            return
        _notice["printed"] = True
    print(COMPILE_NOTICE, file=sys.stderr, flush=True)


def _compile_notice_listener(listener_base):
    """A numba event listener that sums the time numba spends compiling merganser kernels
    (cache loads excluded: numba broadcasts "numba:compile" only on a cache miss) and
    prints the notice once the sum passes `NOTICE_AFTER_SECONDS` (a timer, so it appears
    while compiling)."""

    class CompileNotice(listener_base):
        def on_start(self, event):
            depth = getattr(_state, "notice_depth", 0)
            _state.notice_depth = depth + 1
            if depth or _notice["printed"] or event.data["dispatcher"] not in _dispatchers:
                return
            _state.notice_t0 = time.perf_counter()
            _state.notice_timer = threading.Timer(
                max(0.0, NOTICE_AFTER_SECONDS - _notice["spent"]), _print_notice)
            _state.notice_timer.daemon = True
            _state.notice_timer.start()

        def on_end(self, event):
            _state.notice_depth -= 1
            timer = getattr(_state, "notice_timer", None)
            if _state.notice_depth == 0 and timer is not None:
                timer.cancel()
                _state.notice_timer = None
                _notice["spent"] += time.perf_counter() - _state.notice_t0

    return CompileNotice()


def _instrumented(name, dispatcher, threshold, ahead=None):
    """Route every compilation of `dispatcher` through the inlining option, the timers
    and the statistics (numba calls ``dispatcher.compile(sig)`` for each new signature,
    also when a caller's compilation reaches this kernel). The on-disk cache is attached
    at the first compilation, so that building a dispatcher touches no file.

    `ahead`, {`aot_types_hash`: ahead-of-time function}: a signature with one of these
    argument types becomes an overload calling that function, compiling nothing."""
    compile_signature = dispatcher.compile
    stats = _statistics.setdefault(name, [0.0])
    parts = _numba()

    def compile(sig):
        if ahead:
            numba = parts["numba"]
            args, _ = numba.core.sigutils.normalize_signature(sig)
            function = ahead.pop(aot_types_hash(args), None)
            if function is not None:
                from types import SimpleNamespace

                dispatcher.add_overload(SimpleNamespace(
                    signature=numba.core.typing.signature(numba.core.types.none, *args),
                    entry_point=function, objectmode=False))
                return function
        if isinstance(dispatcher._cache, parts["caching"].NullCache):
            dispatcher._cache = parts["cache_class"](dispatcher.py_func)
        depth = getattr(_state, "compile_depth", 0)
        nested = getattr(_state, "nested_seconds", 0.0)
        _state.compile_depth, _state.nested_seconds = depth + 1, 0.0
        t0 = time.perf_counter()
        try:
            with inlining(threshold):
                return compile_signature(sig)
        finally:
            elapsed = time.perf_counter() - t0
            stats[0] += elapsed - _state.nested_seconds
            _state.compile_depth = depth
            _state.nested_seconds = nested + elapsed

    dispatcher.compile = compile
    return dispatcher


def _one_signature_per_call(dispatcher):
    """Type the calls other kernels make to `dispatcher` with their arguments' plain
    types: numba would otherwise compile one specialization per literal argument
    (``store6(ws, i, 66)``, ``store6(ws, i, 72)``, a ``True`` flag, ...), each a full
    compilation. The call then resolves to the plain signature (a literal converts)."""
    unliteral = _numba()["numba"].core.types.unliteral
    get_call_template = dispatcher.get_call_template

    def plain_call_template(args, kws):
        return get_call_template(tuple(unliteral(a) for a in args),
                                 {k: unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = plain_call_template


# ---------------------------------------------------------------- ahead-of-time functions
_aot = {"table": None, "stale": [], "bound": [], "other_cpu": [], "lock": threading.Lock()}
#: The function each extension module exports with the `aot_cpu_hash` of its build.
_AOT_CPU_SYMBOL = "aot_cpu_hash"
_file_digests: dict = {}


def aot_symbol(name, index=0):
    """The symbol of signature `index` of the kernel `name` (qualified) in the
    ahead-of-time extension. Beside it, ``"h_" + symbol`` returns the kernel's source hash
    (`aot_source_hash`) and ``"t_" + symbol`` the hash of the signature's argument types
    (`aot_types_hash`), both as int64, at build time."""
    return f"{name.replace('.', '__')}__{index}"


def _hash63(text):
    import hashlib

    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little") >> 1


def _file_digest(path):
    digest = _file_digests.get(path)
    if digest is None:
        import hashlib

        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            digest = "missing"
        _file_digests[path] = digest
    return digest


def aot_source_hash(wrapped):
    """The hash an ahead-of-time function of the `Kernel` `wrapped` is checked against.

    It covers the content of every file of `kernel_sources` and of this module, the
    kernel's options and inlining threshold, and the numba and Python versions (read
    without importing numba), so that an edit after the install makes the extension's
    function stale.

    Returns
    -------
    int
        63 bits (an int64 the extension returns).
    """
    numba_version = _aot.get("numba_version")
    if numba_version is None:
        from importlib.metadata import version

        numba_version = _aot["numba_version"] = version("numba")
    parts = ["merganser-aot-1", numba_version, sys.version.split()[0],
             repr(sorted(wrapped._options.items())), str(wrapped._threshold),
             f"{wrapped.__module__}.{wrapped.__qualname__}"]
    for path in [*kernel_sources(wrapped.py_func), pathlib.Path(__file__).resolve()]:
        parts.append(f"{path.name}:{_file_digest(path)}")
    return _hash63("\n".join(parts))


def aot_target_cpu():
    """What numba's JIT compiles for in this process: ``(triple, cpu_name, features)``.

    The CPU name and the features string are those of numba's JIT codegen: the host's
    (llvmlite), unless numba's ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` override them.
    The ahead-of-time build compiles for exactly this target and records its
    `aot_cpu_hash` in each extension module; a process whose target differs does not use
    the extension (its machine code could use instructions this CPU lacks). Imports numba.

    Returns
    -------
    tuple of str
    """
    _numba()
    import llvmlite.binding as ll
    from numba.core import codegen, config

    name = ll.get_host_cpu_name() if config.CPU_NAME is None else config.CPU_NAME
    features = (codegen.get_host_cpu_features() if config.CPU_FEATURES is None
                else config.CPU_FEATURES)
    return ll.get_process_triple(), str(name), str(features)


def aot_cpu_hash(target=None):
    """The hash (63 bits) of an `aot_target_cpu` tuple (default: this process's)."""
    return _hash63("\n".join(aot_target_cpu() if target is None else target))


def aot_types_hash(arg_types):
    """The hash of a tuple of numba argument types (63 bits)."""
    return _hash63(repr(tuple(str(t) for t in arg_types)))


def _aot_table():
    """{kernel symbol: [(function, source hash, types hash, built for this CPU)]} of the
    extension modules present (the kernel symbol is `aot_symbol` without its index)."""
    table = _aot["table"]
    if table is None:
        import importlib

        table = {}
        cpu = None
        for module_name in AOT_MODULES:
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                continue
            if cpu is None:
                cpu = aot_cpu_hash()
            # None: built before the CPU was recorded (from other sources, so stale)
            built_for = getattr(module, _AOT_CPU_SYMBOL, None)
            this_cpu = None if built_for is None else built_for() == cpu
            for attr in dir(module):
                symbol = attr[2:]
                if attr.startswith("h_") and hasattr(module, symbol):
                    table.setdefault(symbol.rsplit("__", 1)[0], []).append(
                        (getattr(module, symbol), getattr(module, attr)(),
                         getattr(module, "t_" + symbol)(), this_cpu))
        _aot["table"] = table
    return table


def _aot_dispatcher(wrapped):
    """A numba dispatcher of `wrapped` for calls from Python, whose overloads are the
    kernel's fresh ahead-of-time functions; None when there are none (not built,
    ``MERGANSER_AOT=0``, stale, or built for another CPU: then `AOT_STALE_NOTICE` or
    `AOT_OTHER_CPU_NOTICE`, one line on stderr in all).

    numba's dispatcher checks the types of each call (in C) as for a jitted kernel: the
    types of a built signature bind its function at their first call (nothing compiles),
    other types compile as without the extension (the function would misread them).
    numba code reaching it (a kernel of a module where its name was rebound, generated
    code) types the kernel's JIT dispatcher instead (`_AheadOfTime`), whose machine code
    it links.
    """
    if not AOT_ENABLED or wrapped._options.get("parallel"):
        return None
    name = f"{wrapped.__module__}.{wrapped.__qualname__}"
    with _aot["lock"]:
        entries = _aot_table().get(aot_symbol(name).rsplit("__", 1)[0])
        if not entries:
            return None
        source_hash = aot_source_hash(wrapped)
        other_cpu = any(this_cpu is False for *_, this_cpu in entries)
        if other_cpu or any(built != source_hash or this_cpu is None
                            for _, built, _, this_cpu in entries):
            if not _aot["stale"]:               # one line per process
                print(AOT_OTHER_CPU_NOTICE if other_cpu else AOT_STALE_NOTICE,
                      file=sys.stderr, flush=True)
            _aot["stale"].append(name)
            if other_cpu:
                _aot["other_cpu"].append(name)
            return None
        _aot["bound"].append(name)
    dispatcher = _numba()["numba"].njit(**wrapped._options)(wrapped.py_func)
    dispatcher.__class__ = _ahead_of_time_class(type(dispatcher))
    dispatcher._merganser_kernel = wrapped
    _dispatchers.add(dispatcher)        # other argument types compile as a kernel's do
    return _instrumented(name, dispatcher, wrapped._threshold,
                         ahead={types: function for function, _, types, _ in entries})


_ahead_classes: dict = {}


def _ahead_of_time_class(base):
    """`base` (numba's dispatcher class) whose numba type is that of the kernel's JIT
    dispatcher: its own overloads have no machine code to link into a caller."""
    cls = _ahead_classes.get(base)
    if cls is None:
        class _AheadOfTime(base):
            @property
            def _numba_type_(self):
                return self._merganser_kernel.dispatcher._numba_type_

        cls = _ahead_classes[base] = _AheadOfTime
    return cls


def aot_status():
    """What the ahead-of-time extension gave this process so far.

    Returns
    -------
    dict
        ``{"enabled": bool, "functions": n, "bound": [names], "stale": [names],
        "other_cpu": [names]}``: whether it is used (``MERGANSER_AOT``), how many functions
        the extension modules present hold (0 when none is built), the kernels bound to
        theirs, those not bound (they compiled instead) because their sources changed or
        the extension was built for another CPU, and of those the ones for the CPU.
    """
    with _aot["lock"]:
        count = len(_aot_table()) if AOT_ENABLED else 0
        return {"enabled": AOT_ENABLED, "functions": count, "bound": list(_aot["bound"]),
                "stale": list(_aot["stale"]), "other_cpu": list(_aot["other_cpu"])}


# ---------------------------------------------------------------- the kernel object
def _rebind(namespace, old, new):
    """Bind to `new` every name of the dict `namespace` bound to `old`."""
    for key in [k for k, v in namespace.items() if v is old]:
        namespace[key] = new


class Kernel:
    """A compiled function of merganser, built on first use (see the module docstring).

    Called like the Python function it wraps. The numba dispatcher behind it
    (`dispatcher`) is made at the first call, or when a kernel calling it compiles (numba
    reads its type through ``_numba_type_``); attributes of the dispatcher
    (``signatures``, ``overloads``, ``stats``, ``inspect_llvm`` ...) read through.

    Attributes
    ----------
    py_func : function
        The Python function.
    """

    def __init__(self, fn, options, threshold):
        self.py_func = fn
        self.__wrapped__ = fn
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__module__ = fn.__module__
        self.__doc__ = fn.__doc__
        self._options = options
        self._threshold = threshold
        self._dispatcher = None
        self._aot = None            # its ahead-of-time function, once bound to it
        self._aot_checked = False
        self._rebound = set()

    @property
    def dispatcher(self):
        """The numba dispatcher (built now if it was not)."""
        dispatcher = self._dispatcher
        return dispatcher if dispatcher is not None else self._build()

    def _build(self):
        with _numba_lock:
            if self._dispatcher is None:
                numba = _numba()["numba"]
                namespace = self.py_func.__globals__
                if self._options.get("parallel"):
                    _rebind(namespace, prange, numba.prange)
                dispatcher = numba.njit(**self._options)(self.py_func)
                _one_signature_per_call(dispatcher)
                name = f"{self.__module__}.{self.__qualname__}"
                _dispatchers.add(dispatcher)
                self._dispatcher = _instrumented(name, dispatcher, self._threshold)
                _rebind(namespace, self, self._dispatcher)
        return self._dispatcher

    @property
    def python_dispatcher(self):
        """The dispatcher a call from Python runs once bound: the ahead-of-time one (see
        `_aot_dispatcher`) when the kernel has fresh functions in the extension, else
        `dispatcher`."""
        if not self._aot_checked and self._dispatcher is None:
            self._bind()
        return self._aot if self._aot is not None else self.dispatcher

    @property
    def _numba_type_(self):
        return self.dispatcher._numba_type_

    def __call__(self, *args):
        target = self._aot
        if target is None:
            target = self._dispatcher
            if target is None:
                target = self._bind()
        caller = sys._getframe(1).f_globals
        if id(caller) not in self._rebound:
            self._rebound.add(id(caller))
            if caller.get("__name__", "").startswith(_PACKAGE_PREFIX):
                _rebind(caller, self, target)
        return target(*args)

    def _bind(self):
        """What a call from Python runs: the ahead-of-time dispatcher when the extension
        has fresh functions of the kernel (checked once), else the dispatcher (built
        now)."""
        if not self._aot_checked:
            self._aot_checked = True
            self._aot = _aot_dispatcher(self)
            if self._aot is not None:
                return self._aot
        return self._build()

    def __getattr__(self, name):
        if name.startswith("__") or name in ("_dispatcher", "_options", "py_func", "_aot",
                                             "_aot_checked"):
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __reduce__(self):
        return (_lookup, (self.__module__, self.__qualname__))

    def __repr__(self):
        state = "built" if self._dispatcher is not None else "not built yet"
        return f"<merganser kernel {self.__module__}.{self.__qualname__} ({state})>"


def _lookup(module, qualname):
    import importlib

    return getattr(importlib.import_module(module), qualname)


# ---------------------------------------------------------------- the decorator
def kernel(fn=None, *, allocates=False, parallel=False, inline=True):
    """Compile `fn` as a merganser kernel (see the module docstring).

    Parameters
    ----------
    fn : function
        Its arguments are numpy arrays, scalars and tuples of them.
    allocates : bool
        The kernel creates arrays (keeps numba's reference counting).
    parallel : bool
        The kernel has ``prange`` loops (numba ``parallel=True``; implies `allocates`).
    inline : bool
        Compile with the raised LLVM inlining threshold (`INLINE_THRESHOLD`), else with
        LLVM's default. It halves the run time of the dynamics kernels (many small
        helpers of many arrays) and costs compile time (``benchmarks/compile_times.py``
        measures both ways); the contact, geometry and framework kernels go without.

    Returns
    -------
    Kernel
        Called like `fn`; numba is imported and the dispatcher made at the first call,
        which compiles (or loads its cache) for each new argument type signature.
    """
    if fn is None:
        return lambda f: kernel(f, allocates=allocates, parallel=parallel, inline=inline)
    # nogil: a call releases the GIL, so threads stepping their own contexts of one
    # system run their kernels at the same time (tests/multibody/test_plant_threads.py).
    options = {"error_model": "numpy", "nogil": True}
    if parallel:
        options["parallel"] = True
    elif not allocates:
        options["_nrt"] = False
    wrapped = Kernel(fn, options, INLINE_THRESHOLD if inline else _DEFAULT_INLINE_THRESHOLD)
    _registry[f"{fn.__module__}.{fn.__qualname__}"] = wrapped
    return wrapped


def registered_kernels():
    """{qualified name: Kernel} of every kernel defined so far (modules imported)."""
    return dict(_registry)


def compile_statistics():
    """Compilation of the kernels so far in this process.

    Returns
    -------
    dict
        {qualified name: (signatures, seconds, cache_hits)} for each kernel with at least
        one signature: the number of type signatures compiled or loaded, the seconds spent
        in them (excluding the kernels they compiled on the way) and how many of the
        signatures came from the on-disk cache.
    """
    out = {}
    for name, wrapped in _registry.items():
        dispatcher = wrapped._dispatcher
        if dispatcher is not None and dispatcher.overloads:
            out[name] = (len(dispatcher.overloads), _statistics[name][0],
                         sum(dispatcher.stats.cache_hits.values()))
    return out
