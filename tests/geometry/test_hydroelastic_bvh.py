"""The bounding-volume hierarchies of the hydroelastic meshes and the accelerated contact
surface query: the query through a SceneGraph equals the brute-force kernels (every
element pair tried) on random poses, for every supported pair kind."""

import numpy as np
import pytest

from merganser.geometry import (
    Box, Capsule, FramePoseVector, GeometryFrame, GeometryInstance, HalfSpace, RigidTransform,
    RollPitchYaw, SceneGraph, Sphere, add_compliant_hydroelastic_properties,
    add_compliant_hydroelastic_properties_for_half_space, add_rigid_hydroelastic_properties,
)
from merganser.geometry.hydroelastic import make_representation, make_sphere_volume_mesh
from merganser.geometry.hydroelastic.bvh import build_bvh, pair_candidates, plane_candidates
from merganser.geometry.hydroelastic.slicing_kernels import (
    clip_triangles_in_slab, clip_triangles_in_tets, equal_pressure_polygons, polygon_quadrature,
    slice_tets_with_plane,
)

E = 1e5


def compliant(hint):
    return add_compliant_hydroelastic_properties(hint, E, None)


def rigid(hint=None):
    return add_rigid_hydroelastic_properties(hint)


def slab(thickness):
    return add_compliant_hydroelastic_properties_for_half_space(thickness, E, None)


def random_pose(rng, centre, spread):
    return RigidTransform(RollPitchYaw(rng.uniform(-np.pi, np.pi, 3)),
                          np.asarray(centre, float) + rng.uniform(-spread, spread, 3))


def query_surfaces(a, b, X_WA, X_WB):
    """Contact surfaces of geometries a and b ((shape, properties)) at poses X_WA, X_WB,
    from the SceneGraph query; also the ids (id_a, id_b)."""
    sg = SceneGraph()
    source = sg.register_source("test")
    ids, poses = [], FramePoseVector()
    for k, ((shape, props), X) in enumerate(((a, X_WA), (b, X_WB))):
        f = sg.register_frame(source, GeometryFrame(f"f{k}"))
        g = GeometryInstance(RigidTransform(), shape, f"g{k}")
        g.set_proximity_properties(props)
        ids.append(sg.register_geometry(source, f, g))
        poses.set_value(f, X)
    ctx = sg.create_default_context()
    sg.get_source_pose_port(source).fix_value(ctx, poses)
    return sg.get_query_output_port().eval(ctx).compute_contact_surfaces(), ids


def world(X, p_G):
    return p_G @ X.rotation().matrix().T + X.translation()


def brute_force(a, b, X_WA, X_WB):
    """(areas, centroids (nf, 3), pressures, normals (nf, 3), gradients) of the surface of
    a (as M) against b (N) by the brute-force kernels, polygons of zero area left out."""
    ra, rb = make_representation(*a), make_representation(*b)
    cap = 20000
    out_v, out_p = np.zeros((8 * cap, 3)), np.zeros(8 * cap)
    start, n, g = np.zeros(cap + 1, np.int64), np.zeros((cap, 3)), np.zeros(cap)
    out = (out_v, out_p, start, n, g)

    def surface_tris(r, X):
        m = r.mesh
        return (world(X, m.vertices_G), m.triangles,
                np.ascontiguousarray(m.normals_G @ X.rotation().matrix().T))

    def volume(r, X):
        m = r.mesh
        return world(X, m.vertices_G), m.pressure, m.tetrahedra

    if ra.kind == "volume" and rb.kind == "volume":
        nf = equal_pressure_polygons(*volume(ra, X_WA), *volume(rb, X_WB), *out)
    else:
        sign = 1.0 if ra.compliant else -1.0
        (rc, Xc), (rr, Xr) = ((ra, X_WA), (rb, X_WB)) if ra.compliant else ((rb, X_WB), (ra, X_WA))
        z, o = Xr.rotation().matrix()[:, 2], Xr.translation()
        if rc.kind == "volume" and rr.kind == "plane":
            nf = slice_tets_with_plane(*volume(rc, Xc), sign * z, o, sign, *out)
        elif rc.kind == "volume":
            nf = clip_triangles_in_tets(*surface_tris(rr, Xr), *volume(rc, Xc), sign, *out)
        else:
            nf = clip_triangles_in_slab(*surface_tris(rr, Xr), Xc.rotation().matrix()[:, 2],
                                        Xc.translation(), rc.modulus, rc.thickness, sign, *out)
    assert nf >= 0
    area, cen, pc = np.zeros(nf), np.zeros((nf, 3)), np.zeros(nf)
    polygon_quadrature(nf, start, out_v, out_p, area, cen, pc)
    keep = area > 0.0
    return area[keep], cen[keep], pc[keep], n[:nf][keep], g[:nf][keep]


def assert_same_surface(a, b, X_WA, X_WB, size):
    surfaces, (id_a, id_b) = query_surfaces(a, b, X_WA, X_WB)
    if id_a > id_b:
        a, b, X_WA, X_WB = b, a, X_WB, X_WA
    area, cen, pc, n, g = brute_force(a, b, X_WA, X_WB)
    if area.size == 0:
        assert surfaces == []
        return 0
    assert len(surfaces) == 1
    s = surfaces[0]
    # the same polygons but for the specks of round-off (area ~1e-20 of the others)
    # where the surface passes through an element's edge or vertex
    tiny = 1e-9 * area.mean()
    assert np.count_nonzero(s.face_areas > tiny) == np.count_nonzero(area > tiny)
    assert area[area <= tiny].sum() < 1e-12 * area.sum()
    assert s.area == pytest.approx(area.sum(), rel=1e-9)
    np.testing.assert_allclose(s.centroid, area @ cen / area.sum(), rtol=0, atol=1e-9 * size)
    force = (area * pc) @ n
    np.testing.assert_allclose(s.total_normal_force(), force, rtol=0,
                               atol=1e-9 * np.abs(area * pc).sum())
    np.testing.assert_allclose(np.sort(s.face_areas[s.face_areas > tiny]),
                               np.sort(area[area > tiny]), rtol=1e-8, atol=1e-12 * area.max())
    assert (s.face_areas * s.face_pressure_gradients).sum() == pytest.approx(
        (area * g).sum(), rel=1e-9)
    return area.size


def test_tree_holds_every_element_once_and_nodes_bound_their_children():
    m = make_sphere_volume_mesh(0.1, 0.025, E)
    bvh = build_bvh(m.vertices_G, m.tetrahedra)
    used = bvh.order[bvh.order >= 0]
    assert np.array_equal(np.sort(used), np.arange(m.tetrahedra.shape[0]))
    nodes = bvh.nodes
    for k in range(bvh.num_leaves - 1):
        for c in (2 * k + 1, 2 * k + 2):
            if np.isfinite(nodes[c]).all():
                assert np.all(nodes[k, :3] <= nodes[c, :3]) and np.all(nodes[k, 3:] >= nodes[c, 3:])
    # a leaf box bounds its elements
    leaf0 = bvh.num_leaves - 1
    for leaf in range(bvh.num_leaves):
        for e in bvh.order[4 * leaf:4 * leaf + 4]:
            if e >= 0:
                assert np.all(nodes[leaf0 + leaf, :3] <= bvh.elements[e, :3])
                assert np.all(nodes[leaf0 + leaf, 3:] >= bvh.elements[e, 3:])


def test_candidates_contain_every_overlapping_element_and_pair():
    rng = np.random.default_rng(3)
    a = make_sphere_volume_mesh(0.1, 0.05, E)
    b = make_sphere_volume_mesh(0.08, 0.04, E)
    ta, tb = build_bvh(a.vertices_G, a.tetrahedra), build_bvh(b.vertices_G, b.tetrahedra)
    X_AB = random_pose(rng, [0.1, 0.05, 0.0], 0.02)
    R, p = X_AB.rotation().matrix(), X_AB.translation()
    pairs = np.zeros((100000, 2), np.int64)
    k = pair_candidates(*ta.arrays(), *tb.arrays(), np.ascontiguousarray(R), p,
                        *tb.move_work(), pairs)
    assert 0 < k <= pairs.shape[0]
    found = set(map(tuple, pairs[:k]))
    assert len(found) == k
    # every pair of tets whose boxes (B's tet boxes taken in A) overlap is a candidate
    Pa = a.vertices_G[a.tetrahedra]
    Pb = (b.vertices_G @ R.T + p)[b.tetrahedra]
    lo_a, hi_a, lo_b, hi_b = Pa.min(1), Pa.max(1), Pb.min(1), Pb.max(1)
    overlap = np.all((lo_a[:, None] <= hi_b[None]) & (lo_b[None] <= hi_a[:, None]), axis=2)
    assert set(zip(*np.nonzero(overlap))) <= found
    # plane candidates: every tet the plane crosses. Every tet of the sphere mesh (Drake's
    # refined octahedron) has the center as a vertex, so a plane near the center crosses
    # most of them; at 0.6 R from it, fewer than a third are crossed and the tree must
    # return fewer than half of the tets
    n = np.array([0.3, -0.2, 0.9])
    n /= np.linalg.norm(n)
    off = 0.06
    out = np.zeros(a.tetrahedra.shape[0], np.int64)
    k = plane_candidates(*ta.arrays(), n[0], n[1], n[2], off, False, out)
    s = Pa @ n - off
    crossed = np.flatnonzero((s.min(1) <= 0) & (s.max(1) >= 0))
    assert set(crossed) <= set(out[:k]) and k < a.tetrahedra.shape[0] // 2


SHAPES = {
    "compliant sphere": (Sphere(0.1), compliant(0.025)),
    "compliant box": (Box(0.12, 0.1, 0.08), compliant(0.02)),
    "compliant capsule": (Capsule(0.05, 0.1), compliant(0.025)),
    "rigid box": (Box(0.2, 0.15, 0.1), rigid(0.04)),
    "rigid sphere": (Sphere(0.08), rigid(0.02)),
    "rigid half space": (HalfSpace(), rigid()),
    "compliant half space": (HalfSpace(), slab(0.3)),
}


@pytest.mark.parametrize("a, b", [
    ("compliant sphere", "rigid half space"),
    ("compliant box", "rigid half space"),
    ("compliant sphere", "rigid box"),
    ("compliant box", "rigid sphere"),
    ("compliant capsule", "rigid box"),
    ("compliant half space", "rigid box"),
    ("compliant half space", "rigid sphere"),
    ("compliant sphere", "compliant box"),
    ("compliant sphere", "compliant sphere"),
    ("compliant capsule", "compliant box"),
])
def test_accelerated_query_equals_brute_force_on_random_poses(a, b):
    rng = np.random.default_rng(sum(map(ord, a + b)))
    ga, gb = SHAPES[a], SHAPES[b]
    faces = 0
    for _ in range(3):
        X_WA = random_pose(rng, [0.0, 0.0, 0.0], 0.02)
        apart = [0.0, 0.0, 0.0] if "half space" in a + b else [0.11, 0.0, 0.0]
        X_WB = random_pose(rng, apart, 0.02)
        faces += assert_same_surface(ga, gb, X_WA, X_WB, 0.1)
    assert faces > 0


@pytest.mark.parametrize("make_mesh", [
    lambda: make_sphere_volume_mesh(0.1, 0.025, E),
    lambda: make_sphere_volume_mesh(0.05, 0.02, 3 * E),
])
def test_pressure_bounds_hold_everywhere_on_each_nodes_tets(make_mesh):
    """Every node of the tet tree bounds the piecewise-linear pressure of the tets below it
    between the planes g·x + c_lo and g·x + c_hi (sampled inside each tet), and an
    element's row is its own linear field."""
    from merganser.geometry.hydroelastic.bvh import pressure_bounds
    mesh = make_mesh()
    V, T, p = mesh.vertices_G, mesh.tetrahedra, mesh.pressure
    # The linear field of each tet from its four vertex pressures (p = g·x + c).
    field = np.empty((len(T), 4))
    for t, tet in enumerate(T):
        A = np.column_stack([V[tet], np.ones(4)])
        field[t] = np.linalg.solve(A, p[tet])
    bvh = build_bvh(V, T)
    bounds = pressure_bounds(bvh, V, T, field)
    num_nodes = 2 * bvh.num_leaves - 1
    assert bounds.shape == (num_nodes + len(T), 5)
    np.testing.assert_allclose(bounds[num_nodes:, :3], field[:, :3])
    np.testing.assert_allclose(bounds[num_nodes:, 3], field[:, 3])
    rng = np.random.default_rng(4)
    w = rng.dirichlet(np.ones(4), size=6)                       # barycentric samples
    X = np.einsum("sk,tkc->tsc", w, V[T])                       # (nt, 6, 3)
    P = np.einsum("tsc,tc->ts", X, field[:, :3]) + field[:, 3:4]
    segments, node, checked = 1, 0, 0
    while segments <= bvh.num_leaves:
        for members in bvh.order.reshape(segments, -1):
            members = members[members >= 0]
            g, lo, hi = bounds[node, :3], bounds[node, 3], bounds[node, 4]
            if len(members):
                assert np.isfinite(lo) and np.isfinite(hi) and lo <= hi
                plane = X[members] @ g
                scale = 1e-9 * max(1.0, np.abs(P).max())
                assert np.all(plane + lo <= P[members] + scale)
                assert np.all(P[members] <= plane + hi + scale)
                checked += 1
            else:
                assert lo == np.inf and hi == -np.inf
            node += 1
        segments *= 2
    assert node == num_nodes and checked > num_nodes // 2
