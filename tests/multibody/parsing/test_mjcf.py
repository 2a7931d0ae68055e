"""MJCF subset: bodies, joints, geoms, geom-derived inertia, motors, defaults, angles."""

import importlib.util
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import BallQuaternionJoint, PrismaticJoint, RevoluteJoint

DATA = Path(__file__).resolve().parents[2] / "data"
ARM = DATA / "parsing" / "two_link_arm.xml"
STL = DATA / "models" / "example-robot-data" / "robots" / "panda_description" / "meshes"


def load(text=None, path=None):
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        if path is not None:
            [mi] = parser.add_models(path)
        else:
            [mi] = parser.add_models_from_string(text, "xml")
    return plant, parser, mi


def test_two_link_arm_structure_inertia_and_motor():
    plant, parser, mi = load(path=ARM)
    assert plant.get_model_instance_name(mi) == "two_link_arm"
    shoulder = plant.get_joint_by_name("shoulder", mi)
    assert isinstance(shoulder, RevoluteJoint)
    np.testing.assert_allclose(shoulder.revolute_axis(), [0, 1, 0])
    assert shoulder.position_lower_limits()[0] == -1.5  # compiler angle="radian"
    assert shoulder.damping() == 0.05                   # from <default><joint damping>
    assert plant.get_joint_by_name("elbow", mi).position_lower_limits()[0] == -math.inf
    # upper: inertia of its capsule geom (fromto, radius 0.05, length 0.5), density 1000.
    upper = plant.get_body_by_name("upper", mi)
    r, L = 0.05, 0.5
    mass = 1000 * (math.pi * r * r * L + 4 / 3 * math.pi * r**3)
    assert upper.default_mass() == pytest.approx(mass, rel=1e-14)
    np.testing.assert_allclose(upper.default_com(), [0, 0, -0.25], atol=1e-15)
    # lower: its <inertial> wins over its geom.
    lower = plant.get_body_by_name("lower", mi)
    assert lower.default_mass() == 2.0
    motor = plant.get_joint_actuator_by_name("shoulder_motor", mi)
    assert motor.joint() is shoulder and motor.effort_limit() == 10
    assert motor.default_gear_ratio() == 2.0
    plant.finalize()
    ball = plant.get_body_by_name("ball", mi)
    assert ball.is_floating() and ball.default_mass() == 3.0
    ctx = plant.create_default_context()
    np.testing.assert_allclose(plant.eval_body_pose_in_world(ctx, ball).translation(),
                               [1, 0, 0.5])
    np.testing.assert_allclose(plant.eval_body_pose_in_world(ctx, lower).translation(),
                               [0, 0, 0.5])
    floor = [g for g in parser.geometries() if g.name == "floor"]
    assert {g.role for g in floor} == {"visual", "collision"}
    assert all(g.body_name == "world" and g.shape == "HalfSpace" for g in floor)
    capsule = next(g for g in parser.geometries()
                   if g.name == "upper_geom" and g.role == "visual")
    assert capsule.params == {"radius": 0.05, "length": 0.5}
    np.testing.assert_allclose(capsule.X_BG[:3, 3], [0, 0, -0.25])
    np.testing.assert_allclose(capsule.diffuse_rgba, [0.8, 0.6, 0.4, 1])


def test_capsule_inertia_matches_the_closed_form():
    plant, _, mi = load('<mujoco model="m"><worldbody><body name="b"><freejoint/>'
                        '<geom type="capsule" size="0.1 0.2" density="500"/></body>'
                        '</worldbody></mujoco>')
    body = plant.get_body_by_name("b", mi)
    r, h = 0.1, 0.4  # size is radius and half-length
    mc, mh = 500 * math.pi * r * r * h, 500 * 2 / 3 * math.pi * r**3
    d = h / 2 + 3 * r / 8
    Ixx = mc * (3 * r * r + h * h) / 12 + 2 * (83 / 320 * mh * r * r + mh * d * d)
    Izz = mc * r * r / 2 + 2 * 0.4 * mh * r * r
    np.testing.assert_allclose(body.default_rotational_inertia_matrix(),
                               np.diag([Ixx, Ixx, Izz]), rtol=1e-14)


def test_degrees_euler_and_multiple_joints_through_massless_bodies():
    text = """<mujoco model="m"><worldbody>
      <body name="b" pos="0 0 1" euler="0 0 90">
        <joint name="x" type="slide" axis="1 0 0" range="-0.5 0.5"/>
        <joint name="rz" type="hinge" axis="0 0 1" range="-90 90"/>
        <joint name="sph" type="ball"/>
        <geom type="box" size="0.1 0.2 0.3" mass="6"/>
      </body></worldbody></mujoco>"""
    plant, _, mi = load(text)
    x, rz, sph = (plant.get_joint_by_name(n, mi) for n in ("x", "rz", "sph"))
    assert isinstance(x, PrismaticJoint) and isinstance(sph, BallQuaternionJoint)
    assert rz.position_upper_limits()[0] == pytest.approx(math.pi / 2)  # degrees by default
    assert x.child_body().name() == "b0" and rz.child_body().name() == "b1"
    assert sph.child_body().name() == "b" and x.child_body().default_mass() == 0.0
    body = plant.get_body_by_name("b", mi)
    np.testing.assert_allclose(body.default_rotational_inertia_matrix(),
                               6 / 12 * np.diag([0.4**2 + 0.6**2, 0.2**2 + 0.6**2,
                                                 0.2**2 + 0.4**2]), rtol=1e-14)
    plant.finalize()
    ctx = plant.create_default_context()
    X = plant.eval_body_pose_in_world(ctx, body).get_as_matrix4()
    np.testing.assert_allclose(X[:3, 3], [0, 0, 1], atol=1e-15)
    np.testing.assert_allclose(X[:3, :3], [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15)


def test_contype_and_group_select_the_geometry_roles():
    text = """<mujoco model="m"><worldbody><body name="b"><freejoint/>
      <geom name="look" contype="0" conaffinity="0" size="0.1"/>
      <geom name="touch" group="3" size="0.1" friction="0.7 0 0"/>
      </body></worldbody></mujoco>"""
    _, parser, _ = load(text)
    roles = {(g.name, g.role) for g in parser.geometries()}
    assert roles == {("look", "visual"), ("touch", "collision")}
    touch = next(g for g in parser.geometries() if g.name == "touch")
    assert touch.proximity[("material", "coulomb_friction")] == (0.7, 0.7)


def test_mesh_geom_resolves_through_meshdir():
    text = f"""<mujoco model="m"><compiler meshdir="{STL}/collision"/>
      <asset><mesh file="link0.stl" scale="2 2 2"/></asset>
      <worldbody><body name="b"><freejoint/>
        <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
        <geom type="mesh" mesh="link0"/></body></worldbody></mujoco>"""
    _, parser, _ = load(text)
    mesh = next(g for g in parser.geometries() if g.role == "collision")
    assert mesh.shape == "Mesh" and mesh.mesh_path() == str(STL / "collision" / "link0.stl")
    np.testing.assert_allclose(mesh.params["scale"], [2, 2, 2])


@pytest.mark.skipif(importlib.util.find_spec("trimesh") is not None,
                    reason="trimesh is installed, so mesh inertia can be computed")
def test_mesh_inertia_without_trimesh_is_a_named_error():
    text = f"""<mujoco model="m"><compiler meshdir="{STL}/collision"/>
      <asset><mesh file="link0.stl"/></asset>
      <worldbody><body name="b"><freejoint/>
        <geom type="mesh" mesh="link0"/></body></worldbody></mujoco>"""
    with pytest.raises(ParseError, match="needs the optional 'trimesh' package") as err:
        load(text)
    assert err.value.line == 4


def test_mjcf_double_pendulum_matches_the_urdf_equivalent():
    mjcf = """<mujoco model="dp"><compiler angle="radian"/><worldbody>
      <body name="l1" pos="0 0 0"><joint name="j1" axis="0 1 0" damping="0.1"/>
        <inertial pos="0 0 -0.5" mass="1.5" diaginertia="0.2 0.22 0.05"/>
        <body name="l2" pos="0 0.1 -1" euler="0.3 0 0">
          <joint name="j2" axis="1 0 0" pos="0 0 0.05"/>
          <inertial pos="0 0 -0.4" quat="0.9 0.1 0.2 0.3" mass="0.8"
                    diaginertia="0.1 0.12 0.02"/>
        </body></body></worldbody></mujoco>"""
    plant_a, _, _ = load(mjcf)
    plant_a.finalize()
    # The same model built from the parsed inertias but with URDF frame conventions.
    l2 = plant_a.get_body_by_name("l2")
    M2 = l2.default_spatial_inertia()
    c2 = M2.get_com()
    I2 = M2.calc_rotational_inertia().copy_to_full_matrix3() - 0.8 * (c2 @ c2 * np.eye(3) -
                                                                     np.outer(c2, c2))
    # The URDF joint frame of l2 is MJCF's joint position (0, 0, 0.05) in l2.
    c, s = math.cos(0.3), math.sin(0.3)
    p_J = np.array([0, 0.1, -1]) + np.array([0, -s * 0.05, c * 0.05])
    urdf = f"""<robot name="dp"><link name="world"/>
      <link name="l1"><inertial><origin xyz="0 0 -0.5"/><mass value="1.5"/>
        <inertia ixx="0.2" iyy="0.22" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial></link>
      <link name="l2"><inertial><origin xyz="{c2[0]} {c2[1]} {c2[2] - 0.05}"/>
        <mass value="0.8"/><inertia ixx="{I2[0, 0]:.17g}" iyy="{I2[1, 1]:.17g}" izz="{I2[2, 2]:.17g}"
        ixy="{I2[0, 1]:.17g}" ixz="{I2[0, 2]:.17g}" iyz="{I2[1, 2]:.17g}"/></inertial></link>
      <joint name="j1" type="continuous"><parent link="world"/><child link="l1"/>
        <axis xyz="0 1 0"/></joint>
      <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>
        <origin xyz="{p_J[0]:.17g} {p_J[1]:.17g} {p_J[2]:.17g}" rpy="0.3 0 0"/>
        <axis xyz="1 0 0"/></joint></robot>"""
    plant_b = MultibodyPlant(0.0)
    Parser(plant_b).add_models_from_string(urdf, "urdf")
    plant_b.finalize()
    rng = np.random.default_rng(11)
    ca, cb = plant_a.create_default_context(), plant_b.create_default_context()
    for _ in range(3):
        q, v = rng.normal(size=2), rng.normal(size=2)
        for p, c in ((plant_a, ca), (plant_b, cb)):
            p.set_positions(c, q)
            p.set_velocities(c, v)
        np.testing.assert_allclose(plant_a.calc_mass_matrix(ca), plant_b.calc_mass_matrix(cb),
                                   atol=1e-13)
        np.testing.assert_allclose(plant_a.calc_bias_term(ca), plant_b.calc_bias_term(cb),
                                   atol=1e-13)
        np.testing.assert_allclose(plant_a.calc_gravity_generalized_forces(ca),
                                   plant_b.calc_gravity_generalized_forces(cb), atol=1e-13)


@pytest.mark.skipif(importlib.util.find_spec("trimesh") is None,
                    reason="the optional trimesh package is not installed")
def test_mesh_inertia_with_trimesh_equals_the_solid_box(tmp_path):
    import trimesh

    trimesh.creation.box(extents=[0.2, 0.4, 0.6]).export(tmp_path / "box.stl")
    text = f"""<mujoco model="m"><compiler meshdir="{tmp_path}"/>
      <asset><mesh name="crate" file="box.stl"/></asset>
      <worldbody><body name="b"><freejoint/><geom type="mesh" mesh="crate" pos="0 0 1"/>
      </body></worldbody></mujoco>"""
    plant, _, mi = load(text)
    body = plant.get_body_by_name("b", mi)
    mass = 1000 * 0.2 * 0.4 * 0.6  # (STL stores float32 vertices: 1e-6 relative)
    assert body.default_mass() == pytest.approx(mass, rel=1e-6)
    np.testing.assert_allclose(body.default_com(), [0, 0, 1], atol=1e-6)
    I_cm = mass / 12 * np.diag([0.4**2 + 0.6**2, 0.2**2 + 0.6**2, 0.2**2 + 0.4**2])
    I_o = I_cm + mass * np.diag([1.0, 1.0, 0.0])
    np.testing.assert_allclose(body.default_rotational_inertia_matrix(), I_o, rtol=1e-6,
                               atol=1e-6)
