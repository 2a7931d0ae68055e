"""The SceneGraph model (sources, frames, geometries, roles) and its read-only inspector.

`SceneGraphModel` is the registry SceneGraph owns: every frame and geometry a source
registered, with their poses and role properties, plus the model-level collision filter.
`SceneGraphInspector` (``scene_graph.model_inspector()`` or ``query.inspector()``) is the
read-only view users query, with Drake's method names.
"""

from dataclasses import dataclass, field

import numpy as np

from .bounding_box import calc_obb
from .collision_filter import CollisionFilter
from .geometry_version import ROLES_WITH_VERSIONS, GeometryVersion, new_role_revision
from .geometry_instance import FrameId, GeometryId, GeometryInstance, SourceId
from .properties import IllustrationProperties, PerceptionProperties, ProximityProperties
from .rigid_transform import RigidTransform

__all__ = ["SceneGraphModel", "SceneGraphInspector", "Role"]

WORLD_FRAME_ID = FrameId(0)
#: The name of the source every SceneGraph has from the start, owner of the world frame
#: (Drake's "SceneGraphInternal"); it has no pose port, and users cannot register it.
INTERNAL_SOURCE_NAME = "SceneGraphInternal"


class SceneGraphError(RuntimeError, ValueError):
    """A SceneGraph model lookup or edit that Drake refuses (std::logic_error there, so a
    RuntimeError; a ValueError too, for code written against merganser's earlier errors)."""


class Role:
    """Geometry roles (Drake's geometry::Role); Drake's member names ``Role.kProximity``
    ... are the same values."""

    UNASSIGNED = "unassigned"
    PROXIMITY = "proximity"
    ILLUSTRATION = "illustration"
    PERCEPTION = "perception"
    kUnassigned = UNASSIGNED
    kProximity = PROXIMITY
    kIllustration = ILLUSTRATION
    kPerception = PERCEPTION


_ROLE_OF_PROPERTIES = ((ProximityProperties, Role.PROXIMITY),
                       (IllustrationProperties, Role.ILLUSTRATION),
                       (PerceptionProperties, Role.PERCEPTION))


def role_of(properties, fn):
    for cls, role in _ROLE_OF_PROPERTIES:
        if isinstance(properties, cls):
            return role
    raise TypeError(f"{fn}: properties must be ProximityProperties, IllustrationProperties or "
                    f"PerceptionProperties, got {type(properties).__name__}")


@dataclass(eq=False)
class FrameRecord:
    """A registered frame: name, owner, parent frame and frame group."""

    id: FrameId
    name: str
    source_id: SourceId
    parent_id: FrameId
    frame_group: int
    geometries: list = field(default_factory=list)


@dataclass(eq=False)
class GeometryRecord:
    """A registered geometry: its frame, pose in that frame, shape and role properties."""

    id: GeometryId
    name: str
    source_id: SourceId
    frame_id: FrameId
    X_FG: np.ndarray
    shape: object
    roles: dict = field(default_factory=dict)


class SceneGraphModel:
    """Registry of sources, frames and geometries; ``version`` changes with every edit."""

    def __init__(self):
        self.internal_source = SourceId.get_new_id()     # owns the world frame (Drake's)
        self.sources = {self.internal_source: INTERNAL_SOURCE_NAME}   # SourceId -> name
        self.source_frames = {self.internal_source: []}              # SourceId -> [FrameId]
        self.source_anchored = {self.internal_source: []}            # SourceId -> [GeometryId]
        self.frames = {}             # FrameId -> FrameRecord (world excluded)
        self.geometries = {}         # GeometryId -> GeometryRecord
        self.filter = CollisionFilter()
        self.version = 0
        self.role_revisions = {role: new_role_revision() for role in ROLES_WITH_VERSIONS}

    def bump(self, roles=ROLES_WITH_VERSIONS):
        """Mark an edit; `roles` (an iterable of roles) names the roles whose geometry
        changed (all by default; none for frame or source edits)."""
        self.version += 1
        for role in roles:
            if role in self.role_revisions:
                self.role_revisions[role] = new_role_revision()

    # ---- checks ---------------------------------------------------------------------------
    def check_source(self, source_id, fn):
        if source_id not in self.sources:
            raise SceneGraphError(f"{fn}: source_id {source_id!r} is not a registered "
                                  f"source; registered: {list(self.sources.values())}")

    def check_frame(self, frame_id, fn, allow_world=True):
        if frame_id == WORLD_FRAME_ID and allow_world:
            return
        if frame_id not in self.frames:
            raise SceneGraphError(f"{fn}: frame_id {frame_id!r} is not a registered frame")

    def check_geometry(self, geometry_id, fn):
        if geometry_id not in self.geometries:
            raise SceneGraphError(f"{fn}: geometry_id {geometry_id!r} is not a registered "
                                  f"geometry")

    def frame_geometries(self, frame_id):
        if frame_id == WORLD_FRAME_ID:
            return [g for g, r in self.geometries.items() if r.frame_id == WORLD_FRAME_ID]
        return list(self.frames[frame_id].geometries)

    def is_anchored(self, geometry_id):
        return self.geometries[geometry_id].frame_id == WORLD_FRAME_ID

    def can_collide(self, id_A, id_B, collision_filter=None):
        """False for the same geometry, geometries of one frame, two anchored geometries or a
        declared filtered pair."""
        ga, gb = self.geometries[id_A], self.geometries[id_B]
        if id_A == id_B or ga.frame_id == gb.frame_id:
            return False
        f = self.filter if collision_filter is None else collision_filter
        return not f.is_filtered(id_A, id_B)

    def frame_body_like_group(self, frame_id):
        return self.frames[frame_id].frame_group if frame_id in self.frames else -1


class SceneGraphInspector:
    """Read-only view of a SceneGraph model (Drake's SceneGraphInspector).

    Parameters
    ----------
    model : SceneGraphModel or callable
        The model viewed, or a function returning ``(model, collision_filter)`` as they
        are when asked (the inspectors SceneGraph hands out: they follow later edits).
    collision_filter : CollisionFilter, optional
        The filter (None: the model's own); ignored when `model` is a function.
    """

    def __init__(self, model, collision_filter=None):
        self._source = model if callable(model) else (lambda: (model, collision_filter))

    @property
    def _m(self):
        return self._source()[0]

    @property
    def _filter(self):
        return self._source()[1]

    # ---- sizes and ids ---------------------------------------------------------------------
    def num_sources(self):
        return len(self._m.sources)

    def num_frames(self):
        """Number of frames, the world frame included."""
        return len(self._m.frames) + 1

    def num_geometries(self):
        return len(self._m.geometries)

    def num_anchored_geometries(self):
        return sum(1 for r in self._m.geometries.values() if r.frame_id == WORLD_FRAME_ID)

    def world_frame_id(self):
        return WORLD_FRAME_ID

    def get_all_frame_ids(self):
        return [WORLD_FRAME_ID] + list(self._m.frames)

    def get_all_geometry_ids(self, role=None):
        """All geometry ids (sorted), or those that have `role` (Drake's optional
        argument)."""
        if role is None:
            return sorted(self._m.geometries)
        return sorted(g for g, r in self._m.geometries.items() if role in r.roles)

    def get_geometry_ids(self, geometry_set=None, role=None):
        """Geometries of `geometry_set` (all if None) that have `role` (any if None)."""
        ids = (set(self._m.geometries) if geometry_set is None
               else geometry_set.resolve(self._m))
        if role is not None:
            ids = {g for g in ids if role in self._m.geometries[g].roles}
        return sorted(ids)

    def num_dynamic_geometries(self):
        """Number of geometries affixed to a frame other than the world's."""
        return self.num_geometries() - self.num_anchored_geometries()

    def num_geometries_with_role(self, role):
        return sum(1 for r in self._m.geometries.values() if role in r.roles)

    # ---- sources ---------------------------------------------------------------------------
    def source_is_registered(self, source_id):
        return source_id in self._m.sources

    @staticmethod
    def _one_id(fn, given):
        """The one id of `given` ({keyword: id or None}): pydrake's overloads by keyword
        (``source_id=``, ``frame_id=``, ``geometry_id=``) or the id by position."""
        ids = [(k, v) for k, v in given.items() if v is not None]
        if len(ids) != 1:
            raise TypeError(f"SceneGraphInspector.{fn}: expected one id (by position or as "
                            f"{', '.join(k + '=' for k in given if k != 'id_')}), got "
                            f"{len(ids)}")
        return ids[0][1]

    def get_name(self, id_=None, *, source_id=None, frame_id=None, geometry_id=None):
        """Name of a source, frame or geometry (the id by position, or by pydrake's
        keyword ``source_id=``, ``frame_id=`` or ``geometry_id=``)."""
        id_ = self._one_id("get_name", {"id_": id_, "source_id": source_id,
                                        "frame_id": frame_id, "geometry_id": geometry_id})
        if isinstance(id_, SourceId):
            self._m.check_source(id_, "SceneGraphInspector.get_name")
            return self._m.sources[id_]
        if isinstance(id_, FrameId):
            if id_ == WORLD_FRAME_ID:
                return "world"
            self._m.check_frame(id_, "SceneGraphInspector.get_name")
            return self._m.frames[id_].name
        self._m.check_geometry(id_, "SceneGraphInspector.get_name")
        return self._m.geometries[id_].name

    def get_owning_source_name(self, id_=None, *, frame_id=None, geometry_id=None):
        """Name of the source that registered a frame or geometry (the id by position, or
        by pydrake's keyword ``frame_id=`` or ``geometry_id=``)."""
        id_ = self._one_id("get_owning_source_name",
                           {"id_": id_, "frame_id": frame_id, "geometry_id": geometry_id})
        if isinstance(id_, FrameId):
            if id_ == WORLD_FRAME_ID:
                return INTERNAL_SOURCE_NAME
            self._m.check_frame(id_, "SceneGraphInspector.get_owning_source_name")
            return self._m.sources[self._m.frames[id_].source_id]
        return self._m.sources[self._geometry(id_, "get_owning_source_name").source_id]

    def get_all_source_ids(self):
        """The registered SourceIds (list), in registration order."""
        return list(self._m.sources)

    def num_frames_for_source(self, source_id):
        """Number of frames `source_id` registered (the world frame not counted)."""
        return len(self.frames_for_source(source_id))

    def belongs_to_source(self, frame_id=None, source_id=None, geometry_id=None):
        """True if the frame `frame_id` (or the geometry `geometry_id`) was registered by
        `source_id`; pydrake's keywords ``belongs_to_source(frame_id=, source_id=)`` or
        ``(geometry_id=, source_id=)``."""
        fn = "SceneGraphInspector.belongs_to_source"
        self._m.check_source(source_id, fn)
        if isinstance(frame_id, GeometryId) and geometry_id is None:
            frame_id, geometry_id = None, frame_id        # the positional geometry form
        if (frame_id is None) == (geometry_id is None):
            raise TypeError(f"{fn}: give exactly one of frame_id and geometry_id, got "
                            f"frame_id={frame_id!r}, geometry_id={geometry_id!r}")
        if geometry_id is not None:
            return self._geometry(geometry_id, "belongs_to_source").source_id == source_id
        self._m.check_frame(frame_id, fn, False)
        return self._m.frames[frame_id].source_id == source_id

    def frames_for_source(self, source_id):
        """The FrameIds registered by `source_id` (a set, as pydrake's)."""
        self._m.check_source(source_id, "SceneGraphInspector.frames_for_source")
        return set(self._m.source_frames[source_id])

    # ---- frames ----------------------------------------------------------------------------
    def get_parent_frame(self, frame_id):
        self._m.check_frame(frame_id, "SceneGraphInspector.get_parent_frame", False)
        return self._m.frames[frame_id].parent_id

    def get_frame_group(self, frame_id):
        """The frame group of a frame (the world frame's is 0)."""
        if frame_id == WORLD_FRAME_ID:
            return 0
        self._m.check_frame(frame_id, "SceneGraphInspector.get_frame_group", False)
        return self._m.frames[frame_id].frame_group

    def num_geometries_for_frame(self, frame_id):
        self._m.check_frame(frame_id, "SceneGraphInspector.num_geometries_for_frame")
        return len(self._m.frame_geometries(frame_id))

    def num_geometries_for_frame_with_role(self, frame_id, role):
        """Number of geometries on `frame_id` that have `role`."""
        return len(self.get_geometries(frame_id, role))

    def get_geometries(self, frame_id, role=None):
        self._m.check_frame(frame_id, "SceneGraphInspector.get_geometries")
        return sorted(g for g in self._m.frame_geometries(frame_id)
                      if role is None or role in self._m.geometries[g].roles)

    def get_geometry_id_by_name(self, frame_id, role, name):
        """The geometry named `name` with `role` on `frame_id` (raises if none)."""
        for g in self._m.frame_geometries(frame_id):
            r = self._m.geometries[g]
            if r.name == name and (role is None or role in r.roles):
                return g
        raise ValueError(f"SceneGraphInspector.get_geometry_id_by_name: frame "
                         f"{self.get_name(frame_id)!r} has no geometry named {name!r} with role "
                         f"{role!r}")

    # ---- geometries ------------------------------------------------------------------------
    def _geometry(self, geometry_id, fn):
        self._m.check_geometry(geometry_id, f"SceneGraphInspector.{fn}")
        return self._m.geometries[geometry_id]

    def get_frame_id(self, geometry_id):
        return self._geometry(geometry_id, "get_frame_id").frame_id

    def get_shape(self, geometry_id):
        return self._geometry(geometry_id, "get_shape").shape

    def get_obb_in_geometry_frame(self, geometry_id):
        """The oriented bounding box of the geometry's shape in its frame G (an Obb, see
        `geometry.bounding_box.calc_obb`), or None for a HalfSpace."""
        return calc_obb(self._geometry(geometry_id, "get_obb_in_geometry_frame").shape)

    def geometry_version(self):
        """The model's GeometryVersion (a snapshot: per-role revisions)."""
        return GeometryVersion.of_revisions(self._m.role_revisions)

    def get_pose_in_frame(self, geometry_id):
        """X_FG (RigidTransform) of the geometry in its frame."""
        return RigidTransform(self._geometry(geometry_id, "get_pose_in_frame").X_FG)

    def is_anchored(self, geometry_id):
        return self._geometry(geometry_id, "is_anchored").frame_id == WORLD_FRAME_ID

    def clone_geometry_instance(self, geometry_id):
        """A GeometryInstance (with a new id) of the geometry `geometry_id`: its pose X_FG
        in its frame, shape, name and the properties of each of its roles."""
        rec = self._geometry(geometry_id, "clone_geometry_instance")
        instance = GeometryInstance(RigidTransform(rec.X_FG), rec.shape, rec.name)
        for props in rec.roles.values():
            if isinstance(props, ProximityProperties):
                instance.set_proximity_properties(props)
            elif isinstance(props, IllustrationProperties):
                instance.set_illustration_properties(props)
            elif isinstance(props, PerceptionProperties):
                instance.set_perception_properties(props)
        return instance

    def get_properties(self, geometry_id, role):
        return self._geometry(geometry_id, "get_properties").roles.get(role)

    def get_proximity_properties(self, geometry_id):
        return self.get_properties(geometry_id, Role.PROXIMITY)

    def get_illustration_properties(self, geometry_id):
        return self.get_properties(geometry_id, Role.ILLUSTRATION)

    def get_perception_properties(self, geometry_id):
        return self.get_properties(geometry_id, Role.PERCEPTION)

    # ---- collision filtering -----------------------------------------------------------------
    def collision_filtered(self, geometry_id1, geometry_id2):
        """True if the pair is filtered (declared or implicit)."""
        self._geometry(geometry_id1, "collision_filtered")
        self._geometry(geometry_id2, "collision_filtered")
        return not self._m.can_collide(geometry_id1, geometry_id2, self._filter)

    def get_collision_candidates(self):
        """Sorted list of unfiltered pairs (id_A, id_B), id_A < id_B, of proximity geometries."""
        ids = self.get_geometry_ids(role=Role.PROXIMITY)
        out = []
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                if self._m.can_collide(a, b, self._filter):
                    out.append((a, b))
        return out
