"""Parser and PackageMap under pydrake 1.51's API, in snake_case (issue 18)."""

import os
from pathlib import Path

import pytest

from merganser.framework import DiagramBuilder
from merganser.multibody.parsing import PackageMap, ParseError, Parser
from merganser.multibody.plant import MultibodyPlant, add_multibody_plant_scene_graph

DATA = Path(__file__).resolve().parents[2] / "data"
ARM = DATA / "parsing" / "two_link_arm.xml"
URDF = '<robot name="r"><link name="a"/></robot>'


def test_keyword_construction_and_accessors():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant=plant, model_name_prefix="left")
    assert parser.plant() is plant and parser.scene_graph() is None and parser.builder() is None
    [mi] = parser.add_models_from_string(file_contents=URDF, file_type="urdf")
    assert plant.get_model_instance_name(mi) == "left::r"
    [arm] = parser.add_models(file_name=ARM)
    assert plant.get_model_instance_name(arm) == "left::two_link_arm"


def test_parser_from_a_builder_finds_the_plant_and_scene_graph():
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    for parser in (Parser(builder), Parser(builder=builder)):
        assert parser.plant() is plant and parser.scene_graph() is scene_graph
        assert parser.builder() is builder
    with pytest.raises(ValueError, match="no system named 'plant'"):
        Parser(builder=DiagramBuilder())


def test_add_models_from_url_with_package_and_file_schemes():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().add("data", DATA / "parsing")
    [a] = parser.add_models_from_url(url="package://data/two_link_arm.xml")
    parser.set_auto_renaming(True)
    assert parser.get_auto_renaming()
    [b] = parser.add_models_from_url(f"file://{ARM}")
    assert plant.get_model_instance_name(b) == "two_link_arm_1"
    with pytest.raises(ParseError, match="package://nowhere/x.urdf") as err:
        parser.add_models_from_url("package://nowhere/x.urdf")
    assert isinstance(err.value, RuntimeError)


def test_pydrake_runtime_errors_are_runtime_errors():
    parser = Parser(MultibodyPlant(0.0))
    parser.add_models_from_string(URDF, "urdf")
    with pytest.raises(RuntimeError, match="already exists"):        # duplicate model name
        parser.add_models_from_string(URDF, "urdf")
    with pytest.raises(RuntimeError, match="malformed XML"):          # parse error
        parser.add_models_from_string("<robot name='x'><link></robot>", "urdf")
    parser.set_strict_parsing()
    with pytest.raises(RuntimeError, match="strict parsing"):          # strict-parsing error
        parser.add_models_from_string('<robot name="s"><link name="a" foo="1"/></robot>',
                                      "urdf")


def test_package_map_api(tmp_path):
    empty = PackageMap.make_empty()
    assert empty.size() == 0 and empty.get_package_names() == []
    (tmp_path / "pkg_a").mkdir()
    (tmp_path / "pkg_a" / "package.xml").write_text(
        "<package format='2'><name>pkg_a</name></package>")
    other = PackageMap.make_empty()     # PackageMap() may hold Drake's packages
    other.add("b", tmp_path)
    empty.add_map(other)
    assert empty.contains("b") and empty.get_path("b") == str(tmp_path)
    assert empty.add_package_xml(tmp_path / "pkg_a" / "package.xml") == "pkg_a"
    assert empty.get_package_names() == ["b", "pkg_a"]
    empty.remove("b")
    assert not empty.contains("b") and empty.size() == 1
    with pytest.raises(ValueError, match="already registered"):
        other.add("b", tmp_path / "pkg_a")
    with pytest.raises(TypeError, match="other_map must be a PackageMap"):
        empty.add_map({"x": tmp_path})
    with pytest.raises(TypeError, match=r"PackageMap.add: package_path must be a path .*got "
                                        r"NoneType"):
        empty.add("c", None)
    with pytest.raises(TypeError, match="PackageMap.add_package_xml: filename must be a path"):
        empty.add_package_xml(3)
    assert not empty.contains("c")


def test_populate_from_ros_package_path_follows_ros_crawl_rules(tmp_path, monkeypatch):
    from merganser.multibody.parsing import PackageMap

    def package(folder, name):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "package.xml").write_text(f"<package><name>{name}</name></package>")

    package(tmp_path / "ws" / "outer", "outer")
    package(tmp_path / "ws" / "outer" / "nested", "nested")      # inside a package: skipped
    package(tmp_path / "ws" / "ignored" / "pkg", "hidden")
    (tmp_path / "ws" / "ignored" / "COLCON_IGNORE").write_text("")
    package(tmp_path / "other" / "b", "b_pkg")
    monkeypatch.setenv("ROS_PACKAGE_PATH",
                       f"{tmp_path / 'ws'}{os.pathsep}{tmp_path / 'other'}")
    ros = PackageMap.make_empty()
    assert sorted(ros.populate_from_ros_package_path()) == ["b_pkg", "outer"]
    assert ros.get_path("outer") == str(tmp_path / "ws" / "outer")
    plain = PackageMap.make_empty()          # the plain crawl finds all four
    assert sorted(plain.populate_from_environment("ROS_PACKAGE_PATH")) == [
        "b_pkg", "hidden", "nested", "outer"]


def test_parser_takes_the_model_name_prefix_positionally_as_pydrake():
    urdf = ("<robot name='bot'><link name='base'><inertial><mass value='1'/><inertia ixx='1' "
            "iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial></link></robot>")
    plant = MultibodyPlant(0.0)
    (plain,) = Parser(plant).add_models_from_string(urdf, "urdf")
    (left,) = Parser(plant, "left").add_models_from_string(urdf, "urdf")
    assert plant.get_model_instance_name(plain) == "bot"
    assert plant.get_model_instance_name(left) == "left::bot"
