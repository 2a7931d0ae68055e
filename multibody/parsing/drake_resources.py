"""Drake's own resources on this machine: the resource root and `find_resource_or_throw`.

Drake's model files (``drake/multibody/benchmarks/acrobot/acrobot.sdf``, ...) live under a
*resource root*: a directory with a ``drake`` subdirectory that holds Drake's sentinel
file ``.drake-find_resource-sentinel``. As Drake does, the root is the
``DRAKE_RESOURCE_ROOT`` environment variable when set, else the ``share`` directory of a
pydrake installed on ``sys.path`` (found without importing pydrake). A default
`PackageMap` maps the ``drake`` package to ``<root>/drake``.
"""

from __future__ import annotations

import os
import sys

__all__ = ["drake_resource_root", "find_resource_or_throw"]

_SENTINEL = os.path.join("drake", ".drake-find_resource-sentinel")


def _candidate_roots():
    """(where it came from, directory) for each place a resource root is looked for."""
    out = []
    env = os.environ.get("DRAKE_RESOURCE_ROOT")
    if env:
        out.append(("DRAKE_RESOURCE_ROOT", env))
    out += [("pydrake on sys.path", os.path.join(entry, "pydrake", "share"))
            for entry in sys.path if entry]
    return out


def drake_resource_root() -> str | None:
    """Drake's resource root (the directory holding ``drake/``), or None when this
    machine has none (see the module docstring)."""
    for _, root in _candidate_roots():
        if os.path.isfile(os.path.join(root, _SENTINEL)):
            return os.path.abspath(root)
    return None


def find_resource_or_throw(resource_path: str) -> str:
    """The absolute path of Drake resource `resource_path` (pydrake's
    ``FindResourceOrThrow``).

    Parameters
    ----------
    resource_path : str
        A relative path that starts with ``drake/``, e.g.
        ``"drake/multibody/benchmarks/acrobot/acrobot.sdf"``.

    Returns
    -------
    str
        ``<root>/<resource_path>`` for the resource root `drake_resource_root`.

    Raises
    ------
    TypeError
        `resource_path` is not a string.
    RuntimeError
        The path is absolute or does not start with ``drake/``, no resource root is found
        (the message says where it looked and that ``DRAKE_RESOURCE_ROOT`` sets one), or
        the root has no such file or directory.
    """
    fn = "find_resource_or_throw"
    if not isinstance(resource_path, str):
        raise TypeError(f"{fn}: resource_path must be a str, got "
                        f"{type(resource_path).__name__}")
    if os.path.isabs(resource_path) or not resource_path.startswith("drake/"):
        raise RuntimeError(
            f"{fn}: resource_path must be a relative path that starts with 'drake/', got "
            f"{resource_path!r}")
    root = drake_resource_root()
    if root is None:
        looked = "; ".join(f"{where}: {path}" for where, path in _candidate_roots())
        raise RuntimeError(
            f"{fn}: could not find Drake resource {resource_path!r}: no Drake resource root "
            f"on this machine (a directory whose drake/ holds "
            f"'.drake-find_resource-sentinel'); looked in {looked or 'nothing'}. Set the "
            f"DRAKE_RESOURCE_ROOT environment variable to such a directory")
    path = os.path.join(root, resource_path)
    if not os.path.exists(path):
        raise RuntimeError(
            f"{fn}: could not find Drake resource {resource_path!r}: the resource root "
            f"{root!r} has no {path!r}")
    return path
