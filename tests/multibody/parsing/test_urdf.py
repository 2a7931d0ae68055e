"""URDF parsing: structure, Drake's rules (root link, world link, transmissions, mimic),
limits, geometry records, inertia validity, diagnostics, the report and the package map."""

import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from merganser.multibody.parsing import (
    PackageMap,
    ParseError,
    Parser,
    ParseWarning,
    UnresolvedUriError,
    get_joint_child_body_names,
    get_joint_parent_body_names,
    get_joint_position_starts,
    get_joint_velocity_starts,
)
from merganser.multibody.plant import MultibodyPlant, SingularDynamicsError
from merganser.multibody.tree import (
    BallRpyJoint,
    PlanarJoint,
    PrismaticJoint,
    RevoluteJoint,
    ScrewJoint,
    UniversalJoint,
    WeldJoint,
)

DATA = Path(__file__).resolve().parents[2] / "data"
ACROBOT = DATA / "models" / "drake" / "acrobot" / "Acrobot.urdf"
INERTIAL = ('<inertial><origin xyz="0 0 -0.5"/><mass value="1"/>'
            '<inertia ixx="0.1" iyy="0.1" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>')


def robot(body, name="r"):
    return f'<robot name="{name}">{body}</robot>'


def load(text, strict=False, plant=None):
    plant = plant or MultibodyPlant(0.0)
    parser = Parser(plant)
    if strict:
        parser.set_strict_parsing()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        instances = parser.add_models_from_string(text, "urdf")
    return plant, parser, instances


def chain(joint_type="revolute", extra="", axis="0 1 0"):
    return robot(f"""
      <link name="base">{INERTIAL}</link>
      <link name="arm">{INERTIAL}</link>
      <joint name="j" type="{joint_type}">
        <parent link="base"/><child link="arm"/>
        <origin xyz="0.1 0.2 0.3" rpy="0 0 1.5707963267948966"/>
        <axis xyz="{axis}"/>{extra}
      </joint>""")


# ------------------------------------------------------------------ the acrobot file
def test_acrobot_file_builds_drakes_model():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ParseWarning)      # Drake's own file loads silently
        [mi] = parser.add_models(ACROBOT)
    assert plant.get_model_instance_name(mi) == "Acrobot"
    shoulder = plant.get_joint_by_name("shoulder", mi)
    elbow = plant.get_joint_by_name("elbow", mi)
    assert isinstance(shoulder, RevoluteJoint) and isinstance(elbow, RevoluteJoint)
    assert shoulder.damping() == 0.1 and elbow.damping() == 0.1
    np.testing.assert_allclose(shoulder.frame_on_parent().get_fixed_pose_in_body_frame()
                               .translation(), [0, 0.15, 0])
    assert isinstance(plant.get_joint_by_name("base_weld", mi), WeldJoint)
    # Only the transmission makes an actuator (Drake's rule), unlimited effort.
    assert plant.num_actuators() == 1
    actuator = plant.get_joint_actuator_by_name("elbow", mi)
    assert actuator.joint() is elbow and actuator.effort_limit() == math.inf
    hand = plant.get_frame_by_name("hand", mi)
    assert hand.body().name() == "lower_link"
    np.testing.assert_allclose(hand.get_fixed_pose_in_body_frame().translation(), [0, 0, -2.1])
    upper = plant.get_body_by_name("upper_link", mi)
    assert upper.default_mass() == 1.0
    np.testing.assert_allclose(upper.default_com(), [0, 0, -0.5])
    plant.finalize()
    assert plant.num_positions() == 2


# ------------------------------------------------------------------ joints and limits
def test_revolute_limits_and_transmission_effort():
    text = chain(extra='<limit lower="-1" upper="2" velocity="3" effort="4" '
                       'drake:acceleration="5"/><dynamics damping="0.7"/>')
    text = text.replace("</robot>", '<transmission name="t"><type>transmission_interface/'
                        'SimpleTransmission</type><joint name="j"/><actuator name="motor">'
                        '<drake:rotor_inertia value="0.5"/><drake:gear_ratio value="3"/>'
                        '</actuator></transmission></robot>')
    plant, parser, [mi] = load(text)
    j = plant.get_joint_by_name("j", mi)
    assert j.position_lower_limits()[0] == -1 and j.position_upper_limits()[0] == 2
    assert j.velocity_lower_limits()[0] == -3 and j.velocity_upper_limits()[0] == 3
    assert j.acceleration_upper_limits()[0] == 5
    assert j.damping() == 0.7
    np.testing.assert_allclose(j.revolute_axis(), [0, 1, 0])
    actuator = plant.get_joint_actuator_by_name("motor", mi)
    assert actuator.effort_limit() == 4
    assert actuator.default_reflected_inertia() == pytest.approx(9 * 0.5)
    assert parser.last_report().joint_effort_limits[(mi, "j")] == 4
    X_PF = j.frame_on_parent().get_fixed_pose_in_body_frame()
    np.testing.assert_allclose(X_PF.translation(), [0.1, 0.2, 0.3])
    np.testing.assert_allclose(X_PF.rotation().matrix(), [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
                               atol=1e-15)
    assert j.frame_on_parent().name() == "j_parent"
    assert j.frame_on_child() is plant.get_body_by_name("arm", mi).body_frame()


def test_transmission_on_zero_effort_joint_is_skipped_with_warning():
    text = chain(extra='<limit effort="0"/>').replace(
        "</robot>", '<transmission type="SimpleTransmission"><joint name="j"/>'
                    '<actuator name="m"/></transmission></robot>')
    plant = MultibodyPlant(0.0)
    with pytest.warns(ParseWarning, match="effort limit is 0"):
        Parser(plant).add_models_from_string(text, "urdf")
    assert plant.num_actuators() == 0


def test_transmission_on_negative_effort_is_an_error():
    text = chain(extra='<limit effort="-2"/>').replace(
        "</robot>", '<transmission type="SimpleTransmission"><joint name="j"/>'
                    '<actuator name="m"/></transmission></robot>')
    with pytest.raises(ParseError, match="effort limit -2.0 is negative") as err:
        load(text)
    assert err.value.line == 8  # the transmission follows the joint on the last line


def test_prismatic_continuous_fixed_and_custom_joint_types():
    for kind, cls in (("prismatic", PrismaticJoint), ("continuous", RevoluteJoint),
                      ("fixed", WeldJoint)):
        plant, _, [mi] = load(chain(kind))
        assert type(plant.get_joint_by_name("j", mi)) is cls
    for kind, cls in (("ball", BallRpyJoint), ("universal", UniversalJoint)):
        plant, _, [mi] = load(chain(kind).replace("<joint ", "<drake:joint ").replace(
            "</joint>", "</drake:joint>"))
        assert type(plant.get_joint_by_name("j", mi)) is cls
    text = chain("screw", '<drake:screw_thread_pitch value="0.04"/>').replace(
        "<joint ", "<drake:joint ").replace("</joint>", "</drake:joint>")
    plant, _, [mi] = load(text)
    joint = plant.get_joint_by_name("j", mi)
    assert isinstance(joint, ScrewJoint) and joint.screw_pitch() == 0.04


def test_custom_joint_type_in_standard_tag_is_an_error():
    with pytest.raises(ParseError, match="custom joint type and must be declared with "
                                         "<drake:joint>"):
        load(chain("ball"))


def test_planar_joint_moves_in_the_plane_normal_to_its_axis():
    plant, _, [mi] = load(chain("planar", axis="1 0 0"))
    joint = plant.get_joint_by_name("j", mi)
    assert isinstance(joint, PlanarJoint)
    plant.finalize()
    ctx = plant.create_default_context()
    arm = plant.get_body_by_name("arm", mi)
    base = plant.get_body_by_name("base", mi)
    p0 = plant.calc_relative_transform(ctx, base.body_frame(), arm.body_frame()).translation()
    joint.set_positions(ctx, [0.3, -0.4, 0.2])
    X = plant.calc_relative_transform(ctx, base.body_frame(), arm.body_frame())
    # The joint frame is rotated by rpy (0 0 pi/2): the axis x of J is y of the base.
    displacement = X.translation() - p0
    assert abs(displacement[1]) < 1e-14
    assert np.linalg.norm(displacement) == pytest.approx(0.5)
    # Rotation is about the axis (base y).
    R = X.rotation().matrix() @ np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1]])
    np.testing.assert_allclose(R @ [0, 1, 0], [0, 1, 0], atol=1e-14)


MIMIC = robot(f"""
      <link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>
      <link name="c">{INERTIAL}</link>
      <joint name="j1" type="prismatic"><parent link="a"/><child link="b"/></joint>
      <joint name="j2" type="prismatic"><parent link="b"/><child link="c"/>
        <mimic joint="j1" multiplier="2" offset="0.1"/></joint>""")


def test_mimic_becomes_a_coupler_constraint_on_a_sap_plant():
    plant, _, [mi] = load(MIMIC, plant=MultibodyPlant(0.001))
    [spec] = plant.get_constraint_specs()
    assert plant.get_joint(spec.joint0_index).name() == "j2"
    assert plant.get_joint(spec.joint1_index).name() == "j1"
    assert spec.gear_ratio == 2.0 and spec.offset == 0.1


@pytest.mark.parametrize("time_step, approximation", [(0.0, "sap"), (0.001, "tamsi")])
def test_mimic_is_ignored_with_warning_where_constraints_are_unsupported(time_step,
                                                                        approximation):
    plant = MultibodyPlant(time_step)
    plant.set_discrete_contact_approximation(approximation)
    with pytest.warns(ParseWarning, match=r"<string.urdf>:6: the <mimic> of joint 'j2' is "
                                          r"ignored"):
        Parser(plant).add_models_from_string(MIMIC, "urdf")
    assert plant.get_constraint_specs() == []


def test_mimic_of_missing_joint_is_an_error_at_its_line():
    text = chain(extra='\n<mimic joint="nope"/>')
    with pytest.raises(ParseError, match="mimics joint 'nope'") as err:
        load(text)
    assert err.value.line == 8


def test_floating_joint_leaves_child_free_with_warning():
    text = robot(f"""<link name="world"/><link name="a">{INERTIAL}</link>
      <joint name="f" type="floating"><parent link="world"/><child link="a"/></joint>""")
    plant = MultibodyPlant(0.0)
    with pytest.warns(ParseWarning, match="leaving link 'a' as a free body"):
        [mi] = Parser(plant).add_models_from_string(text, "urdf")
    plant.finalize()
    assert plant.get_body_by_name("a", mi).is_floating()


# ------------------------------------------------------------------ root link rule
def test_root_link_without_world_joint_becomes_a_free_body():
    plant, _, [mi] = load(chain())
    plant.finalize()
    base = plant.get_body_by_name("base", mi)
    assert base.is_floating() and plant.num_positions() == 8
    assert plant.get_position_names(mi, add_model_instance_prefix=False)[:7] == [
        "base_qw", "base_qx", "base_qy", "base_qz", "base_x", "base_y", "base_z"]


def test_the_files_world_link_welds_and_its_inertial_is_ignored():
    text = chain().replace("<link name=\"base\">", "<link name=\"world\"><inertial><mass "
                           "value=\"3\"/></inertial></link><link name=\"base\">").replace(
        "</robot>", '<joint name="w" type="fixed"><parent link="world"/><child link="base"/>'
                    '<origin xyz="0 0 1"/></joint></robot>')
    plant = MultibodyPlant(0.0)
    with pytest.warns(ParseWarning, match="'world' link is the world body; its <inertial>"):
        [mi] = Parser(plant).add_models_from_string(text, "urdf")
    plant.finalize()
    assert plant.num_positions() == 1
    assert not plant.get_body_by_name("base", mi).is_floating()
    ctx = plant.create_default_context()
    np.testing.assert_allclose(plant.eval_body_pose_in_world(
        ctx, plant.get_body_by_name("base", mi)).translation(), [0, 0, 1])


def test_missing_inertial_on_a_movable_link_finalizes_and_dynamics_name_it():
    """As in Drake 1.51: the massless terminal link finalizes; the dynamics that would
    need its (zero) articulated inertia raise, naming the link and its joint."""
    text = chain().replace(f'<link name="arm">{INERTIAL}</link>', '<link name="arm"/>')
    plant, parser, [mi] = load(text)
    [entry] = [e for e in parser.last_report().by_status("defaulted") if "arm" in e.element]
    assert "no <inertial>" in entry.message and entry.line == 3
    plant.finalize()
    context = plant.create_default_context()
    with pytest.raises(SingularDynamicsError, match="arm") as info:
        plant.calc_forward_dynamics(context)
    assert info.value.body_name == "arm"


# ------------------------------------------------------------------ inertia validity
def test_negative_principal_moment_loads_drakes_substitute_with_warning():
    bad = ('<inertial><origin xyz="0.1 0 0"/><mass value="2"/>'
           '<inertia ixx="-1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>')
    text = robot(f'<link name="a">{bad}</link>')
    plant = MultibodyPlant(0.0)
    with pytest.warns(ParseWarning) as record:
        [mi] = Parser(plant).add_models_from_string(text, "urdf")
    message = str(record[0].message)
    assert "link 'a'" in message and "positive semidefinite" in message
    assert "-1" in message and "<string.urdf>:1" in message
    body = plant.get_body_by_name("a", mi)
    # Drake's substitute: a sphere of water density with the file's mass at the COM.
    r = (3 / (4 * math.pi) * 2 / 1000.0) ** (1 / 3)
    assert body.default_mass() == 2
    np.testing.assert_allclose(body.default_com(), [0.1, 0, 0])
    I_c = body.default_rotational_inertia_matrix() - 2 * (0.01 * np.eye(3) - np.diag(
        [0.01, 0, 0]))
    np.testing.assert_allclose(I_c, 0.4 * 2 * r * r * np.eye(3), atol=1e-15)


def test_triangle_inequality_violation_warns_and_strict_refuses():
    bad = ('<inertial><mass value="1"/>'
           '<inertia ixx="3" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>')
    text = robot(f'<link name="a">{bad}</link>')
    with pytest.warns(ParseWarning, match=r"link 'a'.*triangle inequality Ixx <= Iyy \+ Izz"):
        Parser(MultibodyPlant(0.0)).add_models_from_string(text, "urdf")
    strict = Parser(MultibodyPlant(0.0))
    strict.set_strict_parsing()
    with pytest.raises(ParseError, match="triangle inequality") as err:
        strict.add_models_from_string(text, "urdf")
    assert err.value.line == 1


# ------------------------------------------------------------------ geometry records
def test_geometry_records_shapes_materials_and_drake_contact_tags():
    text = robot(f"""
      <material name="blue"><color rgba="0 0 1 1"/></material>
      <link name="a">{INERTIAL}
        <visual><origin xyz="1 2 3"/><geometry><box size="0.1 0.2 0.3"/></geometry>
          <material name="blue"/></visual>
        <visual name="v2"><geometry><drake:ellipsoid a="1" b="2" c="3"/></geometry></visual>
        <collision name="c1"><geometry><capsule radius="0.1" length="0.4"/></geometry>
          <drake:proximity_properties>
            <drake:compliant_hydroelastic/>
            <drake:hydroelastic_modulus value="5e7"/>
            <drake:mesh_resolution_hint value="0.01"/>
            <drake:hunt_crossley_dissipation value="1.25"/>
            <drake:mu_dynamic value="0.3"/><drake:mu_static value="0.5"/>
            <drake:point_contact_stiffness value="1e5"/>
          </drake:proximity_properties></collision>
        <collision><geometry><mesh filename="{DATA}/models/example-robot-data/robots/
panda_description/meshes/collision/link0.stl" scale="2"/></geometry></collision>
      </link>""").replace("robots/\npanda", "robots/panda")
    _, parser, [mi] = load(text)
    visual, ellipsoid, capsule, mesh = parser.geometries()
    # an unnamed geometry is named by its shape type, as Drake's parser does
    assert (visual.role, visual.shape, visual.name, visual.body_name) == ("visual", "Box",
                                                                         "Box", "a")
    assert mesh.name == "Mesh"
    assert visual.params == {"width": 0.1, "depth": 0.2, "height": 0.3}
    np.testing.assert_allclose(visual.X_BG[:3, 3], [1, 2, 3])
    np.testing.assert_allclose(visual.diffuse_rgba, [0, 0, 1, 1])
    assert visual.material_name == "blue" and visual.model_instance == mi
    assert ellipsoid.params == {"a": 1.0, "b": 2.0, "c": 3.0}
    assert capsule.shape == "Capsule" and capsule.params == {"radius": 0.1, "length": 0.4}
    assert capsule.proximity == {
        ("hydroelastic", "compliance_type"): "compliant",
        ("hydroelastic", "hydroelastic_modulus"): 5e7,
        ("hydroelastic", "resolution_hint"): 0.01,
        ("material", "hunt_crossley_dissipation"): 1.25,
        ("material", "coulomb_friction"): (0.5, 0.3),
        ("material", "point_contact_stiffness"): 1e5}
    assert mesh.shape == "Mesh" and Path(mesh.mesh_path()).is_file()
    np.testing.assert_allclose(mesh.params["scale"], [2, 2, 2])
    assert mesh.file == "<string.urdf>" and mesh.line is not None


def test_mesh_through_package_uri_and_declare_convex():
    text = robot('<link name="a"><collision><geometry><mesh filename="package://erd/robots/'
                 'panda_description/meshes/collision/hand.stl"><drake:declare_convex/></mesh>'
                 '</geometry></collision></link>')
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().add("erd", DATA / "models" / "example-robot-data")
    parser.add_models_from_string(text, "urdf")
    [record] = parser.geometries()
    assert record.shape == "Convex" and record.mesh_path().endswith("collision/hand.stl")


# ------------------------------------------------------------------ model names
def test_clashing_model_names_raise_unless_renamed_or_prefixed():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.add_models(ACROBOT)
    with pytest.raises(ParseError, match="model instance named 'Acrobot' already exists") as e:
        parser.add_models(ACROBOT)
    assert e.value.line == 2
    parser.set_auto_renaming(True)
    [mi] = parser.add_models(ACROBOT)
    assert plant.get_model_instance_name(mi) == "Acrobot_1"
    [mi2] = Parser(plant, model_name_prefix="left").add_models(ACROBOT)
    assert plant.get_model_instance_name(mi2) == "left::Acrobot"


# ------------------------------------------------------------------ diagnostics and report
def test_ignored_elements_warn_with_line_and_strict_mode_refuses_them():
    text = chain().replace("</robot>", "<safety_thing><plugin/></safety_thing>\n</robot>"
                           ).replace('<link name="arm">', '<link name="arm" foo="1">')
    plant = MultibodyPlant(0.0)
    with pytest.warns(ParseWarning) as record:
        Parser(plant).add_models_from_string(text, "urdf")
    messages = [str(w.message) for w in record]
    assert any(m.startswith("<string.urdf>:8: <safety_thing>") for m in messages)
    assert any("attribute 'foo' of <link>" in m for m in messages)
    parser = Parser(MultibodyPlant(0.0))
    parser.set_strict_parsing()
    with pytest.raises(ParseError, match="'foo' of <link>.*strict parsing") as err:
        parser.add_models_from_string(text, "urdf")
    assert err.value.line == 3 and isinstance(err.value, RuntimeError)


def test_gazebo_and_drake_ignore_are_info_level_in_the_report_only():
    # Drake's own models (Pendulum.urdf) carry these; Drake ignores them silently.
    text = chain().replace("</robot>", "<gazebo><plugin/></gazebo>\n</robot>")
    text = text.replace('<link name="base">', '<link name="world" drake_ignore="true"/>\n'
                                              '<link name="base">')
    parser = Parser(MultibodyPlant(0.0))
    parser.set_strict_parsing()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ParseWarning)
        parser.add_models_from_string(text, "urdf")
    ignored = [e for e in parser.last_report().warnings() if e.status == "ignored"]
    assert any("<gazebo> is simulator-specific" in e.message for e in ignored)
    assert any("drake_ignore" in e.message for e in ignored)


def test_report_lists_every_element_with_a_status():
    text = chain(extra='<safety_controller k_velocity="1"/>')
    _, parser, _ = load(text)
    report = parser.last_report()
    counts = report.counts()
    assert counts["implemented"] > 0 and counts["ignored"] == 1
    paths = [e.element for e in report.entries]
    for expected in ("robot[r]", "robot[r]/link[base]/inertial/mass", "robot[r]/joint[j]/axis",
                     "robot[r]/joint[j]/safety_controller"):
        assert expected in paths
    [ignored] = report.by_status("ignored")
    assert ignored.element.endswith("safety_controller") and ignored.line == 7
    assert "safety_controller" in report.to_text()


# ------------------------------------------------------------------ helpers
def test_joint_maps_and_coordinate_starts():
    plant = MultibodyPlant(0.0)
    [mi] = Parser(plant).add_models(ACROBOT)
    assert get_joint_child_body_names(plant, mi) == {
        "base_weld": "base_link", "shoulder": "upper_link", "elbow": "lower_link"}
    assert get_joint_parent_body_names(plant, mi)["base_weld"] == "world"
    plant.finalize()
    assert get_joint_position_starts(plant, mi) == {"shoulder": 0, "elbow": 1}
    assert get_joint_velocity_starts(plant, mi) == {"shoulder": 0, "elbow": 1}


# ------------------------------------------------------------------ package map
def test_package_map_resolves_package_model_file_and_relative(tmp_path):
    pkg = tmp_path / "deep" / "my_pkg"
    (pkg / "meshes").mkdir(parents=True)
    (pkg / "meshes" / "m.stl").write_text("solid x\nendsolid x\n")
    (pkg / "package.xml").write_text("<package><name>my_pkg</name></package>")
    pm = PackageMap()
    assert pm.populate_from_folder(tmp_path) == ["my_pkg"]
    assert pm.contains("my_pkg") and pm.get_path("my_pkg") == str(pkg)
    target = str(pkg / "meshes" / "m.stl")
    assert pm.resolve("package://my_pkg/meshes/m.stl") == target
    assert pm.resolve("model://my_pkg/meshes/m.stl") == target
    assert pm.resolve(f"file://{target}") == target
    assert pm.resolve("meshes/m.stl", relative_to=pkg) == target
    other = PackageMap()
    assert other.add_package_xml(pkg / "package.xml") == "my_pkg"
    with pytest.raises(UnresolvedUriError, match="unknown package 'nope'"):
        pm.resolve("package://nope/x.stl")
    with pytest.raises(UnresolvedUriError, match="does not exist"):
        pm.resolve("package://my_pkg/missing.stl")
    with pytest.raises(UnresolvedUriError, match="unsupported scheme 'http'"):
        pm.resolve("http://example.com/m.stl")
    with pytest.raises(ValueError, match="already registered"):
        pm.add("my_pkg", tmp_path)
    with pytest.raises(ValueError, match="does not exist"):
        pm.add("other", tmp_path / "nope")
