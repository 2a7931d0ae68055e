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
(``collision_filter_manager(context)``). The model edits also have Drake's Context
variants, given the Context first (``register_geometry(context, ...)``,
``change_shape(context, ...)``, ``remove_geometry(context, ...)``,
``assign_role(context, ...)``, ``remove_role(context, ...)``): they change that Context's
own copy of the model (made at its first edit; until then a Context reads the system's),
and neither the system's model nor any other Context.
"""

import copy
import threading

import numpy as np

from merganser.framework import Context, LeafSystem

from .collision_filter import CollisionFilterManager
from .geometry_instance import FrameId, GeometryFrame, GeometryInstance, SourceId
from .inspector import (
    WORLD_FRAME_ID, FrameRecord, GeometryRecord, Role, SceneGraphError, SceneGraphInspector,
    SceneGraphModel, role_of,
)
from .proximity.tables import ProximityEngine, ProximityTables
from .query_object import QueryObject
from .renderer_queries import RendererQueries
from .frame_pose_vector import FramePoseVector
from .rigid_transform import RigidTransform
from .shapes import Shape
from .scene_graph_config import (
    DefaultProximityProperties, SceneGraphConfig, backfill_proximity_defaults,
)

__all__ = ["SceneGraph", "FramePoseVector"]

_EYE4 = np.eye(4)


def _no_query():
    """Model value of the query output (the QueryObject is made by the calc)."""
    return None


class _ContextGeometry:
    """Abstract state of SceneGraph: a Context's own collision filter and its copy of the
    model (None: the system's).

    The declared model value holds the SceneGraph (``sg``) instead: each copy made of it
    for a new Context takes the system's model as it is then, by reference (Drake's
    Context holds the GeometryState of its creation); the system copies its model before
    its next edit (``SceneGraph._own_model``) and a Context copies its own before an edit
    of it (``SceneGraph._edit``), so later edits of either never reach the other."""

    def __init__(self, collision_filter=None, model=None, sg=None):
        self.filter = collision_filter
        self.model = model
        self.sg = sg

    def __deepcopy__(self, memo):
        sg = self.sg
        if sg is None or id(sg) in memo:            # a Context's value, or a copied system
            return _ContextGeometry(copy.deepcopy(self.filter, memo),
                                    self.model if sg is None else None,
                                    copy.deepcopy(sg, memo))
        sg._model_shared = True
        return _ContextGeometry(copy.deepcopy(self.filter, memo), sg._model)


def _split_context(args, kwargs):
    """``(context or None, args, kwargs)``: the Context given first (positionally or as
    ``context=``) of a method with Drake's Context-modifying variant."""
    if "context" in kwargs:
        kwargs = dict(kwargs)
        return kwargs.pop("context"), args, kwargs
    if args and isinstance(args[0], Context):
        return args[0], args[1:], kwargs
    return None, args, kwargs


class _PoseCache:
    """Per-Context frame poses X_WF (slots, 4, 4); ``engine``: the ProximityEngine last
    posed from them (None after they change)."""

    def __init__(self):
        self.X_WF = np.tile(_EYE4, (1, 1, 1))     # the world frame alone
        self.engine = None


class SceneGraph(RendererQueries, LeafSystem):
    """The geometry world: sources, frames, geometries, roles and proximity queries (see
    the module docstring); no renderers (`geometry.renderer_queries`)."""

    def __init__(self, config=None):
        super().__init__()
        self.set_name("scene_graph")
        self._model = SceneGraphModel()
        self._model_shared = False      # a Context holds self._model (see _ContextGeometry)
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
        self._xa_filter = self.declare_abstract_state(_ContextGeometry(sg=self))
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
        self._model.bump(roles=())
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
        self._model.bump(roles=())
        return frame.id()

    def register_geometry(self, *args, **kwargs):
        """``register_geometry([context,] source_id, frame_id, geometry)``: affix `geometry`
        (GeometryInstance) to frame `frame_id` of `source_id` (the world frame id registers
        an anchored geometry) in the model, or only in `context`'s copy of it; returns its
        GeometryId."""
        context, args, kwargs = _split_context(args, kwargs)
        return self._edit(context, "SceneGraph.register_geometry", self._register_geometry,
                          *args, **kwargs)

    def _register_geometry(self, model, source_id, frame_id, geometry):
        fn = "SceneGraph.register_geometry"
        model.check_source(source_id, fn)
        model.check_frame(frame_id, fn)
        if frame_id != WORLD_FRAME_ID and model.frames[frame_id].source_id != source_id:
            raise SceneGraphError(f"{fn}: frame {frame_id!r} does not belong to source "
                                  f"{model.sources[source_id]!r}")
        return self._add_geometry(model, source_id, frame_id, geometry, fn)

    def register_anchored_geometry(self, source_id, geometry):
        """Affix `geometry` to the world; returns its GeometryId."""
        fn = "SceneGraph.register_anchored_geometry"
        self._model.check_source(source_id, fn)
        return self._add_geometry(self._own_model(), source_id, WORLD_FRAME_ID, geometry, fn)

    def _add_geometry(self, model, source_id, frame_id, geometry, fn):
        if not isinstance(geometry, GeometryInstance):
            raise TypeError(f"{fn}: geometry must be a GeometryInstance, got "
                            f"{type(geometry).__name__}")
        gid = geometry.id()
        if gid in model.geometries:
            raise SceneGraphError(f"{fn}: geometry {geometry.name()!r} ({gid}) is already "
                                  f"registered")
        roles = [role_of(props, fn) for props in (
            geometry.proximity_properties(), geometry.illustration_properties(),
            geometry.perception_properties()) if props is not None]
        for role in roles:
            _check_name_free(model, frame_id, geometry.name(), role, None, fn)
        rec = GeometryRecord(gid, geometry.name(), source_id, frame_id,
                             geometry.pose().get_as_matrix4(), geometry.shape())
        model.geometries[gid] = rec
        if frame_id == WORLD_FRAME_ID:
            model.source_anchored[source_id].append(gid)
        else:
            model.frames[frame_id].geometries.append(gid)
        for props in (geometry.proximity_properties(), geometry.illustration_properties(),
                      geometry.perception_properties()):
            if props is not None:
                self._set_role(model, rec, role_of(props, fn), props)
        model.bump(roles=tuple(rec.roles))
        return gid

    def _set_role(self, model, rec, role, properties):
        """Store `properties` for `role`; proximity ones with the config's defaults (those
        of the system's model are remembered as given, for `set_config`)."""
        if role == Role.kProximity:
            if model is self._model:
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
        self._own_model()
        for gid, given in self._proximity_as_given.items():
            rec = self._model.geometries.get(gid)
            if rec is not None and Role.kProximity in rec.roles:
                self._set_role(self._model, rec, Role.kProximity, given)
        self._model.bump(roles=(Role.kProximity,))

    def get_config(self):
        """The SceneGraphConfig in use (a copy)."""
        return self._config.model_copy(deep=True)

    def assign_role(self, *args, **kwargs):
        """``assign_role([context,] source_id, geometry_id, properties, assign="new")``:
        give a geometry the role of `properties` (Proximity/Illustration/Perception), in
        the model or only in `context`'s copy of it.

        ``assign="new"`` raises if the role is already assigned; ``"replace"`` replaces it.
        """
        context, args, kwargs = _split_context(args, kwargs)
        return self._edit(context, "SceneGraph.assign_role", self._assign_role, *args, **kwargs)

    def _assign_role(self, model, source_id, geometry_id, properties, assign="new"):
        fn = "SceneGraph.assign_role"
        rec = self._owned_geometry(model, source_id, geometry_id, fn)
        role = role_of(properties, fn)
        if assign not in ("new", "replace"):
            raise SceneGraphError(f"{fn}: assign must be 'new' or 'replace', got {assign!r}")
        if assign == "new" and role in rec.roles:
            raise SceneGraphError(f"{fn}: geometry {rec.name!r} already has the {role} role; "
                                  f"use assign='replace'")
        _check_name_free(model, rec.frame_id, rec.name, role, rec.id, fn)
        self._set_role(model, rec, role, properties)
        model.bump(roles=(role,))

    # ---- model edits (Drake's RenameFrame, RenameGeometry, ChangeShape, RemoveGeometry) ----
    def rename_frame(self, frame_id, name):
        """Give the frame `frame_id` the new `name` (unique among its source's frames)."""
        fn = "SceneGraph.rename_frame"
        self._own_model()
        self._model.check_frame(frame_id, fn, allow_world=False)
        rec = self._model.frames[frame_id]
        _rename(self._model, rec, fn, name,
                [self._model.frames[f].name for f in self._model.source_frames[rec.source_id]
                 if f != frame_id], f"frame of source {self._model.sources[rec.source_id]!r}")

    def rename_geometry(self, geometry_id, name):
        """Give the geometry `geometry_id` the new `name` (unique among its frame's)."""
        fn = "SceneGraph.rename_geometry"
        self._own_model()
        self._model.check_geometry(geometry_id, fn)
        rec = self._model.geometries[geometry_id]
        _rename(self._model, rec, fn, name,
                [self._model.geometries[g].name for g in self._model.frame_geometries(rec.frame_id)
                 if g != geometry_id and set(self._model.geometries[g].roles) & set(rec.roles)],
                "geometry of its frame sharing one of its roles")

    def change_shape(self, *args, **kwargs):
        """``change_shape([context,] source_id, geometry_id, shape, X_FG=None)``: replace
        the shape of `geometry_id` (and, if given, its pose X_FG in its frame), in the model
        or only in `context`'s copy of it; its roles and properties stay."""
        context, args, kwargs = _split_context(args, kwargs)
        return self._edit(context, "SceneGraph.change_shape", self._change_shape, *args, **kwargs)

    def _change_shape(self, model, source_id, geometry_id, shape, X_FG=None):
        fn = "SceneGraph.change_shape"
        rec = self._owned_geometry(model, source_id, geometry_id, fn)
        if not isinstance(shape, Shape):
            raise TypeError(f"{fn}: shape must be a Shape, got {type(shape).__name__}")
        if X_FG is not None:
            rec.X_FG = (X_FG if isinstance(X_FG, RigidTransform)
                        else RigidTransform(X_FG)).get_as_matrix4()
        rec.shape = shape
        model.bump(roles=tuple(rec.roles))

    def remove_geometry(self, *args, **kwargs):
        """``remove_geometry([context,] source_id, geometry_id)``: remove the geometry
        `geometry_id` (of `source_id`) and its roles from the model, or only from
        `context`'s copy of it. A plant's geometry must not be removed from the model after
        the plant is finalized."""
        context, args, kwargs = _split_context(args, kwargs)
        return self._edit(context, "SceneGraph.remove_geometry", self._remove_geometry,
                          *args, **kwargs)

    def _remove_geometry(self, model, source_id, geometry_id):
        fn = "SceneGraph.remove_geometry"
        rec = self._owned_geometry(model, source_id, geometry_id, fn)
        del model.geometries[geometry_id]
        if rec.frame_id == WORLD_FRAME_ID:
            model.source_anchored[source_id].remove(geometry_id)
        else:
            model.frames[rec.frame_id].geometries.remove(geometry_id)
        if model is self._model:
            self._proximity_as_given.pop(geometry_id, None)
        model.bump(roles=tuple(rec.roles))

    @staticmethod
    def _owned_geometry(model, source_id, geometry_id, fn):
        model.check_source(source_id, fn)
        model.check_geometry(geometry_id, fn)
        rec = model.geometries[geometry_id]
        if rec.source_id != source_id:
            raise SceneGraphError(f"{fn}: geometry {rec.name!r} does not belong to source "
                                  f"{model.sources[source_id]!r}")
        return rec

    def remove_role(self, *args, **kwargs):
        """``remove_role([context,] source_id, geometry_id, role)`` removes `role` from a
        geometry (returns 1 if it had it, else 0); ``remove_role([context,] source_id,
        frame_id, role)`` from every geometry of the source on that frame (returns how
        many had it). In the model, or only in `context`'s copy of it."""
        context, args, kwargs = _split_context(args, kwargs)
        return self._edit(context, "SceneGraph.remove_role", self._remove_role, *args, **kwargs)

    def _remove_role(self, model, source_id, geometry_id=None, role=None, frame_id=None):
        fn = "SceneGraph.remove_role"
        model.check_source(source_id, fn)
        if frame_id is None and isinstance(geometry_id, FrameId):
            geometry_id, frame_id = None, geometry_id
        if frame_id is not None:
            model.check_frame(frame_id, fn)
            targets = [g for g in model.frame_geometries(frame_id)
                       if model.geometries[g].source_id == source_id]
        else:
            model.check_geometry(geometry_id, fn)
            targets = [geometry_id]
        had = sum(model.geometries[g].roles.pop(role, None) is not None for g in targets)
        model.bump(roles=(role,) if had else ())
        return int(had)

    def _edit(self, context, fn, edit, *args, **kwargs):
        """``edit(model, *args, **kwargs)`` on the system's model (``context`` None) or on
        the copy of it that `context` holds (made now if it has none); a failed edit
        leaves the context unchanged."""
        if context is None:
            return edit(self._own_model(), *args, **kwargs)
        ctx = self._check_context(context, fn)
        held = ctx.get_abstract_state(self._xa_filter).get_value()
        model = copy.deepcopy(self._model if held.model is None else held.model)
        result = edit(model, *args, **kwargs)
        collision_filter = held.filter if held.filter is not None else model.filter
        ctx.set_abstract_state(self._xa_filter, _ContextGeometry(collision_filter, model))
        return result

    def _own_model(self):
        """The system's model, copied first if a Context holds it (Drake: a Context keeps
        the geometry of its creation; edits of the model after it do not reach it)."""
        if self._model_shared:
            self._model = copy.deepcopy(self._model)
            self._model_shared = False
        return self._model

    # ---- accessors ---------------------------------------------------------------------------
    def model_inspector(self):
        """SceneGraphInspector of the model (it reads the model as it is when asked)."""
        return SceneGraphInspector(lambda: (self._model, None))

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
            model = self._own_model()
            return CollisionFilterManager(model, model.filter)
        ctx = self._context_from(context, "SceneGraph.collision_filter_manager")
        state = ctx.get_abstract_state(self._xa_filter).get_value()
        if state.filter is None:
            state = _ContextGeometry(self._model_for(ctx).filter.copy(), state.model)
            ctx.set_abstract_state(self._xa_filter, state)
        # (a later model edit in ctx replaces the held state: mark whatever is held now)
        return CollisionFilterManager(
            self._model_for(ctx), state.filter,
            on_change=lambda: ctx.set_abstract_state(
                self._xa_filter, ctx.get_abstract_state(self._xa_filter).get_value()))

    # ---- evaluation --------------------------------------------------------------------------
    def _model_for(self, ctx):
        state = ctx._xa[self._xa_filter].get_value()     # (ctx: this system's own context)
        return self._model if state is None or state.model is None else state.model

    def _filter_for(self, ctx):
        state = ctx._xa[self._xa_filter].get_value()
        if state is None or state.filter is None:
            return self._model_for(ctx).filter
        return state.filter

    def _inspector_for(self, ctx):
        """The inspector of `ctx`'s geometry: it reads the Context when asked, so later
        edits of that Context show (Drake's QueryObject.inspector())."""
        return SceneGraphInspector(lambda: (self._model_for(ctx), self._filter_for(ctx)))

    def _calc_query(self, context, value):
        # A QueryObject reads the context when asked, so the one already held for this
        # context stays valid.
        held = value._value
        if held.__class__ is not QueryObject or held._ctx is not context or held._sg is not self:
            value.set_value(QueryObject(self, context))

    def _tables_for(self, model, collision_filter):
        """The ProximityEngine of `model` (the system's or a Context's copy) and
        `collision_filter` as they are now (one per model object and version, filter object,
        filter version and thread: an engine holds the poses and work arrays of its last
        query, so threads must not share one; the last one is looked up first)."""
        key = (id(model), model.version, id(collision_filter), collision_filter.version,
               threading.get_ident())
        last = self._last_tables
        if last is not None and last[0] == key and last[1] is collision_filter \
                and last[2] is model:
            return last[3]
        held = self._tables.get(key)
        if held is None or held[0] is not collision_filter or held[1] is not model:
            if len(self._tables) > 8:                       # (an id may be reused)
                self._tables.clear()
            held = (collision_filter, model, ProximityEngine(
                ProximityTables(model, collision_filter, self._frame_slot)))
            self._tables[key] = held
        self._last_tables = (key, collision_filter, model, held[2])
        return held[2]

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
        engine = self._tables_for(self._model_for(context), self._filter_for(context))
        if cache.engine is not engine or engine.posed_from is not cache:
            engine.update_poses(cache.X_WF)     # (not posed from these frame poses yet)
            cache.engine, engine.posed_from = engine, cache
        return engine

    def _geometry_pose_in_world(self, context, geometry_id):
        model = self._model_for(context)
        model.check_geometry(geometry_id, "QueryObject.get_pose_in_world")
        cache = self._pose_cache.eval(context)
        rec = model.geometries[geometry_id]
        return RigidTransform(cache.X_WF[self._frame_slot[rec.frame_id]] @ rec.X_FG)

    def _frame_pose(self, context, frame_id, fn, in_parent=False):
        """X_WF of a frame (the world frame included), or X_PF in its parent P."""
        model = self._model_for(context)
        model.check_frame(frame_id, f"QueryObject.{fn}")
        X_WF = self._pose_cache.eval(context).X_WF
        X = X_WF[self._frame_slot[frame_id]]
        if in_parent and frame_id != WORLD_FRAME_ID:
            X_WP = X_WF[self._frame_slot[model.frames[frame_id].parent_id]]
            X = np.linalg.solve(X_WP, X)
        return RigidTransform(X)

    def __repr__(self):
        return (f"<SceneGraph '{self.get_name()}' ({len(self._model.sources)} sources, "
                f"{len(self._model.geometries)} geometries)>")


def _check_name_free(model, frame_id, name, role, own_id, fn):
    """Raise if another geometry on `frame_id` with `role` is named `name` (Drake's rule:
    names are unique per frame and role, so a visual and a collision geometry of one body
    may share a name)."""
    for other in model.frame_geometries(frame_id):
        rec = model.geometries[other]
        if other != own_id and rec.name == name and role in rec.roles:
            raise SceneGraphError(f"{fn}: frame already has a geometry named {name!r} with "
                                  f"the {role} role")


def _rename(model, rec, fn, name, taken, what):
    """Set ``rec.name`` to ``name`` (a non-empty str not in ``taken``, the names of the
    other members of its group, described by ``what``) and bump the model's version."""
    if not isinstance(name, str) or not name or name in taken:
        raise ValueError(f"{fn}: name must be a non-empty str not used by another {what}, "
                         f"got {name!r}")
    rec.name = name
    model.bump(roles=())

