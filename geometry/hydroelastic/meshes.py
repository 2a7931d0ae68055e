"""Tetrahedral volume meshes with pressure fields (compliant geometries) and triangle
surface meshes (rigid geometries) of the primitive shapes.

The sphere and the ellipsoid are Drake's meshes (make_sphere_mesh.h,
make_ellipsoid_mesh.h): an octahedron inscribed in the unit ball (its six vertices on
the sphere, eight tets sharing the center) refined L times, with L the smallest level
whose equator chords are no longer than the resolution hint (at most 8). Under the
default tessellation strategy (`TessellationStrategy.kSingleInteriorVertex`) a level
splits every surface triangle at its edge midpoints pushed out onto the sphere and joins
the four triangles to the center (8·4^L tets, one interior vertex); under
``kDenseInteriorVertices`` it splits every tet into eight (the four corner tets and the
inner octahedron cut along its best-shaped diagonal; 8^(L+1) tets), projecting only the
midpoints of edges on the sphere. The ellipsoid is the unit mesh of hint / max(a, b, c)
scaled by (a, b, c). The rigid sphere and ellipsoid are those meshes' boundaries.

The other volume meshes are structured: a grid of cells, each split into the six Kuhn
tetrahedra (the tets of the permutation paths from corner 000 to corner 111, so that
neighbouring cells share faces). The extent field ε is 0 on the boundary and 1 at the
deepest points (Elandt et al. 2019); the pressure field is E ε, linear inside each
tetrahedron.
"""

import math
from dataclasses import dataclass

import numpy as np

from merganser.framework.drake_enum import DrakeIntEnum

from ..proximity.vtk_volume_mesh import boundary_triangles, distance_to_boundary

__all__ = ["VolumeMesh", "SurfaceMesh", "TessellationStrategy", "make_sphere_volume_mesh",
           "make_box_volume_mesh",
           "make_box_surface_mesh", "make_sphere_surface_mesh", "make_ellipsoid_volume_mesh",
           "make_ellipsoid_surface_mesh", "make_cylinder_volume_mesh",
           "make_cylinder_surface_mesh", "make_capsule_volume_mesh",
           "make_capsule_surface_mesh", "make_convex_volume_mesh",
           "make_tetrahedral_volume_mesh", "make_tetrahedral_surface_mesh",
           "make_convex_surface_mesh", "cells_for", "sphere_refinement_level",
           "as_tessellation_strategy"]

# Kuhn tetrahedra of the unit cube: corners as bit masks x=1, y=2, z=4.
_PATHS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]


@dataclass(frozen=True, eq=False)
class VolumeMesh:
    """A tetrahedral mesh with a piecewise-linear pressure field.

    Attributes
    ----------
    vertices_G : ndarray (nv, 3)
        Vertex positions in the geometry frame G (m).
    tetrahedra : ndarray (nt, 4) int64
        Vertex indices of each tetrahedron.
    pressure : ndarray (nv,)
        Pressure E ε at the vertices (Pa).
    """

    vertices_G: np.ndarray
    tetrahedra: np.ndarray
    pressure: np.ndarray


@dataclass(frozen=True, eq=False)
class SurfaceMesh:
    """A triangle mesh with outward face normals.

    Attributes
    ----------
    vertices_G : ndarray (nv, 3)
        Vertex positions in the geometry frame G (m).
    triangles : ndarray (nf, 3) int64
        Vertex indices, counter-clockwise seen from outside.
    normals_G : ndarray (nf, 3)
        Outward unit normals, in G.
    """

    vertices_G: np.ndarray
    triangles: np.ndarray
    normals_G: np.ndarray


def cells_for(length, resolution_hint, minimum=2):
    """Even number of grid cells (>= minimum) so that cells are at most ~resolution_hint."""
    n = max(minimum, int(np.ceil(length / resolution_hint - 1e-9)))
    return n + (n % 2)


def _grid_tets(nx, ny, nz, mirrored=False):
    """Kuhn tetrahedra of an nx x ny x nz grid of (nx+1)(ny+1)(nz+1) vertices (x fastest).
    `mirrored`: the cells of the upper half in x (and in y) use the Kuhn split reflected
    in x (in y), which keeps the mesh conforming and makes it symmetric about the grid's
    mid planes in x and y."""
    def vid(i, j, k):
        return i + (nx + 1) * (j + (ny + 1) * k)
    i, j, k = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
    i, j, k = i.ravel(), j.ravel(), k.ravel()
    corner = np.stack([vid(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1))
                       for c in range(8)], axis=1)
    mask = np.zeros(i.size, np.int64)
    if mirrored:
        mask = np.where(2 * i >= nx, 1, 0) | np.where(2 * j >= ny, 2, 0)
    rows = np.arange(i.size)
    tets = []
    for a, b, _ in _PATHS:
        c1 = 1 << a
        c2 = c1 | (1 << b)
        tets.append(np.stack([corner[rows, c ^ mask] for c in (0, c1, c2, 7)], axis=1))
    return np.concatenate(tets).astype(np.int64)


def _grid_vertices(nx, ny, nz):
    x, y, z = (np.linspace(-1.0, 1.0, n + 1) for n in (nx, ny, nz))
    Z, Y, X = np.meshgrid(z, y, x, indexing="ij")
    return np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1)


class TessellationStrategy(DrakeIntEnum):
    """How a compliant sphere's or ellipsoid's volume is tessellated (Drake's
    ``("hydroelastic", "tessellation_strategy")`` property).

    kSingleInteriorVertex: the center is the only interior vertex; every tet joins a
    surface triangle to it (8·4^L tets; the default, as in Drake).
    kDenseInteriorVertices: every refinement splits every tet into eight, so that the tets
    keep their shape and the interior fills with vertices (8^(L+1) tets).
    """

    kSingleInteriorVertex = 0
    kDenseInteriorVertices = 1


def as_tessellation_strategy(value, fn="as_tessellation_strategy",
                             argument="tessellation_strategy"):
    """`value` as a TessellationStrategy: a member, its name (``"kSingleInteriorVertex"``,
    ``"kDenseInteriorVertices"``) or its integer value; anything else raises a ValueError
    naming `fn` and `argument` (a function's argument or a property)."""
    if isinstance(value, TessellationStrategy):
        return value
    if isinstance(value, str) and value in TessellationStrategy.__members__:
        return TessellationStrategy[value]
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        try:
            return TessellationStrategy(int(value))
        except ValueError:
            pass
    names = " or ".join(f"{m} ({m.name!r})" for m in TessellationStrategy)
    raise ValueError(f"{fn}: {argument} expected {names}, got {value!r}")


def sphere_refinement_level(radius, resolution_hint, fn="sphere_refinement_level"):
    """Refinement level L of the sphere mesh: the smallest L whose 4·2^L chords around
    the equator, 2 R sin(π / (4·2^L)), are no longer than the hint, at most 8 (Drake's
    bound: 8·4^8 tets in the single-vertex mesh); 0 for hints of 2R and more.

    Parameters
    ----------
    radius : float
        R (m), > 0.
    resolution_hint : float
        Target edge length (m), > 0.
    fn : str
        Names the caller in errors.

    Returns
    -------
    int
    """
    if not radius > 0.0:
        raise ValueError(f"{fn}: radius expected > 0, got {radius!r}")
    if not resolution_hint > 0.0:
        raise ValueError(f"{fn}: resolution_hint expected > 0, got {resolution_hint!r}")
    edge = min(float(resolution_hint), 2.0 * radius)
    level = math.ceil(math.log2(math.pi / math.asin(edge / (2.0 * radius)))) - 2
    return min(max(0, level), 8)


def _norms(p):
    """(n,) Euclidean norms of the rows of `p` (n, 3), summed x, y, z in that order."""
    return np.sqrt(p[:, 0] * p[:, 0] + p[:, 1] * p[:, 1] + p[:, 2] * p[:, 2])


def _octahedron():
    """Level 0 of the unit-sphere mesh: (p_MV (7, 3), tets (8, 4), on_sphere (7,)). Vertex
    0 is the center; 1-4 go around the equator (+x, +y, -x, -y), 5 and 6 are the poles
    +z and -z. Each tet is a face of the octahedron, wound inward, and the center last."""
    p_MV = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0],
                     [0.0, -1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, -1.0]])
    ring = np.array([1, 2, 3, 4])
    after = np.roll(ring, -1)
    north = np.column_stack([ring, np.full(4, 5), after, np.zeros(4, np.int64)])
    south = np.column_stack([after, np.full(4, 6), ring, np.zeros(4, np.int64)])
    on_sphere = np.ones(7, bool)
    on_sphere[0] = False
    return p_MV, np.vstack([north, south]).astype(np.int64), on_sphere


def _split_edges(p_MV, edges, on_sphere):
    """Midpoint vertices of `edges` (m, 2): (p_MV with the new vertices appended, (m,)
    index of each edge's midpoint, on_sphere extended). An edge listed several times
    gets one vertex; new vertices are numbered in the order their edges first appear.
    A midpoint of two vertices on the unit sphere is pushed out onto it."""
    nv = p_MV.shape[0]
    lo, hi = edges.min(axis=1), edges.max(axis=1)
    _, first, inverse = np.unique(lo * nv + hi, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(order.size, np.int64)
    rank[order] = np.arange(order.size)
    a, b = lo[first[order]], hi[first[order]]
    mid = (p_MV[a] + p_MV[b]) / 2.0
    out = on_sphere[a] & on_sphere[b]
    mid[out] /= _norms(mid[out])[:, None]
    return (np.vstack([p_MV, mid]), nv + rank[inverse.ravel()],
            np.concatenate([on_sphere, out]))


def _refine_on_surface(p_MV, tets, on_sphere):
    """One single-interior-vertex level: each tet (a, b, c, center) becomes the four tets
    of its surface triangle split at the edge midpoints, the center kept last."""
    a, b, c, o = tets.T
    edges = np.stack([np.stack(pair, axis=1) for pair in ((a, b), (a, c), (b, c))], axis=1)
    p_MV, mid, on_sphere = _split_edges(p_MV, edges.reshape(-1, 2), on_sphere)
    ab, ac, bc = mid.reshape(-1, 3).T
    children = np.stack([np.stack(t, axis=1) for t in
                         ((a, ab, ac, o), (b, bc, ab, o), (c, ac, bc, o), (ab, bc, ac, o))],
                        axis=1)
    return p_MV, children.reshape(-1, 4), on_sphere


def _tet_quality(P):
    """(..., ) shape measure v² / (Σ l²)³ of tets with corners P (..., 4, 3): v the
    volume, l the six edge lengths (Everett 1997, up to constants)."""
    a, b, c, d = P[..., 0, :], P[..., 1, :], P[..., 2, :], P[..., 3, :]
    six_v = np.einsum("...i,...i->...", np.cross(b - a, c - a), d - a)
    edges = 0.0
    for u, w in ((a, b), (a, c), (a, d), (b, c), (b, d), (c, d)):
        e = u - w
        edges = edges + np.einsum("...i,...i->...", e, e)
    return (six_v / 6.0) ** 2 / edges ** 3


def _refine_dense(p_MV, tets, on_sphere):
    """One dense level: each tet split into eight at its six edge midpoints (the four
    corner tets, the homothetic copies at half size, and the inner octahedron cut along
    the diagonal, of its three, whose four tets have the largest summed quality; of cuts
    equal to round-off the first in the order ad-bc, ac-bd, ab-cd, Drake's order). The
    children are wound positively."""
    nt = tets.shape[0]
    pairs = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
    edges = np.stack([tets[:, [i, j]] for i, j in pairs], axis=1).reshape(-1, 2)
    p_MV, mid, on_sphere = _split_edges(p_MV, edges, on_sphere)
    m = mid.reshape(nt, 6)
    ab, ac, ad, bc, bd, cd = m.T
    a, b, c, d = tets.T
    corners = [(a, ab, ac, ad), (ab, b, bc, bd), (ac, bc, c, cd), (ad, bd, cd, d)]
    # the diagonals (u, w) and the ring of the other four midpoints around each
    cuts = [((ad, bc), (ab, ac, cd, bd)), ((ac, bd), (ab, ad, cd, bc)),
            ((ab, cd), (ac, ad, bd, bc))]
    candidates = np.stack([
        np.stack([np.stack((u, w, ring[k], ring[(k + 1) % 4]), axis=1) for k in range(4)],
                 axis=1) for (u, w), ring in cuts], axis=1)          # (nt, 3, 4, 4)
    quality = _tet_quality(p_MV[candidates]).sum(axis=2)                # (nt, 3)
    # the first cut within round-off of the best, so that cuts a symmetry makes equal
    # are chosen alike whatever the rounding
    best = np.argmax(quality >= quality.max(axis=1, keepdims=True) * (1.0 - 1e-12), axis=1)
    inner = candidates[np.arange(nt), best]                             # (nt, 4, 4)
    children = np.concatenate([np.stack([np.stack(t, axis=1) for t in corners], axis=1),
                               inner], axis=1).reshape(-1, 4)
    return p_MV, _wound_positively(p_MV, children), on_sphere


def _wound_positively(p_MV, tets):
    """`tets` (nt, 4) with the last two vertices swapped where (b-a)×(c-a)·(d-a) < 0."""
    V = p_MV[tets]
    negative = np.einsum("ij,ij->i", np.cross(V[:, 1] - V[:, 0], V[:, 2] - V[:, 0]),
                         V[:, 3] - V[:, 0]) < 0.0
    tets = tets.copy()
    tets[negative, 2], tets[negative, 3] = tets[negative, 3], tets[negative, 2].copy()
    return tets


def _unit_sphere_mesh(level, strategy):
    """(p_MV (nv, 3), tets (nt, 4) int64, on_sphere (nv,)) of the unit-ball mesh at
    refinement `level` under `strategy` (a TessellationStrategy). Single-interior-vertex
    meshes keep the center as vertex 0 and as every tet's last vertex."""
    p_MV, tets, on_sphere = _octahedron()
    refine = (_refine_on_surface if strategy == TessellationStrategy.kSingleInteriorVertex
              else _refine_dense)
    for _ in range(level):
        p_MV, tets, on_sphere = refine(p_MV, tets, on_sphere)
    return p_MV, tets, on_sphere


def _zero_below(extent):
    """The extent with |ε| < 1e-14 set to 0: vertices meant to be on the boundary that
    round-off put a hair inside or outside carry no pressure (as in Drake)."""
    extent[np.abs(extent) < 1e-14] = 0.0
    return extent


def make_sphere_volume_mesh(radius, resolution_hint, hydroelastic_modulus, *,
                            tessellation_strategy=TessellationStrategy.kSingleInteriorVertex):
    """Volume mesh of a sphere with pressure E (R - r)/R, Drake's (make_sphere_mesh.h,
    make_sphere_field.h): the refined octahedron of `sphere_refinement_level` scaled by R.

    Parameters
    ----------
    radius : float
        R (m), > 0.
    resolution_hint : float
        Target edge length (m) of the chords around the equator, > 0.
    hydroelastic_modulus : float
        E (Pa).
    tessellation_strategy : TessellationStrategy or str, keyword
        ``kSingleInteriorVertex`` (default: 8·4^L tets, 4^(L+1) + 3 vertices, the center
        vertex 0 and every tet's last) or ``kDenseInteriorVertices`` (8^(L+1) tets).

    Returns
    -------
    VolumeMesh
        Vertices (nv, 3) in the sphere's frame G; the vertices on the sphere have
        pressure exactly 0, the center E.
    """
    fn = "make_sphere_volume_mesh"
    strategy = as_tessellation_strategy(tessellation_strategy, fn)
    level = sphere_refinement_level(radius, resolution_hint, fn)
    p_MV, tets, _ = _unit_sphere_mesh(level, strategy)
    p_GV = p_MV * radius
    extent = _zero_below((radius - _norms(p_GV)) / radius)
    return VolumeMesh(p_GV, tets, hydroelastic_modulus * extent)


def _boundary_surface(p_GV, tets):
    """The outward surface mesh of a single-interior-vertex mesh (center vertex 0, the
    last of every tet): each tet's first three vertices, rewound outward."""
    return _oriented(p_GV[1:], tets[:, [0, 2, 1]] - 1)


def make_box_volume_mesh(size, resolution_hint, hydroelastic_modulus):
    """Volume mesh of a box with pressure E d / m (d: distance to the boundary, m: half
    the smallest dimension), represented exactly.

    The box is split into six frusta, the region closest to each face: the face and the
    matching face of the inner box of half sizes h - m (the medial axis: a point, a
    segment or a rectangle). On the frustum of face (a, ±) the field is the affine
    d = h_a - |x_a|, so every tet inside it interpolates it exactly.

    Without a hint (the compliant box of a SceneGraph, as Drake's, which ignores the
    resolution hint for boxes) the mesh is Drake's MakeBoxVolumeMeshWithMaAndSymmetricTriangles
    tessellation: each face split into the four triangles about its center, each triangle
    joined to the matching triangle of the inner face (`_box_medial_axis_mesh`). With a
    hint each frustum is a grid of cells of about `resolution_hint` (trilinear map of the
    unit cube, Kuhn tetrahedra mirrored about the face's mid lines, so that the mesh has
    the box's symmetries and a level box's quadrature points carry no couple); the tets
    the trilinear map flattens (where the inner box is a point, a segment or flat) have no
    volume and are left out.

    Parameters
    ----------
    size : array-like (3,)
        Width, depth, height (m).
    resolution_hint : float or None
        Target edge length (m); None for the coarse mesh.
    hydroelastic_modulus : float
        E (Pa).

    Returns
    -------
    VolumeMesh
    """
    half = 0.5 * np.asarray(size, float)
    m = half.min()
    if resolution_hint is None:
        verts, tets, w = _box_medial_axis_mesh(half)
        return VolumeMesh(verts, tets, hydroelastic_modulus * w)
    verts, tets, pres = [], [], []
    offset = 0
    nw = cells_for(m, resolution_hint, 1)
    for a in range(3):
        b, c = (a + 1) % 3, (a + 2) % 3
        nb, nc = (cells_for(2.0 * half[b], resolution_hint, 1),
                  cells_for(2.0 * half[c], resolution_hint, 1))
        g = (_grid_vertices(nb, nc, nw) + 1.0) * 0.5  # (u, v, w) in [0, 1]^3
        u, v, w = g[:, 0], g[:, 1], g[:, 2]
        for sgn in (-1.0, 1.0):
            P = np.zeros((g.shape[0], 3))
            P[:, b] = (2.0 * u - 1.0) * (half[b] - w * m)
            P[:, c] = (2.0 * v - 1.0) * (half[c] - w * m)
            P[:, a] = sgn * (half[a] - w * m)
            verts.append(P)
            pres.append(hydroelastic_modulus * w)
            tets.append(_grid_tets(nb, nc, nw, mirrored=True) + offset)
            offset += P.shape[0]
    verts, tets = np.concatenate(verts), np.concatenate(tets)
    return VolumeMesh(verts, tets[_has_volume(verts, tets)], np.concatenate(pres))


def _box_medial_axis_mesh(half):
    """(vertices (n, 3), tetrahedra (k, 4), extent w (n,)) of the box of half sizes
    `half`: per face (a, ±), the four triangles (F, V_i, V_j) of the face's center F and
    its edges V_i V_j, each joined to the matching triangle (F', M_i, M_j) of the inner
    box's face (M_i: the inner box's corner of V_i, at distance m from the three faces
    meeting at V_i; F' its face's center) into a prism of three tets, or, where the inner
    face is a segment or a point, to its edge M_i M_j into the pyramid of F over
    V_i V_j M_j M_i (two tets, one if M_i = M_j). Every quadrilateral is split by the
    diagonal through its lowest vertex index, so that neighbouring cells share faces (a
    conforming mesh); tets with repeated vertices or no volume are left out. w is 0 on
    the boundary, 1 on the inner box. Each tet lies in one frustum, where
    d = h_a - |x_a| is affine: w = d / m exactly."""
    m = float(half.min())
    inner = half - m
    inner[inner <= 1e-14 * max(1.0, m)] = 0.0      # Drake's relative tolerance
    index, points, extent = {}, [], []

    def vertex(p, wv):
        key = tuple(np.round(p / max(m, 1e-300), 12) + 0.0)
        k = index.get(key)
        if k is None:
            k = index[key] = len(points)
            points.append(p)
            extent.append(wv)
        return k

    tets = []
    corners = ((-1, -1), (1, -1), (1, 1), (-1, 1))      # around the face
    for a in range(3):
        b, c = (a + 1) % 3, (a + 2) % 3
        for sgn in (-1.0, 1.0):
            F = np.zeros(3)
            F[a] = sgn * half[a]
            Fi = F.copy()
            Fi[a] = sgn * inner[a]
            V, M = [], []
            for sb, sc in corners:
                p = F.copy()
                p[b], p[c] = sb * half[b], sc * half[c]
                q = Fi.copy()
                q[b], q[c] = sb * inner[b], sc * inner[c]
                V.append(vertex(p, 0.0))
                M.append(vertex(q, 1.0))
            f = vertex(F, 0.0)
            flat = inner[b] == 0.0 or inner[c] == 0.0     # the inner face: a segment or a point
            fi = None if flat else vertex(Fi, 1.0)
            for e in range(4):
                i, j = e, (e + 1) % 4
                if fi is not None:
                    tets.extend(_prism_tets((f, V[i], V[j]), (fi, M[i], M[j])))
                else:                               # the pyramid F over V_i V_j M_j M_i
                    tets.extend((f,) + tri for tri in _quad_triangles(V[i], V[j], M[j], M[i]))
    verts = np.array(points)
    tets = np.array(tets, np.int64).reshape(-1, 4)
    tets = tets[np.array([len(set(t)) == 4 for t in tets.tolist()], bool)]
    tets = tets[_has_volume(verts, tets)]
    V = verts[tets]
    negative = np.einsum("ij,ij->i", np.cross(V[:, 1] - V[:, 0], V[:, 2] - V[:, 0]),
                         V[:, 3] - V[:, 0]) < 0.0
    tets[negative, 2], tets[negative, 3] = tets[negative, 3], tets[negative, 2].copy()
    return verts, tets, np.array(extent)


def _quad_triangles(p, q, r, t):
    """The quadrilateral p q r t (cyclic; global vertex indices, two may coincide) as two
    triangles split by the diagonal through its lowest index (one triangle if it has
    three distinct vertices)."""
    quad = [p, q, r, t]
    k = min(range(4), key=lambda i: (quad[i], i))
    a, b, c, d = (quad[(k + i) % 4] for i in range(4))
    return [(a, b, c), (a, c, d)]


def _prism_tets(bottom, top):
    """The three tets of the prism with triangles `bottom` (A, B, C) and `top` (A', B',
    C') (A' above A, ...; global vertex indices), its quadrilateral sides split by the
    diagonal through their lowest index (Dompierre et al. 1999)."""
    six = list(bottom) + list(top)
    k = min(range(6), key=lambda i: (six[i], i))
    r = k % 3                                   # rotate so the lowest is A (or A')
    bot = [bottom[(r + i) % 3] for i in range(3)]
    tp = [top[(r + i) % 3] for i in range(3)]
    if k >= 3:                                  # the lowest is on top: swap the triangles
        bot, tp = tp, bot
    A, B, C = bot
    A2, B2, C2 = tp
    tets = [(A, A2, B2, C2)]                    # the corner at A'
    if min(B, C2) < min(C, B2):                 # the side B C C' B' split by B-C'
        tets += [(A, B, C, C2), (A, B, C2, B2)]
    else:                                       # ... by C-B'
        tets += [(A, B, C, B2), (A, C, C2, B2)]
    return tets


def _has_volume(verts, tets):
    """Mask of the tetrahedra whose volume is not zero (to round-off)."""
    V = verts[tets]
    six = np.abs(np.einsum("ij,ij->i", np.cross(V[:, 1] - V[:, 0], V[:, 2] - V[:, 0]),
                           V[:, 3] - V[:, 0]))
    return six > 1e-9 * six.max()


def _cube_surface(counts):
    """Triangulated surface of [-1, 1]^3 with `counts` (3,) cells per axis."""
    verts, tris = [], []
    offset = 0
    for a in range(3):
        b, c = (a + 1) % 3, (a + 2) % 3
        for s in (-1.0, 1.0):
            u = np.linspace(-1.0, 1.0, counts[b] + 1)
            w = np.linspace(-1.0, 1.0, counts[c] + 1)
            U, W = np.meshgrid(u, w, indexing="ij")
            P = np.zeros((U.size, 3))
            P[:, a], P[:, b], P[:, c] = s, U.ravel(), W.ravel()
            nw = counts[c] + 1
            i, j = np.meshgrid(np.arange(counts[b]), np.arange(counts[c]), indexing="ij")
            v00 = (i * nw + j).ravel() + offset
            v10, v01, v11 = v00 + nw, v00 + 1, v00 + nw + 1
            tris.append(np.stack([v00, v10, v11], axis=1))
            tris.append(np.stack([v00, v11, v01], axis=1))
            verts.append(P)
            offset += P.shape[0]
    return np.concatenate(verts), np.concatenate(tris).astype(np.int64)


def _oriented(verts, tris, center=None):
    """Triangles flipped to face away from `center` (the origin if None; the shape must be
    star-shaped about it), with their unit normals."""
    a, b, c = verts[tris[:, 0]], verts[tris[:, 1]], verts[tris[:, 2]]
    n = np.cross(b - a, c - a)
    o = np.zeros(3) if center is None else center
    flip = np.einsum("ij,ij->i", n, a + b + c - 3.0 * o) < 0.0
    tris = tris.copy()
    tris[flip, 1], tris[flip, 2] = tris[flip, 2], tris[flip, 1].copy()
    n[flip] *= -1.0
    n /= np.linalg.norm(n, axis=1)[:, None]
    return SurfaceMesh(verts, tris, n)


def make_box_surface_mesh(size, resolution_hint=None):
    """Surface mesh of a box, each face a grid of cells of about `resolution_hint` (m),
    or, if None, the four triangles about each face's center (Drake's rigid box,
    MakeBoxSurfaceMeshWithSymmetricTriangles, which ignores the hint: the boundary of
    `make_box_volume_mesh`'s mesh without a hint)."""
    half = 0.5 * np.asarray(size, float)
    if resolution_hint is None:
        verts, tets, _ = _box_medial_axis_mesh(half)
        tris = np.asarray(boundary_triangles(tets), np.int64)
        used = np.unique(tris)
        remap = np.zeros(verts.shape[0], np.int64)
        remap[used] = np.arange(used.size)
        return _oriented(verts[used], remap[tris])
    counts = [cells_for(2.0 * h, resolution_hint, 1) for h in half]
    verts, tris = _cube_surface(counts)
    return _oriented(verts * half, tris)


def make_sphere_surface_mesh(radius, resolution_hint=None):
    """Surface mesh of a sphere, Drake's rigid sphere: the boundary of the
    single-interior-vertex volume mesh (8·4^L triangles, 4^(L+1) + 2 vertices on the
    sphere), L from `sphere_refinement_level`; `resolution_hint` (m) None takes R/2
    (Drake requires one)."""
    fn = "make_sphere_surface_mesh"
    hint = radius / 2.0 if resolution_hint is None else resolution_hint
    p_MV, tets, _ = _unit_sphere_mesh(sphere_refinement_level(radius, hint, fn),
                                      TessellationStrategy.kSingleInteriorVertex)
    return _boundary_surface(p_MV * radius, tets)


def _unit_ellipsoid_mesh(a, b, c, resolution_hint, strategy, fn):
    """(p_GV (nv, 3), tets) of the ellipsoid: the unit-sphere mesh of the hint over the
    largest semi-axis, scaled by (a, b, c)."""
    for name, value in (("a", a), ("b", b), ("c", c)):
        if not value > 0.0:
            raise ValueError(f"{fn}: semi-axis {name} expected > 0, got {value!r}")
    if not resolution_hint > 0.0:
        raise ValueError(f"{fn}: resolution_hint expected > 0, got {resolution_hint!r}")
    level = sphere_refinement_level(1.0, resolution_hint / max(a, b, c), fn)
    p_MV, tets, _ = _unit_sphere_mesh(level, strategy)
    return p_MV * np.array([a, b, c], float), tets


def make_ellipsoid_volume_mesh(a, b, c, resolution_hint, hydroelastic_modulus, *,
                               tessellation_strategy=TessellationStrategy.kSingleInteriorVertex):
    """Volume mesh of the ellipsoid with semi-axes (a, b, c) (m), Drake's
    (make_ellipsoid_mesh.h, make_ellipsoid_field.h): the unit-sphere mesh of
    `resolution_hint` / max(a, b, c) scaled by (a, b, c), with the field E (1 - ρ)
    (ρ = |(x/a, y/b, z/c)|: 1 on the surface, 0 at the centre).

    Parameters
    ----------
    a, b, c : float
        Semi-axes along x, y, z of the frame G (m), > 0.
    resolution_hint : float
        Target edge length (m) around the largest great ellipses, > 0.
    hydroelastic_modulus : float
        E (Pa).
    tessellation_strategy : TessellationStrategy or str, keyword
        As for `make_sphere_volume_mesh`.

    Returns
    -------
    VolumeMesh
    """
    fn = "make_ellipsoid_volume_mesh"
    strategy = as_tessellation_strategy(tessellation_strategy, fn)
    p_GV, tets = _unit_ellipsoid_mesh(a, b, c, resolution_hint, strategy, fn)
    p_UV = p_GV * np.array([1.0 / a, 1.0 / b, 1.0 / c])     # back in the unit ball
    return VolumeMesh(p_GV, tets, hydroelastic_modulus * _zero_below(1.0 - _norms(p_UV)))


def make_ellipsoid_surface_mesh(a, b, c, resolution_hint=None):
    """Surface mesh of the ellipsoid, Drake's rigid ellipsoid: the boundary of the
    single-interior-vertex volume mesh; `resolution_hint` (m) None takes max(a, b, c)/2."""
    fn = "make_ellipsoid_surface_mesh"
    hint = max(a, b, c) / 2.0 if resolution_hint is None else resolution_hint
    p_GV, tets = _unit_ellipsoid_mesh(a, b, c, hint,
                                      TessellationStrategy.kSingleInteriorVertex, fn)
    return _boundary_surface(p_GV, tets)


def _square_to_disk(p):
    """Map the xy square [-1, 1]² radially onto the unit disk (in place on columns 0, 1)."""
    inf = np.abs(p[:, :2]).max(axis=1)
    two = np.linalg.norm(p[:, :2], axis=1)
    scale = np.where(two > 0.0, inf / np.where(two > 0.0, two, 1.0), 0.0)
    p[:, :2] *= scale[:, None]
    return p


def _extent(e):
    """The extent field clipped to [0, 1], exactly 0 on the boundary (within round-off of
    the map onto the shape), so that tets with all vertices on the boundary carry no
    spurious pressure gradient."""
    e = np.clip(e, 0.0, 1.0)
    e[e < 1e-12] = 0.0
    return e


def make_cylinder_volume_mesh(radius, length, resolution_hint, hydroelastic_modulus):
    """Volume mesh of a cylinder (axis z, centred) with pressure E d / m, d the distance
    to the boundary at the vertices (min(R - r, L/2 - |z|)) and m = min(R, L/2);
    piecewise-linear in between (exact away from the rim and the medial surface).

    Returns
    -------
    VolumeMesh
    """
    n = cells_for(2.0 * radius, resolution_hint)
    nz = cells_for(length, resolution_hint)
    p = _square_to_disk(_grid_vertices(n, n, nz))
    verts = p * np.array([radius, radius, 0.5 * length])
    r = np.linalg.norm(verts[:, :2], axis=1)
    d = np.minimum(radius - r, 0.5 * length - np.abs(verts[:, 2]))
    m = min(radius, 0.5 * length)
    return VolumeMesh(verts, _grid_tets(n, n, nz),
                      hydroelastic_modulus * _extent(d / m))


def make_cylinder_surface_mesh(radius, length, resolution_hint=None):
    """Surface mesh of a cylinder (axis z, centred)."""
    hint = radius / 2.0 if resolution_hint is None else resolution_hint
    n = cells_for(2.0 * radius, hint)
    verts, tris = _cube_surface([n, n, cells_for(length, hint)])
    verts = _square_to_disk(verts) * np.array([radius, radius, 0.5 * length])
    return _oriented(verts, tris)


def _capsule_map(p, radius, length):
    """Map the box [-1, 1]² x [-(1 + l), 1 + l] (l = L / 2R) onto the capsule: the middle
    slab to the cylinder (square -> disk), each end cube half to a hemisphere (cube ->
    ball); the two maps agree on the planes |z| = l."""
    lz = 0.5 * length / radius
    q = p.copy()
    zc = np.clip(q[:, 2], -lz, lz)
    q[:, 2] -= zc  # offset from the nearest point of the axis segment
    inf = np.abs(q).max(axis=1)
    two = np.linalg.norm(q, axis=1)
    scale = np.where(two > 0.0, inf / np.where(two > 0.0, two, 1.0), 0.0)
    q *= scale[:, None]
    q[:, 2] += zc
    return radius * q


def make_capsule_volume_mesh(radius, length, resolution_hint, hydroelastic_modulus):
    """Volume mesh of a capsule (axis z, cylinder length L between the hemisphere
    centres) with pressure E (R - dist(x, axis segment)) / R at the vertices.

    Returns
    -------
    VolumeMesh
    """
    n = cells_for(2.0 * radius, resolution_hint)
    nz = cells_for(length + 2.0 * radius, resolution_hint)
    lz = 0.5 * length / radius
    p = _grid_vertices(n, n, nz) * np.array([1.0, 1.0, 1.0 + lz])
    verts = _capsule_map(p, radius, length)
    zc = np.clip(verts[:, 2], -0.5 * length, 0.5 * length)
    dist = np.linalg.norm(verts - np.stack([0 * zc, 0 * zc, zc], axis=1), axis=1)
    return VolumeMesh(verts, _grid_tets(n, n, nz),
                      hydroelastic_modulus * _extent(1.0 - dist / radius))


def make_capsule_surface_mesh(radius, length, resolution_hint=None):
    """Surface mesh of a capsule (axis z, centred)."""
    hint = radius / 2.0 if resolution_hint is None else resolution_hint
    n = cells_for(2.0 * radius, hint)
    lz = 0.5 * length / radius
    verts, tris = _cube_surface([n, n, cells_for(length + 2.0 * radius, hint)])
    return _oriented(_capsule_map(verts * np.array([1.0, 1.0, 1.0 + lz]), radius, length),
                     tris)


def _hull(vertices):
    from scipy.spatial import ConvexHull
    v = np.ascontiguousarray(vertices, dtype=float)
    hull = ConvexHull(v)
    return v, np.asarray(hull.simplices, np.int64), v[hull.vertices].mean(axis=0)


def make_convex_volume_mesh(vertices, hydroelastic_modulus):
    """Volume mesh of the convex hull of `vertices` (n, 3) (m): one tet per hull triangle
    and the centroid c of the hull vertices, pressure 0 on the hull and E at c (the
    resolution hint does not refine it, as in Drake).

    Returns
    -------
    VolumeMesh
    """
    v, tris, c = _hull(vertices)
    verts = np.vstack([v, c])
    tets = np.column_stack([np.full(len(tris), len(v), np.int64), tris])
    pressure = np.zeros(len(verts))
    pressure[-1] = hydroelastic_modulus
    return VolumeMesh(verts, tets, pressure)


def make_tetrahedral_volume_mesh(vertices, tetrahedra, hydroelastic_modulus, where=""):
    """Drake's pressure field on a given tetrahedral mesh (a ``.vtk`` file's): 0 on the
    boundary vertices, and at an interior vertex E d / d_max, with d its distance to the
    boundary surface and d_max the largest such distance.

    Parameters
    ----------
    vertices : ndarray (nv, 3)
    tetrahedra : ndarray (nt, 4) int64
        Positively wound (`geometry.proximity.vtk_volume_mesh.read_vtk_tetrahedra`).
    hydroelastic_modulus : float
        E (Pa), > 0.
    where : str
        Names the mesh in errors.

    Returns
    -------
    VolumeMesh

    Raises
    ------
    ValueError
        If no vertex is interior (the field would be zero everywhere), as Drake's.
    """
    vertices = np.ascontiguousarray(vertices, dtype=np.float64)
    triangles = boundary_triangles(tetrahedra)
    pressure = np.zeros(len(vertices))
    interior = np.setdiff1d(np.arange(len(vertices)), triangles.ravel())
    used = np.unique(tetrahedra)
    interior = np.intersect1d(interior, used)
    if interior.size:
        pressure[interior] = distance_to_boundary(vertices[interior], vertices, triangles)
    d_max = pressure.max()
    if not d_max > 0.0:
        raise ValueError(f"make_tetrahedral_volume_mesh: {where}: no vertex of the "
                         f"tetrahedral mesh lies inside it (every vertex is on its boundary), "
                         f"so its pressure field would be zero; refine the mesh")
    pressure *= hydroelastic_modulus / d_max
    return VolumeMesh(vertices, np.ascontiguousarray(tetrahedra, dtype=np.int64), pressure)


def make_tetrahedral_surface_mesh(vertices, tetrahedra):
    """The boundary surface of a positively wound tetrahedral mesh (rigid hydroelastic)."""
    triangles = boundary_triangles(tetrahedra)
    used = np.unique(triangles)
    index = np.full(len(vertices), -1, np.int64)
    index[used] = np.arange(used.size)
    V = np.ascontiguousarray(vertices[used], dtype=np.float64)
    T = index[triangles]
    n = np.cross(V[T[:, 1]] - V[T[:, 0]], V[T[:, 2]] - V[T[:, 0]])
    n /= np.linalg.norm(n, axis=1)[:, None]
    return SurfaceMesh(V, np.ascontiguousarray(T), n)


def make_convex_surface_mesh(vertices):
    """Surface mesh of the convex hull of `vertices` (n, 3) (m)."""
    v, tris, c = _hull(vertices)
    return _oriented(v, tris, c)
