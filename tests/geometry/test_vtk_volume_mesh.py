"""Tetrahedral ``.vtk`` meshes (Drake's compliant hydroelastic meshes): the reader, Drake's
pressure field (0 on the boundary, E d / d_max inside), the boundary surface, the
distance to it, and a compliant Mesh(.vtk) against the same solid as a Convex."""

import itertools
import warnings

import numpy as np
import pytest
from scipy.spatial import ConvexHull, cKDTree

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import (
    Convex, CoulombFriction, FramePoseVector, GeometryFrame, GeometryInstance, HalfSpace,
    HydroelasticContactRepresentation, Mesh, ProximityProperties, RigidTransform, RollPitchYaw,
    SceneGraph, add_compliant_hydroelastic_properties, add_contact_material,
    add_rigid_hydroelastic_properties)
from merganser.geometry.hydroelastic import make_representation
from merganser.geometry.proximity.vtk_volume_mesh import (
    boundary_triangles, distance_to_boundary, read_vtk_tetrahedra)
from merganser.multibody import MultibodyPlantConfig, Parser, add_multibody_plant

E = 1e6
H = 0.1         # the cube's half side


def _vtk(points, cells, types=None):
    types = [10] * len(cells) if types is None else types
    return ("# vtk DataFile Version 3.0\ntest mesh\nASCII\n\nDATASET UNSTRUCTURED_GRID\n"
            f"POINTS {len(points)} double\n"
            + "".join(" ".join(repr(float(x)) for x in p) + "\n" for p in points)
            + f"\nCELLS {len(cells)} {sum(len(c) + 1 for c in cells)}\n"
            + "".join(f"{len(c)} " + " ".join(map(str, c)) + "\n" for c in cells)
            + f"\nCELL_TYPES {len(types)}\n" + "".join(f"{t}\n" for t in types)).encode()


@pytest.fixture
def cube(tmp_path):
    """A cube of side 2H as 12 tetrahedra about its centre (cube.vtk) and as the same
    hull's faces (cube.obj): the same solid and, for Drake's field, the same pressure."""
    corners = np.array(list(itertools.product([-H, H], repeat=3)))
    hull = ConvexHull(corners)
    (tmp_path / "cube.vtk").write_bytes(
        _vtk(np.vstack([corners, np.zeros(3)]), [[8, *t] for t in hull.simplices]))
    (tmp_path / "cube.obj").write_text(
        "".join(f"v {x} {y} {z}\n" for x, y, z in corners)
        + "".join("f " + " ".join(str(i + 1) for i in t) + "\n" for t in hull.simplices))
    return tmp_path


def _compliant():
    return add_compliant_hydroelastic_properties(resolution_hint=0.05, hydroelastic_modulus=E,
                                                 properties=ProximityProperties())


def test_reader_winds_the_tetrahedra_and_the_field_is_drakes(cube):
    V, T = read_vtk_tetrahedra((cube / "cube.vtk").read_bytes(), "cube.vtk")
    assert V.shape == (9, 3) and T.shape == (12, 4)
    a, b, c, d = (V[T[:, i]] for i in range(4))
    assert (np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) > 0).all()
    rep = make_representation(Mesh(str(cube / "cube.vtk")), _compliant(), "cube")
    assert rep.kind == "volume"
    np.testing.assert_array_equal(rep.mesh.pressure, [0.0] * 8 + [E])   # d / d_max = 1 inside
    rigid = make_representation(Mesh(str(cube / "cube.vtk")),
                                add_rigid_hydroelastic_properties(properties=ProximityProperties()))
    S = rigid.mesh
    assert S.triangles.shape == (12, 3)
    outward = np.einsum("ij,ij->i", S.normals_G, S.vertices_G[S.triangles].mean(axis=1))
    assert (outward > 0).all()
    # a scale of -1 in x mirrors the mesh: still positively wound
    V2, T2 = read_vtk_tetrahedra((cube / "cube.vtk").read_bytes(), "cube.vtk", [-1.0, 1.0, 2.0])
    a, b, c, d = (V2[T2[:, i]] for i in range(4))
    assert (np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) > 0).all()


def test_distance_to_boundary_is_the_exact_point_triangle_distance():
    rng = np.random.default_rng(3)
    V = rng.normal(size=(40, 3))
    T = np.array([t for t in rng.integers(0, 40, size=(70, 3)) if len(set(t)) == 3])
    P = 1.5 * rng.normal(size=(150, 3))
    got = distance_to_boundary(P, V, T)
    # never above the distance to dense samples of the triangles, and within their spacing
    weights = rng.dirichlet([1.0, 1.0, 1.0], size=3000)
    sampled, _ = cKDTree(np.einsum("sk,fki->fsi", weights, V[T]).reshape(-1, 3)).query(P)
    assert (sampled >= got - 1e-12).all() and np.median(sampled - got) < 0.01
    # a point over a face, one beyond an edge, one beyond a vertex of the unit triangle
    tri, verts = np.array([[0, 1, 2]]), np.array([[0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0]])
    np.testing.assert_allclose(distance_to_boundary(
        np.array([[0.2, 0.2, 0.5], [0.5, -1.0, 0.0], [2.0, 0.0, 0.0]]), verts, tri),
        [0.5, 1.0, 1.0], rtol=1e-15)


def test_a_compliant_vtk_mesh_touches_as_the_same_convex_solid(cube):
    def surfaces(shape):
        sg = SceneGraph()
        source = sg.register_source("s")
        frame = sg.register_frame(source, GeometryFrame("box"))
        box = GeometryInstance(RigidTransform(), shape, "box")
        box.set_proximity_properties(_compliant())
        sg.register_geometry(source, frame, box)
        ground = GeometryInstance(RigidTransform(), HalfSpace(), "ground")
        ground.set_proximity_properties(add_rigid_hydroelastic_properties(
            properties=ProximityProperties()))
        sg.register_anchored_geometry(source, ground)
        context = sg.create_default_context()
        poses = FramePoseVector()
        poses.set_value(frame, RigidTransform(RollPitchYaw(0.1, 0.2, 0.0), [0.0, 0.0, 0.07]))
        sg.get_source_pose_port(source).fix_value(context, poses)
        query = sg.get_query_output_port().eval(context)
        [surface] = query.compute_contact_surfaces(HydroelasticContactRepresentation.kPolygon)
        return surface.total_area(), surface.centroid()

    area, centroid = surfaces(Mesh(str(cube / "cube.vtk")))
    same_area, same_centroid = surfaces(Convex(str(cube / "cube.obj")))
    assert area > 0.03 and area == pytest.approx(same_area, rel=1e-12)
    np.testing.assert_allclose(centroid, same_centroid, atol=1e-14)


def test_a_urdf_vtk_collision_mesh_rests_on_the_ground_as_the_convex_solid(cube):
    def rest_height(mesh):
        urdf = (f'<robot name="box" xmlns:drake="http://drake.mit.edu"><link name="box">'
                f'<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" '
                f'ixy="0" ixz="0" iyz="0"/></inertial><collision><geometry>{mesh}</geometry>'
                f'<drake:proximity_properties><drake:compliant_hydroelastic/>'
                f'<drake:hydroelastic_modulus value="{E}"/><drake:mu_dynamic value="0.5"/>'
                f'</drake:proximity_properties></collision></link></robot>')
        builder = DiagramBuilder()
        plant, _ = add_multibody_plant(MultibodyPlantConfig(
            time_step=1e-3, discrete_contact_approximation="sap",
            contact_model="hydroelastic_with_fallback"), builder)
        (cube / "box.urdf").write_text(urdf)
        Parser(plant).add_models(cube / "box.urdf")
        ground = add_contact_material(friction=CoulombFriction(0.5, 0.5), properties=(
            add_rigid_hydroelastic_properties(properties=ProximityProperties())))
        plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                          "ground", ground)
        plant.finalize()
        simulator = Simulator(builder.build())
        context = plant.get_my_context_from_root(simulator.get_mutable_context())
        plant.set_free_body_pose(context, plant.get_body_by_name("box"),
                                 RigidTransform([0.0, 0.0, H + 0.005]))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            simulator.advance_to(0.3)
        return plant.get_positions(context)[6]

    z = rest_height('<mesh filename="cube.vtk"/>')
    assert 0.0 < H - z < 0.02                          # pressed into the ground, resting
    # the same 12 tets (in another vertex order: the gradients differ in the last bits):
    # the same rest height but for round-off, which the side tets amplify: as in Drake, a
    # face whose pressure falls along the normal has no contact (the tilt's sign turns
    # the side tets' faces on and off), so 1e-9 m apart after 0.3 s becomes ~1e-7
    assert z == pytest.approx(rest_height(
        '<mesh filename="cube.obj"><drake:declare_convex/></mesh>'), abs=1e-6)


@pytest.mark.parametrize("text, message", [
    (b"not vtk", "not a legacy VTK file"),
    (_vtk([[0, 0, 0]], [[0, 0, 0, 0]]).replace(b"ASCII", b"BINARY"), "only ASCII"),
    (_vtk([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 2]], [5]),
     "every cell must be a tetrahedron"),
    (_vtk([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 2, 7]]),
     "outside 0..3"),
    (_vtk([[0, 0, 0], [1, 0, 0], [0, 1, 0], [2, 2, 0]], [[0, 1, 2, 3]]), "has no volume"),
    (_vtk([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 2, 3]])[:-20],
     "the file ends inside CELLS"),
    (_vtk([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 2, 3]]).replace(
        b"POINTS 4", b"POINTS -4"), "a negative count in POINTS"),    # once looped forever
])
def test_bad_vtk_files_are_refused_naming_the_file(text, message):
    with pytest.raises(ValueError, match=f"read_vtk_tetrahedra: bad.vtk: .*{message}"):
        read_vtk_tetrahedra(text, "bad.vtk")


def test_a_mesh_without_interior_vertices_has_no_pressure_field(tmp_path):
    (tmp_path / "tet.vtk").write_bytes(_vtk([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
                                            [[0, 1, 2, 3]]))
    assert boundary_triangles(np.array([[0, 1, 2, 3]])).shape == (4, 3)
    with pytest.raises(ValueError, match="tet: no vertex of the tetrahedral mesh lies inside"):
        make_representation(Mesh(str(tmp_path / "tet.vtk")), _compliant(), "tet")


def test_meshcat_draws_a_vtk_mesh_as_its_boundary_surface(cube):
    from merganser.geometry.visualization.meshcat_shapes import shape_to_object
    [geometry] = shape_to_object(Mesh(str(cube / "cube.vtk"), scale=2.0))["geometries"]
    lines = geometry["data"].splitlines()
    assert geometry["format"] == "obj" and sum(x.startswith("f ") for x in lines) == 12
    corner = max(float(x.split()[1]) for x in lines if x.startswith("v "))
    assert corner == 2.0 * H                                     # scaled


def test_mutated_vtk_files_only_ever_raise_value_errors(cube):
    """A seeded fuzz: 300 mutants of a valid file (bytes changed, cut out, or tokens such
    as -1, 1e308, nan and huge counts inserted) each parse or raise ValueError (a negative
    count once sent the reader backwards forever)."""
    import random

    base = (cube / "cube.vtk").read_bytes()
    rng = random.Random(0)
    for _ in range(300):
        data = bytearray(base)
        for _ in range(rng.randint(1, 6)):
            k, op = rng.randrange(len(data)), rng.random()
            if op < 0.4:
                data[k] = rng.randrange(32, 127)
            elif op < 0.7:
                del data[k:k + rng.randint(1, 20)]
            else:
                data[k:k] = rng.choice([b"-1 ", b"1e308 ", b"nan ", b"99999999999 ", b"CELLS "])
        try:
            read_vtk_tetrahedra(bytes(data), "fuzz.vtk")
        except ValueError:
            pass
