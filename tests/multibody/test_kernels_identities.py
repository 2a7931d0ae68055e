"""Identities between the dynamics kernels on random trees with every joint type.

Each tree (fixed or floating base, seeded) contains all joint types, random joint frames
X_PF / X_MB and random valid inertias; the identities below must hold to round-off.
"""

import numpy as np
import pytest

from merganser.multibody.kernels import TreeDynamics
from merganser.multibody.tree.compiled_model import JointType
from merganser.multibody.tree.random_tree import random_state, random_tree

G = np.array([0.0, 0.0, -9.81])
CASES = [(seed, floating) for floating in (False, True) for seed in range(3)]


def _case(seed, floating):
    model = random_tree(11, seed=seed, floating_base=floating)
    td = TreeDynamics(model)
    q, v = random_state(model, seed + 100)
    rng = np.random.default_rng(seed + 200)
    return model, td, q, v, rng


def _ids(case):
    seed, floating = case
    return f"{'floating' if floating else 'fixed'}-{seed}"


@pytest.fixture(params=CASES, ids=_ids)
def tree(request):
    return _case(*request.param)


def _directional(f, x_plus, x_minus, h):
    return (np.asarray(f(*x_plus), dtype=float).copy()
            - np.asarray(f(*x_minus), dtype=float).copy()) / (2.0 * h)


def test_random_trees_contain_every_joint_type():
    types = set()
    for seed, floating in CASES:
        types |= set(random_tree(11, seed=seed, floating_base=floating).jtype.tolist())
    assert types == {int(t) for t in JointType}


def test_crba_columns_equal_rnea_unit_accelerations_minus_bias(tree):
    model, td, q, v, _ = tree
    I10 = model.default_inertia
    M = td.mass_matrix(q, I10).copy()
    bias = td.inverse_dynamics(q, v, np.zeros(model.nv), I10, G).copy()
    for j in range(model.nv):
        e = np.zeros(model.nv)
        e[j] = 1.0
        col = td.inverse_dynamics(q, v, e, I10, G) - bias
        np.testing.assert_allclose(col, M[:, j], rtol=0, atol=1e-11)


def test_aba_inverts_rnea(tree):
    model, td, q, v, rng = tree
    I10 = model.default_inertia
    vd = rng.normal(size=model.nv)
    tau = td.inverse_dynamics(q, v, vd, I10, G).copy()
    np.testing.assert_allclose(td.forward_dynamics(q, v, tau, I10, G), vd, rtol=0, atol=1e-10)


def test_aba_with_external_forces_inverts_rnea(tree):
    model, td, q, v, rng = tree
    I10 = model.default_inertia
    vd = rng.normal(size=model.nv)
    F = rng.normal(size=(model.nb, 6))
    tau = td.inverse_dynamics(q, v, vd, I10, G, F).copy()
    np.testing.assert_allclose(td.forward_dynamics(q, v, tau, I10, G, F), vd, atol=1e-10)


def test_mass_matrix_is_symmetric_positive_definite(tree):
    model, td, q, _, _ = tree
    M = td.mass_matrix(q, model.default_inertia)
    np.testing.assert_allclose(M, M.T, rtol=0, atol=1e-13)
    assert np.linalg.eigvalsh(M).min() > 1e-4


def test_inverse_dynamics_splits_into_mass_bias_and_gravity(tree):
    model, td, q, v, rng = tree
    I10 = model.default_inertia
    vd = rng.normal(size=model.nv)
    M = td.mass_matrix(q, I10).copy()
    Cv = td.bias_term(q, v, I10).copy()
    tau_g = td.gravity_generalized_forces(q, I10, G).copy()
    np.testing.assert_allclose(td.inverse_dynamics(q, v, vd, I10, G), M @ vd + Cv - tau_g,
                               atol=1e-10)


def test_external_forces_enter_through_body_jacobians(tree):
    model, td, q, v, rng = tree
    I10 = model.default_inertia
    vd = rng.normal(size=model.nv)
    F = rng.normal(size=(model.nb, 6))
    F[0] = 0.0
    expected = td.inverse_dynamics(q, v, vd, I10, G).copy()
    for k in range(1, model.nb):
        expected -= td.jacobian_spatial(q, k, np.zeros(3)).T @ F[k]
    np.testing.assert_allclose(td.inverse_dynamics(q, v, vd, I10, G, F), expected, atol=1e-10)


def test_kinetic_energy_is_half_v_M_v(tree):
    model, td, q, v, _ = tree
    I10 = model.default_inertia
    M = td.mass_matrix(q, I10)
    assert td.kinetic_energy(q, v, I10) == pytest.approx(0.5 * v @ M @ v, rel=1e-12)


def test_power_balance_along_forward_dynamics(tree):
    """d(KE)/dt = v.(tau + tau_g) and d(KE + PE)/dt = v.tau along x' = (N v, ABA)."""
    model, td, q, v, rng = tree
    I10 = model.default_inertia
    tau = rng.normal(size=model.nv)
    vd = td.forward_dynamics(q, v, tau, I10, G).copy()
    qd = td.map_velocity_to_qdot(q, v).copy()
    tau_g = td.gravity_generalized_forces(q, I10, G).copy()
    h = 1e-6
    dke = _directional(lambda a, b: td.kinetic_energy(a, b, I10),
                       (q + h * qd, v + h * vd), (q - h * qd, v - h * vd), h)
    dpe = _directional(lambda a: td.potential_energy(a, I10, G), (q + h * qd,),
                       (q - h * qd,), h)
    assert dke == pytest.approx(v @ (tau + tau_g), rel=1e-6, abs=1e-7)
    assert dke + dpe == pytest.approx(v @ tau, rel=1e-6, abs=1e-7)


def test_spatial_momentum_of_free_system_is_conserved_without_gravity():
    for seed in range(3):
        model, td, q, v, _ = _case(seed, True)
        I10 = model.default_inertia
        zero = np.zeros(3)
        vd = td.forward_dynamics(q, v, np.zeros(model.nv), I10, zero).copy()
        qd = td.map_velocity_to_qdot(q, v).copy()
        h = 1e-6
        dL = _directional(lambda a, b: td.spatial_momentum(a, b, I10, zero),
                          (q + h * qd, v + h * vd), (q - h * qd, v - h * vd), h)
        L = td.spatial_momentum(q, v, I10, zero)
        assert np.abs(dL).max() < 1e-7 * max(1.0, np.abs(L).max())


def test_momentum_rate_equals_applied_spatial_force_under_gravity():
    """Free system, no joint torques: dL/dt about Wo equals the gravity wrench."""
    model, td, q, v, _ = _case(1, True)
    I10 = model.default_inertia
    zero = np.zeros(3)
    vd = td.forward_dynamics(q, v, np.zeros(model.nv), I10, G).copy()
    qd = td.map_velocity_to_qdot(q, v).copy()
    h = 1e-6
    dL = _directional(lambda a, b: td.spatial_momentum(a, b, I10, zero),
                      (q + h * qd, v + h * vd), (q - h * qd, v - h * vd), h)
    mtot = I10[:, 0].sum()
    com = td.center_of_mass(q, I10)
    expected = np.concatenate((np.cross(com, mtot * G), mtot * G))
    np.testing.assert_allclose(dL, expected, rtol=1e-6, atol=1e-6)


def test_linear_momentum_is_total_mass_times_com_velocity(tree):
    model, td, q, v, _ = tree
    I10 = model.default_inertia
    Jcom = td.center_of_mass_jacobian(q, I10).copy()
    L = td.spatial_momentum(q, v, I10, np.zeros(3))
    np.testing.assert_allclose(L[3:], I10[:, 0].sum() * (Jcom @ v), atol=1e-11)


def test_jacobian_times_v_equals_body_spatial_velocity(tree):
    model, td, q, v, rng = tree
    V = td.body_spatial_velocities(q, v).copy()
    X = td.forward_kinematics(q).copy()
    for k in range(1, model.nb):
        np.testing.assert_allclose(td.jacobian_spatial(q, k, np.zeros(3)) @ v, V[k],
                                   atol=1e-11)
        p = rng.normal(size=3)
        w, vo = V[k, :3], V[k, 3:]
        expected = np.concatenate((w, vo + np.cross(w, X[k, :3, :3] @ p)))
        np.testing.assert_allclose(td.jacobian_spatial(q, k, p) @ v, expected, atol=1e-11)


def test_body_velocity_is_time_derivative_of_pose(tree):
    model, td, q, v, _ = tree
    qd = td.map_velocity_to_qdot(q, v).copy()
    V = td.body_spatial_velocities(q, v).copy()
    h = 1e-6
    dX = _directional(td.forward_kinematics, (q + h * qd,), (q - h * qd,), h)
    X = td.forward_kinematics(q)
    for k in range(1, model.nb):
        W = dX[k, :3, :3] @ X[k, :3, :3].T     # [w]x
        np.testing.assert_allclose([W[2, 1], W[0, 2], W[1, 0]], V[k, :3], atol=1e-7)
        np.testing.assert_allclose(dX[k, :3, 3], V[k, 3:], atol=1e-7)


def test_jacobian_wrt_qdot_maps_qdot_to_spatial_velocity(tree):
    model, td, q, v, _ = tree
    qd = td.map_velocity_to_qdot(q, v).copy()
    k = model.nb - 1
    p = np.array([0.1, -0.2, 0.3])
    Jv = td.jacobian_spatial(q, k, p).copy()
    Jq = td.jacobian_spatial(q, k, p, wrt_qdot=True)
    assert Jq.shape == (6, model.nq)
    np.testing.assert_allclose(Jq @ qd, Jv @ v, atol=1e-11)


def test_point_acceleration_is_jacobian_times_vdot_plus_bias(tree):
    """d/dt (J v) = J vd + J̇ v, and at Bo it equals the body spatial acceleration."""
    model, td, q, v, rng = tree
    vd = rng.normal(size=model.nv)
    qd = td.map_velocity_to_qdot(q, v).copy()
    A = td.body_spatial_accelerations(q, v, vd).copy()
    h = 1e-6
    for k in (1, model.nb // 2, model.nb - 1):
        p = rng.normal(size=3)
        J = td.jacobian_spatial(q, k, p).copy()
        bias = td.bias_spatial_acceleration(q, v, k, p).copy()
        dJv = _directional(lambda a, b: td.jacobian_spatial(a, k, p) @ b,
                           (q + h * qd, v + h * vd), (q - h * qd, v - h * vd), h)
        np.testing.assert_allclose(J @ vd + bias, dJv, rtol=1e-6, atol=1e-6)
        J0 = td.jacobian_spatial(q, k, np.zeros(3)).copy()
        np.testing.assert_allclose(J0 @ vd + td.bias_spatial_acceleration(q, v, k, np.zeros(3)),
                                   A[k], atol=1e-10)


def test_center_of_mass_jacobian_is_mass_weighted_point_jacobians(tree):
    model, td, q, v, _ = tree
    I10 = model.default_inertia
    mtot = I10[:, 0].sum()
    expected = np.zeros((3, model.nv))
    for k in range(1, model.nb):
        c = I10[k, 1:4] / I10[k, 0]
        expected += I10[k, 0] * td.jacobian_spatial(q, k, c)[3:]
    np.testing.assert_allclose(td.center_of_mass_jacobian(q, I10), expected / mtot,
                               atol=1e-12)
    qd = td.map_velocity_to_qdot(q, v).copy()
    h = 1e-6
    dcom = _directional(lambda a: td.center_of_mass(a, I10), (q + h * qd,), (q - h * qd,), h)
    np.testing.assert_allclose(td.center_of_mass_jacobian(q, I10) @ v, dcom, atol=1e-8)


def test_velocity_maps_are_consistent(tree):
    model, td, q, v, _ = tree
    qd = td.map_velocity_to_qdot(q, v).copy()
    np.testing.assert_allclose(td.map_qdot_to_velocity(q, qd), v, atol=1e-12)
    N = td.N_matrix(q).copy()
    np.testing.assert_allclose(N @ v, qd, atol=1e-12)
    np.testing.assert_allclose(td.N_plus_matrix(q) @ N, np.eye(model.nv), atol=1e-12)


def test_quaternion_rate_follows_angular_velocity_in_parent_frame():
    """q̇ = N v rotates B with w_FM_F: dR_WB/dt = [R_WF w]x R_WB for the floating base."""
    model, td, q, v, _ = _case(0, True)
    assert model.jtype[1] == JointType.QUATERNION_FLOATING
    qd = td.map_velocity_to_qdot(q, v).copy()
    assert qd[:4] @ q[:4] == pytest.approx(0.0, abs=1e-14)   # tangent to |q| = 1
    h = 1e-6
    dX = _directional(td.forward_kinematics, (q + h * qd,), (q - h * qd,), h)
    X = td.forward_kinematics(q)[1]
    R_WF, p_WF = model.X_PF[1, :3, :3], model.X_PF[1, :3, 3]
    w = R_WF @ v[:3]
    Wx = np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])
    np.testing.assert_allclose(dX[1, :3, :3], Wx @ X[:3, :3], atol=1e-8)
    # p_WB = p_WF + R_WF (p_FM + R_FM p_MB) with p_FM = q[4:7] moving at v_FMo_F = v[3:6]
    r = X[:3, 3] - p_WF - R_WF @ q[4:7]
    np.testing.assert_allclose(dX[1, :3, 3], R_WF @ v[3:6] + np.cross(w, r), atol=1e-8)


def test_kinematics_ignores_quaternion_norm():
    model, td, q, v, _ = _case(2, True)
    X = td.forward_kinematics(q).copy()
    q2 = q.copy()
    q2[:4] *= 3.0
    np.testing.assert_allclose(td.forward_kinematics(q2), X, atol=1e-14)
    np.testing.assert_allclose(td.map_qdot_to_velocity(q2, td.map_velocity_to_qdot(q2, v)), v,
                               atol=1e-12)
