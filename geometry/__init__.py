"""geometry package: poses (RigidTransform, RotationMatrix, RollPitchYaw), quaternion
helpers, shapes, SceneGraph with its roles, properties, collision filters and proximity
queries (QueryObject), and PointCloud (pydrake.perception's)."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".angle_axis": ("AngleAxis",),
    ".isometry3": ("Isometry3",),
    ".bounding_box": (
        "Aabb", "Obb", "calc_obb", "compute_aabb_for_triangle_mesh",
        "compute_aabb_for_volume_mesh", "compute_obb_for_triangle_mesh",
        "compute_obb_for_volume_mesh",
    ),
    ".collision_filter": (
        "CollisionFilterDeclaration", "CollisionFilterManager", "CollisionFilterScope", "FilterId",
        "GeometrySet",
    ),
    ".hydroelastic.contact_surface": ("ContactSurface", "HydroelasticContactRepresentation"),
    ".hydroelastic.surface_field": ("SurfaceMeshFieldLinear",),
    ".hydroelastic.meshes": ("TessellationStrategy",),
    ".mesh_source": ("InMemoryMesh", "MemoryFile", "MeshSource"),
    ".plane": ("Plane",),
    ".point_cloud": ("BaseField", "Fields", "PointCloud"),
    ".polygon_surface_mesh": ("PolygonSurfaceMesh", "SurfacePolygon"),
    ".geometry_configuration_vector": ("GeometryConfigurationVector",),
    ".geometry_version": ("GeometryVersion",),
    ".geometry_instance": (
        "FrameId", "GeometryFrame", "GeometryId", "GeometryInstance", "SourceId",
    ),
    ".inspector": ("Role", "SceneGraphInspector"),
    ".properties": (
        "CoulombFriction", "IllustrationProperties", "PerceptionProperties",
        "ProximityProperties", "add_compliant_hydroelastic_properties",
        "add_compliant_hydroelastic_properties_for_half_space", "add_contact_material",
        "add_rigid_hydroelastic_properties", "calc_contact_friction_from_surface_properties",
        "make_phong_illustration_properties",
    ),
    ".quaternion": (
        "normalize_quaternion", "quaternion_conjugate", "quaternion_multiply",
        "quaternion_to_rotation_matrix", "rotation_matrix_to_quaternion",
    ),
    ".quaternion_kinematics": (
        "are_quaternions_equal_for_orientation",
        "calculate_angular_velocity_expressed_in_b_from_quaternion_dt",
        "calculate_quaternion_dt_constraint_violation",
        "calculate_quaternion_dt_from_angular_velocity_expressed_in_b", "closest_quaternion",
        "is_both_quaternion_and_quaternion_dt_ok", "is_quaternion_in_canonical_form",
        "is_quaternion_valid", "quaternion_to_canonical_form",
    ),
    ".quaternion_type": ("Quaternion",),
    ".random_rotations": (
        "uniformly_random_angle_axis", "uniformly_random_quaternion",
        "uniformly_random_rotation_matrix", "uniformly_random_rpy",
    ),
    ".query_object": (
        "PenetrationAsPointPair", "QueryObject", "SignedDistancePair", "SignedDistanceToPoint",
    ),
    ".rgba": ("Rgba",),
    ".rigid_transform": ("RigidTransform",),
    ".rotation_matrix": ("RotationMatrix", "RollPitchYaw"),
    ".frame_pose_vector": ("FramePoseVector",),
    ".scene_graph": ("SceneGraph",),
    ".scene_graph_config": ("DefaultProximityProperties", "SceneGraphConfig"),
    ".shapes": (
        "Box", "Capsule", "Convex", "Cylinder", "Ellipsoid", "HalfSpace", "Mesh", "MeshcatCone",
        "Shape", "Sphere",
    ),
    ".shape_volume": ("calc_volume",),
    ".triangle_surface_mesh": ("SurfaceTriangle", "TriangleSurfaceMesh"),
    ".volume_mesh": ("VolumeElement", "VolumeMesh"),
}, unlisted={
    # the browser visualizer: importable from here, not loaded by `import *`
    ".visualization": (
        "ContactVisualizer", "ContactVisualizerParams", "Meshcat", "MeshcatAnimation",
        "MeshcatParams", "MeshcatPointCloudVisualizer", "MeshcatUnavailableError",
        "MeshcatVisualizer", "MeshcatVisualizerParams",
        "add_default_visualization", "start_meshcat", "VisualizationConfig",
        "apply_visualization_config", "PlanarSceneGraphVisualizer",
        "connect_planar_scene_graph_visualizer",
    ),
})
