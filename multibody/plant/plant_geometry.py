"""The plant side of SceneGraph: geometry registration, the geometry_pose output, collision
filtering at finalize, the LCP solver choice and the contact pipeline's entry points (a
mixin of MultibodyPlant), and the helpers that connect a plant to a SceneGraph and
register parsed geometry.

- `register_as_source_for_scene_graph(scene_graph)` makes the plant a geometry source;
- `register_collision_geometry` / `register_visual_geometry` affix geometry to a body
  (the world body's geometry is anchored); each body with geometry gets a SceneGraph
  frame (frame group = its model instance);
- at `finalize`, the plant filters collisions between bodies joined by a (non-floating)
  joint and within each welded subgraph (the world's included), declares the
  ``geometry_pose`` output (a FramePoseVector of its body frames, X_WB); the plant then
  hands the contact computations to a `multibody.contact.contact_manager.ContactManager`
  (built on the plant's `multibody.plant.plant_core.PlantCore`).
"""

import numpy as np

from merganser.geometry import (
    CollisionFilterDeclaration, CoulombFriction, FramePoseVector, GeometryFrame,
    GeometryInstance, GeometrySet, IllustrationProperties, PerceptionProperties,
    ProximityProperties, RigidTransform, Shape,
)
from merganser.geometry.properties import FRICTION, MATERIAL

__all__ = ["PlantGeometryMixin", "connect_plant_and_scene_graph", "register_parsed_geometry"]


class PlantGeometryMixin:
    """Geometry registration and contact hooks of MultibodyPlant (see module docstring)."""

    def _init_geometry(self):
        self._scene_graph = None
        self._source_id = None
        self._body_frame_id = {}          # body index -> FrameId
        self._frame_body = {}             # FrameId -> body index
        self._collision_geometries = {}   # body index -> [GeometryId]
        self._visual_geometries = {}      # body index -> [GeometryId]
        self._geometry_body = {}          # GeometryId -> body index
        self._contact_manager = None
        self._lcp_solver = "lemke"

    # ---- source registration ---------------------------------------------------------------
    def register_as_source_for_scene_graph(self, scene_graph):
        """Register the plant as a geometry source of `scene_graph` (before finalize)."""
        from merganser.geometry.scene_graph import SceneGraph   # loaded with the first one

        fn = "register_as_source_for_scene_graph"
        self._throw_if_finalized(fn)
        if not isinstance(scene_graph, SceneGraph):
            raise TypeError(f"{fn}: scene_graph must be a SceneGraph, got "
                            f"{type(scene_graph).__name__}")
        if self._scene_graph is not None:
            raise ValueError(f"{fn}: the plant is already registered with a SceneGraph")
        self._scene_graph = scene_graph
        name = self.get_name() or "plant"
        self._source_id = scene_graph.register_source(name)
        return self._source_id

    def geometry_source_is_registered(self):
        return self._source_id is not None

    def get_source_id(self):
        """The plant's SourceId in its SceneGraph (None when not registered)."""
        return self._source_id

    def _check_geometry_source(self, fn):
        if self._scene_graph is None:
            raise RuntimeError(
                f"{fn}: the plant is not registered with a SceneGraph; call "
                f"plant.register_as_source_for_scene_graph(scene_graph) first (or build the "
                f"plant with add_multibody_plant / add_multibody_plant_scene_graph)")

    def _body_arg(self, body, fn):
        try:
            index = body.index()
        except AttributeError:
            raise TypeError(f"{fn}: body must be a RigidBody, got {type(body).__name__}") from None
        if not 0 <= index < self.num_bodies() or self.get_body(index) is not body:
            raise ValueError(f"{fn}: body {body!r} does not belong to this plant")
        return index

    def _frame_for_body(self, b):
        if b == 0:
            return self._scene_graph.world_frame_id()
        fid = self._body_frame_id.get(b)
        if fid is None:
            body = self.get_body(b)
            fid = self._scene_graph.register_frame(
                self._source_id, GeometryFrame(scoped_geometry_name(
                    self, body.model_instance(), body.name()), body.model_instance()))
            self._body_frame_id[b] = fid
            self._frame_body[fid] = b
        return fid

    def _register_geometry(self, body, X_BG, shape, name, fn):
        self._throw_if_finalized(fn)
        self._check_geometry_source(fn)
        b = self._body_arg(body, fn)
        if not isinstance(shape, Shape):
            raise TypeError(f"{fn}: shape must be a Shape, got {type(shape).__name__}")
        X = X_BG if isinstance(X_BG, RigidTransform) else RigidTransform(X_BG)
        instance = GeometryInstance(X, shape, name)
        fid = self._frame_for_body(b)
        return b, fid, instance

    def register_collision_geometry(self, body, X_BG, shape, name, properties_or_friction=None,
                                    *, properties=None, coulomb_friction=None):
        """Affix a collision geometry to `body`; returns its GeometryId.

        Parameters
        ----------
        body : RigidBody
            The world body anchors the geometry.
        X_BG : RigidTransform
            Pose of the geometry frame G in the body frame B.
        shape : Shape
        name : str
        properties_or_friction : ProximityProperties or CoulombFriction, optional
            Contact properties (`geometry.properties`), or only the friction. Missing
            friction defaults to μ = 0.5 (the properties given are not modified).
        properties, coulomb_friction : keyword
            pydrake's keywords for the two kinds of `properties_or_friction`.
        """
        fn = "register_collision_geometry"
        given = [v for v in (properties_or_friction, properties, coulomb_friction)
                 if v is not None]
        if len(given) > 1:
            raise TypeError(f"{fn}: give one of properties_or_friction, properties= or "
                            f"coulomb_friction=")
        properties_or_friction = given[0] if given else None
        b, fid, instance = self._register_geometry(body, X_BG, shape, name, fn)
        if properties_or_friction is None or isinstance(properties_or_friction, CoulombFriction):
            props = ProximityProperties()
            if properties_or_friction is not None:
                props.add_property(MATERIAL, FRICTION, properties_or_friction)
        elif isinstance(properties_or_friction, ProximityProperties):
            props = ProximityProperties(properties_or_friction)
        else:
            raise TypeError(f"{fn}: properties_or_friction must be ProximityProperties or "
                            f"CoulombFriction, got {type(properties_or_friction).__name__}")
        if not props.has_property(MATERIAL, FRICTION):
            props.add_property(MATERIAL, FRICTION, CoulombFriction(0.5, 0.5))
        instance.set_proximity_properties(props)
        gid = self._scene_graph.register_geometry(self._source_id, fid, instance)
        self._collision_geometries.setdefault(b, []).append(gid)
        self._geometry_body[gid] = b
        return gid

    def register_visual_geometry(self, body, X_BG=None, shape=None, name=None,
                                 diffuse_color=None, *, geometry_instance=None):
        """Affix a visual geometry (illustration and perception roles) to `body`.

        Parameters
        ----------
        diffuse_color : array_like (4,) or IllustrationProperties, optional
            RGBA in [0, 1] (default [0.9, 0.9, 0.9, 1.0]).
        geometry_instance : GeometryInstance, keyword
            pydrake's other form: the pose, shape and name (and illustration properties,
            if it has them) of this instance, instead of `X_BG`, `shape`, `name`.
        """
        fn = "register_visual_geometry"
        if geometry_instance is not None:
            if not isinstance(geometry_instance, GeometryInstance) or any(
                    v is not None for v in (X_BG, shape, name)):
                raise TypeError(f"{fn}: geometry_instance must be a GeometryInstance, given "
                                f"instead of X_BG, shape and name")
            X_BG, shape, name = (geometry_instance.pose(), geometry_instance.shape(),
                                 geometry_instance.name())
            if diffuse_color is None:
                diffuse_color = geometry_instance.illustration_properties()
        elif X_BG is None or shape is None or name is None:
            raise TypeError(f"{fn}: give X_BG, shape and name (or geometry_instance=)")
        b, fid, instance = self._register_geometry(body, X_BG, shape, name, fn)
        if isinstance(diffuse_color, IllustrationProperties):
            illustration = diffuse_color
            rgba = illustration.get_property_or_default("phong", "diffuse",
                                                        np.array([0.9, 0.9, 0.9, 1.0]))
        else:
            rgba = np.array([0.9, 0.9, 0.9, 1.0] if diffuse_color is None else diffuse_color,
                            dtype=float).reshape(-1)
            if rgba.shape != (4,):
                raise ValueError(f"{fn}: diffuse_color must be RGBA (4,), got shape {rgba.shape}")
            illustration = IllustrationProperties()
            illustration.add_property("phong", "diffuse", rgba)
        perception = PerceptionProperties()
        perception.add_property("phong", "diffuse", rgba)
        instance.set_illustration_properties(illustration)
        instance.set_perception_properties(perception)
        gid = self._scene_graph.register_geometry(self._source_id, fid, instance)
        self._visual_geometries.setdefault(b, []).append(gid)
        self._geometry_body[gid] = b
        return gid

    def num_collision_geometries(self):
        """The number of collision geometries registered (all bodies)."""
        return sum(len(ids) for ids in self._collision_geometries.values())

    def get_collision_geometries(self, body):
        """GeometryIds of the collision geometries of `body`."""
        return list(self._collision_geometries.get(self._body_arg(body,
                                                                  "get_collision_geometries"), []))

    def get_visual_geometries(self, body):
        """GeometryIds of the visual geometries of `body`."""
        return list(self._visual_geometries.get(self._body_arg(body, "get_visual_geometries"),
                                                []))

    def get_collision_geometries_for_body(self, body):
        """Drake's name of `get_collision_geometries`: the GeometryIds of `body`'s
        collision geometries (list)."""
        return self.get_collision_geometries(body)

    def get_visual_geometries_for_body(self, body):
        """Drake's name of `get_visual_geometries`: the GeometryIds of `body`'s visual
        geometries (list)."""
        return self.get_visual_geometries(body)

    def get_body_frame_id_if_exists(self, body_index):
        """The FrameId of a body (world: SceneGraph's world frame), or None."""
        if body_index == 0 and self._scene_graph is not None:
            return self._scene_graph.world_frame_id()
        return self._body_frame_id.get(body_index)

    def get_body_frame_id_or_throw(self, body_index):
        fid = self.get_body_frame_id_if_exists(body_index)
        if fid is None:
            raise ValueError(f"get_body_frame_id_or_throw: body {body_index} has no geometry "
                             f"frame (register geometry on it first)")
        return fid

    def get_body_from_frame_id(self, frame_id):
        """The RigidBody whose geometry frame is `frame_id` (None if none)."""
        if self._scene_graph is not None and frame_id == self._scene_graph.world_frame_id():
            return self.world_body()
        b = self._frame_body.get(frame_id)
        return None if b is None else self.get_body(b)

    def collect_registered_geometries(self, bodies):
        """GeometrySet of the frames of `bodies` (world body: the anchored geometries)."""
        ids = [self.get_body_frame_id_if_exists(b.index()) for b in bodies]
        return GeometrySet([f for f in ids if f is not None])

    def exclude_collisions_between(self, body_a, body_b):
        """Filter collisions between the geometries of two bodies (model level)."""
        self._check_geometry_source("exclude_collisions_between")
        fa = self.get_body_frame_id_if_exists(body_a.index())
        fb = self.get_body_frame_id_if_exists(body_b.index())
        if fa is None or fb is None:
            return
        self._scene_graph.collision_filter_manager().apply(
            CollisionFilterDeclaration().exclude_between(GeometrySet(fa), GeometrySet(fb)))

    # ---- finalize ---------------------------------------------------------------------------
    def _filter_adjacent_and_welded(self):
        """Model-level filters: bodies joined by a joint, and welded subgraphs."""
        decl = CollisionFilterDeclaration()
        parent = list(range(self.num_bodies()))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for j in self.get_joint_indices():
            joint = self.get_joint(j)
            a, b = joint.parent_body().index(), joint.child_body().index()
            if joint.num_velocities() == 0:
                parent[find(a)] = find(b)
            elif joint.is_ephemeral() or not self._adjacent_bodies_collision_filters:
                continue
            fa, fb = self.get_body_frame_id_if_exists(a), self.get_body_frame_id_if_exists(b)
            if fa is not None and fb is not None:
                decl.exclude_between(GeometrySet(fa), GeometrySet(fb))
        groups = {}
        for b in range(self.num_bodies()):
            groups.setdefault(find(b), []).append(b)
        for members in groups.values():
            frames = [self.get_body_frame_id_if_exists(b) for b in members]
            frames = [f for f in frames if f is not None]
            if len(frames) > 1:
                decl.exclude_within(GeometrySet(frames))
        if decl.statements():
            self._scene_graph.collision_filter_manager().apply(decl)

    def _finalize_geometry(self, core):
        """Called by ``finalize()``: filters and the geometry_pose rows; fills the core's
        geometry fields."""
        core.scene_graph = self._scene_graph
        core.geometry_body = dict(self._geometry_body)
        core.has_collision = bool(self._collision_geometries)
        if self._scene_graph is not None:
            self._filter_adjacent_and_welded()
            bodies = sorted(self._body_frame_id)
            self._pose_frame_ids = [self._body_frame_id[b] for b in bodies]
            self._pose_nodes = np.asarray(self._tables.node_of_body[bodies], dtype=np.int64)
            nodes = self._pose_nodes
            if nodes.size and np.array_equal(nodes, np.arange(nodes[0], nodes[0] + nodes.size)):
                self._pose_rows = slice(int(nodes[0]), int(nodes[0]) + nodes.size)
            else:
                self._pose_rows = nodes

    def _contact_results_tickets(self, state_ticket):
        """Prerequisites of the contact_results output: the state and the geometry query
        (continuous), and every input as well for a discrete plant (the step's solve)."""
        if self._time_step == 0.0:
            return [state_ticket, self.input_port_ticket(self._ports.geometry_query)]
        return [state_ticket, self.all_input_ports_ticket()]

    def _alloc_geometry_pose(self):
        return FramePoseVector(getattr(self, "_pose_frame_ids", ()))

    def _calc_geometry_pose(self, context, value):
        fpv = value.get_value()
        if self._pose_nodes.size:
            fpv.matrices()[:] = self._eval_X_WB(context)[self._pose_rows]

    def get_geometry_pose_output_port(self):
        """``geometry_pose``: FramePoseVector of the body frames, X_WB (connect to
        SceneGraph's ``<plant name>_pose`` input); it exists from construction, as in
        Drake, and holds the frames of the bodies with registered geometry."""
        return self._ports.geometry_pose

    # ---- contact ----------------------------------------------------------------------------
    def get_contact_penalty_method_time_scale(self):
        """Time scale (s) of the default penalty contact parameters (a hint for the
        integrator's step), sqrt(penetration_allowance / g)."""
        self._tree._throw_if_not_finalized("get_contact_penalty_method_time_scale")
        return self._contact_manager.penalty_defaults().time_scale

    def get_point_contact_parameters(self):
        """(default geometry stiffness N/m, default dissipation s/m) used by point contact."""
        self._tree._throw_if_not_finalized("get_point_contact_parameters")
        p = self._contact_manager.penalty_defaults()
        return p.stiffness, p.dissipation

    def set_lcp_solver(self, solver):
        """Complementarity solver of the ``lcp`` approximation: ``"lemke"`` (default) or
        ``"fischer_burmeister"`` (semismooth Newton)."""
        if solver not in ("lemke", "fischer_burmeister"):
            raise ValueError(f"set_lcp_solver: solver must be 'lemke' or 'fischer_burmeister', "
                             f"got {solver!r}")
        self._lcp_solver = solver

    def get_lcp_solver(self):
        """The complementarity solver of the ``lcp`` approximation."""
        return self._lcp_solver

    def _add_contact_forces(self, context, fd):
        """Continuous plant: add the penalty contact forces to fd.F_Bo_W."""
        manager = self._contact_manager
        if manager is not None and manager.continuous_active:
            manager.add_penalty_forces(context, fd)

    def _calc_contact_results(self, context, value):
        manager = self._contact_manager
        results = manager.calc_contact_results(context) if manager is not None else None
        if results is not None:
            results.set_plant(self)
        value.set_value(results)

    def get_generalized_contact_forces_output_port(self, model_instance):
        """``<instance>_generalized_contact_forces`` (nv of the instance): contact (and
        constraint) generalized forces on the instance's velocities."""
        self._tree._throw_if_not_finalized("get_generalized_contact_forces_output_port")
        mi = self._instance(model_instance, "get_generalized_contact_forces_output_port")
        return self._ports.generalized_contact_forces[mi]


def connect_plant_and_scene_graph(plant, builder, scene_graph=None):
    """Add `scene_graph` (a new SceneGraph named ``"scene_graph"`` if None) to `builder`,
    register `plant` as its source and connect the geometry ports both ways:
    plant ``geometry_pose`` -> SceneGraph ``<plant name>_pose`` and SceneGraph ``query``
    -> plant ``geometry_query``. Returns the SceneGraph.
    """
    from merganser.geometry.scene_graph import SceneGraph   # loaded when one is used

    if scene_graph is None:
        scene_graph = SceneGraph()
    elif not isinstance(scene_graph, SceneGraph):
        raise TypeError(f"connect_plant_and_scene_graph: scene_graph must be a SceneGraph or "
                        f"None, got {type(scene_graph).__name__}")
    if not builder.already_built() and scene_graph not in builder.get_systems():
        builder.add_system(scene_graph)
    source_id = plant.register_as_source_for_scene_graph(scene_graph)
    builder.connect(plant.get_geometry_pose_output_port(),
                    scene_graph.get_source_pose_port(source_id))
    builder.connect(scene_graph.get_query_output_port(), plant.get_geometry_query_input_port())
    return scene_graph


_SHAPE_CLASSES = None


def shape_from_record(record):
    """The Shape of a parsed `multibody.parsing.geometry_records.GeometryRecord`."""
    global _SHAPE_CLASSES
    if _SHAPE_CLASSES is None:
        from merganser import geometry
        _SHAPE_CLASSES = {name: getattr(geometry, name) for name in (
            "Box", "Sphere", "Cylinder", "Capsule", "Ellipsoid", "HalfSpace", "Mesh", "Convex")}
    cls = _SHAPE_CLASSES.get(record.shape)
    if cls is None:
        raise ValueError(f"shape_from_record: unknown shape {record.shape!r} in {record!r}")
    return cls(**record.params)


def _proximity_from_record(record):
    props = ProximityProperties()
    for (group, name), value in record.proximity.items():
        if (group, name) == (MATERIAL, FRICTION) and not isinstance(value, CoulombFriction):
            value = CoulombFriction(float(value[0]), float(value[1]))
        props.update_property(group, name, value)
    return props


def scoped_geometry_name(plant, model_instance, name):
    """Drake's scoped name of a plant's SceneGraph frame or parsed geometry:
    ``"<instance>::<name>"``, or `name` itself in the world and default model instances."""
    if int(model_instance) in (0, 1):
        return name
    return f"{plant.get_model_instance_name(model_instance)}::{name}"


def register_geometry_records(plant, records):
    """Register parsed geometry records (visual and collision) on `plant`'s bodies.

    Parameters
    ----------
    plant : MultibodyPlant
        Registered with a SceneGraph, not finalized.
    records : iterable of GeometryRecord
        As produced by the parsers (`multibody.parsing.geometry_records`); the body is
        looked up by ``body_name`` in ``model_instance`` (``"world"``: the world body).

    Returns
    -------
    list of GeometryId
        In the order of `records`.
    """
    return [_register_record(plant, record, record.name) for record in records]


def _record_body(plant, record):
    """The plant body a geometry record is attached to (``"world"``: the world body)."""
    if record.body_name == "world":
        return plant.world_body()
    return plant.get_body_by_name(record.body_name, record.model_instance)


def _register_record(plant, record, name):
    """Register one record under `name`, scoped by its model instance as Drake's parsers
    do (``"<instance>::<name>"``; unscoped on the world body); returns its GeometryId."""
    body = _record_body(plant, record)
    if body.index() != 0:
        name = scoped_geometry_name(plant, body.model_instance(), name)
    X_BG = RigidTransform(record.X_BG)
    shape = shape_from_record(record)
    if record.role == "collision":
        return plant.register_collision_geometry(body, X_BG, shape, name,
                                                 _proximity_from_record(record))
    return plant.register_visual_geometry(body, X_BG, shape, name, record.diffuse_rgba)


def register_parsed_geometry(plant, records, roles=("visual", "collision")):
    """Register parsed geometry records of the given roles, once per body and role.

    Bodies that already have geometry of a role are skipped (so calling this again, or after
    the Parser registered the geometry itself, adds nothing twice). Names are scoped as
    Drake's parsers scope them (``"<instance>::<name>"``; SceneGraph names are unique per
    frame and role, so a visual and a collision geometry may share one).

    Parameters
    ----------
    plant : MultibodyPlant
        Registered with a SceneGraph, not finalized; nothing happens otherwise.
    records : iterable of GeometryRecord
        As produced by the parsers.
    roles : tuple of str
        ``"visual"`` and/or ``"collision"``.

    Returns
    -------
    int
        Number of geometries registered.
    """
    if not plant.geometry_source_is_registered():
        return 0
    had = {}
    count = 0
    for record in records:
        if record.role not in roles:
            continue
        body = _record_body(plant, record)
        key = (body.index(), record.role)
        if key not in had:
            had[key] = bool(plant.get_visual_geometries(body) if record.role == "visual"
                            else plant.get_collision_geometries(body))
        if had[key]:
            continue
        _register_record(plant, record, record.name or f"{record.role}{count}")
        count += 1
    return count
