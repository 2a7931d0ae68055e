"""The numba decorator of the proximity and contact kernels and their cache guard.

numba's ``cache=True`` revalidates a cached function against its own source file only,
so a kernel that calls helpers from other modules keeps stale machine code when a helper
changes. `guard_cache(package_dir, extra_sources)` hashes the sources a package's kernels
are built from and deletes that package's cache files when the hash changed; each
kernel package calls it once at import, before its kernels are compiled or loaded.
"""

import hashlib
import os
import pathlib

import numba
from numba import njit

__all__ = ["jit", "guard_cache"]

_STAMP = "kernel_sources.sha256"


def jit(fn):
    """numba ``njit`` with an on-disk cache and numpy's float error model; the GIL is
    released during a call (``nogil=True``: threads overlap in the kernels)."""
    return njit(cache=True, error_model="numpy", nogil=True)(fn)


def guard_cache(package_dir, extra_sources=()):
    """Delete ``package_dir/__pycache__`` numba cache files if a kernel source changed.

    Parameters
    ----------
    package_dir : path
        The package whose ``*.py`` files hold kernels.
    extra_sources : iterable of path
        Other sources its kernels inline.

    Returns
    -------
    bool
        True if cache files were deleted (failures are ignored: numba recompiles).
    """
    package_dir = pathlib.Path(package_dir)
    sources = sorted(package_dir.glob("*.py")) + [pathlib.Path(p) for p in extra_sources]
    h = hashlib.sha256(numba.__version__.encode())
    for path in sources:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    digest = h.hexdigest()
    cache_dir = package_dir / "__pycache__"
    stamp = cache_dir / _STAMP
    try:
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
