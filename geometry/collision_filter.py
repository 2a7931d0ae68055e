"""Collision filtering: GeometrySet, CollisionFilterDeclaration and the manager that applies
declarations to a SceneGraph (its model, or one Context).

A filtered pair is never reported by proximity queries. Besides declared exclusions,
SceneGraph always filters pairs of geometries on the same frame and pairs of anchored
(world) geometries, as Drake does.
"""

from .geometry_instance import FrameId, GeometryId

__all__ = ["GeometrySet", "CollisionFilterDeclaration", "CollisionFilterManager",
           "CollisionFilter"]


class GeometrySet:
    """A set of geometries given by GeometryIds and/or FrameIds (all geometries of a frame).

    Parameters
    ----------
    ids : GeometryId, FrameId or iterable of them, optional
    """

    def __init__(self, ids=None, *more):
        self._geometries = set()
        self._frames = set()
        if ids is not None:
            self.add(ids)
        for extra in more:
            self.add(extra)

    def add(self, ids):
        """Add GeometryIds and FrameIds (one or an iterable)."""
        if isinstance(ids, (GeometryId, FrameId)):
            ids = [ids]
        for i in ids:
            if isinstance(i, GeometryId):
                self._geometries.add(i)
            elif isinstance(i, FrameId):
                self._frames.add(i)
            else:
                raise TypeError(f"GeometrySet.add: expected GeometryId or FrameId, got "
                                f"{type(i).__name__}")
        return self

    def geometries(self):
        return set(self._geometries)

    def frames(self):
        return set(self._frames)

    def num_geometries(self):
        return len(self._geometries)

    def num_frames(self):
        return len(self._frames)

    def resolve(self, model):
        """The GeometryIds of this set in a SceneGraph model (frames expanded)."""
        out = set(self._geometries)
        for f in self._frames:
            out.update(model.frame_geometries(f))
        return out


class CollisionFilterDeclaration:
    """A list of filter statements, applied by `CollisionFilterManager.apply`."""

    def __init__(self):
        self._statements = []

    def exclude_within(self, geometry_set):
        """Filter every pair of geometries inside `geometry_set`."""
        self._statements.append(("exclude_within", geometry_set, None))
        return self

    def exclude_between(self, set_A, set_B):
        """Filter every pair (a, b) with a in `set_A` and b in `set_B`."""
        self._statements.append(("exclude_between", set_A, set_B))
        return self

    def allow_within(self, geometry_set):
        """Remove declared filters between geometries of `geometry_set`."""
        self._statements.append(("allow_within", geometry_set, None))
        return self

    def allow_between(self, set_A, set_B):
        """Remove declared filters between `set_A` and `set_B`."""
        self._statements.append(("allow_between", set_A, set_B))
        return self

    def statements(self):
        return list(self._statements)


class CollisionFilter:
    """The declared filtered pairs (a set of (GeometryId, GeometryId) sorted pairs).

    ``version`` increases with every change, so that candidate-pair tables are rebuilt.
    """

    def __init__(self):
        self.pairs = set()
        self.version = 0

    def copy(self):
        other = CollisionFilter()
        other.pairs = set(self.pairs)
        other.version = self.version
        return other

    @staticmethod
    def _key(a, b):
        return (a, b) if a < b else (b, a)

    def apply(self, declaration, model):
        if not isinstance(declaration, CollisionFilterDeclaration):
            raise TypeError(f"CollisionFilterManager.apply: expected a CollisionFilterDeclaration, "
                            f"got {type(declaration).__name__}")
        for kind, set_a, set_b in declaration.statements():
            ga = self._ids(set_a, model)
            gb = ga if set_b is None else self._ids(set_b, model)
            keys = {self._key(a, b) for a in ga for b in gb if a != b}
            if kind.startswith("exclude"):
                self.pairs |= keys
            else:
                self.pairs -= keys
        self.version += 1

    @staticmethod
    def _ids(geometry_set, model):
        if not isinstance(geometry_set, GeometrySet):
            raise TypeError(f"CollisionFilterDeclaration: expected a GeometrySet, got "
                            f"{type(geometry_set).__name__}")
        ids = geometry_set.resolve(model)
        for g in ids:
            model.check_geometry(g, "CollisionFilterManager.apply")
        return ids

    def is_filtered(self, a, b):
        return self._key(a, b) in self.pairs


class CollisionFilterManager:
    """Applies CollisionFilterDeclarations to a SceneGraph's model or to one Context."""

    def __init__(self, model, collision_filter, on_change=None):
        self._model = model
        self._filter = collision_filter
        self._on_change = on_change

    def apply(self, declaration):
        """Apply every statement of `declaration`."""
        self._filter.apply(declaration, self._model)
        if self._on_change is not None:
            self._on_change()

    def can_collide_with(self, id_A, id_B):
        """False if the pair (id_A, id_B) is filtered (declared or implicit)."""
        return self._model.can_collide(id_A, id_B, self._filter)
