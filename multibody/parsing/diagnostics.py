"""Parse errors, parse warnings and the policy that turns warnings into errors.

Every message a parser emits names the file and line of the XML element it is about
(``"robot.urdf:12: joint 'elbow' has unknown type 'hinge2'"``). Problems that make a
model meaningless raise `ParseError`; everything the parser ignores, defaults or
substitutes is a `ParseWarning` (a Python warning, so the usual ``warnings`` filters
apply) and an entry of the `ImportReport`. With strict parsing
(``Parser.set_strict_parsing()``) every warning is raised as a `ParseError` instead.
"""

from __future__ import annotations

import os
import sys
import warnings

__all__ = ["Diagnostics", "ParseError", "ParseWarning", "format_location"]


def format_location(file, line) -> str:
    """``"file:line"`` (or ``"file"`` when the line is unknown, ``"<unknown>"`` if both are)."""
    where = str(file) if file else "<unknown>"
    if line:
        where += f":{int(line)}"
    return where


class ParseError(RuntimeError, ValueError):
    """A model file cannot be loaded; the message starts with ``file:line:``.

    A RuntimeError, as pydrake's parse errors are, and a ValueError (as before).

    Parameters
    ----------
    message : str
        What is wrong, naming the element, the attribute, what was expected and what
        was found.
    file : str or None
        The file (or ``"<string.urdf>"``-like label for parsed strings).
    line : int or None
        The line of the offending element (1-based), None when unknown.

    Attributes
    ----------
    file, line : str, int
        As given.
    detail : str
        The message without the location prefix.
    """

    def __init__(self, message: str, file=None, line=None):
        self.file = file
        self.line = line
        self.detail = message
        super().__init__(f"{format_location(file, line)}: {message}")

    def __reduce__(self):
        return (type(self), (self.detail, self.file, self.line))


class ParseWarning(UserWarning):
    """An element or attribute was ignored, defaulted or replaced while parsing.

    Attributes
    ----------
    file, line : str, int
        Location of the element the warning is about.
    detail : str
        The message without the location prefix.
    """

    def __init__(self, message: str, file=None, line=None):
        self.file = file
        self.line = line
        self.detail = message
        super().__init__(f"{format_location(file, line)}: {message}")

    def __reduce__(self):
        return (type(self), (self.detail, self.file, self.line))


_MULTIBODY_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _user_stacklevel() -> int:
    """Stack level of the first caller outside the multibody package (for warnings)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_MULTIBODY_DIR):
        frame, level = frame.f_back, level + 1
    return level


class Diagnostics:
    """Emits warnings (or, in strict mode, errors) and records them in a report.

    Parameters
    ----------
    report : ImportReport
        Receives one entry per implemented, defaulted, warned or ignored element.
    strict : bool
        If True, `warn` raises `ParseError`.
    """

    def __init__(self, report, strict: bool = False):
        self.report = report
        self.strict = bool(strict)

    def error(self, message: str, file=None, line=None):
        """Raise `ParseError` at file:line (never returns)."""
        raise ParseError(message, file, line)

    def warn(self, message: str, file=None, line=None, *, element: str = "",
             status: str = "warned") -> None:
        """Record `message` as a warning at file:line, or raise it in strict mode.

        Parameters
        ----------
        message : str
            The warning text (without location).
        file, line
            Location of the element.
        element : str
            The element's path in its document (for the report).
        status : str
            Report status: ``"warned"`` (used with a warning) or ``"ignored"``.
        """
        if self.strict:
            raise ParseError(f"{message} (strict parsing turns warnings into errors)",
                             file, line)
        self.report.add(status, element, file, line, message)
        warnings.warn(ParseWarning(message, file, line), stacklevel=_user_stacklevel())

    def note(self, status: str, message: str, file=None, line=None, *,
             element: str = "") -> None:
        """Record an ``"implemented"`` or ``"defaulted"`` entry (no warning)."""
        self.report.add(status, element, file, line, message)
