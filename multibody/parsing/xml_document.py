"""XmlDocument: an lxml tree with line numbers, typed readers and usage tracking.

The format parsers (URDF, SDFormat, MJCF) read elements and attributes only through
this class, which

- loads the XML with lxml (so every element knows its source line) and turns any
  malformation into a `ParseError` at the offending line;
- converts text to numbers strictly (``"1.5"``, ``"-2e-3"``; ``inf`` only where a limit
  may be infinite; never NaN) and raises a `ParseError` naming the element, the
  attribute, what was expected and what was found;
- records which elements and attributes were used, so that `finish` can report every
  element and attribute the parser did not use as ignored, with a `ParseWarning`.

Namespace-prefixed names are normalized to ``prefix:local`` (``drake:mu_static``),
whether or not the file declares the ``xmlns:drake`` namespace (many files do not).
"""

from __future__ import annotations

import contextlib
import math
import os
import re

import numpy as np

from merganser.multibody.parsing.diagnostics import ParseError

__all__ = ["DRAKE_NAMESPACE", "REQUIRED", "XmlDocument", "parse_number"]

DRAKE_NAMESPACE = "http://drake.mit.edu"
_KNOWN_PREFIXES = {DRAKE_NAMESPACE: "drake"}
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")
#: A number at the start of a token (SDFormat's reading of ``2.35"``: `leading_numbers`).
_LEADING_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_INFINITY = {"inf": math.inf, "+inf": math.inf, "-inf": -math.inf, "infinity": math.inf,
             "+infinity": math.inf, "-infinity": -math.inf}


class _Required:
    def __repr__(self):
        return "REQUIRED"


REQUIRED = _Required()


def parse_number(token: str, allow_inf: bool = False) -> float:
    """Convert one token to float, or raise ValueError with the reason.

    Decimal and exponent notation are accepted; ``inf``/``-inf`` only with
    `allow_inf`; NaN, hexadecimal, underscores and empty strings never.
    """
    t = token.strip()
    if _NUMBER.match(t):
        value = float(t)
        if math.isinf(value) and not allow_inf:
            raise ValueError(f"{token!r} overflows to infinity")
        return value
    if allow_inf and t.lower() in _INFINITY:
        return _INFINITY[t.lower()]
    raise ValueError(f"{token!r} is not a number")


def _local_name(qualified, nsmap_prefix=None) -> str:
    """``{ns}local`` -> ``prefix:local`` (drake for Drake's namespace)."""
    if not isinstance(qualified, str):
        return ""
    if qualified.startswith("{"):
        ns, local = qualified[1:].split("}", 1)
        prefix = _KNOWN_PREFIXES.get(ns) or nsmap_prefix or ns
        return f"{prefix}:{local}"
    return qualified


class XmlDocument:
    """A parsed XML file (or string) and the bookkeeping of what was used in it.

    Use `load` to create one. Parsers call the readers (`attr`, `attr_float`,
    `text_vector`, ...), which mark what they read as used, and `mark` for elements
    whose meaning they implemented; `finish` reports everything else as ignored.

    Attributes
    ----------
    root : lxml element
        The root element.
    file_name : str
        Used in messages (the path, or a label such as ``"<string.urdf>"``).
    base_dir : str
        Directory that relative file references are resolved against.
    diagnostics : Diagnostics
        Where warnings and report entries go.
    leading_numbers : bool
        False (URDF, MJCF): a scalar's text must be exactly a number. True (SDFormat,
        whose reader takes the number a value starts with, as libsdformat's stream
        parsing does: Drake's own ``iiwa14_polytope_collision.sdf`` has
        ``<velocity>2.356194490192345"</velocity>``): a scalar's text that starts with a
        number and has other characters after it is read as that number, with a warning
        at its line naming what was ignored.
    """

    leading_numbers = False

    def __init__(self, root, file_name: str, base_dir: str, diagnostics):
        self.root = root
        self.file_name = file_name
        self.base_dir = base_dir
        self.diagnostics = diagnostics
        self._used_elements: set = set()
        self._origin: dict = {}
        self._reported: set = set()
        self._used_attributes: dict = {}

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, diagnostics, *, path=None, text=None, label=None, base_dir=None):
        """Parse a file (`path`) or a string (`text`, reported as `label`).

        Raises
        ------
        ParseError
            If the file cannot be read or the XML is malformed (unclosed or mismatched
            tags, bad characters, ...), at the line where the XML parser failed.
        """
        from lxml import etree

        parser = etree.XMLParser(remove_comments=True, remove_pis=True, recover=True,
                                 resolve_entities=False, no_network=True)
        if path is not None:
            file_name = str(path)
            base_dir = os.path.dirname(os.path.abspath(file_name))
            try:
                with open(file_name, "rb") as f:
                    data = f.read()
            except OSError as err:
                raise ParseError(f"cannot read the file: {err.strerror}", file_name) from None
        else:
            file_name = label or "<string>"
            base_dir = base_dir or os.getcwd()
            try:
                data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
            except UnicodeEncodeError as err:
                line = text.count("\n", 0, err.start) + 1
                raise ParseError(f"the text cannot be encoded as UTF-8: {err.reason} at "
                                 f"character {err.start} ({text[err.start]!r})", file_name,
                                 line) from None
        if not data.strip():
            raise ParseError("the document is empty; expected an XML model", file_name, 1)
        try:
            root = etree.fromstring(data, parser)
        except etree.XMLSyntaxError as err:
            raise ParseError(f"malformed XML: {err.msg}", file_name, err.lineno) from None
        fatal = [e for e in parser.error_log
                 if e.level >= etree.ErrorLevels.ERROR
                 and e.domain != etree.ErrorDomains.NAMESPACE]
        if fatal:
            e = fatal[0]
            raise ParseError(f"malformed XML: {e.message.strip()}", file_name, e.line)
        if root is None:
            raise ParseError("the document has no root element", file_name, 1)
        return cls(root, file_name, base_dir, diagnostics)

    # ------------------------------------------------------------------ names and navigation
    @staticmethod
    def tag(el) -> str:
        """Normalized tag of `el` (``drake:joint``), "" for comments."""
        return _local_name(el.tag, el.prefix)

    def elements(self, el, tag: str | None = None) -> list:
        """Child elements of `el` (with normalized tag `tag`, if given), in order."""
        out = []
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if tag is None or self.tag(child) == tag:
                out.append(child)
        return out

    def child(self, el, tag: str):
        """First child element of `el` with tag `tag`, or None."""
        for child in el:
            if isinstance(child.tag, str) and self.tag(child) == tag:
                return child
        return None

    def require_child(self, el, tag: str, what: str):
        """First child `tag` of `el`; ParseError naming `what` if missing."""
        child = self.child(el, tag)
        if child is None:
            self.error(el, f"{what} is missing its required <{tag}> element")
        return child

    def path(self, el) -> str:
        """Readable path of `el`: ``robot/link[arm]/visual``."""
        parts = []
        while el is not None:
            name = el.get("name")
            tag = self.tag(el)
            parts.append(f"{tag}[{name}]" if name else tag)
            el = el.getparent()
        return "/".join(reversed(parts))

    def set_origin(self, el, file_name: str) -> None:
        """Record that `el` comes from another file (an MJCF include or attached model)."""
        self._origin[el] = file_name

    def file_of(self, el) -> str:
        """The file `el` comes from (`file_name` unless `set_origin` said otherwise)."""
        return self._origin.get(el, self.file_name) if el is not None else self.file_name

    def line(self, el):
        """Source line of `el` (None if unknown)."""
        return None if el is None else el.sourceline

    # ------------------------------------------------------------------ diagnostics
    def error(self, el, message: str):
        """Raise `ParseError` at the line of `el`."""
        el = el if el is not None else self.root
        raise ParseError(message, self.file_of(el), self.line(el))

    @contextlib.contextmanager
    def at(self, el, what: str = ""):
        """Context in which a ValueError/TypeError/LookupError from the plant (a duplicate
        name, an invalid value, ...) becomes a `ParseError` at the line of `el`."""
        try:
            yield
        except ParseError:
            raise
        except (ValueError, TypeError, LookupError) as err:
            prefix = f"{what}: " if what else ""
            raise ParseError(f"{prefix}{err}", self.file_of(el), self.line(el)) from err

    def warn(self, el, message: str, status: str = "warned") -> None:
        """A warning (error in strict mode) at `el`; `el` counts as used."""
        self._used_elements.add(el)
        self._reported.add(el)
        self.diagnostics.warn(message, self.file_of(el), self.line(el), element=self.path(el),
                              status=status)

    def ignore(self, el, message: str | None = None, quiet: bool = False) -> None:
        """Report `el` and its whole subtree as ignored, with one warning.

        With `quiet` (info level: for elements that Drake's own model files carry and that
        Drake ignores silently, such as ``<gazebo>``), the entry goes to the import report
        (shown by ``merganser inspect``) with no ParseWarning and no strict-mode error.
        """
        text = message or f"<{self.tag(el)}> is not supported and is ignored"
        if quiet:
            self._used_elements.add(el)
            self._reported.add(el)
            self.diagnostics.note("ignored", text, self.file_of(el), self.line(el),
                                  element=self.path(el))
        else:
            self.warn(el, text, status="ignored")
        for sub in el.iter():
            if isinstance(sub.tag, str):
                self._used_elements.add(sub)
                self._used_attributes[sub] = set(sub.attrib)
                if sub is not el:
                    self._reported.add(sub)
                    self.diagnostics.report.add(
                        "ignored", self.path(sub), self.file_of(sub), self.line(sub),
                        f"inside ignored <{self.tag(el)}>")

    def mark(self, el, status: str = "implemented", message: str = "") -> None:
        """Record that `el` was used (``implemented``) or defaulted."""
        self._used_elements.add(el)
        self._reported.add(el)
        self.diagnostics.note(status, message, self.file_of(el), self.line(el),
                              element=self.path(el))

    def defaulted(self, el, message: str) -> None:
        """Record a default that was applied to (part of) `el`."""
        self._used_elements.add(el)
        self._reported.add(el)
        self.diagnostics.note("defaulted", message, self.file_of(el), self.line(el),
                              element=self.path(el))

    def mark_subtree(self, el, message: str = "") -> None:
        """Mark `el` implemented and its descendants and their attributes as used."""
        self.mark(el, "implemented", message)
        for sub in el.iter():
            if isinstance(sub.tag, str):
                self._used_elements.add(sub)
                self._used_attributes[sub] = set(sub.attrib)

    # ------------------------------------------------------------------ attributes
    def _attrib_key(self, el, name: str):
        """The lxml attribute key for normalized `name` on `el` (or None)."""
        if name in el.attrib:
            return name
        if ":" in name:
            for key in el.attrib:
                if _local_name(key) == name:
                    return key
        return None

    def has(self, el, name: str) -> bool:
        """True if `el` has attribute `name`."""
        return self._attrib_key(el, name) is not None

    def consume(self, el, *names: str) -> None:
        """Mark attributes as used without reading them."""
        used = self._used_attributes.setdefault(el, set())
        for name in names:
            key = self._attrib_key(el, name)
            if key is not None:
                used.add(key)

    def attr(self, el, name: str, default=REQUIRED):
        """String value of attribute `name` (stripped); `default` if absent."""
        key = self._attrib_key(el, name)
        if key is None:
            if default is REQUIRED:
                self.error(el, f"<{self.tag(el)}> is missing the required attribute '{name}'")
            return default
        self._used_attributes.setdefault(el, set()).add(key)
        return el.attrib[key].strip()

    def attr_float(self, el, name: str, default=REQUIRED, *, allow_inf: bool = False,
                   minimum: float | None = None, positive: bool = False) -> float:
        """Attribute `name` as a finite float (`allow_inf` permits ±inf).

        `minimum` (inclusive) and `positive` (> 0) bound the value.
        """
        raw = self.attr(el, name, None if default is not REQUIRED else REQUIRED)
        if raw is None:
            return default
        return self._number(el, f"attribute '{name}'", raw, allow_inf, minimum, positive)

    def attr_vector(self, el, name: str, size, default=REQUIRED, *, allow_inf=False,
                    minimum=None, positive=False) -> np.ndarray:
        """Attribute `name` as a float vector of `size` entries (an int or a tuple of
        accepted sizes), shape (n,)."""
        raw = self.attr(el, name, None if default is not REQUIRED else REQUIRED)
        if raw is None:
            return None if default is None else np.array(default, dtype=np.float64)
        return self._vector(el, f"attribute '{name}'", raw, size, allow_inf, minimum, positive)

    # ------------------------------------------------------------------ text content
    def text(self, el, default=REQUIRED) -> str:
        """Stripped text of element `el`; `default` if it is empty."""
        self._used_elements.add(el)
        raw = (el.text or "").strip()
        if not raw:
            if default is REQUIRED:
                self.error(el, f"<{self.tag(el)}> must contain a value, but it is empty")
            return default
        return raw

    def text_float(self, el, *, allow_inf=False, minimum=None, positive=False) -> float:
        """Text of `el` as one finite float."""
        return self._number(el, "the value", self.text(el), allow_inf, minimum, positive)

    def text_vector(self, el, size, *, allow_inf=False, minimum=None,
                    positive=False) -> np.ndarray:
        """Text of `el` as a float vector of `size` entries (int or tuple of sizes)."""
        return self._vector(el, "the value", self.text(el), size, allow_inf, minimum, positive)

    def child_float(self, el, tag: str, default=REQUIRED, **kwargs) -> float:
        """Float text of child `<tag>` of `el`; `default` when the child is absent."""
        child = self.child(el, tag)
        if child is None:
            if default is REQUIRED:
                self.error(el, f"<{self.tag(el)}> is missing its required <{tag}> element")
            return default
        return self.text_float(child, **kwargs)

    def child_vector(self, el, tag: str, size, default=REQUIRED, **kwargs):
        """Vector text of child `<tag>` of `el`; `default` when the child is absent."""
        child = self.child(el, tag)
        if child is None:
            if default is REQUIRED:
                self.error(el, f"<{self.tag(el)}> is missing its required <{tag}> element")
            return None if default is None else np.array(default, dtype=np.float64)
        return self.text_vector(child, size, **kwargs)

    def child_text(self, el, tag: str, default=REQUIRED) -> str:
        """Text of child `<tag>` of `el`; `default` when the child is absent."""
        child = self.child(el, tag)
        if child is None:
            if default is REQUIRED:
                self.error(el, f"<{self.tag(el)}> is missing its required <{tag}> element")
            return default
        return self.text(child, default)

    def child_bool(self, el, tag: str, default: bool) -> bool:
        """Boolean text (true/false/1/0) of child `<tag>`; `default` when absent."""
        child = self.child(el, tag)
        if child is None:
            return default
        return self.parse_bool(child, self.text(child), f"<{tag}>")

    def parse_bool(self, el, raw: str, what: str) -> bool:
        """``true``/``false``/``1``/``0`` -> bool, else ParseError."""
        value = raw.strip().lower()
        if value in ("true", "1"):
            return True
        if value in ("false", "0"):
            return False
        self.error(el, f"{what} must be true or false, got {raw!r}")

    # ------------------------------------------------------------------ conversion helpers
    def _check_bounds(self, el, what, values, minimum, positive):
        for v in np.atleast_1d(values):
            if positive and not v > 0.0:
                self.error(el, f"<{self.tag(el)}> {what} must be > 0, got {float(v)!r}")
            if minimum is not None and not v >= minimum:
                self.error(el, f"<{self.tag(el)}> {what} must be >= {minimum}, got {float(v)!r}")

    def _number(self, el, what, raw, allow_inf, minimum, positive) -> float:
        try:
            value = parse_number(raw, allow_inf)
        except ValueError as err:
            value = self._leading_number(el, what, raw)
            if value is None:
                self.error(el, f"<{self.tag(el)}> {what} must be a number, got {raw!r} ({err})")
        self._check_bounds(el, what, value, minimum, positive)
        return value

    def _leading_number(self, el, what, raw):
        """With `leading_numbers`, the number `raw` starts with (warned), else None."""
        if not self.leading_numbers:
            return None
        text = raw.strip()
        match = _LEADING_NUMBER.match(text)
        if match is None or not math.isfinite(float(match.group())):
            return None
        value = float(match.group())
        self.warn(el, f"<{self.tag(el)}> {what} {raw!r} has {text[match.end():]!r} after its "
                      f"number; read as {value!r}, as SDFormat reads it")
        return value

    def _vector(self, el, what, raw, size, allow_inf, minimum, positive) -> np.ndarray:
        tokens = raw.split()
        sizes = (size,) if isinstance(size, int) else tuple(size)
        if len(tokens) not in sizes:
            expected = " or ".join(str(s) for s in sizes)
            self.error(el, f"<{self.tag(el)}> {what} must have {expected} numbers, got "
                           f"{len(tokens)}: {raw!r}")
        try:
            values = np.array([parse_number(t, allow_inf) for t in tokens], dtype=np.float64)
        except ValueError as err:
            self.error(el, f"<{self.tag(el)}> {what} must be numbers, got {raw!r} ({err})")
        self._check_bounds(el, what, values, minimum, positive)
        return values

    # ------------------------------------------------------------------ completion
    def finish(self) -> None:
        """Warn about every element and attribute that no parser step used."""
        for el in self.root.iter():
            if not isinstance(el.tag, str):
                continue
            if el in self._used_elements and el not in self._reported:
                self.mark(el)
            if el not in self._used_elements:
                parent = el.getparent()
                where = f" in <{self.tag(parent)}>" if parent is not None else ""
                self.ignore(el, f"<{self.tag(el)}>{where} is not supported and is ignored")
                continue
            used = self._used_attributes.get(el, set())
            for key in el.attrib:
                if key not in used:
                    name = _local_name(key)
                    self.diagnostics.warn(
                        f"attribute '{name}' of <{self.tag(el)}> is not supported and is "
                        f"ignored", self.file_of(el), self.line(el), element=self.path(el),
                        status="ignored")
