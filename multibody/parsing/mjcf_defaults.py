"""MJCF ``<default>`` classes: attribute defaults per element type, with inheritance.

``<default>`` is the class ``main``; nested ``<default class="name">`` elements inherit
from their parent class. An element uses its ``class`` attribute, else the
``childclass`` of the nearest enclosing body that has one, else ``main``. Attributes the
element sets itself win; the others are copied from the class (so that messages about
them point at the element that uses them). MuJoCo's orientation specifiers (``quat``,
``axisangle``, ``euler``, ``xyaxes``, ``zaxis``) are one setting: an element (or a
nearer class) that gives any of them replaces the orientation of the farther classes.
"""

from __future__ import annotations

__all__ = ["MjcfDefaults", "ORIENTATIONS"]

ORIENTATIONS = ("quat", "axisangle", "euler", "xyaxes", "zaxis")


class MjcfDefaults:
    """Default attributes per (class, element tag)."""

    def __init__(self):
        self._classes: dict[str, dict[str, dict[str, str]]] = {"main": {}}
        self._parent: dict[str, str | None] = {"main": None}

    def parse(self, doc, el, parent_class: str | None = None) -> None:
        """Read a ``<default>`` element (recursively)."""
        name = doc.attr(el, "class", None) or ("main" if parent_class is None else None)
        if name is None:
            doc.error(el, "a nested <default> must have a 'class' attribute")
        if name in self._classes and name != "main":
            doc.error(el, f"default class '{name}' is defined twice")
        self._classes.setdefault(name, {})
        self._parent[name] = parent_class if name != "main" or parent_class else None
        doc.mark(el, message=f"default class '{name}'")
        for child in doc.elements(el):
            tag = doc.tag(child)
            if tag == "default":
                self.parse(doc, child, name)
                continue
            self._classes[name].setdefault(tag, {}).update(child.attrib)
            doc.mark_subtree(child, f"defaults of class '{name}' for <{tag}>")

    def has_class(self, name: str) -> bool:
        """True if class `name` is defined."""
        return name in self._classes

    def apply(self, doc, el, tag: str, class_name: str) -> None:
        """Copy the defaults of `class_name` (and its ancestors) for `tag` into `el`."""
        if class_name not in self._classes:
            doc.error(el, f"<{doc.tag(el)}> uses the undefined default class '{class_name}'")
        chain, name = [], class_name
        while name is not None:
            chain.append(name)
            name = self._parent.get(name)
        for name in chain:  # nearest class first; set only what is still missing
            oriented = any(key in el.attrib for key in ORIENTATIONS)
            for key, value in self._classes[name].get(tag, {}).items():
                if key in el.attrib or key == "class" or (oriented and key in ORIENTATIONS):
                    continue
                el.set(key, value)
