"""Mass properties of MJCF geoms (for bodies without ``<inertial>``).

A geom is a uniform solid: its mass is its ``mass`` attribute or ``density`` (default
1000 kg/m³) times its volume; its center of mass is its origin and its rotational inertia
about it, in its own frame G, is that of the solid. Mesh geoms need the mesh volume and
inertia, computed with the optional ``trimesh`` package (a ParseError says so when it is
not installed); planes have no mass.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["geom_mass_properties", "unit_density_properties"]


def unit_density_properties(shape: str, params: dict):
    """(volume V (m³), I_GGo_G (3, 3) of the solid of density 1) for a shape centered
    at its frame origin G (axis along z for cylinders and capsules)."""
    if shape == "Sphere":
        r = params["radius"]
        V = 4.0 / 3.0 * math.pi * r**3
        return V, np.eye(3) * 0.4 * V * r * r
    if shape == "Box":
        a, b, c = params["width"], params["depth"], params["height"]
        V = a * b * c
        return V, np.diag([b * b + c * c, a * a + c * c, a * a + b * b]) * V / 12.0
    if shape == "Ellipsoid":
        a, b, c = params["a"], params["b"], params["c"]
        V = 4.0 / 3.0 * math.pi * a * b * c
        return V, np.diag([b * b + c * c, a * a + c * c, a * a + b * b]) * V / 5.0
    if shape == "Cylinder":
        r, L = params["radius"], params["length"]
        V = math.pi * r * r * L
        perpendicular = V * (3.0 * r * r + L * L) / 12.0
        return V, np.diag([perpendicular, perpendicular, 0.5 * V * r * r])
    if shape == "Capsule":
        r, L = params["radius"], params["length"]
        mc = math.pi * r * r * L
        mh = 2.0 / 3.0 * math.pi * r**3  # each hemisphere
        axial = 0.5 * mc * r * r + 2.0 * 0.4 * mh * r * r
        d = 0.5 * L + 3.0 * r / 8.0  # hemisphere centroid from the capsule center
        perpendicular = (mc * (3.0 * r * r + L * L) / 12.0
                         + 2.0 * (83.0 / 320.0 * mh * r * r + mh * d * d))
        return mc + 2.0 * mh, np.diag([perpendicular, perpendicular, axial])
    raise ValueError(f"unit_density_properties: unsupported shape {shape!r}")


def _mesh_properties(doc, el, params):
    try:
        import trimesh
    except ImportError:
        doc.error(el, "computing the inertia of a mesh geom needs the optional 'trimesh' "
                      "package; install it or give the body an <inertial>")
    try:
        mesh = trimesh.load(params["filename"], force="mesh")
        mesh.apply_scale(params["scale"])
        V = float(mesh.volume)
        c = np.asarray(mesh.center_mass, dtype=float)
        I = np.asarray(mesh.moment_inertia, dtype=float)  # density 1, about the centroid
    except Exception as err:  # trimesh raises many exception types
        doc.error(el, f"cannot compute the mass properties of mesh {params['filename']!r}: "
                      f"{err}")
    if not V > 0.0:
        doc.error(el, f"mesh {params['filename']!r} has volume {V}; it must be a closed "
                      f"mesh to compute an inertia")
    return V, c, I


def geom_mass_properties(doc, el, shape: str, params: dict, density: float,
                         mass: float | None):
    """(mass, p_GoGcm_G (3,), I_GcmGcm_G (3, 3)) of a geom (zero mass for HalfSpace)."""
    if shape == "HalfSpace":
        return 0.0, np.zeros(3), np.zeros((3, 3))
    if shape in ("Mesh", "Convex"):
        V, c, I1 = _mesh_properties(doc, el, params)
    else:
        V, I1 = unit_density_properties(shape, params)
        c = np.zeros(3)
    if V == 0.0:
        return 0.0, c, np.zeros((3, 3))
    m = mass if mass is not None else density * V
    return m, c, I1 * (m / V)
