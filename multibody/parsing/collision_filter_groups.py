"""CollisionFilterGroups: the collision filter groups a parser has read (Drake's).

A group is a scoped name (``model::group``) with a set of member body names
(``model::link``); an exclusion pair ``(a, b)`` says no geometry of a body of group `a`
collides with one of group `b` (``(a, a)``: within the group). Groups come from
``<drake:collision_filter_group>`` elements of URDF/SDFormat files and from model
directives' ``add_collision_filter_group``; `Parser.get_collision_filter_groups` returns
them all.
"""

from __future__ import annotations

__all__ = ["CollisionFilterGroups"]


class CollisionFilterGroups:
    """Named groups of body names and the pairs of groups excluded from collision."""

    def __init__(self):
        self._groups: dict[str, set] = {}
        self._pairs: set = set()

    def add_group(self, name: str, members) -> None:
        """Add the group `name` with the body names `members` (RuntimeError if `name`
        is already a group, as Drake)."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"CollisionFilterGroups.add_group: name must be a non-empty "
                             f"str, got {name!r}")
        if name in self._groups:
            raise RuntimeError(f"CollisionFilterGroups.add_group: a group named {name!r} "
                               f"already exists")
        self._groups[name] = {str(m) for m in members}

    def add_exclusion_pair(self, pair) -> None:
        """Exclude collisions between the groups ``pair = (a, b)`` (order does not
        matter; ``(a, a)`` excludes collisions within `a`)."""
        a, b = pair
        self._pairs.add(tuple(sorted((str(a), str(b)))))

    def empty(self) -> bool:
        """True if there are neither groups nor exclusion pairs."""
        return not self._groups and not self._pairs

    def groups(self) -> dict:
        """``{group name: set of member body names}`` (a copy)."""
        return {k: set(v) for k, v in self._groups.items()}

    def exclusion_pairs(self) -> set:
        """The set of excluded ``(a, b)`` pairs, each sorted."""
        return set(self._pairs)

    def __eq__(self, other) -> bool:
        return (isinstance(other, CollisionFilterGroups) and self._groups == other._groups
                and self._pairs == other._pairs)

    __hash__ = None

    def __str__(self) -> str:
        lines = ["Collision filter groups:"]
        for name in sorted(self._groups):
            lines.append(f"    {name}")
            lines += [f"        {m}" for m in sorted(self._groups[name])]
        lines.append("Collision filter exclusion pairs:")
        lines += [f"    {a}, {b}" for a, b in sorted(self._pairs)]
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return (f"CollisionFilterGroups(groups={len(self._groups)}, "
                f"exclusion_pairs={len(self._pairs)})")
