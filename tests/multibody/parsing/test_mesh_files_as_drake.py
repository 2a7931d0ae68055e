"""Mesh files as Drake reads them: a bare .obj loaded as a one-body model (water-filled
inertia, the mesh as collision and visual geometry), and glTF meshes (y-up, turned
z-up; external buffers read beside the file) for hulls, volumes and Meshcat."""

import numpy as np
import pytest
import trimesh

from merganser.framework import DiagramBuilder
from merganser.geometry import Convex, Mesh, calc_volume
from merganser.geometry.visualization.meshcat_shapes import shape_to_object
from merganser.multibody import (ParseError, Parser, add_multibody_plant_scene_graph)
from merganser.multibody.plant import MultibodyPlant

SIZE, OFFSET = np.array([0.1, 0.2, 0.3]), np.array([0.01, 0.02, 0.03])


def _box():
    box = trimesh.creation.box(extents=SIZE)
    box.apply_translation(OFFSET)
    return box


def test_an_obj_file_is_a_one_body_model_filled_with_water(tmp_path):
    (tmp_path / "crate.obj").write_text("o my_box\n" + trimesh.exchange.obj.export_obj(
        _box(), include_normals=False))
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    [instance] = Parser(plant).add_models(tmp_path / "crate.obj")
    assert plant.get_model_instance_name(instance) == "my_box"     # the obj's object name
    plant.finalize()
    body = plant.get_body_by_name("my_box")
    M = body.calc_spatial_inertia_in_body_frame(plant.create_default_context())
    mass = 1000.0 * np.prod(SIZE)
    assert M.get_mass() == pytest.approx(mass, rel=1e-12)
    np.testing.assert_allclose(M.get_com(), OFFSET, atol=1e-15)
    # the box's inertia about its centre, shifted to the mesh origin (parallel axes)
    a, b, c = SIZE
    I_cm = mass / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    I_o = I_cm + mass * (OFFSET @ OFFSET * np.eye(3) - np.outer(OFFSET, OFFSET))
    np.testing.assert_allclose(M.calc_rotational_inertia().copy_to_full_matrix3(), I_o,
                               rtol=1e-12, atol=1e-15)
    inspector = scene_graph.model_inspector()
    assert sorted(inspector.get_name(g) for g in inspector.get_all_geometry_ids()) == [
        "my_box::collision", "my_box::visual"]
    # without an object name the file's stem names it; an open mesh is refused
    (tmp_path / "plain.obj").write_text(trimesh.exchange.obj.export_obj(_box(),
                                                                       include_normals=False))
    plant2 = MultibodyPlant(0.0)
    [second] = Parser(plant2).add_models(tmp_path / "plain.obj")
    assert plant2.get_model_instance_name(second) == "plain"
    (tmp_path / "open.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    with pytest.raises(ParseError, match=r"open.obj: the mesh model's inertia .*encloses the "
                                         r"volume 0.0"):
        Parser(MultibodyPlant(0.0)).add_models(tmp_path / "open.obj")


def test_gltf_meshes_are_turned_z_up_and_find_their_buffers(tmp_path):
    for name, data in trimesh.exchange.gltf.export_gltf(trimesh.Scene(_box())).items():
        (tmp_path / name).write_bytes(data)
    path = str(tmp_path / "model.gltf")
    hull = Convex(path).convex_hull_vertices()
    # glTF's y-up (x, y, z) is Drake's z-up (x, -z, y)
    lo = np.array([OFFSET[0], -OFFSET[2], OFFSET[1]]) - np.array([SIZE[0], SIZE[2], SIZE[1]]) / 2
    np.testing.assert_allclose(hull.min(axis=0), lo, atol=1e-7)       # float32 in glTF
    assert calc_volume(Mesh(path)) == pytest.approx(np.prod(SIZE), rel=1e-6)
    [geometry] = shape_to_object(Mesh(path), [1.0, 0.0, 0.0, 1.0])["geometries"]
    assert geometry["format"] == "obj"      # the viewer reads no glTF: sent as triangles
    drawn = np.array([[float(x) for x in line.split()[1:]] for line in
                      geometry["data"].splitlines() if line.startswith("v ")])
    np.testing.assert_allclose(drawn.min(axis=0), lo, atol=1e-7)
    (tmp_path / "gltf_buffer_0.bin").unlink()
    with pytest.raises(RuntimeError, match="cannot read the mesh .*model.gltf"):
        Convex(path).convex_hull_vertices()
