"""MJCF semantics that change the dynamics, one small file per case (issue 14).

Reference values are analytic, or MuJoCo 4.0's where its algorithm is not a closed form
(the 'legacy' mesh inertia); `benchmarks/check_mjcf_vs_mujoco.py` compares these files
and public models with MuJoCo itself.
"""

import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import BallQuaternionJoint, BallRpyJoint, RevoluteJoint
from merganser.multibody.math import SpatialInertia

DATA = Path(__file__).resolve().parents[2] / "data" / "parsing" / "mjcf"


def load(name, plant=None, record=None):
    plant = plant if plant is not None else MultibodyPlant(0.0)
    parser = Parser(plant)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ParseWarning)
        instances = parser.add_models(DATA / name)
    if record is not None:
        record.extend(str(w.message) for w in caught if issubclass(w.category, ParseWarning))
    return plant, instances


def central_inertia(body):
    M = body.default_spatial_inertia().shift(body.default_com())
    return np.asarray(M.calc_rotational_inertia().copy_to_full_matrix3())


def test_every_joint_of_a_body_acts_about_the_body_frame():
    plant, _ = load("two_hinges_one_body.xml")
    plant.finalize()
    ctx = plant.create_default_context()
    b = plant.get_body_by_name("b")
    for q in ([0.7, 0.0], [0.0, 0.4], [0.7, -0.4]):
        plant.set_positions(ctx, q)
        X = plant.eval_body_pose_in_world(ctx, b)
        Rz = np.array([[math.cos(q[0]), -math.sin(q[0]), 0], [math.sin(q[0]), math.cos(q[0]), 0],
                       [0, 0, 1]])
        Ry = np.array([[math.cos(q[1]), 0, math.sin(q[1])], [0, 1, 0],
                       [-math.sin(q[1]), 0, math.cos(q[1])]])
        # yaw about the body's origin (1, 0, 0); pitch about (0, 0, 0.5) in the yawed body.
        anchor = np.array([0.0, 0.0, 0.5])
        p = np.array([1.0, 0, 0]) + Rz @ (anchor - Ry @ anchor)
        np.testing.assert_allclose(X.translation(), p, atol=1e-14)
        np.testing.assert_allclose(X.rotation().matrix(), Rz @ Ry, atol=1e-14)


@pytest.mark.parametrize("mode, mass", [
    ("exact", 2000 * 7000e-9),           # the L's volume: 700 mm² x 10 mm
    ("convex", 2000 * 11500e-9),         # its convex hull adds a 450 mm² triangle
    ("shell", 2000 * 3000e-6),           # area: 2 x 700 + perimeter 160 x 10 (mm²)
    ("legacy", 0.017311627906976747),    # MuJoCo 4.0: over-counted pyramid volumes
])
def test_mesh_inertia_follows_the_mesh_inertia_setting(mode, mass):
    plant, _ = load(f"mesh_inertia_{mode}.xml")
    body = plant.get_body_by_name("b")
    assert body.default_mass() == pytest.approx(mass, rel=1e-12)


def test_exact_mesh_inertia_is_the_solid_l():
    plant, _ = load("mesh_inertia_exact.xml")
    body = plant.get_body_by_name("b")
    # Two boxes (mm): 40x10x10 at (20, 5, 5) and 10x30x10 at (5, 25, 5), density 2000.
    boxes = [(np.array([40e-3, 10e-3, 10e-3]), np.array([20e-3, 5e-3, 5e-3])),
             (np.array([10e-3, 30e-3, 10e-3]), np.array([5e-3, 25e-3, 5e-3]))]
    M = SpatialInertia.zero()
    for size, center in boxes:
        m = 2000 * np.prod(size)
        I = m / 12 * np.diag([size[1] ** 2 + size[2] ** 2, size[0] ** 2 + size[2] ** 2,
                              size[0] ** 2 + size[1] ** 2])
        M = M + SpatialInertia.make_from_central_inertia(m, center, I)
    np.testing.assert_allclose(body.default_com(), M.get_com(), atol=1e-15)
    Mc = M.shift(M.get_com())
    np.testing.assert_allclose(central_inertia(body),
                               Mc.calc_rotational_inertia().copy_to_full_matrix3(), atol=1e-15)


def test_mesh_scale_from_a_default_class():
    plant, _ = load("mesh_scale_default_class.xml")
    assert plant.get_body_by_name("b").default_mass() == pytest.approx(0.014, rel=1e-12)


def test_an_elements_orientation_replaces_its_default_classes():
    plant, _ = load("orientation_default_replaced.xml")
    m = 1000 * 0.2 * 0.4 * 0.6
    a, b, c = 0.2, 0.4, 0.6
    box = m / 12 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])
    np.testing.assert_allclose(np.diag(central_inertia(plant.get_body_by_name("quat_wins"))),
                               box, rtol=1e-12)
    # euler 90 about x swaps y and z; the nearer class's axisangle 90 about z swaps x and y.
    np.testing.assert_allclose(np.diag(central_inertia(plant.get_body_by_name("default_euler"))),
                               box[[0, 2, 1]], rtol=1e-12)
    np.testing.assert_allclose(np.diag(central_inertia(plant.get_body_by_name("nearer_class"))),
                               box[[1, 0, 2]], rtol=1e-12)


def test_ball_joint_is_a_quaternion_ball_joint():
    plant, _ = load("ball_joint.xml")
    joint = plant.get_joint_by_name("socket")
    assert isinstance(joint, BallQuaternionJoint)
    assert (joint.num_positions(), joint.num_velocities()) == (4, 3)
    np.testing.assert_array_equal(joint.get_default_quaternion(), [1, 0, 0, 0])
    assert joint.damping() == 0.1


def _ball_plant(joint_class):
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", SpatialInertia.make_from_central_inertia(
        2.0, [0.1, 0.2, -0.5], np.diag([0.1, 0.2, 0.3])))
    plant.add_joint(joint_class("j", plant.world_frame(), body.body_frame(), 0.0))
    plant.finalize()
    return plant, body


def test_ball_quaternion_joint_matches_ball_rpy_at_the_same_state():
    pq, bq = _ball_plant(BallQuaternionJoint)
    pr, br = _ball_plant(BallRpyJoint)
    cq, cr = pq.create_default_context(), pr.create_default_context()
    r, p, y = 0.3, -0.4, 0.7
    # quaternion of Rz(y) Ry(p) Rx(r)
    cr_, sr = math.cos(r / 2), math.sin(r / 2)
    cp, sp = math.cos(p / 2), math.sin(p / 2)
    cy, sy = math.cos(y / 2), math.sin(y / 2)
    quat = [cr_ * cp * cy + sr * sp * sy, sr * cp * cy - cr_ * sp * sy,
            cr_ * sp * cy + sr * cp * sy, cr_ * cp * sy - sr * sp * cy]
    w = np.array([0.5, -1.0, 2.0])
    pq.set_positions(cq, quat)
    pq.set_velocities(cq, w)
    pr.set_positions(cr, [r, p, y])
    pr.set_velocities(cr, w)
    np.testing.assert_allclose(pq.eval_body_pose_in_world(cq, bq).rotation().matrix(),
                               pr.eval_body_pose_in_world(cr, br).rotation().matrix(), atol=1e-15)
    np.testing.assert_allclose(pq.calc_mass_matrix(cq), pr.calc_mass_matrix(cr), atol=1e-14)
    np.testing.assert_allclose(pq.calc_bias_term(cq), pr.calc_bias_term(cr), atol=1e-14)
    np.testing.assert_allclose(pq.calc_gravity_generalized_forces(cq),
                               pr.calc_gravity_generalized_forces(cr), atol=1e-13)
    # q̇ = ½ [0; w] ⊗ q, and N⁺ inverts it.
    qw, qx, qy, qz = quat
    wq = np.array([0.0, *w])
    qdot = 0.5 * np.array([wq[0] * qw - wq[1] * qx - wq[2] * qy - wq[3] * qz,
                           wq[0] * qx + wq[1] * qw + wq[2] * qz - wq[3] * qy,
                           wq[0] * qy - wq[1] * qz + wq[2] * qw + wq[3] * qx,
                           wq[0] * qz + wq[1] * qy - wq[2] * qx + wq[3] * qw])
    np.testing.assert_allclose(pq.map_velocity_to_qdot(cq, w), qdot, atol=1e-15)
    np.testing.assert_allclose(pq.map_qdot_to_velocity(cq, qdot), w, atol=1e-15)


def test_ball_quaternion_pendulum_conserves_energy_and_its_unit_quaternion():
    from merganser.framework import Simulator

    plant, body = _ball_plant(BallQuaternionJoint)
    sim = Simulator(plant)
    ctx = sim.get_mutable_context()
    plant.set_positions(ctx, [math.cos(0.4), math.sin(0.4), 0.0, 0.0])
    plant.set_velocities(ctx, [0.0, 0.3, 1.0])
    e0 = plant.calc_kinetic_energy(ctx) + plant.calc_potential_energy(ctx)
    sim.get_mutable_integrator().set_target_accuracy(1e-10)
    sim.advance_to(1.0)
    e1 = plant.calc_kinetic_energy(ctx) + plant.calc_potential_energy(ctx)
    assert e1 == pytest.approx(e0, rel=1e-6)
    assert np.linalg.norm(plant.get_positions(ctx)) == pytest.approx(1.0, abs=1e-6)


def test_include_adds_the_included_elements_and_names_their_file():
    messages = []
    plant, _ = load("include_main.xml", record=messages)
    base = plant.get_body_by_name("base")
    r, L = 0.05, 0.5
    assert base.default_mass() == pytest.approx(500 * (math.pi * r * r * L
                                                       + 4 / 3 * math.pi * r ** 3))
    assert plant.get_joint_actuator_by_name("m0").joint().name() == "j0"
    assert any("include_part.xml:5:" in m and "'group'" in m for m in messages)


def test_an_include_cycle_is_a_parse_error_naming_the_chain():
    with pytest.raises(ParseError, match=r"include_self\.xml -> .*include_cycle\.xml -> "
                                         r".*include_self\.xml") as err:
        load("include_self.xml")
    assert isinstance(err.value, RuntimeError)


def test_attach_copies_a_body_subtree_with_prefixed_names():
    plant, [mi] = load("attach_two_arms.xml")
    for side in ("left_", "right_"):
        shoulder = plant.get_joint_by_name(side + "shoulder", mi)
        assert isinstance(shoulder, RevoluteJoint)
        assert shoulder.damping() == 0.05          # the attached model's default class
        assert plant.get_joint_actuator_by_name(side + "shoulder_motor", mi).joint() is shoulder
        assert plant.get_body_by_name(side + "lower", mi).default_mass() == 2.0
    assert not plant.has_body_named("left_ball", mi)  # not in the attached subtree
    plant.finalize()
    ctx = plant.create_default_context()
    for side, y in (("left_", 1.0), ("right_", 0.0)):          # <frame pos="0 1 0"> + body pos
        X = plant.eval_body_pose_in_world(ctx, plant.get_body_by_name(side + "upper", mi))
        np.testing.assert_allclose(X.translation(), [0, y, 1])


def test_replicate_makes_suffixed_copies_at_accumulated_poses():
    plant, [mi] = load("replicate_row.xml")
    for i in range(3):
        assert plant.get_joint_actuator_by_name(f"push-{i}", mi).joint().name() == f"slider-{i}"
    plant.finalize()
    assert plant.num_velocities() == 3
    ctx = plant.create_default_context()
    p = [plant.eval_body_pose_in_world(ctx, plant.get_body_by_name(f"box-{i}", mi)).translation()
         for i in range(3)]
    # copy i+1 = copy i moved by offset (1, 0, 0) in copy i's frame, then turned 90° about z
    np.testing.assert_allclose(p, [[0, 0, 0.5], [1, 0, 0.5], [1, 1, 0.5]], atol=1e-14)


def test_equalities_become_constraints_on_a_sap_plant():
    messages = []
    plant, [mi] = load("equality_constraints.xml", plant=MultibodyPlant(0.001), record=messages)
    specs = plant.get_constraint_specs()
    kinds = [type(s).__name__ for s in specs]
    assert kinds == ["BallConstraintSpec", "WeldConstraintSpec", "CouplerConstraintSpec",
                     "CouplerConstraintSpec"]
    ball, weld, joint, tendon = specs
    np.testing.assert_allclose(ball.p_AP, [0.5, 0, 0])
    np.testing.assert_allclose(ball.p_BQ, [-0.5, 0, 0])   # the anchor, seen from b
    np.testing.assert_allclose(weld.X_AP[:3, 3], [2, 0, 0])
    # jb - 10° = 0.1 + 2 (ja - 0): the reference angle (degrees) enters the offset.
    assert plant.get_joint(joint.joint0_index).name() == "jb"
    assert (joint.gear_ratio, joint.offset) == pytest.approx((2.0, 0.1 + math.radians(10)))
    # 0.5 jc + 0.25 jd = 0.2  ->  jc = -0.5 jd + 0.4
    assert plant.get_joint(tendon.joint0_index).name() == "jc"
    assert (tendon.gear_ratio, tendon.offset) == pytest.approx((-0.5, 0.4))
    assert any("equality_constraints.xml:30:" in m and "not linear" in m for m in messages)
    assert any("equality_constraints.xml:21:" in m and "stiffness" in m for m in messages)


def test_equalities_are_dropped_with_located_warnings_on_a_continuous_plant():
    messages = []
    plant, _ = load("equality_constraints.xml", record=messages)
    assert plant.get_constraint_specs() == []
    dropped = [m for m in messages if "is dropped: the plant is continuous" in m]
    assert [m.split(":")[1] for m in dropped] == ["27", "28", "29", "30", "31"]


def test_actuators_carry_gear_and_armature_and_name_the_dropped_gain_law():
    messages = []
    plant, [mi] = load("actuators_and_armature.xml", record=messages)
    servo = plant.get_joint_actuator_by_name("servo", mi)
    assert servo.default_gear_ratio() == 2.0 and servo.effort_limit() == 5.0
    assert servo.default_rotor_inertia() == pytest.approx(0.4 / 4)
    assert servo.default_reflected_inertia() == pytest.approx(0.4)
    assert plant.get_joint_actuator_by_name("damper", mi).default_reflected_inertia() == 0.2
    assert plant.get_joint_actuator_by_name("motorlike", mi).default_reflected_inertia() == 0.3
    assert any(":21:" in m and "kp=50" in m for m in messages)
    assert any(":22:" in m and "kv=3" in m for m in messages)
    assert not any("motorlike" in m for m in messages)   # gain 1, no bias: a motor
    assert not any("armature 0.7" in m for m in messages)   # jd keeps it as joint armature
    assert plant.get_joint_by_name("jd", mi).default_armature() == 0.7
    assert plant.get_joint_by_name("ja", mi).default_armature() == 0.0   # servo carries it
    plant.finalize()
    ctx = plant.create_default_context()
    M = plant.calc_mass_matrix(ctx)
    plain, _ = load("actuators_and_armature.xml", record=[])
    for a in plain.get_joint_actuator_indices(mi):
        plain.get_joint_actuator(a).set_default_rotor_inertia(0.0)
    plain.get_joint_by_name("jd", mi).set_default_armature(0.0)
    plain.finalize()
    M0 = plain.calc_mass_matrix(plain.create_default_context())
    np.testing.assert_allclose(M - M0, np.diag([0.4, 0.2, 0.3, 0.7]), atol=1e-14)
