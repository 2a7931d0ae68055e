"""Compliant-rigid hydroelastic contact surfaces of every candidate pair of a query.

Supported pairs (the compliant field sliced by the rigid geometry):

- compliant volume (Sphere, Box) vs rigid HalfSpace: the tets cut by the plane;
- compliant volume vs rigid surface mesh (Box, Sphere): the rigid triangles clipped
  by each tet;
- compliant HalfSpace slab vs rigid surface mesh: the rigid triangles clipped by the
  plane, pressure E · depth / thickness;
- compliant volume vs compliant volume: the surface of equal pressure, tet pair by tet
  pair (brute force over the pairs of overlapping tet AABBs: O(nt_a nt_b)).

Other pairs are "unsupported": geometries without hydroelastic properties or with a shape
that has no representation yet, rigid-rigid, and compliant-compliant with a half space
(never supported). `compute_hydroelastic`
raises for them when strict and otherwise reports them for point-contact fallback.
"""

import weakref

import numpy as np

from .contact_surface import ContactSurface
from .representations import make_representation
from .slicing_kernels import (
    clip_triangles_in_slab, clip_triangles_in_tets, equal_pressure_polygons, polygon_quadrature,
    slice_tets_with_plane,
)

__all__ = ["HydroelasticQueryResult", "compute_hydroelastic"]

_REPS = weakref.WeakKeyDictionary()


class HydroelasticQueryResult:
    """Result of `compute_hydroelastic`.

    Attributes
    ----------
    surfaces : list of ContactSurface
        Non-empty surfaces, sorted by (id_M, id_N).
    hydroelastic_pairs : set of (int, int)
        Proximity-table index pairs (i < j) handled hydroelastically (with or without a
        surface): the point-contact pipeline must skip them.
    surface_pairs : list of (int, int)
        Table indices (i, j) of each surface.
    ids : list of GeometryId
        The proximity table's ids (index -> GeometryId).
    compliant : list of bool
        Per table index: the geometry is compliant-hydroelastic.
    modulus : list of float
        Per table index: the hydroelastic modulus E (Pa; inf when rigid or absent).
    """

    def __init__(self, ids=(), compliant=(), modulus=()):
        self.ids = ids
        self.compliant = compliant
        self.modulus = modulus
        self.surfaces = []
        self.hydroelastic_pairs = set()
        self.surface_pairs = []


def _representations(engine, inspector):
    t = engine.t
    reps = _REPS.get(t)
    if reps is None:
        reps = [make_representation(inspector.get_shape(g),
                                    inspector.get_proximity_properties(g), g) for g in t.ids]
        _REPS[t] = reps
    return reps


def _to_world(X, p_G):
    return np.ascontiguousarray(p_G @ X[:3, :3].T + X[:3, 3])


def _run(kernel, args, cap_f):
    cap_f = max(16, cap_f)
    while True:
        out_v = np.zeros((8 * cap_f, 3))
        out_p = np.zeros(8 * cap_f)
        out_start = np.zeros(cap_f + 1, np.int64)
        out_n = np.zeros((cap_f, 3))
        out_g = np.zeros(cap_f)
        nf = kernel(*args, out_v, out_p, out_start, out_n, out_g)
        if nf >= 0:
            nv = out_start[nf]
            return out_v[:nv], out_p[:nv], out_start[:nf + 1], out_n[:nf], out_g[:nf]
        cap_f *= 4


def _surface(ci, ri, rep_c, rep_r, X_c, X_r, sign):
    """Polygons of compliant rep_c (pose X_c) against rigid rep_r (pose X_r)."""
    if rep_c.kind == "volume":
        V = _to_world(X_c, rep_c.mesh.vertices_G)
        tets, P = rep_c.mesh.tetrahedra, rep_c.mesh.pressure
        if rep_r.kind == "plane":
            n = sign * X_r[:3, 2].copy()
            return _run(slice_tets_with_plane, (V, P, tets, n, X_r[:3, 3].copy()),
                        tets.shape[0])
        m = rep_r.mesh
        TV = _to_world(X_r, m.vertices_G)
        TN = np.ascontiguousarray(m.normals_G @ X_r[:3, :3].T)
        return _run(clip_triangles_in_tets, (TV, m.triangles, TN, V, P, tets, float(sign)),
                    4 * m.triangles.shape[0])
    if rep_c.kind == "slab" and rep_r.kind == "surface":
        m = rep_r.mesh
        TV = _to_world(X_r, m.vertices_G)
        TN = np.ascontiguousarray(m.normals_G @ X_r[:3, :3].T)
        return _run(clip_triangles_in_slab, (TV, m.triangles, TN, X_c[:3, 2].copy(),
                                             X_c[:3, 3].copy(), rep_c.modulus,
                                             rep_c.thickness, float(sign)),
                    m.triangles.shape[0])
    return None


def _unsupported_reason(ra, rb):
    if ra is None or rb is None:
        return None, "has no hydroelastic representation (missing properties or shape " \
                     "not supported yet)"
    if ra.compliant and rb.compliant:
        if ra.kind == "slab" or rb.kind == "slab":
            return ValueError, "is a compliant-compliant pair with a half space, which " \
                               "hydroelastic contact does not support"
        return NotImplementedError, "is a compliant-compliant pair of shapes not supported yet"
    if not ra.compliant and not rb.compliant:
        return ValueError, "is a rigid-rigid pair, which hydroelastic contact does not support"
    return ValueError, "is a compliant half space against a rigid half space"


def compute_hydroelastic(engine, inspector, strict):
    """Contact surfaces of the candidate pairs of a posed ProximityEngine.

    Parameters
    ----------
    engine : geometry.proximity.tables.ProximityEngine
        With poses updated.
    inspector : SceneGraphInspector
    strict : bool
        True: a candidate pair that is not supported raises (ValueError, or
        NotImplementedError for compliant-compliant volumes), naming both geometries.
        False: such pairs are left to point contact.

    Returns
    -------
    HydroelasticQueryResult
    """
    reps = _representations(engine, inspector)
    t = engine.t
    if not strict and all(r is None for r in reps):
        return HydroelasticQueryResult(t.ids, [False] * len(reps))
    count = engine._broad_phase(0.0)
    pairs = engine.pairs[:count].copy()
    result = HydroelasticQueryResult(t.ids, [r is not None and r.compliant for r in reps],
                                     [float("inf") if r is None else r.modulus for r in reps])
    X = engine.X_WG
    for i, j in pairs:
        i, j = int(i), int(j)
        ra, rb = reps[i], reps[j]
        supported = (ra is not None and rb is not None and (
            (ra.compliant != rb.compliant and not {ra.kind, rb.kind} == {"slab", "plane"})
            or (ra.kind == "volume" and rb.kind == "volume")))
        if not supported:
            if strict:
                exc, why = _unsupported_reason(ra, rb)
                exc = exc or ValueError
                raise exc(f"compute_contact_surfaces: the pair of geometries "
                          f"'{inspector.get_name(t.ids[i])}' and "
                          f"'{inspector.get_name(t.ids[j])}' {why}; use contact_model "
                          f"'hydroelastic_with_fallback' for point contact")
            continue
        result.hydroelastic_pairs.add((i, j))
        if ra.compliant and rb.compliant:
            out = _run(equal_pressure_polygons, (
                _to_world(X[i], ra.mesh.vertices_G), ra.mesh.pressure, ra.mesh.tetrahedra,
                _to_world(X[j], rb.mesh.vertices_G), rb.mesh.pressure, rb.mesh.tetrahedra),
                ra.mesh.tetrahedra.shape[0])
        elif ra.compliant:
            out = _surface(i, j, ra, rb, X[i], X[j], 1.0)
        else:
            out = _surface(j, i, rb, ra, X[j], X[i], -1.0)
        if out is None or out[3].shape[0] == 0:
            continue
        v, p, start, n, g = out
        nf = n.shape[0]
        area, cen, pc = np.zeros(nf), np.zeros((nf, 3)), np.zeros(nf)
        polygon_quadrature(nf, start, v, p, area, cen, pc)
        keep = area > 0.0
        if not keep.any():
            continue
        if not keep.all():
            idx = np.flatnonzero(keep)
            counts = np.diff(start)[idx]
            sel = np.concatenate([np.arange(start[f], start[f + 1]) for f in idx])
            v, p = v[sel], p[sel]
            start = np.concatenate([[0], np.cumsum(counts)])
            n, area, cen, pc, g = n[idx], area[idx], cen[idx], pc[idx], g[idx]
        result.surfaces.append(ContactSurface(t.ids[i], t.ids[j], v, start, p, n, area, cen,
                                              pc, g))
        result.surface_pairs.append((i, j))
    return result
