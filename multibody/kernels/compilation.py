"""How the kernels are compiled: numba options, LLVM inlining and the on-disk cache.

- `kernel` / `parallel_kernel`: the decorators of every kernel;
- `aggressive_inlining`: the LLVM inlining threshold used while a kernel compiles;
- `invalidate_stale_cache`: run at import, see below.

numba's ``cache=True`` revalidates a cached function against its own source file only;
the kernels inline helpers from the other modules of this package, so editing a helper
would leave stale machine code in the caches of its callers. `invalidate_stale_cache`
hashes every source the kernels are built from (this package and the joint codes in
``multibody/tree/compiled_model.py``) and, when the hash differs from the one recorded
beside the cache, deletes this package's cache files so that they are rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pathlib

import llvmlite.binding as llvm
import numba
from numba import njit

__all__ = ["kernel", "parallel_kernel", "aggressive_inlining", "invalidate_stale_cache"]

_PACKAGE = pathlib.Path(__file__).resolve().parent
_SOURCES = sorted(_PACKAGE.glob("*.py")) + [_PACKAGE.parent / "tree" / "compiled_model.py"]
_STAMP = "kernel_sources.sha256"


def _digest() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for path in _SOURCES:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def invalidate_stale_cache() -> bool:
    """Delete the package's numba cache files if any kernel source changed.

    Returns
    -------
    bool
        True if cache files were deleted. Failures (read-only tree, a concurrent
        process) are ignored: numba then recompiles or reuses what it finds.
    """
    cache_dir = _PACKAGE / "__pycache__"
    stamp = cache_dir / _STAMP
    try:
        digest = _digest()
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        cache_dir.mkdir(exist_ok=True)
        removed = False
        for f in list(cache_dir.glob("*.nbi")) + list(cache_dir.glob("*.nbc")):
            f.unlink(missing_ok=True)
            removed = True
        tmp = cache_dir / f"{_STAMP}.{os.getpid()}"
        tmp.write_text(digest)
        tmp.replace(stamp)
        return removed
    except OSError:
        return False


# Before any kernel is compiled or loaded: drop cache files built from older sources.
invalidate_stale_cache()

#: LLVM's inlining threshold at -O3, and the one used while compiling the kernels.
_DEFAULT_INLINE_THRESHOLD = 250
_KERNEL_INLINE_THRESHOLD = 10000
_inlining_depth = 0


@contextlib.contextmanager
def aggressive_inlining():
    """Raise LLVM's inlining threshold while numba compiles (or loads) a kernel.

    The kernels are many small functions taking arrays; with LLVM's default threshold
    the calls between them stay, each passing every array as ~8 scalars, and RNEA / ABA
    take about twice as long. The option is global to LLVM, so it is raised only for the
    duration of a kernel's compilation (re-entrant: callees compile inside their callers)
    and then put back to LLVM's -O3 default.
    """
    global _inlining_depth
    if _inlining_depth == 0:
        llvm.set_option("merganser", f"-inline-threshold={_KERNEL_INLINE_THRESHOLD}")
    _inlining_depth += 1
    try:
        yield
    finally:
        _inlining_depth -= 1
        if _inlining_depth == 0:
            llvm.set_option("merganser", f"-inline-threshold={_DEFAULT_INLINE_THRESHOLD}")


def _inlining_dispatcher(dispatcher):
    """Make every compilation of `dispatcher` run inside `aggressive_inlining`."""
    compile_signature = dispatcher.compile

    def compile(sig):
        with aggressive_inlining():
            return compile_signature(sig)

    dispatcher.compile = compile
    return dispatcher


def kernel(fn):
    """Decorator of every kernel (numba ``njit``).

    Options: cached compilation; numpy's float error model (a division by zero gives
    inf/nan instead of raising, so there are no exception branches in hot loops); no
    reference counting (``_nrt=False``): the kernels never allocate, and with it every
    call between kernels increments and decrements the count of each array argument
    with atomic operations, which costs more than the arithmetic of a node; the GIL is
    released for the duration of a call (``nogil=True``), so that threads stepping
    their own contexts of one plant run their kernels at the same time. Compiled with
    aggressive inlining (see `aggressive_inlining`).
    """
    return _inlining_dispatcher(njit(cache=True, error_model="numpy", _nrt=False, nogil=True)(fn))


def parallel_kernel(fn):
    """Decorator of the batch kernels: like `kernel`, with ``parallel=True`` (numba
    prange) and reference counting (they allocate one workspace per chunk)."""
    return _inlining_dispatcher(njit(cache=True, error_model="numpy", parallel=True,
                                     nogil=True)(fn))
