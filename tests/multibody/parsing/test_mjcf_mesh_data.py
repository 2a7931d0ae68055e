"""MJCF meshes given by data (issue 14): inline ``<mesh vertex face refpos refquat>`` and
``<hfield>``, checked against values computed by hand from MuJoCo's rules."""

import warnings
from pathlib import Path

import numpy as np
import pytest

from merganser.framework import DiagramBuilder
from merganser.multibody import add_multibody_plant_scene_graph
from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant

DATA = Path(__file__).resolve().parents[2] / "data" / "parsing" / "mjcf"


def load(name, plant=None):
    plant = plant if plant is not None else MultibodyPlant(0.0)
    parser = Parser(plant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        [mi] = parser.add_models(DATA / name)
    return plant, parser, mi


def obj_vertices_and_faces(path):
    vertices, faces = [], []
    for line in Path(path).read_text().splitlines():
        kind, *values = line.split()
        if kind == "v":
            vertices.append([float(x) for x in values])
        elif kind == "f":
            faces.append([int(x) - 1 for x in values])
    return np.array(vertices), np.array(faces)


def central_inertia(body):
    M = body.default_spatial_inertia().shift(body.default_com())
    return np.asarray(M.calc_rotational_inertia().copy_to_full_matrix3())


def signed_volume(vertices, faces):
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


def test_inline_mesh_with_refpos_and_refquat_is_the_turned_slab():
    plant, parser, mi = load("inline_mesh.xml")
    slab = plant.get_body_by_name("slab_body", mi)
    assert slab.default_mass() == 2.0
    np.testing.assert_allclose(slab.default_com(), np.zeros(3), atol=1e-15)
    # 0.2 (x) by 0.4 (y) by 0.2 (z) after refquat: m/12 (b² + c², a² + c², a² + b²)
    np.testing.assert_allclose(central_inertia(slab),
                               np.diag([0.2, 0.08, 0.2]) * 2.0 / 12.0, atol=1e-15)
    record = next(g for g in parser.geometries()
                  if g.name == "geom0" and g.body_name == "slab_body" and g.role == "collision")
    assert record.shape == "Mesh"
    vertices, faces = obj_vertices_and_faces(record.mesh_path())
    np.testing.assert_allclose(vertices.min(axis=0), [-0.1, -0.2, -0.1], atol=1e-15)
    np.testing.assert_allclose(vertices.max(axis=0), [0.1, 0.2, 0.1], atol=1e-15)
    assert signed_volume(vertices, faces) == pytest.approx(0.2 * 0.4 * 0.2, rel=1e-12)


def test_inline_mesh_without_faces_is_its_convex_hull():
    plant, parser, mi = load("inline_mesh.xml")
    body = plant.get_body_by_name("octahedron_body", mi)
    a = 0.1                               # |x| + |y| + |z| <= a: volume 4/3 a³
    mass = 1000.0 * 4.0 / 3.0 * a**3      # MuJoCo's default density
    assert body.default_mass() == pytest.approx(mass, rel=1e-12)
    # ∫ x² dV = V a² / 10, so I = m (2 a² / 10) on each axis
    np.testing.assert_allclose(central_inertia(body), np.eye(3) * mass * a * a / 5.0,
                               rtol=1e-12)
    record = next(g for g in parser.geometries() if g.body_name == "octahedron_body")
    vertices, faces = obj_vertices_and_faces(record.mesh_path())
    assert faces.shape == (8, 3)
    assert signed_volume(vertices, faces) == pytest.approx(4.0 / 3.0 * a**3, rel=1e-12)


def test_height_field_is_the_closed_solid_with_mujocos_row_order():
    plant, parser, mi = load("hfield.xml")
    ground = next(g for g in parser.geometries() if g.name == "ground"
                  and g.role == "collision")
    assert ground.body_name == "world" and ground.shape == "Mesh"
    np.testing.assert_allclose(ground.X_BG[:3, 3], [0, 0, -1])
    vertices, faces = obj_vertices_and_faces(ground.mesh_path())
    top = vertices[:6]
    # elevation "0 1 2  3 4 6" normalized to [0, 1] times elevation_z = 3; the XML's
    # first row lies at y = +ry = 2, the second at y = -2; x from -rx to rx
    expected = {(-1.0, 2.0): 0.0, (0.0, 2.0): 0.5, (1.0, 2.0): 1.0,
                (-1.0, -2.0): 1.5, (0.0, -2.0): 2.0, (1.0, -2.0): 3.0}
    assert {(x, y): z for x, y, z in top.tolist()} == pytest.approx(expected)
    np.testing.assert_allclose(vertices[6:, 2], -0.5)                    # base_z
    # closed and outward: its volume is the base box (2 x 4 x 0.5) plus the prisms under
    # the four triangles (area 2 each) of the two 1 x 4 cells, split along their diagonal
    # from (x, -2) to (x + 1, 2): area times mean height
    prisms = 2.0 * ((1.5 + 2 + 0.5) + (1.5 + 0.5 + 0) + (2 + 3 + 1) + (2 + 1 + 0.5)) / 3.0
    assert signed_volume(vertices, faces) == pytest.approx(4.0 + prisms, rel=1e-12)


def test_height_field_from_a_png_puts_the_top_row_of_the_image_at_plus_y():
    pytest.importorskip("PIL")
    _, parser, _ = load("hfield_png.xml")
    ground = next(g for g in parser.geometries() if g.name == "ground")
    vertices, _ = obj_vertices_and_faces(ground.mesh_path())
    # grey levels normalized to [0, 1] (255 is the largest), times elevation_z = 3
    expected = {(-1.0, 2.0): 0.0, (0.0, 2.0): 0.6, (1.0, 2.0): 1.2,
                (-1.0, -2.0): 1.8, (0.0, -2.0): 2.4, (1.0, -2.0): 3.0}
    assert {(x, y): z for x, y, z in vertices[:6].tolist()} == pytest.approx(expected)


def test_height_field_in_a_moving_body_has_mujocos_box_mass():
    plant, _, mi = load("hfield.xml")
    raft = plant.get_body_by_name("raft", mi)
    assert raft.default_mass() == pytest.approx(1000.0 * 2 * 4 * 2)
    np.testing.assert_allclose(raft.default_com(), [0.1, 0.2, 0.3], atol=1e-15)
    c, s = np.cos(np.pi / 6), np.sin(np.pi / 6)
    R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    I_box = 16000.0 / 12.0 * np.diag([4**2 + 2**2, 2**2 + 2**2, 2**2 + 4**2])
    np.testing.assert_allclose(central_inertia(raft), R @ I_box @ R.T, rtol=1e-12)


def test_data_meshes_register_with_a_scene_graph():
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.001)
    for name in ("inline_mesh.xml", "hfield.xml"):
        load(name, plant)
    plant.finalize()
    inspector = scene_graph.model_inspector()
    assert inspector.num_geometries() >= 8     # 3 geoms each visual and collision, + hfields


@pytest.mark.parametrize(("xml", "message"), [
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 4"/>',
     r"face indices must be integers in \[0, 3\]"),
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1"/>', "multiple of 3 numbers"),
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 2 0 0"/>', "convex hull"),
    ('<hfield name="h" nrow="2" ncol="2" elevation="1 2 3" size="1 1 1 1"/>',
     "must have 4 numbers"),
    ('<hfield name="h" nrow="1" ncol="3" size="1 1 1 1"/>', "at least 2"),
    ('<hfield name="h" nrow="2" ncol="2" size="1 1 0 1"/>', "size"),
])
def test_bad_data_meshes_are_located_parse_errors(xml, message):
    text = f'<mujoco model="bad">\n<asset>\n{xml}\n</asset>\n</mujoco>'
    with pytest.raises(ParseError, match=message) as info:
        Parser(MultibodyPlant(0.0)).add_models_from_string(file_contents=text, file_type="xml")
    assert ":3:" in str(info.value)


def _builtin(params):
    text = (f'<mujoco model="b"><asset><mesh name="m" {params}/></asset><worldbody>'
            f'<body name="b"><freejoint/><geom type="mesh" mesh="m"/></body></worldbody>'
            f'</mujoco>')
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        [mi] = parser.add_models_from_string(file_contents=text, file_type="xml")
    record = next(g for g in parser.geometries() if g.role == "collision")
    vertices, faces = obj_vertices_and_faces(record.mesh_path())
    return plant.get_body_by_name("b", mi), vertices, faces


def test_builtin_sphere_is_mujocos_icosahedron_and_its_subdivisions():
    body, vertices, faces = _builtin('builtin="sphere" params="0"')
    assert vertices.shape == (12, 3) and faces.shape == (20, 3)
    np.testing.assert_allclose(np.linalg.norm(vertices, axis=1), 1.0, rtol=1e-7)  # float32
    edge = 1.0 / np.sin(2 * np.pi / 5)           # circumradius 1
    volume = 5.0 / 12.0 * (3 + np.sqrt(5)) * edge**3
    assert signed_volume(vertices, faces) == pytest.approx(volume, rel=1e-6)
    assert body.default_mass() == pytest.approx(1000 * volume, rel=1e-6)
    _, vertices, faces = _builtin('builtin="sphere" params="2"')
    assert vertices.shape == (2 + 10 * 4**2, 3) and faces.shape == (20 * 4**2, 3)


def test_builtin_cones_are_the_hulls_of_two_polygons():
    # a hexagonal pyramid of base radius 0.1 and height 0.4 (z from -1 to 1, scaled 0.2)
    body, vertices, faces = _builtin('builtin="cone" params="6 0" scale="0.1 0.1 0.2"')
    assert vertices.shape == (7, 3)
    hexagon = 3 * np.sqrt(3) / 2 * 0.1**2
    assert body.default_mass() == pytest.approx(1000 * hexagon * 0.4 / 3, rel=1e-6)
    # an octagonal frustum: radii 1 and 0.5 before scaling, height 2
    body, vertices, _ = _builtin('builtin="cone" params="8 0.5"')
    A1, A2 = 4 * np.sin(np.pi / 4), 4 * 0.25 * np.sin(np.pi / 4)
    assert vertices.shape == (16, 3)
    assert body.default_mass() == pytest.approx(1000 * 2 / 3 * (A1 + A2 + np.sqrt(A1 * A2)),
                                                rel=1e-6)


def test_builtin_superquadrics_have_mujocos_vertex_counts_and_closed_surfaces():
    _, vertices, faces = _builtin('builtin="supersphere" params="8 1 1"')
    assert vertices.shape == (7 * 8 + 2, 3) and faces.shape == (2 * 8 * 7, 3)
    assert signed_volume(vertices, faces) > 0.0                  # outward
    np.testing.assert_allclose(np.linalg.norm(vertices, axis=1), 1.0, rtol=1e-6)  # e = n = 1
    _, vertices, faces = _builtin('builtin="supertorus" params="12 0.25 1 1"')
    assert vertices.shape == (144, 3) and faces.shape == (288, 3)
    np.testing.assert_allclose(np.hypot(np.hypot(vertices[:, 0], vertices[:, 1]) - 1.0,
                                        vertices[:, 2]), 0.25, rtol=1e-6)   # a torus
    assert signed_volume(vertices, faces) > 0.0
    _, vertices, faces = _builtin('builtin="hemisphere" params="2"')
    assert vertices.shape == (1 + 2 * 3 * 4 + 1, 3) and faces.shape == (4 * 9 + 12, 3)
    assert vertices[:, 2].min() == 0.0 and signed_volume(vertices, faces) > 0.0


@pytest.mark.parametrize(("params", "message"), [
    ('builtin="sphere" params="5"', r"subdivision must be in \[0, 4\]"),
    ('builtin="supertorus" params="12 1.5 1 1"', r"radius must be in \(0, 1\]"),
    ('builtin="wedge" params="1 1 1 1 1"', "'wedge' is not supported"),
    ('builtin="cone" params="8"', "must have 2 numbers"),
])
def test_bad_builtin_meshes_are_located_parse_errors(params, message):
    with pytest.raises(ParseError, match=message):
        _builtin(params)
