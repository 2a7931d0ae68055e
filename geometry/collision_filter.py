"""Collision filtering: GeometrySet, CollisionFilterDeclaration and the manager that applies
declarations to a SceneGraph (its model, or one Context).

A filtered pair is never reported by proximity queries. Besides declared exclusions,
SceneGraph always filters pairs of geometries on the same frame and pairs of anchored
(world) geometries, as Drake does.

As in Drake, a declaration can be *persistent* (``apply``) or *transient*
(``apply_transient`` returns a `FilterId`; ``remove_declaration(id)`` undoes it, and the
filters are recomputed from the persistent state and the remaining transient declarations
in order). While transient declarations are active, ``apply`` raises. Independently of the
filters, ``deactivate(geometry_set)`` removes geometries from every candidate pair until
``activate(geometry_set)``.
"""

import enum

from .geometry_instance import FrameId, GeometryId, Identifier

__all__ = ["GeometrySet", "CollisionFilterDeclaration", "CollisionFilterManager",
           "CollisionFilter", "CollisionFilterScope", "FilterId"]


class FilterId(Identifier):
    """Identifies a transient collision filter declaration."""

    __slots__ = ()


class CollisionFilterScope(enum.Enum):
    """Which geometries a declaration reaches (Drake's CollisionFilterScope).

    merganser has no deformable geometry, so the two scopes act the same.
    """

    kAll = 0
    kOmitDeformable = 1


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
    """A list of filter statements, applied by `CollisionFilterManager.apply`.

    Parameters
    ----------
    scope : CollisionFilterScope, optional
        Default ``kAll`` (``kOmitDeformable`` is the same here: no deformables).
    """

    def __init__(self, scope=CollisionFilterScope.kAll):
        if not isinstance(scope, CollisionFilterScope):
            raise TypeError(f"CollisionFilterDeclaration: scope must be a CollisionFilterScope, "
                            f"got {type(scope).__name__}")
        self._scope = scope
        self._statements = []

    def scope(self):
        return self._scope

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
    """The declared filtered pairs (a set of (GeometryId, GeometryId) sorted pairs), the
    transient declarations on top of them and the inactive geometries.

    ``pairs`` is the filter in force. ``version`` increases with every change, so that
    candidate-pair tables are rebuilt.
    """

    def __init__(self):
        self.pairs = set()
        self.version = 0
        self._persistent = set()
        self._transient = {}        # FilterId -> [(exclude?, keys)], in application order
        self.inactive = set()

    def copy(self):
        other = CollisionFilter()
        other.pairs = set(self.pairs)
        other.version = self.version
        other._persistent = set(self._persistent)
        other._transient = {k: list(v) for k, v in self._transient.items()}
        other.inactive = set(self.inactive)
        return other

    @staticmethod
    def _key(a, b):
        return (a, b) if a < b else (b, a)

    def _resolve(self, declaration, model, fn):
        if not isinstance(declaration, CollisionFilterDeclaration):
            raise TypeError(f"CollisionFilterManager.{fn}: expected a CollisionFilterDeclaration,"
                            f" got {type(declaration).__name__}")
        ops = []
        for kind, set_a, set_b in declaration.statements():
            ga = self._ids(set_a, model, fn)
            gb = ga if set_b is None else self._ids(set_b, model, fn)
            ops.append((kind.startswith("exclude"),
                        frozenset(self._key(a, b) for a in ga for b in gb if a != b)))
        return ops

    @staticmethod
    def _run(pairs, ops):
        for exclude, keys in ops:
            if exclude:
                pairs |= keys
            else:
                pairs -= keys
        return pairs

    def _recompute(self):
        pairs = set(self._persistent)
        for ops in self._transient.values():
            self._run(pairs, ops)
        self.pairs = pairs
        self.version += 1

    def apply(self, declaration, model):
        if self._transient:
            raise RuntimeError("CollisionFilterManager.apply: the persistent collision filters "
                               f"cannot change while {len(self._transient)} transient "
                               "declaration(s) are active (remove_declaration them first)")
        self._run(self._persistent, self._resolve(declaration, model, "apply"))
        self._recompute()

    def apply_transient(self, declaration, model):
        ops = self._resolve(declaration, model, "apply_transient")
        filter_id = FilterId.get_new_id()
        self._transient[filter_id] = ops
        self._recompute()
        return filter_id

    def remove_declaration(self, filter_id):
        if self._transient.pop(filter_id, None) is None:
            return False
        self._recompute()
        return True

    def is_active(self, filter_id):
        return filter_id in self._transient

    def has_transient_history(self):
        return bool(self._transient)

    def set_active(self, geometry_set, active, model, fn):
        ids = self._ids(geometry_set, model, fn)
        if active:
            self.inactive -= ids
        else:
            self.inactive |= ids
        self.version += 1

    @staticmethod
    def _ids(geometry_set, model, fn="apply"):
        if not isinstance(geometry_set, GeometrySet):
            raise TypeError(f"CollisionFilterManager.{fn}: expected a GeometrySet, got "
                            f"{type(geometry_set).__name__}")
        ids = geometry_set.resolve(model)
        for g in ids:
            model.check_geometry(g, f"CollisionFilterManager.{fn}")
        return ids

    def is_filtered(self, a, b):
        return self._key(a, b) in self.pairs


class CollisionFilterManager:
    """Applies CollisionFilterDeclarations to a SceneGraph's model or to one Context."""

    def __init__(self, model, collision_filter, on_change=None):
        self._model = model
        self._filter = collision_filter
        self._on_change = on_change

    def _changed(self):
        if self._on_change is not None:
            self._on_change()

    def apply(self, declaration):
        """Apply every statement of `declaration` to the persistent filters.

        Raises RuntimeError while transient declarations are active (Drake's rule).
        """
        self._filter.apply(declaration, self._model)
        self._changed()

    def apply_transient(self, declaration):
        """Apply `declaration` as the newest transient declaration; returns its FilterId."""
        filter_id = self._filter.apply_transient(declaration, self._model)
        self._changed()
        return filter_id

    def remove_declaration(self, filter_id):
        """Remove the transient declaration `filter_id`; True iff it was active."""
        removed = self._filter.remove_declaration(filter_id)
        if removed:
            self._changed()
        return removed

    def is_active(self, filter_id):
        """True iff the transient declaration `filter_id` is in the history."""
        return self._filter.is_active(filter_id)

    def has_transient_history(self):
        """True iff any transient declaration is active."""
        return self._filter.has_transient_history()

    def deactivate(self, geometry_set):
        """Omit the geometries of `geometry_set` from every candidate pair (filters kept)."""
        self._filter.set_active(geometry_set, False, self._model, "deactivate")
        self._changed()

    def activate(self, geometry_set):
        """Undo `deactivate` for the geometries of `geometry_set`."""
        self._filter.set_active(geometry_set, True, self._model, "activate")
        self._changed()

    def can_collide_with(self, id_A, id_B):
        """False if the pair (id_A, id_B) is filtered (declared or implicit)."""
        return self._model.can_collide(id_A, id_B, self._filter)
