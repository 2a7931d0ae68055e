"""Exact dynamics derivatives against central finite differences and closed forms."""

import numpy as np
import pytest

from merganser.multibody.kernels import DynamicsArgumentError, TreeDynamics
from merganser.multibody.tree.compiled_model import JointType, make_compiled_model
from merganser.multibody.tree.random_tree import random_state, random_tree

G = np.array([0.0, 0.0, -9.81])
H = 1e-6


def _case(seed, floating):
    model = random_tree(8, seed=seed, floating_base=floating)
    td = TreeDynamics(model)
    q, v = random_state(model, seed + 10)
    rng = np.random.default_rng(seed)
    return model, td, q, v, rng.normal(size=model.nv), rng.normal(size=model.nv)


@pytest.fixture(params=[(0, False), (1, False), (0, True), (1, True)],
                ids=["fixed-0", "fixed-1", "floating-0", "floating-1"])
def case(request):
    return _case(*request.param)


def _assert_close(A, B, rel=1e-6):
    assert A.shape == B.shape
    assert np.abs(A - B).max() <= rel * max(1.0, np.abs(B).max())


def _fd_tangent(f, td, q, nv):
    """Central differences of f along q + N(q) e_j h (columns j = 0..nv-1)."""
    N = td.N_matrix(q).copy()
    cols = [(np.array(f(q + H * N[:, j]), dtype=float)
             - np.array(f(q - H * N[:, j]), dtype=float)) / (2 * H) for j in range(nv)]
    return np.stack(cols, axis=1)


def _fd(f, x):
    cols = []
    for j in range(x.size):
        e = np.zeros_like(x)
        e[j] = H
        cols.append((np.array(f(x + e), dtype=float) - np.array(f(x - e), dtype=float))
                    / (2 * H))
    return np.stack(cols, axis=1)


def test_inverse_dynamics_derivatives_match_central_differences(case):
    model, td, q, v, vd, _ = case
    I10 = model.default_inertia
    dq, dv, dvd = td.inverse_dynamics_derivatives(q, v, vd, I10, G)
    assert dq.shape == dv.shape == dvd.shape == (model.nv, model.nv)
    _assert_close(dq, _fd_tangent(lambda x: td.inverse_dynamics(x, v, vd, I10, G).copy(), td,
                                  q, model.nv))
    _assert_close(dv, _fd(lambda x: td.inverse_dynamics(q, x, vd, I10, G).copy(), v))
    np.testing.assert_allclose(dvd, td.mass_matrix(q, I10), atol=1e-14)


def test_inverse_dynamics_derivatives_with_external_forces(case):
    model, td, q, v, vd, _ = case
    I10 = model.default_inertia
    F = np.random.default_rng(5).normal(size=(model.nb, 6))
    dq, dv, _ = td.inverse_dynamics_derivatives(q, v, vd, I10, G, F)
    _assert_close(dq, _fd_tangent(lambda x: td.inverse_dynamics(x, v, vd, I10, G, F).copy(),
                                  td, q, model.nv))


def test_inverse_dynamics_derivatives_in_coordinates(case):
    model, td, q, v, vd, _ = case
    I10 = model.default_inertia
    dq, _, _ = td.inverse_dynamics_derivatives(q, v, vd, I10, G, q_derivative="coordinates")
    assert dq.shape == (model.nv, model.nq)
    _assert_close(dq, _fd(lambda x: td.inverse_dynamics(x, v, vd, I10, G).copy(), q))


def test_forward_dynamics_derivatives_match_central_differences(case):
    model, td, q, v, _, tau = case
    I10 = model.default_inertia
    dq, dv, dtau = td.forward_dynamics_derivatives(q, v, tau, I10, G)
    _assert_close(dq, _fd_tangent(lambda x: td.forward_dynamics(x, v, tau, I10, G).copy(), td,
                                  q, model.nv))
    _assert_close(dv, _fd(lambda x: td.forward_dynamics(q, x, tau, I10, G).copy(), v))
    _assert_close(dtau, _fd(lambda x: td.forward_dynamics(q, v, x, I10, G).copy(), tau))
    np.testing.assert_allclose(dtau @ td.mass_matrix(q, I10), np.eye(model.nv), atol=1e-9)


def test_quaternion_tangent_derivative_is_rotation_in_parent_frame():
    """Column j < 3 of dvdot/dq equals the derivative along q(ε) = exp(ε e_j / 2) ⊗ q."""
    model, td, q, v, _, tau = _case(2, True)
    assert model.jtype[1] == JointType.QUATERNION_FLOATING
    I10 = model.default_inertia
    dq, _, _ = td.forward_dynamics_derivatives(q, v, tau, I10, G)

    def rotated(eps, j):
        half = 0.5 * eps
        e = np.zeros(3)
        e[j] = np.sin(half)
        a0, a = np.cos(half), e
        b0, b = q[0], q[1:4]
        out = q.copy()
        out[0] = a0 * b0 - a @ b
        out[1:4] = a0 * b + b0 * a + np.cross(a, b)
        return out

    for j in range(3):
        fd = (td.forward_dynamics(rotated(H, j), v, tau, I10, G).copy()
              - td.forward_dynamics(rotated(-H, j), v, tau, I10, G).copy()) / (2 * H)
        _assert_close(dq[:, j], fd)


def test_mass_matrix_derivative_closed_form_for_offset_revolute_body():
    """Body origin at distance r from a z axis: M = Izz + 2 r hx + m r^2."""
    r = 0.7
    X_MB = np.eye(4)
    X_MB[0, 3] = r
    model = make_compiled_model([-1, 0], [JointType.WELD, JointType.REVOLUTE],
                                X_MB=np.stack([np.eye(4), X_MB]),
                                axis=[[0, 0, 0], [0, 0, 1]])
    td = TreeDynamics(model)
    I10 = np.array([np.zeros(10), [2.0, 0.2, 0.1, -0.3, 0.5, 0.6, 0.7, 0.01, 0.02, 0.03]])
    q = np.array([0.4])
    expected = {0: r * r, 1: 2 * r, 6: 1.0}
    for p in range(10):
        dM = td.mass_matrix_parameter_derivative(q, I10, 1, p)
        assert dM[0, 0] == pytest.approx(expected.get(p, 0.0), abs=1e-15)
    M = td.mass_matrix(q, I10)[0, 0]
    assert M == pytest.approx(0.7 + 2 * r * 0.2 + 2.0 * r * r, rel=1e-14)


def test_mass_matrix_derivative_with_respect_to_mass_of_free_body():
    """M = [[I_o, [h]x], [[h]x^T, m 1]] for a free body: dM/dm = diag(0, 0, 0, 1, 1, 1)."""
    model = make_compiled_model([-1, 0], [JointType.WELD, JointType.QUATERNION_FLOATING])
    td = TreeDynamics(model)
    q = np.array([0.5, 0.5, -0.5, 0.5, 1.0, 2.0, 3.0])
    dM = td.mass_matrix_parameter_derivative(q, np.zeros((2, 10)), 1, 0)
    np.testing.assert_allclose(dM, np.diag([0, 0, 0, 1.0, 1.0, 1.0]), atol=1e-15)


def test_mass_matrix_is_linear_in_inertial_parameters(case):
    model, td, q, *_ = case
    I10 = model.default_inertia
    M = td.mass_matrix(q, I10).copy()
    total = sum(td.mass_matrix_parameter_derivative(q, I10, k, p) * I10[k, p]
                for k in range(1, model.nb) for p in range(10))
    np.testing.assert_allclose(total, M, atol=1e-12)
    k, p = model.nb - 1, 4
    fd = (td.mass_matrix(q, I10 + _unit(model, k, p, H)).copy()
          - td.mass_matrix(q, I10 - _unit(model, k, p, H)).copy()) / (2 * H)
    _assert_close(td.mass_matrix_parameter_derivative(q, I10, k, p), fd)


def _unit(model, k, p, h):
    E = np.zeros((model.nb, 10))
    E[k, p] = h
    return E


def test_regressor_reproduces_inverse_dynamics(case):
    model, td, q, v, vd, _ = case
    I10 = model.default_inertia
    Y = td.inverse_dynamics_regressor(q, v, vd, G)
    np.testing.assert_allclose(Y.reshape(model.nv, -1) @ I10.ravel(),
                               td.inverse_dynamics(q, v, vd, I10, G), atol=1e-11)


def test_forward_dynamics_parameter_derivatives_match_central_differences(case):
    model, td, q, v, _, tau = case
    I10 = model.default_inertia
    D = td.forward_dynamics_parameter_derivatives(q, v, tau, I10, G)
    assert D.shape == (model.nv, model.nb, 10)
    for k, p in ((1, 0), (model.nb - 1, 2), (model.nb // 2, 8)):
        fd = (td.forward_dynamics(q, v, tau, I10 + _unit(model, k, p, H), G).copy()
              - td.forward_dynamics(q, v, tau, I10 - _unit(model, k, p, H), G).copy()) / (2 * H)
        _assert_close(D[:, k, p], fd)


def test_derivative_arguments_are_checked():
    model, td, q, v, vd, _ = _case(0, False)
    with pytest.raises(DynamicsArgumentError, match="q_derivative is 'euler'"):
        td.inverse_dynamics_derivatives(q, v, vd, model.default_inertia, G,
                                        q_derivative="euler")
    with pytest.raises(DynamicsArgumentError, match="param_index is 10"):
        td.mass_matrix_parameter_derivative(q, model.default_inertia, 1, 10)
