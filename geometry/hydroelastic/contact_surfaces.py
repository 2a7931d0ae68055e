"""Compliant-rigid hydroelastic contact surfaces of every candidate pair of a query.

Supported pairs (the compliant field sliced by the rigid geometry):

- compliant volume (Sphere, Box) vs rigid HalfSpace: the tets cut by the plane;
- compliant volume vs rigid surface mesh (Box, Sphere): the rigid triangles clipped
  by each tet;
- compliant HalfSpace slab vs rigid surface mesh: the rigid triangles clipped by the
  plane, pressure E · depth / thickness;
- compliant volume vs compliant volume: the surface of equal pressure, tet pair by tet
  pair.

Each pair is one compiled call (`geometry.hydroelastic.surface_kernels`): the
bounding-volume hierarchies of the meshes (built once per geometry, with the field
tables, in `make_representation`) give the candidate elements, whose polygons are built
in the compliant geometry's frame and written in W with their quadrature.

Other pairs are "unsupported": geometries without hydroelastic properties or with a shape
that has no representation yet, rigid-rigid, and compliant-compliant with a half space
(never supported). `compute_hydroelastic`
raises for them when strict and otherwise reports them for point-contact fallback.
"""

import weakref

import numpy as np

from .contact_surface import ContactSurface
from .representations import make_representation
from .surface_kernels import (
    FACE_COLUMNS, MAX_POLYGON_VERTICES, plane_volume_surface, slab_surface_surface,
    surface_volume_surface, volume_volume_surface,
)

__all__ = ["HydroelasticQueryResult", "compute_hydroelastic"]

_STORES = weakref.WeakKeyDictionary()


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


class _Store:
    """Per proximity tables: the representations (index -> representation or None) and
    each pair's work arrays (reused from query to query)."""

    def __init__(self, reps):
        self.reps = reps
        self.work = {}


def _store(engine, inspector):
    t = engine.t
    store = _STORES.get(t)
    if store is None:
        store = _STORES[t] = _Store([make_representation(
            inspector.get_shape(g), inspector.get_proximity_properties(g), g) for g in t.ids])
    return store


def _buffers(k, n_cand):
    """Work arrays of a surface kernel for k candidates (`n_cand`: the candidate array's
    shape)."""
    k = max(k, 16)
    return (np.empty(n_cand, np.int64), np.empty((MAX_POLYGON_VERTICES * k, 3)),
            np.empty(MAX_POLYGON_VERTICES * k), np.empty(k + 1, np.int64),
            np.empty((k, FACE_COLUMNS)))


def _polygons(work, key, kernel, args, elements):
    """Run `kernel(*args, *work arrays)`, growing the work arrays until they suffice.
    `elements`: the candidate array's length for a plane query (every element), None
    for an element-pair query. Returns (nf, work arrays)."""
    buf = work.get(key)
    while True:
        if buf is not None:
            nf = kernel(*args, *buf)
            if nf >= 0:
                work[key] = buf
                return nf, buf
            k = int(1.25 * (-nf - 1)) + 16
        else:
            k = 64
        buf = _buffers(k, elements if elements is not None else (k, 2))


def _surface_arrays(ra, rb, X_a, X_b, sign, work, key):
    """(nf, work arrays) of compliant ra (pose X_a) against rb (pose X_b), or None for an
    unsupported pair; the polygons' normals point out of N into M (sign = +1: ra is M)."""
    if ra.kind == "volume":
        m = ra.mesh
        if rb.kind == "plane":
            return _polygons(work, key, plane_volume_surface, (
                X_a, sign * X_b[:3, 2], X_b[:3, 3].copy(), m.vertices_G, m.pressure,
                m.tetrahedra, ra.field, *ra.bvh.arrays()), m.tetrahedra.shape[0])
        if rb.kind == "surface":
            s = rb.mesh
            return _polygons(work, key, surface_volume_surface, (
                X_a, X_b, sign, ra.field, ra.planes, *ra.bvh.arrays(), s.vertices_G,
                s.triangles, s.normals_G, *rb.bvh.arrays()), None)
        if rb.kind == "volume":
            return _polygons(work, key, volume_volume_surface, (
                X_a, X_b, m.vertices_G, m.tetrahedra, ra.field, *ra.bvh.arrays(),
                rb.mesh.vertices_G, rb.mesh.tetrahedra, rb.field, rb.planes,
                *rb.bvh.arrays()), None)
        return None
    if ra.kind == "slab" and rb.kind == "surface":
        s = rb.mesh
        return _polygons(work, key, slab_surface_surface, (
            X_a, X_b, ra.modulus, ra.thickness, sign, s.vertices_G, s.triangles, s.normals_G,
            *rb.bvh.arrays()), s.triangles.shape[0])
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
    store = _store(engine, inspector)
    reps = store.reps
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
        if ra.compliant:
            out = _surface_arrays(ra, rb, X[i], X[j], 1.0, store.work, (i, j))
        else:
            out = _surface_arrays(rb, ra, X[j], X[i], -1.0, store.work, (i, j))
        if out is None or out[0] == 0:
            continue
        nf, (_, out_v, out_p, out_start, faces) = out
        nv = out_start[nf]
        F = faces[:nf]
        result.surfaces.append(ContactSurface(
            t.ids[i], t.ids[j], out_v[:nv].copy(), out_start[:nf + 1].copy(),
            out_p[:nv].copy(), F[:, 0:3].copy(), F[:, 6].copy(), F[:, 3:6].copy(),
            F[:, 7].copy(), F[:, 8].copy()))
        result.surface_pairs.append((i, j))
    return result
