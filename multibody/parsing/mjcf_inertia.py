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

__all__ = ["MESH_INERTIA_MODES", "geom_mass_properties", "mesh_unit_density_properties",
           "oriented_hull", "unit_density_properties"]

MESH_INERTIA_MODES = ("legacy", "exact", "convex", "shell")


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


def oriented_hull(vertices):
    """Triangles (k, 3) of the convex hull of `vertices`, oriented outwards."""
    from scipy.spatial import ConvexHull

    hull = ConvexHull(vertices)
    faces = np.array(hull.simplices, dtype=np.int64)
    inside = vertices[hull.vertices].mean(axis=0)
    a, b, c = vertices[faces[:, 0]], vertices[faces[:, 1]], vertices[faces[:, 2]]
    outward = np.einsum("ij,ij->i", np.cross(b - a, c - a), (a + b + c) / 3.0 - inside) > 0.0
    faces[~outward] = faces[~outward][:, ::-1]
    return faces


def mesh_unit_density_properties(vertices, faces, mode: str = "legacy"):
    """(measure, p_GoGcm_G (3,), I_GcmGcm_G (3, 3)) of a triangle mesh at unit density.

    Parameters
    ----------
    vertices : ndarray, shape (n, 3)
        Vertex positions in the geom frame G (already scaled).
    faces : ndarray of int, shape (k, 3)
        Triangles, counter-clockwise seen from outside.
    mode : str
        One of `MESH_INERTIA_MODES` (see the module docstring).

    Returns
    -------
    measure : float
        The volume (the area for ``shell``); the mass is the density times it.
    """
    v = np.asarray(vertices, dtype=np.float64)
    f = oriented_hull(v) if mode == "convex" else np.asarray(faces, dtype=np.int64)
    a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    cross = np.cross(b - a, c - a)
    area = 0.5 * np.linalg.norm(cross, axis=1)
    keep = area > 1e-300
    a, b, c, cross, area = a[keep], b[keep], c[keep], cross[keep], area[keep]
    normal = cross / (2.0 * area[:, None])
    center = (a + b + c) / 3.0
    total_area = area.sum()
    if not total_area > 0.0:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    face_centroid = (area[:, None] * center).sum(axis=0) / total_area

    def weights(origin):
        if mode == "shell":
            return area
        w = np.einsum("ij,ij->i", center - origin, normal) * area / 3.0
        return np.abs(w) if mode == "legacy" else w

    # Center of mass: each pyramid (apex at the face centroid) or each triangle (shell).
    w = weights(face_centroid)
    measure = w.sum()
    if not measure > 0.0:
        return float(measure), np.zeros(3), np.zeros((3, 3))
    com = (w[:, None] * (0.75 * center + 0.25 * face_centroid)).sum(axis=0) / measure
    # Second moments about the center of mass, of pyramids with apex there (volume:
    # V/20 (2 sum_i d_i d_i^T + sum_{i != j} d_i d_j^T)) or of triangles (area: A/12 (...)).
    d, e, g = a - com, b - com, c - com
    w = weights(com)
    s = d + e + g
    outer = (np.einsum("ni,nj->nij", d, d) + np.einsum("ni,nj->nij", e, e)
             + np.einsum("ni,nj->nij", g, g) + np.einsum("ni,nj->nij", s, s))
    P = np.einsum("n,nij->ij", w / (12.0 if mode == "shell" else 20.0), outer)
    measure = float(w.sum())
    I = np.trace(P) * np.eye(3) - P
    return measure, com, I


def _mesh_properties(doc, el, params, mode):
    try:
        import trimesh
    except ImportError:
        doc.error(el, "computing the inertia of a mesh geom needs the optional 'trimesh' "
                      "package; install it or give the body an <inertial>")
    try:
        mesh = trimesh.load(params["filename"], force="mesh")
        vertices = np.asarray(mesh.vertices, dtype=np.float64) * np.asarray(params["scale"])
        faces = np.asarray(mesh.faces, dtype=np.int64)
        if np.prod(params["scale"]) < 0.0:  # a mirroring scale flips the orientation
            faces = faces[:, ::-1]
        V, c, I = mesh_unit_density_properties(vertices, faces, mode)
    except Exception as err:  # trimesh and qhull raise many exception types
        doc.error(el, f"cannot compute the mass properties of mesh {params['filename']!r}: "
                      f"{err}")
    if not (V > 0.0 and np.all(np.isfinite(I))):
        what = "area" if mode == "shell" else "volume"
        doc.error(el, f"mesh {params['filename']!r} has {what} {V} with inertia='{mode}'; "
                      f"it must be positive (a closed, outward-oriented mesh for 'exact'; "
                      f"try inertia='convex' or 'shell')")
    return V, c, I


def geom_mass_properties(doc, el, shape: str, params: dict, density: float,
                         mass: float | None, mesh_inertia: str = "legacy"):
    """(mass, p_GoGcm_G (3,), I_GcmGcm_G (3, 3)) of a geom (zero mass for HalfSpace);
    `mesh_inertia` is the ``<mesh inertia>`` mode of a mesh geom."""
    if shape == "HalfSpace":
        return 0.0, np.zeros(3), np.zeros((3, 3))
    if shape in ("Mesh", "Convex"):
        V, c, I1 = _mesh_properties(doc, el, params, mesh_inertia)
    else:
        V, I1 = unit_density_properties(shape, params)
        c = np.zeros(3)
    if V == 0.0:
        return 0.0, c, np.zeros((3, 3))
    m = mass if mass is not None else density * V
    return m, c, I1 * (m / V)
