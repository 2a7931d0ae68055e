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

from .contact_surface import ContactSurface, HydroelasticContactRepresentation
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
    supported : ndarray (n, n) bool or None
        Symmetric: pair (i, j) is one hydroelastic contact supports (it is handled
        hydroelastically whenever the broad phase finds it); None when no geometry has
        hydroelastic properties.
    """

    def __init__(self, ids=(), compliant=(), modulus=(), supported=None):
        self.ids = ids
        self.compliant = compliant
        self.modulus = modulus
        self.supported = supported
        self.surfaces = []
        self.hydroelastic_pairs = set()
        self.surface_pairs = []


_NONE, _VOLUME, _SLAB, _PLANE, _SURFACE = range(5)
_KIND = {"volume": _VOLUME, "slab": _SLAB, "plane": _PLANE, "surface": _SURFACE}


class _Store:
    """Per proximity tables: the representations (index -> representation or None), the
    per-index lists of `HydroelasticQueryResult`, the supported-pair matrix, and per pair
    met so far its plan (`_plan`) and work arrays (reused from query to query)."""

    def __init__(self, reps):
        self.reps = reps
        self.compliant = [r is not None and r.compliant for r in reps]
        self.modulus = [float("inf") if r is None else r.modulus for r in reps]
        kind = np.array([_NONE if r is None else _KIND[r.kind] for r in reps], np.int64)
        soft = (kind == _VOLUME) | (kind == _SLAB)
        hard = (kind == _PLANE) | (kind == _SURFACE)
        volume = kind == _VOLUME
        slab_plane = (kind == _SLAB)[:, None] & (kind == _PLANE)[None, :]
        supported = ((soft[:, None] & hard[None, :]) | (hard[:, None] & soft[None, :])
                     | (volume[:, None] & volume[None, :]))
        self.supported = supported & ~slab_plane & ~slab_plane.T
        self.any = bool(kind.any())
        self.plans = {}
        self.work = {}


def _store(engine, get_inspector):
    t = engine.t
    store = _STORES.get(t)
    if store is None:
        inspector = get_inspector()
        store = _STORES[t] = _Store([make_representation(
            inspector.get_shape(g), inspector.get_proximity_properties(g),
            f"{inspector.get_name(g)!r} ({g})") for g in t.ids])
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


def _plan(ra, rb, i, j):
    """(kernel, a, b, static arguments, elements) of supported pair (i, j) (i is M): the
    kernel runs as kernel(X_WG[a], X_WG[b], *static, *work arrays), a the compliant
    geometry (i when both are); `elements` as in `_polygons`. The polygons' normals point
    out of N into M."""
    if not ra.compliant:
        return _plan_compliant(rb, ra, j, i, -1.0)
    return _plan_compliant(ra, rb, i, j, 1.0)


def _plan_compliant(rc, ro, c, o, sign):
    m = rc.mesh
    if rc.kind == "volume" and ro.kind == "plane":
        return (plane_volume_surface, c, o, (sign, m.vertices_G, m.pressure, m.tetrahedra,
                                              rc.field, *rc.bvh.arrays()), m.tetrahedra.shape[0])
    if rc.kind == "volume" and ro.kind == "surface":
        s = ro.mesh
        return (surface_volume_surface, c, o, (sign, rc.field, rc.planes, *rc.bvh.arrays(),
                                               s.vertices_G, s.triangles, s.normals_G,
                                               *ro.bvh.arrays(), *ro.bvh.move_work()), None)
    if rc.kind == "volume":
        n = ro.mesh
        return (volume_volume_surface, c, o, (m.vertices_G, m.tetrahedra, rc.field,
                                              *rc.bvh.arrays(), rc.bounds, n.vertices_G,
                                              n.tetrahedra, ro.field, ro.planes,
                                              *ro.bvh.arrays(), ro.bounds,
                                              *ro.bvh.move_work()), None)
    s = ro.mesh
    return (slab_surface_surface, c, o, (rc.modulus, rc.thickness, sign, s.vertices_G,
                                         s.triangles, s.normals_G, *ro.bvh.arrays()),
            s.triangles.shape[0])


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


def compute_hydroelastic(engine, get_inspector, strict):
    """Contact surfaces of the candidate pairs of a posed ProximityEngine.

    Parameters
    ----------
    engine : geometry.proximity.tables.ProximityEngine
        With poses updated.
    get_inspector : callable
        Returns the SceneGraphInspector (called only when the geometries' representations
        are first built, or to name the geometries of an error).
    strict : bool
        True: a candidate pair that is not supported raises (ValueError, or
        NotImplementedError for compliant-compliant volumes), naming both geometries.
        False: such pairs are left to point contact.

    Returns
    -------
    HydroelasticQueryResult
    """
    store = _store(engine, get_inspector)
    t = engine.t
    if not store.any:
        if strict and t.n > 1:
            engine._broad_phase(0.0)
            if engine.npairs:
                i, j = engine.pairs[0]
                _refuse(store, get_inspector(), t, int(i), int(j))
        return HydroelasticQueryResult(t.ids, store.compliant, store.modulus)
    count = engine._broad_phase(0.0)
    result = HydroelasticQueryResult(t.ids, store.compliant, store.modulus, store.supported)
    X = engine.X_WG
    supported = store.supported
    for i, j in engine.pairs[:count].tolist():
        if not supported[i, j]:
            if strict:
                _refuse(store, get_inspector(), t, i, j)
            continue
        result.hydroelastic_pairs.add((i, j))
        plan = store.plans.get((i, j))
        if plan is None:
            plan = store.plans[(i, j)] = _plan(store.reps[i], store.reps[j], i, j)
        kernel, a, b, static, elements = plan
        nf, (_, out_v, out_p, out_start, faces) = _polygons(
            store.work, (i, j), kernel, (X[a], X[b], *static), elements)
        if nf == 0:
            continue
        nv = out_start[nf]
        F = faces[:nf]
        result.surfaces.append(ContactSurface(
            t.ids[i], t.ids[j], out_v[:nv].copy(), out_start[:nf + 1].copy(),
            out_p[:nv].copy(), F[:, 0:3].copy(), F[:, 6].copy(), F[:, 3:6].copy(),
            F[:, 7].copy(), F[:, 8].copy(), HydroelasticContactRepresentation.kPolygon))
        result.surface_pairs.append((i, j))
    return result


def _refuse(store, inspector, t, i, j):
    """Raise for the unsupported pair (i, j) of a strict query."""
    exc, why = _unsupported_reason(store.reps[i], store.reps[j])
    raise (exc or ValueError)(
        f"compute_contact_surfaces: the pair of geometries '{inspector.get_name(t.ids[i])}' "
        f"and '{inspector.get_name(t.ids[j])}' {why}; use contact_model "
        f"'hydroelastic_with_fallback' for point contact")
