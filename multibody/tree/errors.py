"""Exceptions raised by the multibody tree and its elements.

All of them subclass a built-in exception so that callers may catch either the
specific class or the built-in one (``RuntimeError`` for lifecycle problems,
``ValueError`` for bad models or bad lookups).
"""

from __future__ import annotations

__all__ = [
    "ConstraintArgumentError",
    "DuplicateElementError",
    "ElementLookupError",
    "TopologyError",
    "TreeLifecycleError",
    "list_names",
]


class TreeLifecycleError(RuntimeError):
    """An operation was called in the wrong phase (before or after ``finalize()``).

    Examples: ``add_joint()`` after ``finalize()``, ``joint.position_start()``
    before it, or an element used before it was added to a tree.
    """


class DuplicateElementError(RuntimeError, ValueError):
    """An element that a plant may have only one of was added again (e.g. a second
    gravity field): a RuntimeError, as Drake raises, and a ValueError."""


class ConstraintArgumentError(RuntimeError, ValueError):
    """A constraint's declaration was given a bad argument (pydrake raises RuntimeError;
    also a ValueError)."""


class ElementLookupError(RuntimeError, ValueError, LookupError):
    """A name or index lookup failed, or a name is ambiguous across model instances (a
    RuntimeError, as pydrake's, and a ValueError and LookupError)."""


class TopologyError(ValueError):
    """The bodies and joints do not form a tree that can be compiled.

    Raised at ``finalize()`` for kinematic loops, joints whose child is closer to
    the world than their parent (reversed joints), cycles disconnected from the
    world. (Massless bodies are accepted; a singular mass matrix is reported by the
    dynamics as ``SingularDynamicsError``.)
    """


def list_names(names, limit: int = 20) -> str:
    """Format names for an error message, truncated after `limit` entries.

    Parameters
    ----------
    names : iterable of str
        The names to list.
    limit : int
        Maximum number of names shown; the rest are counted.

    Returns
    -------
    str
        For example ``"'a', 'b', 'c'"`` or ``"'a', 'b', ... (40 more)"``, or
        ``"(none)"`` for an empty list.
    """
    names = [str(n) for n in names]
    if not names:
        return "(none)"
    shown = ", ".join(repr(n) for n in names[:limit])
    if len(names) > limit:
        shown += f", ... ({len(names) - limit} more)"
    return shown
