"""SDFormat parsing: frames and poses (relative_to, attached_to, nested models), joints,
actuators, includes through the package map, worlds, static models and geometry."""

import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import (
    BallRpyJoint,
    PrismaticJoint,
    RevoluteJoint,
    RevoluteSpring,
    ScrewJoint,
    UniversalJoint,
    WeldJoint,
)

DATA = Path(__file__).resolve().parents[2] / "data"
CART_POLE = DATA / "models" / "drake" / "cart_pole" / "cart_pole.sdf"
ACROBOT = DATA / "models" / "drake" / "acrobot"
INERTIAL = ("<inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz>"
            "</inertia></inertial>")


def sdf(body, version="1.9"):
    return f'<sdf version="{version}">{body}</sdf>'


def load(text, plant=None, parser=None):
    plant = plant or MultibodyPlant(0.0)
    parser = parser or Parser(plant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        instances = parser.add_models_from_string(text, "sdf")
    return plant, parser, instances


def default_pose(plant, body):
    ctx = plant.create_default_context()
    return plant.eval_body_pose_in_world(ctx, body).get_as_matrix4()


def test_cart_pole_joints_frames_and_actuators_follow_drake():
    plant = MultibodyPlant(0.0)
    [mi] = Parser(plant).add_models(CART_POLE)
    assert plant.get_model_instance_name(mi) == "CartPole"
    slider = plant.get_joint_by_name("CartSlider", mi)
    pin = plant.get_joint_by_name("PolePin", mi)
    assert isinstance(slider, PrismaticJoint) and isinstance(pin, RevoluteJoint)
    assert slider.frame_on_parent() is plant.world_frame()
    # PolePin's frame is 0.5 m above the pole origin, i.e. at the cart origin.
    assert pin.frame_on_parent() is plant.get_body_by_name("Cart", mi).body_frame()
    assert pin.frame_on_child().name() == "PolePin_child"
    np.testing.assert_allclose(pin.frame_on_child().get_fixed_pose_in_body_frame().translation(),
                               [0, 0, 0.5])
    np.testing.assert_allclose(pin.revolute_axis(), [0, -1, 0])
    # <effort>0</effort> means not actuated; the default effort (-1) means unlimited.
    assert plant.num_actuators(mi) == 1 and plant.has_joint_actuator_named("CartSlider", mi)
    assert plant.get_joint_actuator_by_name("CartSlider", mi).effort_limit() == math.inf
    assert plant.has_frame_named("__model__", mi)


def test_acrobot_sdf_and_urdf_give_identical_dynamics():
    plants = []
    for name in ("Acrobot.sdf", "Acrobot.urdf"):
        plant = MultibodyPlant(0.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ParseWarning)
            Parser(plant).add_models(ACROBOT / name)
        plant.finalize()
        plants.append(plant)
    contexts = [p.create_default_context() for p in plants]
    rng = np.random.default_rng(7)
    for _ in range(3):
        q, v = rng.normal(size=2), rng.normal(size=2)
        for p, c in zip(plants, contexts):
            p.set_positions(c, q)
            p.set_velocities(c, v)
        (a, b), (ca, cb) = plants, contexts
        np.testing.assert_allclose(a.calc_mass_matrix(ca), b.calc_mass_matrix(cb), atol=1e-14)
        np.testing.assert_allclose(a.calc_bias_term(ca), b.calc_bias_term(cb), atol=1e-14)
        np.testing.assert_allclose(a.calc_gravity_generalized_forces(ca),
                                   b.calc_gravity_generalized_forces(cb), atol=1e-14)


def test_nested_models_frames_and_relative_poses():
    text = sdf(f"""
      <model name="outer">
        <pose>1 0 0 0 0 0</pose>
        <link name="base"><pose>0 0 1 0 0 0</pose>{INERTIAL}</link>
        <frame name="mount" attached_to="base">
          <pose relative_to="base">0 0.5 0 0 0 1.5707963267948966</pose>
        </frame>
        <model name="inner">
          <pose relative_to="mount">0.2 0 0 0 0 0</pose>
          <link name="tip">{INERTIAL}</link>
        </model>
        <joint name="hinge" type="revolute">
          <pose relative_to="mount"/>
          <parent>base</parent><child>inner::tip</child>
          <axis><xyz expressed_in="__model__">1 0 0</xyz></axis>
        </joint>
      </model>""")
    plant, parser, instances = load(text)
    outer, inner = instances
    assert plant.get_model_instance_name(outer) == "outer"
    assert plant.get_model_instance_name(inner) == "outer::inner"
    mount = plant.get_frame_by_name("mount", outer)
    X_BM = mount.get_fixed_pose_in_body_frame().get_as_matrix4()
    np.testing.assert_allclose(X_BM[:3, 3], [0, 0.5, 0])
    hinge = plant.get_joint_by_name("hinge", inner)  # a joint belongs to its child's instance
    # The axis is model-frame x, i.e. -y of the mount frame (rotated by +90° about z).
    np.testing.assert_allclose(hinge.revolute_axis(), [0, -1, 0], atol=1e-15)
    # J is at the mount; the tip is 0.2 m along the mount's x (world +y).
    np.testing.assert_allclose(hinge.frame_on_child().get_fixed_pose_in_body_frame()
                               .translation(), [-0.2, 0, 0], atol=1e-15)
    plant.finalize()
    tip = plant.get_body_by_name("tip", inner)
    np.testing.assert_allclose(default_pose(plant, tip)[:3, 3], [1, 0.7, 1], atol=1e-15)
    base = plant.get_body_by_name("base", outer)
    # base is a free body whose default pose is its link pose in the world.
    np.testing.assert_allclose(default_pose(plant, base)[:3, 3], [1, 0, 1], atol=1e-15)


def test_world_include_static_model_and_world_joint():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().populate_from_folder(DATA / "parsing" / "sdf_models")
    with pytest.warns(ParseWarning, match="world <gravity>"):
        instances = parser.add_models(DATA / "parsing" / "world_with_include.sdf")
    names = [plant.get_model_instance_name(i) for i in instances]
    assert names == ["left_gripper", "table"]
    slide = plant.get_joint_by_name("slide", instances[0])
    assert slide.position_lower_limits()[0] == -0.02
    assert slide.velocity_upper_limits()[0] == 0.1
    assert plant.get_joint_actuator_by_name("slide", instances[0]).effort_limit() == 20
    tip = plant.get_frame_by_name("tip", instances[0])
    assert tip.body().name() == "finger"
    plant.finalize()
    assert plant.num_positions() == 1  # the palm is welded by the world joint
    palm = plant.get_body_by_name("palm", instances[0])
    # The include's pose replaces the model's own <pose>.
    np.testing.assert_allclose(default_pose(plant, palm)[:3, 3], [1, 0, 0], atol=1e-15)
    top = plant.get_body_by_name("top", instances[1])
    weld = plant.get_joint_by_name("sdformat_model_static_world_welds_to_top", instances[1])
    assert isinstance(weld, WeldJoint) and weld.parent_body() is plant.world_body()
    np.testing.assert_allclose(default_pose(plant, top)[:3, 3], [0, 2, 0.7], atol=1e-15)
    gripper_file = str(DATA / "parsing" / "sdf_models" / "gripper" / "gripper.sdf")
    assert any(e.file == gripper_file for e in parser.last_report().entries)


def test_joint_types_spring_mimic_and_screw_pitch():
    text = sdf(f"""<model name="m">
      <link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>
      <link name="c">{INERTIAL}</link><link name="d">{INERTIAL}</link>
      <link name="e">{INERTIAL}</link>
      <joint name="u" type="universal"><parent>world</parent><child>a</child>
        <axis><xyz>0 0 1</xyz></axis><axis2><xyz>1 0 0</xyz></axis2></joint>
      <joint name="ball" type="ball"><parent>a</parent><child>b</child></joint>
      <joint name="r" type="revolute"><parent>b</parent><child>c</child>
        <axis><xyz>0 1 0</xyz><dynamics><damping>0.2</damping><spring_reference>0.3
        </spring_reference><spring_stiffness>5</spring_stiffness></dynamics></axis></joint>
      <joint name="s" type="screw"><parent>c</parent><child>d</child>
        <axis><xyz>0 0 1</xyz></axis><thread_pitch>100</thread_pitch></joint>
      <joint name="follower" type="revolute"><parent>d</parent><child>e</child>
        <axis><xyz>0 1 0</xyz></axis><drake:mimic joint="r" multiplier="-1" offset="0.5"/>
      </joint>
    </model>""")
    plant, parser, [mi] = load(text, plant=MultibodyPlant(0.001))
    u = plant.get_joint_by_name("u", mi)
    assert isinstance(u, UniversalJoint)
    # F's x axis is the first axis (world z), its y axis the second (world x).
    R_WF = u.frame_on_parent().get_fixed_pose_in_body_frame().rotation().matrix()
    np.testing.assert_allclose(R_WF, np.column_stack([[0, 0, 1], [1, 0, 0], [0, 1, 0]]),
                               atol=1e-15)
    assert isinstance(plant.get_joint_by_name("ball", mi), BallRpyJoint)
    r = plant.get_joint_by_name("r", mi)
    assert r.damping() == 0.2
    springs = [plant.get_force_element(i) for i in range(plant.num_force_elements())
               if isinstance(plant.get_force_element(i), RevoluteSpring)]
    assert len(springs) == 1 and springs[0].stiffness() == 5
    screw = plant.get_joint_by_name("s", mi)
    assert isinstance(screw, ScrewJoint)
    assert screw.screw_pitch() == pytest.approx(-2 * math.pi / 100)
    [spec] = plant.get_constraint_specs()
    assert (spec.gear_ratio, spec.offset) == (-1.0, 0.5)
    # Revolute, prismatic and screw joints are actuated; ball and universal are not.
    assert plant.num_actuators(mi) == 3
    assert all(plant.has_joint_actuator_named(n, mi) for n in ("follower", "r", "s"))


def test_link_without_inertial_gets_sdformat_defaults():
    plant, parser, [mi] = load(sdf('<model name="m"><link name="a"/></model>'))
    body = plant.get_body_by_name("a", mi)
    assert body.default_mass() == 1.0
    np.testing.assert_allclose(body.default_rotational_inertia_matrix(), np.eye(3))
    assert any("no <inertial>" in e.message for e in parser.last_report().by_status("defaulted"))


def test_geometry_plane_ellipsoid_capsule_and_ode_friction():
    text = sdf(f"""<model name="m"><link name="a">{INERTIAL}
      <collision name="ground"><pose>0 0 1 0 0 0</pose>
        <geometry><plane><normal>1 0 0</normal><size>5 5</size></plane></geometry>
        <surface><friction><ode><mu>0.9</mu><mu2>0.6</mu2></ode></friction></surface>
      </collision>
      <visual name="egg"><geometry><ellipsoid><radii>1 2 3</radii></ellipsoid></geometry>
        <material><diffuse>1 0 0</diffuse></material></visual>
      <collision name="pill"><geometry><capsule><radius>0.1</radius><length>0.3</length>
        </capsule></geometry>
        <drake:proximity_properties><drake:rigid_hydroelastic/>
          <drake:mu_static>0.4</drake:mu_static></drake:proximity_properties></collision>
      <visual name="nothing"><geometry><empty/></geometry></visual>
    </link></model>""")
    _, parser, _ = load(text)
    ground, egg, pill = parser.geometries()
    assert ground.shape == "HalfSpace"
    np.testing.assert_allclose(ground.X_BG[:3, 2], [1, 0, 0], atol=1e-15)  # +z is the normal
    np.testing.assert_allclose(ground.X_BG[:3, 3], [0, 0, 1])
    assert ground.proximity[("material", "coulomb_friction")] == (0.9, 0.6)
    assert egg.params == {"a": 1.0, "b": 2.0, "c": 3.0}
    np.testing.assert_allclose(egg.diffuse_rgba, [1, 0, 0, 1])
    assert pill.proximity == {("hydroelastic", "compliance_type"): "rigid",
                              ("material", "coulomb_friction"): (0.4, 0.4)}


def test_unsupported_joint_type_and_pose_cycles_are_errors_with_lines():
    with pytest.raises(ParseError, match="type 'revolute2', which is not supported") as err:
        load(sdf(f"""<model name="m"><link name="a">{INERTIAL}</link>
          <joint name="j" type="revolute2"><parent>world</parent><child>a</child></joint>
          </model>"""))
    assert err.value.line == 2
    with pytest.raises(ParseError, match="cycle of relative_to") as err:
        load(sdf("""<model name="m">
          <frame name="f1"><pose relative_to="f2"/></frame>
          <frame name="f2"><pose relative_to="f1"/></frame>
          <link name="a"><pose relative_to="f1"/></link></model>"""))
    assert err.value.line in (2, 3)
