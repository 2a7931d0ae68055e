"""ScopedName: a name with a ``::``-separated namespace (Drake's ``ScopedName``).

``"left::arm::link3"`` has the namespace ``"left::arm"`` and the element ``"link3"``.
Bodies, frames and joints report theirs as ``<model instance name>::<name>``; model
directives and `get_scoped_frame_by_name` look frames up by it.
"""

from __future__ import annotations

__all__ = ["ScopedName"]

_SEP = "::"


class ScopedName:
    """A namespace and an element name; compares equal to its string form.

    Parameters
    ----------
    namespace_name : str
        May itself contain ``::`` (nested namespaces); ``""`` for none.
    element_name : str
        Must not contain ``::``.
    """

    def __init__(self, namespace_name: str = "", element_name: str = ""):
        self._namespace = ""
        self._element = ""
        self.set_namespace(namespace_name)
        self.set_element(element_name)

    @classmethod
    def make(cls, namespace_name: str, element_name: str) -> "ScopedName":
        """As the constructor (Drake's ``Make``; the constructor validates too)."""
        return cls(namespace_name, element_name)

    @classmethod
    def join(cls, name1: str, name2: str) -> "ScopedName":
        """``name1::name2`` parsed into namespace and element; an empty part is dropped."""
        parts = [str(n).strip(":") for n in (name1, name2) if str(n).strip(":")]
        return cls.parse(_SEP.join(parts))

    @classmethod
    def parse(cls, scoped_name: str) -> "ScopedName":
        """Split at the last ``::``: ``"a::b::c"`` -> namespace ``"a::b"``, element ``"c"``."""
        if not isinstance(scoped_name, str):
            raise TypeError(f"ScopedName.parse: scoped_name must be a str, got "
                            f"{type(scoped_name).__name__}")
        namespace, sep, element = scoped_name.rpartition(_SEP)
        return cls(namespace if sep else "", element)

    def get_namespace(self) -> str:
        """The namespace (``""`` if none)."""
        return self._namespace

    def get_element(self) -> str:
        """The element name."""
        return self._element

    def get_full(self) -> str:
        """``namespace::element`` (just the element when there is no namespace)."""
        return f"{self._namespace}{_SEP}{self._element}" if self._namespace else self._element

    to_string = get_full

    def set_namespace(self, namespace_name: str) -> None:
        """Replace the namespace (``::`` at its ends are dropped)."""
        if not isinstance(namespace_name, str):
            raise TypeError(f"ScopedName.set_namespace: namespace_name must be a str, got "
                            f"{type(namespace_name).__name__}")
        self._namespace = namespace_name.strip(":")

    def set_element(self, element_name: str) -> None:
        """Replace the element (ValueError if it contains ``::``)."""
        if not isinstance(element_name, str) or _SEP in element_name:
            raise ValueError(f"ScopedName.set_element: element_name must be a str without "
                             f"'::', got {element_name!r}")
        self._element = element_name

    def __str__(self) -> str:
        return self.get_full()

    def __repr__(self) -> str:
        return f"ScopedName({self._namespace!r}, {self._element!r})"

    def __eq__(self, other) -> bool:
        if isinstance(other, ScopedName):
            return (self._namespace, self._element) == (other._namespace, other._element)
        if isinstance(other, str):
            return self.get_full() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.get_full())
