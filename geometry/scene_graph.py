"""SceneGraph: the system that stores geometry and answers proximity queries.

::

                        ┌────────────┐
    <source>_pose ─────>│ SceneGraph │──> query (QueryObject)
                        └────────────┘

Sources (a MultibodyPlant, or any system) register themselves (`register_source`), their
moving frames (`register_frame`) and geometries affixed to those frames
(`register_geometry`) or to the world (`register_anchored_geometry`), and assign roles
with properties (`assign_role`). Each source gets an input port ``<source name>_pose``
that takes a `FramePoseVector` with the pose of each of its frames in its parent frame
(the world for frames registered directly on it). The ``query`` output gives a
`QueryObject` bound to the evaluating Context.

Registration changes the model shared by every Context created afterwards; collision
filters can be changed for the model (``collision_filter_manager()``) or for one Context
(``collision_filter_manager(context)``).
"""

import threading

import numpy as np

from merganser.framework import LeafSystem

from .collision_filter import CollisionFilterManager
from .geometry_instance import FrameId, GeometryFrame, GeometryInstance, SourceId
from .inspector import (
    WORLD_FRAME_ID, FrameRecord, GeometryRecord, Role, SceneGraphInspector, SceneGraphModel,
    role_of,
)
from .proximity.tables import ProximityEngine, ProximityTables
from .query_object import QueryObject
from .rigid_transform import RigidTransform
from .shapes import Shape
from .scene_graph_config import (
    DefaultProximityProperties, SceneGraphConfig, backfill_proximity_defaults,
)

__all__ = ["SceneGraph", "FramePoseVector"]

_EYE4 = np.eye(4)


class FramePoseVector:
    """Poses X_PF of a source's frames in their parent frames, keyed by FrameId.

    Parameters
    ----------
    frame_ids : iterable of FrameId, optional
        Frames to hold (identity poses), in a fixed order.
    """

    def __init__(self, frame_ids=()):
        self._ids = list(frame_ids)
        self._index = {f: i for i, f in enumerate(self._ids)}
        self._X = np.tile(_EYE4, (len(self._ids), 1, 1))
        self._slots = None

    def set_value(self, id, value):  # noqa: A002 (pydrake's keyword)
        """Set the pose X_PF `value` (RigidTransform or (4, 4)) of the frame `id`
        (FrameId), adding the frame if it is new."""
        frame_id = id
        M = value.get_as_matrix4() if isinstance(value, RigidTransform) else np.asarray(
            value, dtype=float)
        if M.shape != (4, 4):
            raise ValueError(f"FramePoseVector.set_value: value must be a RigidTransform or a "
                             f"(4, 4) matrix, got shape {M.shape}")
        i = self._index.get(frame_id)
        if i is None:
            if not isinstance(frame_id, FrameId):
                raise TypeError(f"FramePoseVector.set_value: id must be a FrameId, got "
                                f"{type(frame_id).__name__}")
            self._index[frame_id] = i = len(self._ids)
            self._ids.append(frame_id)
            self._X = np.concatenate([self._X, M[None]], axis=0)
            self._slots = None
        else:
            self._X[i] = M

    def value(self, id):  # noqa: A002 (pydrake's keyword)
        """X_PF (RigidTransform) of the frame `id`.

        Raises
        ------
        KeyError
            If the vector has no pose for `id` (the message lists how many it has).
        """
        i = self._index.get(id)
        if i is None:
            raise KeyError(f"FramePoseVector.value: no pose for {id!r} (the vector holds "
                           f"{len(self._ids)} frames; see ids())")
        return RigidTransform(self._X[i])

    def has_id(self, id):  # noqa: A002 (pydrake's keyword)
        """True if the vector holds a pose for the frame `id`."""
        return id in self._index

    def ids(self):
        """The FrameIds held, in insertion order (list)."""
        return list(self._ids)

    def size(self):
        """The number of frames held."""
        return len(self._ids)

    def clear(self):
        """Remove every frame."""
        self._ids, self._index, self._X, self._slots = [], {}, np.zeros((0, 4, 4)), None

    def matrices(self):
        """The poses as an array (size(), 4, 4) in `ids()` order (writable)."""
        return self._X


def _no_query():
    """Model value of the query output (the QueryObject is made by the calc)."""
    return None


class _ContextFilter:
    """Abstract state of SceneGraph: a Context's own collision filter (None: the model's)."""

    def __init__(self, collision_filter=None):
        self.filter = collision_filter


class _PoseCache:
    """Per-Context frame poses X_WF (slots, 4, 4) and geometry poses X_WG."""

    def __init__(self):
        self.X_WF = np.tile(_EYE4, (1, 1, 1))     # the world frame alone
        self.engine = None


class SceneGraph(LeafSystem):
    """The geometry world: sources, frames, geometries, roles and proximity queries (see
    the module docstring)."""

    def __init__(self, config=None):
        super().__init__()
        self.set_name("scene_graph")
        self._model = SceneGraphModel()
        self._proximity_as_given = {}
        self._config = None
        self.set_config(SceneGraphConfig(
            default_proximity_properties=DefaultProximityProperties.none())
            if config is None else config)
        self._source_ports = {}
        self._frame_slot = {WORLD_FRAME_ID: 0}
        self._nested_frames = []
        self._tables = {}
        self._last_tables = None
        self._xa_filter = self.declare_abstract_state(_ContextFilter())
        self._pose_cache = self.declare_cache_entry(
            "geometry poses", _PoseCache, self._calc_poses, [self.all_input_ports_ticket()])
        self._query_port = self.declare_abstract_output_port(
            "query", _no_query, self._calc_query,
            [self.all_input_ports_ticket(), self.xa_ticket()])

    # ---- registration ------------------------------------------------------------------------
    def register_source(self, name="source"):
        """Register a geometry source; declares its ``<name>_pose`` input port."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"SceneGraph.register_source: name must be a non-empty str, got "
                             f"{name!r}")
        if name in self._model.sources.values():
            raise ValueError(f"SceneGraph.register_source: a source named {name!r} already "
                             f"exists")
        source_id = SourceId.get_new_id()
        self._model.sources[source_id] = name
        self._model.source_frames[source_id] = []
        self._model.source_anchored[source_id] = []
        self._source_ports[source_id] = self.declare_abstract_input_port(
            f"{name}_pose", FramePoseVector(), required=False)
        self._model.bump()
        return source_id

    def source_is_registered(self, source_id):
        return source_id in self._model.sources

    def register_frame(self, source_id, parent_id=None, frame=None):
        """Register a frame: ``register_frame(source_id, frame)`` (parent: the world) or
        ``register_frame(source_id, parent_id, frame)``, positionally or with pydrake's
        keywords; `frame` is a GeometryFrame. Returns its FrameId."""
        fn = "SceneGraph.register_frame"
        self._model.check_source(source_id, fn)
        if frame is None and isinstance(parent_id, GeometryFrame):
            parent_id, frame = None, parent_id
        if parent_id is None:
            parent = WORLD_FRAME_ID
        else:
            parent = parent_id
            self._model.check_frame(parent, fn)
            if parent != WORLD_FRAME_ID and self._model.frames[parent].source_id != source_id:
                raise ValueError(f"{fn}: parent frame {parent!r} belongs to another source")
        if not isinstance(frame, GeometryFrame):
            raise TypeError(f"{fn}: frame must be a GeometryFrame, got {type(frame).__name__}")
        if frame.id() in self._model.frames:
            raise ValueError(f"{fn}: frame {frame.name()!r} ({frame.id()}) is already registered")
        self._model.frames[frame.id()] = FrameRecord(frame.id(), frame.name(), source_id, parent,
                                                     frame.frame_group())
        self._model.source_frames[source_id].append(frame.id())
        self._frame_slot[frame.id()] = len(self._frame_slot)
        if parent != WORLD_FRAME_ID:
            self._nested_frames.append(frame.id())
        self._model.bump()
        return frame.id()

    def register_geometry(self, source_id, frame_id, geometry):
        """Affix `geometry` (GeometryInstance) to frame `frame_id` of `source_id` (the world
        frame id registers an anchored geometry); returns its GeometryId."""
        fn = "SceneGraph.register_geometry"
        self._model.check_source(source_id, fn)
        self._model.check_frame(frame_id, fn)
        if frame_id != WORLD_FRAME_ID and self._model.frames[frame_id].source_id != source_id:
            raise ValueError(f"{fn}: frame {frame_id!r} does not belong to source "
                             f"{self._model.sources[source_id]!r}")
        return self._add_geometry(source_id, frame_id, geometry, fn)

    def register_anchored_geometry(self, source_id, geometry):
        """Affix `geometry` to the world; returns its GeometryId."""
        fn = "SceneGraph.register_anchored_geometry"
        self._model.check_source(source_id, fn)
        return self._add_geometry(source_id, WORLD_FRAME_ID, geometry, fn)

    def _add_geometry(self, source_id, frame_id, geometry, fn):
        if not isinstance(geometry, GeometryInstance):
            raise TypeError(f"{fn}: geometry must be a GeometryInstance, got "
                            f"{type(geometry).__name__}")
        gid = geometry.id()
        if gid in self._model.geometries:
            raise ValueError(f"{fn}: geometry {geometry.name()!r} ({gid}) is already registered")
        for other in self._model.frame_geometries(frame_id):
            if self._model.geometries[other].name == geometry.name():
                raise ValueError(f"{fn}: frame already has a geometry named "
                                 f"{geometry.name()!r}")
        rec = GeometryRecord(gid, geometry.name(), source_id, frame_id,
                             geometry.pose().get_as_matrix4(), geometry.shape())
        self._model.geometries[gid] = rec
        if frame_id == WORLD_FRAME_ID:
            self._model.source_anchored[source_id].append(gid)
        else:
            self._model.frames[frame_id].geometries.append(gid)
        for props in (geometry.proximity_properties(), geometry.illustration_properties(),
                      geometry.perception_properties()):
            if props is not None:
                self._set_role(rec, role_of(props, fn), props)
        self._model.bump()
        return gid

    def _set_role(self, rec, role, properties):
        """Store `properties` for `role`; proximity ones with the config's defaults."""
        if role == Role.kProximity:
            self._proximity_as_given[rec.id] = properties
            properties = backfill_proximity_defaults(
                properties, self._config.default_proximity_properties)
        rec.roles[role] = properties

    def set_config(self, config):
        """Use `config` (a SceneGraphConfig): its default proximity properties fill what
        every proximity geometry, present and future, lacks (`geometry.scene_graph_config`)."""
        if not isinstance(config, SceneGraphConfig):
            raise TypeError(f"SceneGraph.set_config: config must be a SceneGraphConfig, got "
                            f"{type(config).__name__}")
        self._config = config.model_copy(deep=True)
        for gid, given in self._proximity_as_given.items():
            rec = self._model.geometries.get(gid)
            if rec is not None and Role.kProximity in rec.roles:
                self._set_role(rec, Role.kProximity, given)
        self._model.bump()

    def get_config(self):
        """The SceneGraphConfig in use (a copy)."""
        return self._config.model_copy(deep=True)

    def assign_role(self, source_id, geometry_id, properties, assign="new"):
        """Give a geometry the role of `properties` (Proximity/Illustration/Perception).

        ``assign="new"`` raises if the role is already assigned; ``"replace"`` replaces it.
        """
        fn = "SceneGraph.assign_role"
        rec = self._owned_geometry(source_id, geometry_id, fn)
        role = role_of(properties, fn)
        if assign not in ("new", "replace"):
            raise ValueError(f"{fn}: assign must be 'new' or 'replace', got {assign!r}")
        if assign == "new" and role in rec.roles:
            raise ValueError(f"{fn}: geometry {rec.name!r} already has the {role} role; use "
                             f"assign='replace'")
        self._set_role(rec, role, properties)
        self._model.bump()

    # ---- model edits (Drake's RenameFrame, RenameGeometry, ChangeShape, RemoveGeometry) ----
    def rename_frame(self, frame_id, name):
        """Give the frame `frame_id` the new `name` (unique among its source's frames)."""
        fn = "SceneGraph.rename_frame"
        self._model.check_frame(frame_id, fn, allow_world=False)
        rec = self._model.frames[frame_id]
        taken = [self._model.frames[f].name for f in self._model.source_frames[rec.source_id]
                 if f != frame_id]
        if not isinstance(name, str) or not name or name in taken:
            raise ValueError(f"{fn}: name must be a non-empty str not used by another frame of "
                             f"source {self._model.sources[rec.source_id]!r}, got {name!r}")
        rec.name = name
        self._model.bump()

    def rename_geometry(self, geometry_id, name):
        """Give the geometry `geometry_id` the new `name` (unique among its frame's)."""
        fn = "SceneGraph.rename_geometry"
        self._model.check_geometry(geometry_id, fn)
        rec = self._model.geometries[geometry_id]
        taken = [self._model.geometries[g].name for g in self._model.frame_geometries(rec.frame_id)
                 if g != geometry_id]
        if not isinstance(name, str) or not name or name in taken:
            raise ValueError(f"{fn}: name must be a non-empty str not used by another geometry "
                             f"of its frame, got {name!r}")
        rec.name = name
        self._model.bump()

    def change_shape(self, source_id, geometry_id, shape, X_FG=None):
        """Replace the shape of `geometry_id` (and, if given, its pose X_FG in its frame);
        its roles and properties stay."""
        fn = "SceneGraph.change_shape"
        rec = self._owned_geometry(source_id, geometry_id, fn)
        if not isinstance(shape, Shape):
            raise TypeError(f"{fn}: shape must be a Shape, got {type(shape).__name__}")
        if X_FG is not None:
            rec.X_FG = (X_FG if isinstance(X_FG, RigidTransform)
                        else RigidTransform(X_FG)).get_as_matrix4()
        rec.shape = shape
        self._model.bump()

    def remove_geometry(self, source_id, geometry_id):
        """Remove the geometry `geometry_id` (of `source_id`) and its roles. A plant's
        geometry must not be removed after the plant is finalized."""
        fn = "SceneGraph.remove_geometry"
        rec = self._owned_geometry(source_id, geometry_id, fn)
        del self._model.geometries[geometry_id]
        if rec.frame_id == WORLD_FRAME_ID:
            self._model.source_anchored[source_id].remove(geometry_id)
        else:
            self._model.frames[rec.frame_id].geometries.remove(geometry_id)
        self._proximity_as_given.pop(geometry_id, None)
        self._model.bump()

    def _owned_geometry(self, source_id, geometry_id, fn):
        self._model.check_source(source_id, fn)
        self._model.check_geometry(geometry_id, fn)
        rec = self._model.geometries[geometry_id]
        if rec.source_id != source_id:
            raise ValueError(f"{fn}: geometry {rec.name!r} does not belong to source "
                             f"{self._model.sources[source_id]!r}")
        return rec

    def remove_role(self, source_id, geometry_id, role):
        """Remove `role` from a geometry; returns 1 if it had it, else 0."""
        self._model.check_source(source_id, "SceneGraph.remove_role")
        self._model.check_geometry(geometry_id, "SceneGraph.remove_role")
        had = self._model.geometries[geometry_id].roles.pop(role, None) is not None
        self._model.bump()
        return int(had)

    # ---- accessors ---------------------------------------------------------------------------
    def model_inspector(self):
        """SceneGraphInspector of the model."""
        return SceneGraphInspector(self._model)

    def get_query_output_port(self):
        """The ``query`` output port (QueryObject)."""
        return self._query_port

    def get_source_pose_port(self, source_id):
        """The ``<source>_pose`` input port of a registered source."""
        self._model.check_source(source_id, "SceneGraph.get_source_pose_port")
        return self._source_ports[source_id]

    def world_frame_id(self):
        return WORLD_FRAME_ID

    def collision_filter_manager(self, context=None):
        """CollisionFilterManager of the model (context None) or of `context` only."""
        if context is None:
            return CollisionFilterManager(self._model, self._model.filter)
        ctx = self._context_from(context, "SceneGraph.collision_filter_manager")
        state = ctx.get_abstract_state(self._xa_filter).get_value()
        if state.filter is None:
            state = _ContextFilter(self._model.filter.copy())
            ctx.set_abstract_state(self._xa_filter, state)
        return CollisionFilterManager(
            self._model, state.filter,
            on_change=lambda: ctx.set_abstract_state(self._xa_filter, state))

    # ---- evaluation --------------------------------------------------------------------------
    def _filter_for(self, ctx):
        state = ctx._xa[self._xa_filter].get_value()     # (ctx: this system's own context)
        return self._model.filter if state is None or state.filter is None else state.filter

    def _inspector_for(self, ctx):
        return SceneGraphInspector(self._model, self._filter_for(ctx))

    def _calc_query(self, context, value):
        # A QueryObject reads the context when asked, so the one already held for this
        # context stays valid.
        held = value._value
        if held.__class__ is not QueryObject or held._ctx is not context or held._sg is not self:
            value.set_value(QueryObject(self, context))

    def _tables_for(self, collision_filter):
        """The ProximityEngine of the model and `collision_filter` as they are now (one per
        model version, filter object, filter version and thread: an engine holds the poses
        and work arrays of its last query, so threads must not share one; the last one is
        looked up first)."""
        key = (self._model.version, id(collision_filter), collision_filter.version,
               threading.get_ident())
        last = self._last_tables
        if last is not None and last[0] == key and last[1] is collision_filter:
            return last[2]
        held = self._tables.get(key)
        if held is None or held[0] is not collision_filter:     # (an id may be reused)
            if len(self._tables) > 8:
                self._tables.clear()
            held = (collision_filter, ProximityEngine(
                ProximityTables(self._model, collision_filter, self._frame_slot)))
            self._tables[key] = held
        self._last_tables = (key, collision_filter, held[1])
        return held[1]

    def _calc_poses(self, context, cache):
        n = len(self._frame_slot)
        if cache.X_WF.shape[0] != n:
            cache.X_WF = np.tile(_EYE4, (n, 1, 1))
        X_WF = cache.X_WF
        inputs = context._inputs
        for port in self._source_ports.values():
            if inputs[port._index] is None:        # neither connected nor fixed
                continue
            fpv = port.eval(context)
            if fpv is None or not fpv._ids:
                continue
            slots = fpv._slots
            if slots is None or slots[0] != self._model.version:
                try:
                    idx = np.array([self._frame_slot[f] for f in fpv._ids], dtype=np.int64)
                except KeyError as e:
                    raise ValueError(f"SceneGraph: input port "
                                     f"'{port.get_name()}' has a pose for unregistered frame "
                                     f"{e.args[0]!r}") from None
                if idx.size and np.array_equal(idx, np.arange(idx[0], idx[0] + idx.size)):
                    idx = slice(int(idx[0]), int(idx[0]) + idx.size)   # contiguous: a view
                slots = fpv._slots = (self._model.version, idx)
            X_WF[slots[1]] = fpv._X
        for f in self._nested_frames:
            parent = self._model.frames[f].parent_id
            k = self._frame_slot[f]
            X_WF[k] = X_WF[self._frame_slot[parent]] @ X_WF[k]
        cache.engine = None

    def _eval_proximity(self, context):
        """The ProximityEngine with geometry poses updated for `context`."""
        cache = self._pose_cache.eval(context)
        engine = self._tables_for(self._filter_for(context))
        engine.update_poses(cache.X_WF)
        return engine

    def _geometry_pose_in_world(self, context, geometry_id):
        self._model.check_geometry(geometry_id, "QueryObject.get_pose_in_world")
        cache = self._pose_cache.eval(context)
        rec = self._model.geometries[geometry_id]
        return RigidTransform(cache.X_WF[self._frame_slot[rec.frame_id]] @ rec.X_FG)

    def __repr__(self):
        return (f"<SceneGraph '{self.get_name()}' ({len(self._model.sources)} sources, "
                f"{len(self._model.geometries)} geometries)>")

