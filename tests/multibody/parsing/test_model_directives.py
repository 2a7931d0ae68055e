"""Model directives (.dmd.yaml), scoped frame lookup, collision filter groups and remote
packages, checked against Drake's documented behaviour (issue 18)."""

import copy
import hashlib
import shutil

import numpy as np
import pytest

from merganser.multibody.parsing import (
    AddFrame,
    AddModel,
    AddWeld,
    CollisionFilterGroups,
    ModelDirective,
    ModelDirectives,
    PackageMap,
    ParseError,
    Parser,
    Transform,
    UnresolvedUriError,
    flatten_model_directives,
    get_scoped_frame_by_name,
    get_scoped_frame_by_name_maybe,
    load_model_directives,
    load_model_directives_from_string,
    process_model_directives,
)
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import ScopedName

ARM = """<robot name="arm">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tip"><inertial><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="elbow" type="revolute"><parent link="base"/><child link="tip"/>
    <axis xyz="0 0 1"/><origin xyz="0 0 1"/></joint>
</robot>"""

SUB = """directives:
- add_model:
    name: arm
    file: package://pkg/arm.urdf
    default_joint_positions: {elbow: [0.5]}
- add_weld:
    parent: world
    child: arm::base
    X_PC:
      translation: [1, 2, 3]
      rotation: !Rpy {deg: [0, 0, 90]}
- add_frame:
    name: tool
    X_PF:
      base_frame: arm::tip
      translation: [0, 0, 0.25]
- add_collision_filter_group:
    name: all
    members: [arm::base, arm::tip]
    ignored_collision_filter_groups: [all]
"""

TOP = """directives:
- add_model_instance:
    name: left
- add_directives:
    file: package://pkg/sub.dmd.yaml
    model_namespace: left
- add_model:
    name: solo
    file: package://pkg/arm.urdf
"""


@pytest.fixture
def pkg(tmp_path):
    (tmp_path / "package.xml").write_text("<package><name>pkg</name></package>")
    (tmp_path / "arm.urdf").write_text(ARM)
    (tmp_path / "sub.dmd.yaml").write_text(SUB)
    (tmp_path / "top.dmd.yaml").write_text(TOP)
    return tmp_path


def _parser(pkg):
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().add("pkg", pkg)
    return plant, parser


def test_load_from_string_builds_the_dataclasses():
    d = load_model_directives_from_string(SUB)
    assert [directive.step()[0] for directive in d.directives] == [
        "add_model", "add_weld", "add_frame", "add_collision_filter_group"]
    add_model = d.directives[0].add_model
    assert add_model.name == "arm" and add_model.file == "package://pkg/arm.urdf"
    np.testing.assert_array_equal(add_model.default_joint_positions["elbow"], [0.5])
    X = d.directives[1].add_weld.X_PC.get_deterministic_value()
    np.testing.assert_allclose(X.rotation().matrix(), [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
                               atol=1e-15)
    np.testing.assert_array_equal(X.translation(), [1, 2, 3])
    assert d.directives[2].add_frame.X_PF.base_frame == "arm::tip"
    assert copy.deepcopy(d) == d


def test_unknown_keys_and_directives_name_the_valid_ones():
    with pytest.raises(ValueError, match=r"AddModel has no key\(s\) \['nmae'\].*valid keys"):
        load_model_directives_from_string("directives:\n- add_model: {nmae: x}\n")
    with pytest.raises(ValueError, match="unknown directive 'add_modle'"):
        load_model_directives_from_string("directives:\n- add_modle: {name: x}\n")
    with pytest.raises(ValueError, match="exactly one of"):
        ModelDirective().step()


def test_process_applies_namespace_weld_frame_and_default_positions(pkg):
    plant, parser = _parser(pkg)
    infos = process_model_directives(load_model_directives(pkg / "top.dmd.yaml"),
                                     parser=parser)
    assert [info.model_name for info in infos] == ["left::arm", "solo"]
    arm = plant.get_model_instance_by_name("left::arm")
    assert infos[0].model_instance == arm and infos[0].model_path == str(pkg / "arm.urdf")
    assert infos[0].parent_frame_name == "world" and infos[0].child_frame_name == "base"
    # The frame added without a scope lands in its base frame's model instance.
    tool = get_scoped_frame_by_name(plant, "left::arm::tool")
    assert tool.model_instance() == arm and tool.body().name() == "tip"
    assert tool.scoped_name() == ScopedName("left::arm", "tool")
    plant.finalize()
    ctx = plant.create_default_context()
    elbow = plant.get_joint_by_name("elbow", arm)
    assert elbow.get_angle(ctx) == pytest.approx(0.5)
    # tool = weld(Rz(90°), p=[1,2,3]) · joint origin [0,0,1] · Rz(0.5) · [0,0,0.25]
    X_WT = plant.calc_relative_transform(ctx, plant.world_frame(), tool)
    np.testing.assert_allclose(X_WT.translation(), [1, 2, 4.25], atol=1e-12)
    c, s = np.cos(np.pi / 2 + 0.5), np.sin(np.pi / 2 + 0.5)
    np.testing.assert_allclose(X_WT.rotation().matrix(), [[c, -s, 0], [s, c, 0], [0, 0, 1]],
                               atol=1e-12)
    # The model outside the namespace is free (no weld).
    solo = plant.get_model_instance_by_name("solo")
    assert plant.get_body_by_name("base", solo).is_floating()


def test_collision_filter_groups_are_scoped(pkg):
    plant, parser = _parser(pkg)
    process_model_directives(load_model_directives(pkg / "top.dmd.yaml"), plant=plant,
                             parser=parser)
    groups = parser.get_collision_filter_groups()
    assert groups.groups() == {"left::all": {"left::arm::base", "left::arm::tip"}}
    assert groups.exclusion_pairs() == {("left::all", "left::all")}


def test_add_models_reads_a_dmd_yaml_file(pkg):
    plant, parser = _parser(pkg)
    instances = parser.add_models(pkg / "top.dmd.yaml")
    assert [plant.get_model_instance_name(mi) for mi in instances] == ["left::arm", "solo"]


def test_missing_namespace_and_frame_raise():
    plant = MultibodyPlant(0.0)
    d = load_model_directives_from_string(
        "directives:\n- add_directives: {file: x.dmd.yaml, model_namespace: nope}\n")
    with pytest.raises(RuntimeError, match="namespace 'nope' does not exist"):
        process_model_directives(d, plant=plant)
    weld = ModelDirectives([ModelDirective(add_weld=AddWeld(parent="world", child="a::b"))])
    with pytest.raises(RuntimeError, match="no model instance named 'a'"):
        process_model_directives(weld, plant=plant)
    assert get_scoped_frame_by_name_maybe(plant, "a::b") is None
    assert get_scoped_frame_by_name(plant, "world") is plant.world_frame()


def test_flatten_inlines_sub_directives_with_scoped_names(pkg):
    pm = PackageMap.make_empty()
    pm.add("pkg", pkg)
    flat = flatten_model_directives(load_model_directives(pkg / "top.dmd.yaml"), pm)
    steps = [d.step() for d in flat.directives]
    assert [k for k, _ in steps] == ["add_model_instance", "add_model", "add_weld",
                                     "add_frame", "add_collision_filter_group", "add_model"]
    assert steps[1][1].name == "left::arm"
    assert (steps[2][1].parent, steps[2][1].child) == ("world", "left::arm::base")
    assert steps[3][1].name == "left::arm::tool"
    assert steps[3][1].X_PF.base_frame == "left::arm::tip"
    assert steps[4][1].model_namespace == "left"


def test_dataclass_defaults_and_reprs():
    assert "bar.sdf" in repr(AddModel(file="package://foo/bar.sdf"))
    frame = AddFrame(name="f", X_PF=Transform(base_frame="world", translation=[0, 0, 1]))
    np.testing.assert_array_equal(frame.X_PF.get_deterministic_value().translation(), [0, 0, 1])
    assert "add_model" in repr(ModelDirectives([ModelDirective()]))


def test_collision_filter_groups_object():
    g = CollisionFilterGroups()
    assert g.empty()
    g.add_group("m::a", {"m::x", "m::y"})
    g.add_exclusion_pair(("m::b", "m::a"))
    assert g.groups() == {"m::a": {"m::x", "m::y"}}
    assert g.exclusion_pairs() == {("m::a", "m::b")}
    assert "m::x" in str(g) and not g.empty()
    with pytest.raises(RuntimeError, match="already exists"):
        g.add_group("m::a", set())


def test_scoped_name():
    n = ScopedName.parse("a::b::c")
    assert (n.get_namespace(), n.get_element(), n.get_full()) == ("a::b", "c", "a::b::c")
    assert ScopedName.join("a::", "b") == "a::b" and ScopedName.join("", "b").get_namespace() == ""
    n.set_namespace("r")
    assert str(n) == "r::c" and repr(n) == "ScopedName('r', 'c')"
    with pytest.raises(ValueError, match="without '::'"):
        n.set_element("x::y")


def test_remote_package_file_url_checks_sha256_and_strips_prefix(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "src" / "prefix").mkdir(parents=True)
    (tmp_path / "src" / "prefix" / "README").write_text("hello\n")
    archive = shutil.make_archive(str(tmp_path / "pkg"), "zip", tmp_path / "src")
    sha = hashlib.sha256(open(archive, "rb").read()).hexdigest()
    pm = PackageMap.make_empty()
    pm.add_remote("remote", PackageMap.RemoteParams(urls=[f"file://{archive}"], sha256=sha,
                                                    strip_prefix="prefix"))
    assert pm.contains("remote") and pm.size() == 1
    assert open(pm.resolve("package://remote/README")).read() == "hello\n"
    assert "pkg.zip" in pm.RemoteParams(urls=[f"file://{archive}"], sha256=sha).to_json()
    bad = PackageMap.make_empty()
    bad.add_remote("bad", PackageMap.RemoteParams(urls=[f"file://{archive}"], sha256="0" * 64))
    with pytest.raises(UnresolvedUriError, match="checksum mismatch"):
        bad.get_path("bad")
    with pytest.raises(ValueError, match="64 hexadecimal digits"):
        bad.add_remote("x", PackageMap.RemoteParams(urls=[f"file://{archive}"], sha256="12"))


def test_network_urls_obey_drake_allow_network(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("DRAKE_ALLOW_NETWORK", "none")
    pm = PackageMap.make_empty()
    pm.add_remote("net", PackageMap.RemoteParams(urls=["https://example.invalid/a.zip"],
                                                 sha256="a" * 64))
    with pytest.raises(RuntimeError, match="DRAKE_ALLOW_NETWORK"):
        pm.get_path("net")


def test_drake_resource_root_gives_the_drake_package(tmp_path, monkeypatch):
    (tmp_path / "drake").mkdir()
    (tmp_path / "drake" / ".drake-find_resource-sentinel").write_text("")
    (tmp_path / "drake" / "package.xml").write_text("<package><name>drake</name></package>")
    monkeypatch.setenv("DRAKE_RESOURCE_ROOT", str(tmp_path))
    pm = PackageMap()
    assert pm.get_path("drake") == str(tmp_path / "drake")
    assert not PackageMap.make_empty().contains("drake")
    copied = copy.copy(pm)
    copied.remove("drake")
    assert pm.contains("drake") and not copied.contains("drake")


def test_find_resource_or_throw_resolves_under_the_resource_root(tmp_path, monkeypatch):
    from merganser.multibody.parsing import find_resource_or_throw
    (tmp_path / "drake" / "models").mkdir(parents=True)
    (tmp_path / "drake" / ".drake-find_resource-sentinel").write_text("")
    (tmp_path / "drake" / "models" / "box.urdf").write_text("<robot name='box'/>")
    monkeypatch.setenv("DRAKE_RESOURCE_ROOT", str(tmp_path))
    assert find_resource_or_throw("drake/models/box.urdf") == str(
        tmp_path / "drake" / "models" / "box.urdf")
    assert find_resource_or_throw("drake/models") == str(tmp_path / "drake" / "models")
    with pytest.raises(RuntimeError, match="has no .*missing.urdf"):
        find_resource_or_throw("drake/models/missing.urdf")
    with pytest.raises(RuntimeError, match="must be a relative path that starts with 'drake/'"):
        find_resource_or_throw("/abs/box.urdf")
    with pytest.raises(TypeError, match="resource_path must be a str, got int"):
        find_resource_or_throw(3)
    # a root without the sentinel is no root: the error says how to set one
    (tmp_path / "drake" / ".drake-find_resource-sentinel").unlink()
    monkeypatch.setattr("sys.path", [])
    with pytest.raises(RuntimeError, match="DRAKE_RESOURCE_ROOT"):
        find_resource_or_throw("drake/models/box.urdf")


def test_add_models_overloads_and_unique_names(pkg):
    plant, parser = _parser(pkg)
    [a] = parser.add_models(url="package://pkg/arm.urdf")
    [b] = parser.add_models(file_contents=ARM.replace('"arm"', '"arm2"'), file_type="urdf")
    assert plant.get_model_instance_name(a) == "arm" and plant.get_model_instance_name(b) == "arm2"
    with pytest.raises(ParseError, match="names must be unique"):
        parser.add_models(pkg / "arm.urdf")
    with pytest.raises(TypeError, match="exactly one of"):
        parser.add_models(pkg / "arm.urdf", url="package://pkg/arm.urdf")


TWO_BALLS = """<robot name="balls" xmlns:drake="http://drake.mit.edu">
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.2"/></geometry></collision></link>
  <link name="b"><inertial><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.2"/></geometry></collision></link>
  {group}
</robot>"""

GROUP = """<drake:collision_filter_group name="both">
    <drake:member link="a"/><drake:member link="b"/>
    <drake:ignored_collision_filter_group name="both"/>
  </drake:collision_filter_group>"""


@pytest.mark.parametrize("group, contacts", [("", 1), (GROUP, 0)])
def test_urdf_collision_filter_groups_filter_the_scene_graph(group, contacts):
    from merganser.framework import DiagramBuilder
    from merganser.multibody.plant import add_multibody_plant_scene_graph

    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    Parser(plant).add_models_from_string(TWO_BALLS.format(group=group), "urdf")
    plant.finalize()
    diagram = builder.build()
    root = diagram.create_default_context()
    ctx = plant.get_my_context_from_root(root)      # both free bodies at the origin: overlap
    query = scene_graph.get_query_output_port().eval(scene_graph.get_my_context_from_root(root))
    assert len(query.compute_point_pair_penetration()) == contacts
    assert plant.num_bodies() == 3 and ctx is not None
