"""The compiled position update of the discrete step equals its numpy definition."""

import numpy as np

from merganser.multibody.kernels.position_update import next_state
from merganser.multibody.kernels import TreeDynamics
from merganser.multibody.kernels.layout import pack_model
from merganser.multibody.tree.compiled_model import JointType
from merganser.multibody.tree.random_tree import random_state, random_tree


def quaternion_starts(model):
    return np.array([model.q_start[k] for k in range(model.nb)
                     if model.jtype[k] == JointType.QUATERNION_FLOATING], dtype=np.int64)


def test_next_state_matches_semi_implicit_euler_with_renormalized_quaternions():
    joint_types = [JointType.REVOLUTE, JointType.PRISMATIC, JointType.QUATERNION_FLOATING,
                   JointType.SCREW, JointType.WELD]
    model = random_tree(7, seed=3, floating_base=True, joint_types=joint_types)
    dyn = TreeDynamics(model)
    ip = pack_model(model)[0]
    starts = quaternion_starts(model)
    assert starts.size >= 2                       # floating base plus a floating child
    h = 1e-3
    for seed in range(3):
        q, v = random_state(model, seed=seed)
        v_next = v + 0.1
        x_next = np.zeros(model.nq + model.nv)
        status = next_state(ip, q, v_next, h, False, starts, np.zeros(model.nq), x_next)
        assert status == 0
        expected_q = q + h * dyn.map_velocity_to_qdot(q, v_next)
        for s in starts:
            expected_q[s:s + 4] /= np.linalg.norm(expected_q[s:s + 4])
        np.testing.assert_allclose(x_next[:model.nq], expected_q, rtol=0, atol=1e-15)
        np.testing.assert_array_equal(x_next[model.nq:], v_next)
        for s in starts:
            assert abs(np.linalg.norm(x_next[s:s + 4]) - 1.0) < 1e-15


def test_next_state_identity_map_for_velocity_equal_to_qdot():
    model = random_tree(4, seed=1, joint_types=[JointType.REVOLUTE, JointType.PRISMATIC])
    ip = pack_model(model)[0]
    q, v = random_state(model, seed=2)
    x_next = np.zeros(model.nq + model.nv)
    assert next_state(ip, q, v, 0.01, True, np.zeros(0, np.int64), np.zeros(model.nq), x_next) == 0
    np.testing.assert_array_equal(x_next, np.concatenate([q + 0.01 * v, v]))
