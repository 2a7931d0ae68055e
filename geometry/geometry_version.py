"""GeometryVersion: which revision of each role's geometry a SceneGraph model holds
(Drake's), to tell whether the proximity, perception or illustration data changed."""

import itertools

__all__ = ["GeometryVersion", "ROLES_WITH_VERSIONS", "new_role_revision"]

ROLES_WITH_VERSIONS = ("proximity", "perception", "illustration")
_revisions = itertools.count(1)


def new_role_revision():
    """A revision number never handed out before (int)."""
    return next(_revisions)


class GeometryVersion:
    """Per-role revisions of a SceneGraph model.

    ``GeometryVersion()`` is a version no model has (``is_same_as`` it is False for every
    role); ``GeometryVersion(other=v)`` (or a copy) is the same as `v`. A model's
    ``inspector.geometry_version()`` changes for a role when geometry with that role is
    added, removed, reshaped or has the role assigned or removed.
    """

    __slots__ = ("_revisions",)

    def __init__(self, other=None):
        if other is None:
            self._revisions = {role: new_role_revision() for role in ROLES_WITH_VERSIONS}
        elif isinstance(other, GeometryVersion):
            self._revisions = dict(other._revisions)
        else:
            raise TypeError(f"GeometryVersion: other must be a GeometryVersion, got "
                            f"{type(other).__name__}")

    @classmethod
    def of_revisions(cls, revisions):
        """The version with the given {role: revision} (a model's snapshot)."""
        out = cls.__new__(cls)
        out._revisions = dict(revisions)
        return out

    def is_same_as(self, other, role):
        """True if `other` has the same revision of `role`'s geometry ("proximity",
        "perception" or "illustration")."""
        if role not in self._revisions:
            raise ValueError(f"GeometryVersion.is_same_as: role must be one of "
                             f"{ROLES_WITH_VERSIONS}, got {role!r}")
        return self._revisions[role] == other._revisions[role]

    def __reduce__(self):
        return (GeometryVersion.of_revisions, (self._revisions,))

    def __repr__(self):
        return f"GeometryVersion({self._revisions})"
