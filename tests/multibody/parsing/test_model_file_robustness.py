"""URDF/SDFormat/MJCF inputs from the wild (issue 14): one small file per case.

Each case either loads as Drake does or raises a ParseError (a RuntimeError) with
file:line; no other exception type escapes the parser or finalize().
"""

import warnings
from pathlib import Path

import pytest

from merganser.geometry import SceneGraph
from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant, SingularDynamicsError
from merganser.multibody.tree import TopologyError

DATA = Path(__file__).resolve().parents[2] / "data" / "parsing"


def parser_for(with_scene_graph, plant=None):
    plant = plant if plant is not None else MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph() if with_scene_graph else None)
    parser.package_map().add("pkg", DATA / "urdf")
    return plant, parser


def parse_error(name, with_scene_graph=True):
    _, parser = parser_for(with_scene_graph)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        with pytest.raises(ParseError) as err:
            parser.add_models(DATA / name)
    assert isinstance(err.value, RuntimeError)
    assert err.value.line is not None and str(err.value).startswith(f"{err.value.file}:")
    return err.value


def test_dynamics_only_loading_warns_about_meshes_that_do_not_resolve():
    plant, parser = parser_for(False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ParseWarning)
        parser.add_models(DATA / "urdf/missing_meshes.urdf")
    messages = [str(w.message) for w in caught]
    assert any("missing_meshes.urdf:3:" in m and "file:///nonexistent" in m
               and "no SceneGraph" in m for m in messages)
    assert any("missing_meshes.urdf:4:" in m and "package:///meshes/a.stl" in m
               for m in messages)
    # The resolvable box stays; the unresolved meshes have no record.
    assert [g.shape for g in parser.geometries()] == ["Box"]
    plant.finalize()


def test_with_a_scene_graph_an_unresolved_mesh_is_a_located_error():
    err = parse_error("urdf/missing_meshes.urdf")
    assert err.line == 3 and "does not exist" in str(err)


def test_a_package_uri_must_stay_inside_its_package():
    err = parse_error("urdf/package_escape.urdf")
    assert err.line == 3
    assert "package://pkg/../../secret.obj" in str(err) and "leaves the folder" in str(err)


@pytest.mark.parametrize("name, what", [
    ("urdf/mesh_is_a_folder.urdf", "not a regular file"),
    ("urdf/mesh_is_a_device.urdf", "not a regular file"),
    ("urdf/collision_mesh_without_extension.urdf", "has the extension '(none)'"),
])
def test_meshes_that_are_not_mesh_files_are_located_errors(name, what):
    err = parse_error(name)
    assert err.line == 3 and what in str(err)


def test_a_material_defined_in_one_link_is_reused_by_name_in_a_later_link():
    plant, parser = parser_for(False)
    parser.add_models(DATA / "urdf/material_reused_by_name.urdf")
    colors = {g.body_name: tuple(g.diffuse_rgba) for g in parser.geometries()}
    assert colors == {"a": (0.5, 0.5, 0.5, 1.0), "b": (0.5, 0.5, 0.5, 1.0)}


def test_a_massless_tip_on_a_revolute_joint_loads_as_in_drake():
    # romeo.urdf's finger tips: Drake 1.51 finalizes them; the dynamics then name the tip.
    plant, parser = parser_for(False)
    parser.add_models(DATA / "urdf/massless_tip.urdf")
    plant.finalize()
    assert plant.num_velocities() == 7   # palm floats (6) + finger
    assert plant.get_joint_by_name("finger").source_location().endswith("massless_tip.urdf:6")
    assert plant.get_body_by_name("tip").source_location().endswith("massless_tip.urdf:3")
    with pytest.raises(SingularDynamicsError, match="tip"):
        plant.calc_forward_dynamics(plant.create_default_context())


def test_finalize_time_topology_errors_name_the_file_and_line():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    # Two links with no joint between them and the same one welded twice: a loop that
    # only finalize can see (each model alone is a tree).
    parser.add_models_from_string(
        '<robot name="r"><link name="a"/><link name="b"/>'
        '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint></robot>',
        "urdf")
    parser.add_models_from_string(
        '<robot name="s">\n<link name="c"/>\n</robot>', "urdf")
    plant.weld_frames(plant.get_body_by_name("b").body_frame(),
                      plant.get_body_by_name("c").body_frame())
    plant.weld_frames(plant.get_body_by_name("c").body_frame(),
                      plant.get_body_by_name("a").body_frame())
    with pytest.raises(TopologyError, match=r"'c' at <string\.urdf>:2"):
        plant.finalize()


def test_a_urdf_kinematic_loop_is_a_located_parse_error():
    err = parse_error("urdf/kinematic_loop.urdf", with_scene_graph=False)
    assert "kinematic loop" in str(err) and err.line == 4


@pytest.mark.parametrize("name, chain", [
    ("sdf/include_self.sdf", ["include_self.sdf", "include_self.sdf"]),
    ("sdf/include_cycle_a.sdf", ["include_cycle_a.sdf", "include_cycle_b.sdf",
                                 "include_cycle_a.sdf"]),
])
def test_an_sdformat_include_cycle_is_a_parse_error_naming_the_chain(name, chain):
    err = parse_error(name, with_scene_graph=False)
    assert err.line == 4
    listed = [part.rsplit("/", 1)[-1] for part in str(err).split(": ")[-1].split(" -> ")]
    assert listed == chain


def test_huge_centre_of_mass_is_a_located_error():
    err = parse_error("urdf/com_5e199.urdf", with_scene_graph=False)
    assert err.line == 2 and "out of range" in str(err)


def test_duplicate_mjcf_geom_names_are_a_located_error():
    err = parse_error("mjcf/duplicate_geom_names.xml")
    assert err.line == 4 and "first at line 3" in str(err)


def test_an_absurd_gear_is_a_located_error():
    err = parse_error("mjcf/gear_1e308.xml", with_scene_graph=False)
    assert err.line == 5 and "gear" in str(err)


def test_a_lone_surrogate_in_a_name_is_a_located_error():
    with pytest.raises(ParseError, match=r"<string\.urdf>:2: .*UTF-8"):
        Parser(MultibodyPlant(0.0)).add_models_from_string(
            '<robot name="r">\n<link name="a\ud800"/></robot>', "urdf")


def test_deformable_mjcf_bodies_are_refused_rather_than_loaded_without_their_dofs():
    err = parse_error("mjcf/flexcomp_refused.xml", with_scene_graph=False)
    assert err.line == 3 and "<flexcomp>" in str(err)
