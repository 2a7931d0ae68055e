"""GeometryRecord: a parsed visual or collision geometry, kept for the scene graph.

The parsers read every ``<visual>`` and ``<collision>`` (URDF, SDFormat) and ``<geom>``
(MJCF) into these plain records, with mesh files already resolved through the package
map. They do not depend on a SceneGraph: ``Parser.geometries()`` (and each import
report) lists them so that geometry registration can be done from them, e.g. with
``plant.register_collision_geometry(body, X_BG, shape, name, properties)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["SHAPE_TYPES", "GeometryRecord"]

# Shape type -> parameter names, as the geometry package's Shape constructors take them.
SHAPE_TYPES = {
    "Box": ("width", "depth", "height"),
    "Sphere": ("radius",),
    "Cylinder": ("radius", "length"),
    "Capsule": ("radius", "length"),
    "Ellipsoid": ("a", "b", "c"),
    "HalfSpace": (),
    "Mesh": ("filename", "scale"),
    "Convex": ("filename", "scale"),
}


@dataclass(eq=False)
class GeometryRecord:
    """A visual or collision geometry attached to a body, as parsed.

    Attributes
    ----------
    role : str
        ``"visual"`` or ``"collision"``.
    name : str
        Geometry name, unique per body and role.
    model_instance : int
        Model instance of the body.
    body_name : str
        Name of the body (``"world"`` for geometry anchored to the world).
    X_BG : ndarray, shape (4, 4)
        Pose of the geometry frame G in the body frame B.
    shape : str
        One of `SHAPE_TYPES` (``"Box"``, ``"Sphere"``, ...). A HalfSpace's outward
        normal is +z of G.
    params : dict
        Shape parameters by name (see `SHAPE_TYPES`): lengths in m; for meshes
        ``filename`` (the resolved absolute path) and ``scale`` (ndarray (3,)).
    diffuse_rgba : ndarray, shape (4,), or None
        Visual color.
    material_name : str or None
        Name of the material that gave the color (URDF materials).
    proximity : dict
        Contact properties keyed like Drake's ProximityProperties, ``(group, name)``:
        ``("material", "coulomb_friction")`` -> (mu_static, mu_dynamic),
        ``("material", "hunt_crossley_dissipation")``,
        ``("material", "point_contact_stiffness")``, ``("material", "relaxation_time")``,
        ``("hydroelastic", "hydroelastic_modulus")``, ``("hydroelastic",
        "compliance_type")`` (``"rigid"``/``"compliant"``), ``("hydroelastic",
        "resolution_hint")``, ``("hydroelastic", "slab_thickness")``.
    file : str
        File the geometry was declared in.
    line : int
        Line of its element.
    """

    role: str
    name: str
    model_instance: int
    body_name: str
    X_BG: np.ndarray
    shape: str
    params: dict
    diffuse_rgba: np.ndarray | None = None
    material_name: str | None = None
    proximity: dict = field(default_factory=dict)
    file: str = ""
    line: int | None = None

    def __post_init__(self):
        if self.role not in ("visual", "collision"):
            raise ValueError(f"GeometryRecord: role must be 'visual' or 'collision', got "
                             f"{self.role!r}")
        if self.shape not in SHAPE_TYPES:
            raise ValueError(f"GeometryRecord: shape must be one of {sorted(SHAPE_TYPES)}, "
                             f"got {self.shape!r}")
        X = np.array(self.X_BG, dtype=np.float64)
        if X.shape != (4, 4):
            raise ValueError(f"GeometryRecord: X_BG must have shape (4, 4), got {X.shape}")
        self.X_BG = X

    def mesh_path(self) -> str | None:
        """Resolved mesh file for Mesh/Convex shapes, else None."""
        return self.params.get("filename")

    def __repr__(self) -> str:
        return (f"GeometryRecord({self.role} {self.name!r} on {self.body_name!r}: {self.shape} "
                f"{ {k: v for k, v in self.params.items()} })")
