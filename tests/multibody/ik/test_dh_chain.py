"""Denavit-Hartenberg chain builder: the plant's forward kinematics equals textbook DH
tables (PUMA 560 reference poses, the planar 3R closed form, the textbook matrices of the
standard and modified conventions with revolute and prismatic rows)."""

import numpy as np
import pytest

from merganser.geometry import RigidTransform, RollPitchYaw
from merganser.multibody.dh_chain import add_dh_chain, dh_transform
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import PrismaticJoint, RevoluteJoint

# PUMA 560, standard DH (P. Corke, Robotics, Vision and Control, table 7.1), m and rad.
PUMA_560 = [[0.0, np.pi / 2, 0.0, 0.0],
            [0.4318, 0.0, 0.0, 0.0],
            [0.0203, -np.pi / 2, 0.15005, 0.0],
            [0.0, np.pi / 2, 0.4318, 0.0],
            [0.0, -np.pi / 2, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0]]


def build(table, **kwargs):
    plant = MultibodyPlant(0.0)
    chain = add_dh_chain(plant, table, **kwargs)
    plant.finalize()
    return plant, chain


def end_pose(plant, chain, q):
    ctx = plant.create_default_context()
    plant.set_positions(ctx, q)
    return plant.calc_relative_transform(ctx, plant.world_frame(),
                                         chain.end_effector_frame).get_as_matrix4()


def standard_matrix(a, alpha, d, theta):
    """Textbook standard DH matrix (Spong, Hutchinson and Vidyasagar, eq. 3.10)."""
    ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct],
                     [st, ct * ca, -ct * sa, a * st],
                     [0.0, sa, ca, d],
                     [0.0, 0.0, 0.0, 1.0]])


def modified_matrix(a, alpha, d, theta):
    """Textbook modified DH matrix (Craig, Introduction to Robotics, eq. 3.6)."""
    ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array([[ct, -st, 0.0, a],
                     [st * ca, ct * ca, -sa, -sa * d],
                     [st * sa, ct * sa, ca, ca * d],
                     [0.0, 0.0, 0.0, 1.0]])


def test_puma_560_reference_poses():
    plant, chain = build(PUMA_560)
    # Corke's p560.fkine(qz) and p560.fkine(qn).
    X_qz = end_pose(plant, chain, np.zeros(6))
    np.testing.assert_allclose(X_qz[:3, 3], [0.4521, -0.15005, 0.4318], atol=1e-4)
    np.testing.assert_allclose(X_qz[:3, :3], np.eye(3), atol=1e-12)
    X_qn = end_pose(plant, chain, [0.0, np.pi / 4, np.pi, 0.0, np.pi / 4, 0.0])
    np.testing.assert_allclose(X_qn[:3, 3], [0.5963, -0.1501, -0.0144], atol=1e-4)
    np.testing.assert_allclose(X_qn[:3, :3], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], atol=1e-12)


def test_puma_560_matches_textbook_matrix_product_at_random_configurations():
    plant, chain = build(PUMA_560)
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = rng.uniform(-np.pi, np.pi, 6)
        expected = np.eye(4)
        for (a, alpha, d, theta), qi in zip(PUMA_560, q):
            expected = expected @ standard_matrix(a, alpha, d, theta + qi)
        np.testing.assert_allclose(end_pose(plant, chain, q), expected, atol=1e-12)


def test_planar_3r_matches_closed_form():
    L = [0.5, 0.4, 0.3]
    plant, chain = build([[a, 0.0, 0.0, 0.0] for a in L])
    q = np.array([0.4, -1.1, 0.7])
    X = end_pose(plant, chain, q)
    c = np.cumsum(q)
    np.testing.assert_allclose(X[:3, 3], [L @ np.cos(c), L @ np.sin(c), 0.0], atol=1e-14)
    np.testing.assert_allclose(X[:3, :3], RollPitchYaw(0, 0, c[-1]).to_rotation_matrix()
                               .matrix(), atol=1e-14)


def test_theta_and_d_offsets_add_to_the_joint_variables():
    table = [[0.3, 0.2, 0.1, 0.5], [0.2, -0.4, 0.05, -0.3]]
    plant, chain = build(table, joint_types=["revolute", "prismatic"])
    q = np.array([0.25, 0.12])
    expected = standard_matrix(0.3, 0.2, 0.1, 0.5 + q[0]) @ standard_matrix(0.2, -0.4,
                                                                           0.05 + q[1], -0.3)
    np.testing.assert_allclose(end_pose(plant, chain, q), expected, atol=1e-14)


@pytest.mark.parametrize("modified", [False, True])
def test_random_tables_with_prismatic_rows_match_textbook_matrices(modified):
    rng = np.random.default_rng(11 + modified)
    table = np.column_stack([rng.uniform(-0.5, 0.5, 5), rng.uniform(-np.pi, np.pi, 5),
                             rng.uniform(-0.5, 0.5, 5), rng.uniform(-np.pi, np.pi, 5)])
    types = ["revolute", "prismatic", "revolute", "prismatic", "revolute"]
    plant, chain = build(table, joint_types=types, modified=modified)
    matrix = modified_matrix if modified else standard_matrix
    for _ in range(3):
        q = rng.uniform(-1.0, 1.0, 5)
        expected = np.eye(4)
        for (a, alpha, d, theta), kind, qi in zip(table, types, q):
            if kind == "revolute":
                expected = expected @ matrix(a, alpha, d, theta + qi)
            else:
                expected = expected @ matrix(a, alpha, d + qi, theta)
        np.testing.assert_allclose(end_pose(plant, chain, q), expected, atol=1e-13)
        # dh_transform is the same matrix.
        np.testing.assert_allclose(dh_transform(*table[0], modified=modified),
                                   matrix(*table[0]), atol=1e-15)


def test_every_dh_frame_is_a_body_frame_at_the_partial_product():
    plant, chain = build(PUMA_560)
    q = np.array([0.1, -0.4, 0.3, 0.9, -0.2, 0.5])
    ctx = plant.create_default_context()
    plant.set_positions(ctx, q)
    expected = np.eye(4)
    for i, (a, alpha, d, theta) in enumerate(PUMA_560, start=1):
        expected = expected @ standard_matrix(a, alpha, d, theta + q[i - 1])
        X = plant.calc_relative_transform(ctx, plant.world_frame(), chain.frames[i])
        np.testing.assert_allclose(X.get_as_matrix4(), expected, atol=1e-13)


def test_base_pose_tool_limits_names_and_actuators():
    X_PB = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [0.1, -0.2, 0.5])
    tool = RigidTransform([0.0, 0.0, 0.1])
    plant, chain = build([[0.4, 0.0, 0.0, 0.0], [0.3, 0.0, 0.0, 0.0]],
                         joint_types=["revolute", "prismatic"], X_PB=X_PB,
                         tool_transform=tool, position_limits=[(-1.0, 1.0), None],
                         name_prefix="arm_")
    assert [b.name() for b in chain.bodies] == ["arm_link1", "arm_link2"]
    assert isinstance(chain.joints[0], RevoluteJoint)
    assert isinstance(chain.joints[1], PrismaticJoint)
    assert chain.end_effector_frame.name() == "arm_tool"
    np.testing.assert_array_equal(plant.get_position_lower_limits(), [-1.0, -np.inf])
    np.testing.assert_array_equal(plant.get_position_upper_limits(), [1.0, np.inf])
    assert plant.num_actuators() == 2
    q = np.array([0.3, 0.05])
    expected = (X_PB.get_as_matrix4() @ standard_matrix(0.4, 0, 0, q[0])
                @ standard_matrix(0.3, 0, q[1], 0) @ tool.get_as_matrix4())
    np.testing.assert_allclose(end_pose(plant, chain, q), expected, atol=1e-14)


def test_bad_tables_and_joint_types_raise():
    plant = MultibodyPlant(0.0)
    with pytest.raises(ValueError, match=r"add_dh_chain: dh_table must have shape \(n, 4\)"):
        add_dh_chain(plant, [[0.1, 0.0, 0.0]])
    with pytest.raises(ValueError, match="add_dh_chain: joint_types\\[1\\] must be one of"):
        add_dh_chain(plant, PUMA_560[:2], joint_types=["revolute", "spherical"])
    with pytest.raises(ValueError, match="position_limits has 1 entries, expected one per"):
        add_dh_chain(plant, PUMA_560[:2], position_limits=[(-1, 1)])
    with pytest.raises(ValueError, match="dh_table must be finite"):
        add_dh_chain(plant, [[np.nan, 0, 0, 0]])
