"""merganser.framework's numerical utilities (Drake's drake::math functions)."""

import math

import numpy as np
import pytest

from merganser.framework import (NumericalGradientMethod, NumericalGradientOption,
                                 balance_quadratic_forms, decompose_positive_quadratic_form,
                                 decompose_psd_matrix_into_x_transpose_times_x,
                                 compute_numerical_gradient,
                                 continuous_algebraic_riccati_equation,
                                 discrete_algebraic_riccati_equation,
                                 extract_principal_submatrix, is_positive_definite,
                                 is_symmetric, real_continuous_lyapunov_equation,
                                 real_discrete_lyapunov_equation, soft_over_max, soft_over_min,
                                 soft_under_max, soft_under_min,
                                 to_lower_triangular_columns_from_matrix,
                                 to_symmetric_matrix_from_lower_triangular_columns,
                                 vector_to_skew_symmetric, wrap_to)


def test_wrap_to_values():
    assert wrap_to(7.0, 0.0, 2 * math.pi) == pytest.approx(7.0 - 2 * math.pi, abs=1e-15)
    assert wrap_to(1.5, 0.0, 1.0) == 0.5
    assert wrap_to(-0.25, 0.0, 1.0) == 0.75
    assert wrap_to(1.0, 0.0, 1.0) == 0.0          # half-open: high maps to low
    assert wrap_to(-math.pi, -math.pi, math.pi) == -math.pi
    assert wrap_to(3 * math.pi, -math.pi, math.pi) == pytest.approx(-math.pi)
    with pytest.raises(ValueError, match="wrap_to.*low"):
        wrap_to(0.0, 1.0, 1.0)


def test_soft_min_max_values_and_bounds():
    x = [1.0, 2.0, 3.0]
    d = sum(math.exp(v) for v in x)
    assert soft_over_max(x) == pytest.approx(math.log(d), rel=1e-14)
    assert soft_under_max(x) == pytest.approx(sum(v * math.exp(v) for v in x) / d, rel=1e-14)
    dm = sum(math.exp(-v) for v in x)
    assert soft_under_min(x) == pytest.approx(-math.log(dm), rel=1e-14)
    assert soft_over_min(x) == pytest.approx(sum(v * math.exp(-v) for v in x) / dm, rel=1e-14)
    assert soft_under_max(x) < 3 < soft_over_max(x)
    assert soft_under_min(x) < 1 < soft_over_min(x)
    # alpha scales the sharpness: log(Σ exp(αx))/α -> max as α grows, without overflow.
    assert soft_over_max(x, alpha=1e4) == pytest.approx(3.0, abs=1e-12)
    assert soft_under_min(x, alpha=1e4) == pytest.approx(1.0, abs=1e-12)
    assert soft_over_max([2.0, 2.0], alpha=2.0) == pytest.approx(2.0 + math.log(2) / 2)
    with pytest.raises(ValueError, match="soft_over_max.*alpha"):
        soft_over_max(x, alpha=0.0)


def test_matrix_predicates():
    A = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert not is_symmetric(A) and not is_symmetric(A, 0.5)
    assert is_symmetric(A, 1.0) and is_symmetric(np.eye(3), 0.0)
    assert not is_symmetric(np.ones((2, 3)))
    assert is_positive_definite(A @ A.T)
    assert not is_positive_definite(A, tolerance=0.0)            # not symmetric
    assert not is_positive_definite(np.diag([1.0, -1e-3]))
    assert is_positive_definite(np.diag([1.0, 0.0]))             # tolerance 0: PSD
    assert not is_positive_definite(np.diag([1.0, 0.0]), tolerance=1e-9)


def test_lower_triangular_columns_round_trip_and_submatrix():
    c = np.array([1.0, 2, 3, 4, 5, 6])
    S = to_symmetric_matrix_from_lower_triangular_columns(c)
    np.testing.assert_array_equal(S, [[1, 2, 3], [2, 4, 5], [3, 5, 6]])
    np.testing.assert_array_equal(to_lower_triangular_columns_from_matrix(S), c)
    np.testing.assert_array_equal(extract_principal_submatrix(S, {2, 0}), [[1, 3], [3, 6]])
    with pytest.raises(ValueError, match="lower_triangular_columns"):
        to_symmetric_matrix_from_lower_triangular_columns(np.ones(4))


def test_skew_symmetric_is_cross_product():
    p, v = np.array([1.0, -2.0, 0.5]), np.array([0.3, 4.0, -1.0])
    P = vector_to_skew_symmetric(p)
    np.testing.assert_allclose(P @ v, np.cross(p, v), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(P, -P.T)


def test_continuous_riccati_residual():
    A = np.array([[0.0, 1.0], [2.0, -0.5]])
    B = np.array([[0.0], [1.0]])
    Q, R = np.diag([3.0, 1.0]), np.array([[0.7]])
    X = continuous_algebraic_riccati_equation(A=A, B=B, Q=Q, R=R)
    residual = A.T @ X + X @ A - X @ B @ np.linalg.solve(R, B.T) @ X + Q
    np.testing.assert_allclose(residual, 0, atol=1e-10)
    # Stabilizing: A - B R⁻¹ Bᵀ X is Hurwitz.
    assert np.linalg.eigvals(A - B @ np.linalg.solve(R, B.T) @ X).real.max() < 0
    # Scalar case in closed form: 2aX - X²b²/r + q = 0 -> X = r(a + sqrt(a² + b²q/r))/b².
    a, b, q, r = 0.1, 1.0, 1.0, 1.0
    X1 = continuous_algebraic_riccati_equation([[a]], [[b]], [[q]], [[r]])
    assert X1[0, 0] == pytest.approx(r * (a + math.sqrt(a * a + b * b * q / r)) / b**2)
    with pytest.raises(RuntimeError, match="argument R"):
        continuous_algebraic_riccati_equation(A, B, Q, [[-1.0]])


def test_discrete_riccati_residual():
    A = np.array([[1.0, 1.0], [0.0, 1.0]])
    B = np.array([[0.0], [1.0]])
    Q = np.array([[1.0, 0.0], [0.0, 0.0]])
    X = discrete_algebraic_riccati_equation(A=A, B=B, Q=Q, R=[0.3])
    R = np.array([[0.3]])
    residual = (A.T @ X @ A - X
                - A.T @ X @ B @ np.linalg.solve(B.T @ X @ B + R, B.T @ X @ A) + Q)
    np.testing.assert_allclose(residual, 0, atol=1e-10)
    K = np.linalg.solve(B.T @ X @ B + R, B.T @ X @ A)
    assert np.abs(np.linalg.eigvals(A - B @ K)).max() < 1


def test_lyapunov_residuals():
    A = np.array([[-1.0, 2.0], [0.0, -3.0]])
    Q = np.array([[2.0, 0.5], [0.5, 1.0]])
    X = real_continuous_lyapunov_equation(A=A, Q=Q)
    np.testing.assert_allclose(A.T @ X + X @ A + Q, 0, atol=1e-12)
    Ad = 0.5 * np.array([[0.5, 1.0], [0.0, -0.8]])
    Xd = real_discrete_lyapunov_equation(A=Ad, Q=Q)
    np.testing.assert_allclose(Ad.T @ Xd @ Ad - Xd + Q, 0, atol=1e-12)
    # Scalar continuous case: 2aX + q = 0.
    assert real_continuous_lyapunov_equation([[-2.0]], [[3.0]])[0, 0] == pytest.approx(0.75)


def test_numerical_gradient_methods():
    def f(x):
        return np.array([x[0] ** 2, x[0] * x[1], math.sin(x[1])])

    x = np.array([1.5, -0.4])
    J_exact = np.array([[3.0, 0.0], [-0.4, 1.5], [0.0, math.cos(-0.4)]])
    central = NumericalGradientOption(NumericalGradientMethod.kCentral)
    assert central.perturbation_size() == pytest.approx(1e-5)
    assert "kCentral" in repr(central)
    np.testing.assert_allclose(compute_numerical_gradient(f, x, central), J_exact, atol=1e-9)
    for method in (NumericalGradientMethod.kForward, NumericalGradientMethod.kBackward):
        option = NumericalGradientOption(method, function_accuracy=1e-15)
        assert option.perturbation_size() == pytest.approx(math.sqrt(1e-15))
        np.testing.assert_allclose(compute_numerical_gradient(f, x, option), J_exact,
                                   atol=1e-6)
    # Linear f: every method is exact up to rounding.
    M = np.array([[1.0, 2.0, 3.0], [-4.0, 0.5, 6.0]])
    np.testing.assert_allclose(compute_numerical_gradient(lambda z: M @ z, np.ones(3)), M,
                               atol=1e-9)


def test_psd_decomposition():
    X = decompose_psd_matrix_into_x_transpose_times_x(np.diag([1.0, 2.0, 3.0]), 1e-8)
    np.testing.assert_allclose(X.T @ X, np.diag([1.0, 2.0, 3.0]), atol=1e-14)
    v = np.array([[1.0, 2.0, -1.0]])
    Y = v.T @ v                                   # rank 1
    X1 = decompose_psd_matrix_into_x_transpose_times_x(Y, 1e-10)
    assert X1.shape == (1, 3)
    np.testing.assert_allclose(X1.T @ X1, Y, atol=1e-12)
    not_psd = np.diag([1.0, -1.0])
    assert decompose_psd_matrix_into_x_transpose_times_x(not_psd, 1e-8, True).shape == (0, 2)
    with pytest.raises(RuntimeError, match="positive semidefinite"):
        decompose_psd_matrix_into_x_transpose_times_x(not_psd, 1e-8)


def test_positive_quadratic_form():
    # x² + 2x + 5 = (x + 1)² + 2²: two rows; x² + 2x + 1 = (x + 1)²: one row.
    for c, rows in ((5.0, 2), (1.0, 1)):
        R, d = decompose_positive_quadratic_form([[1.0]], [2.0], c, tol=1e-12)
        assert R.shape == (rows, 1) and d.shape == (rows,)
        for x in (-3.0, 0.0, 0.7):
            assert (R @ [x] + d) @ (R @ [x] + d) == pytest.approx(x * x + 2 * x + c)
    Q, b = np.diag([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 0.0])
    R, d = decompose_positive_quadratic_form(Q, b, 4.0)
    assert R.shape == (4, 3)
    x = np.array([0.3, -0.2, 1.1])
    assert (R @ x + d) @ (R @ x + d) == pytest.approx(x @ Q @ x + b @ x + 4.0)


def test_balance_quadratic_forms():
    np.testing.assert_allclose(balance_quadratic_forms(np.eye(3), np.eye(3)), np.eye(3),
                               atol=1e-14)
    S = np.array([[4.0, 1.0], [1.0, 3.0]])
    P = np.array([[2.0, -0.5], [-0.5, 1.0]])
    T = balance_quadratic_forms(S, P)
    D = T.T @ S @ T
    np.testing.assert_allclose(D, np.diag(np.diag(D)), atol=1e-12)
    np.testing.assert_allclose(T.T @ P @ T, np.diag(1 / np.diag(D)), atol=1e-12)
