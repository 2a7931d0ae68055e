"""geometry package: poses (RigidTransform, RotationMatrix, RollPitchYaw), quaternion
helpers, shapes, SceneGraph with its roles, properties, collision filters and proximity
queries (QueryObject)."""

from .collision_filter import CollisionFilterDeclaration, CollisionFilterManager, GeometrySet
from .hydroelastic.contact_surface import HydroelasticContactRepresentation
from .geometry_instance import FrameId, GeometryFrame, GeometryId, GeometryInstance, SourceId
from .inspector import Role, SceneGraphInspector
from .properties import (
    CoulombFriction,
    IllustrationProperties,
    PerceptionProperties,
    ProximityProperties,
    add_compliant_hydroelastic_properties,
    add_compliant_hydroelastic_properties_for_half_space,
    add_contact_material,
    add_rigid_hydroelastic_properties,
    calc_contact_friction_from_surface_properties,
)
from .quaternion import (
    normalize_quaternion,
    quaternion_conjugate,
    quaternion_multiply,
    quaternion_to_rotation_matrix,
    rotation_matrix_to_quaternion,
)
from .query_object import (
    PenetrationAsPointPair, QueryObject, SignedDistancePair, SignedDistanceToPoint,
)
from .rigid_transform import RigidTransform
from .roll_pitch_yaw import RollPitchYaw
from .rotation_matrix import RotationMatrix
from .scene_graph import FramePoseVector, SceneGraph
from .scene_graph_config import DefaultProximityProperties, SceneGraphConfig
from .shapes import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, Shape, Sphere
from .triangle_surface_mesh import SurfaceTriangle, TriangleSurfaceMesh

__all__ = [
    "Box", "Capsule", "CollisionFilterDeclaration", "CollisionFilterManager", "Convex",
    "CoulombFriction", "Cylinder", "DefaultProximityProperties", "Ellipsoid", "FrameId",
    "FramePoseVector", "GeometryFrame",
    "GeometryId", "GeometryInstance", "GeometrySet", "HalfSpace",
    "HydroelasticContactRepresentation", "IllustrationProperties",
    "Mesh", "PenetrationAsPointPair", "PerceptionProperties", "ProximityProperties",
    "QueryObject", "RigidTransform", "Role", "RollPitchYaw", "RotationMatrix", "SceneGraph",
    "SceneGraphConfig", "SceneGraphInspector",
    "Shape", "SignedDistancePair", "SignedDistanceToPoint", "SourceId", "Sphere",
    "SurfaceTriangle", "TriangleSurfaceMesh",
    "add_compliant_hydroelastic_properties",
    "add_compliant_hydroelastic_properties_for_half_space", "add_contact_material",
    "add_rigid_hydroelastic_properties", "calc_contact_friction_from_surface_properties",
    "normalize_quaternion", "quaternion_conjugate", "quaternion_multiply",
    "quaternion_to_rotation_matrix", "rotation_matrix_to_quaternion",
]

#: The browser visualizer, re-exported here but loaded at first use (it pulls in meshcat's
#: optional pieces): ``from merganser.geometry import Meshcat`` works.
_VISUALIZATION = ("ContactVisualizer", "ContactVisualizerParams", "Meshcat", "MeshcatAnimation",
                  "MeshcatUnavailableError", "MeshcatVisualizer", "MeshcatVisualizerParams",
                  "add_default_visualization")


def __getattr__(name):
    if name in _VISUALIZATION:
        from merganser.geometry import visualization

        return getattr(visualization, name)
    raise AttributeError(f"module 'merganser.geometry' has no attribute {name!r}")
