"""Package re-exports that load on first use (PEP 562), for every ``__init__`` of the four
layers.

A package's ``__init__`` declares which module defines each public name::

    from merganser.framework.lazy_exports import lazy_exports

    __all__, __getattr__, __dir__ = lazy_exports(__name__, {
        ".diagram": ("Diagram",),
        ".primitives": "*",            # every name of that (lazy) package's __all__
    })

``from package import Name`` then imports only the module that defines ``Name``; the
value is kept in the package, so a second access costs a dictionary look-up.
``from package import *`` imports every module (``__all__`` names them all), and
``package.sub`` imports the submodule ``sub`` as the import system does. ``Name_`` for an
exported class ``Name`` is its Drake scalar-type template (framework/templates.py:
``Name_[float]`` is ``Name``), made on first use and left out of ``__all__``.

A public name that is also the name of one of the package's submodules (``linearize``
the function in ``linearize.py``) stays the function when that submodule is imported
from elsewhere first: the import system binds a loaded submodule to its package's
attribute, and the package here keeps the exported value instead (as an eager
``from .linearize import linearize`` in the ``__init__`` did).
"""

from __future__ import annotations

import importlib
import sys
import types

__all__ = ["lazy_exports"]


class _LazyPackage(types.ModuleType):
    """A package module whose exported names win over its submodules of the same name."""

    def __setattr__(self, name, value):
        where = self.__dict__.get("_lazy_where", {})
        if (name in where and isinstance(value, types.ModuleType)
                and value.__name__ == f"{self.__name__}.{name}"):
            value = getattr(importlib.import_module(where[name]), name)
        super().__setattr__(name, value)


def lazy_exports(package, exports, unlisted=None):
    """The ``__all__``, ``__getattr__`` and ``__dir__`` of the package `package`.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : dict
        {module: names}: a module (absolute, or relative to `package` with a leading
        dot) and the tuple of public names it defines, or ``"*"`` for all the names of
        its ``__all__`` (the module is imported now: use it for packages whose own
        ``__init__`` is lazy, or for small modules).
    unlisted : dict, optional
        The same for names importable from the package but left out of its ``__all__``
        (so that ``import *`` does not load their modules).

    Returns
    -------
    tuple
        (``__all__``: list of str, sorted; ``__getattr__``; ``__dir__``), to be bound at
        the package's top level.
    """
    module = sys.modules[package]
    where, hidden = {}, set()
    for table in (unlisted or {}, exports):
        for source, names in table.items():
            source = f"{package}{source}" if source.startswith(".") else source
            if names == "*":
                names = importlib.import_module(source).__all__
            for name in names:
                where[name] = source
                if table is unlisted:
                    hidden.add(name)
    listed = sorted(set(where) - hidden)
    namespace = module.__dict__
    namespace["_lazy_where"] = where
    module.__class__ = _LazyPackage

    def __getattr__(name):
        source = where.get(name)
        if source is not None:
            value = getattr(importlib.import_module(source), name)
            namespace[name] = value
            return value
        if name.endswith("_") and name[:-1] in where and not name.startswith("_"):
            cls = __getattr__(name[:-1])
            if isinstance(cls, type):
                from merganser.framework.templates import ScalarTemplate
                value = ScalarTemplate(name, cls)
                namespace[name] = value
                return value
        full = f"{package}.{name}"
        try:
            return importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name != full:
                raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(namespace) | set(where))

    return listed, __getattr__, __dir__
