"""The two-link arm of the mechatronics lecture notes, three ways: Lagrange's and Kane's
equations derived symbolically with sympy, and a Newton-Euler recursion in plain numpy,
against the plant's M(q), C(q, v) v and gravity forces at random states.

Both joints are revolute about x, the links lie along z (L1 = L2 = 1, centers of mass at
L/2, masses 1), and each link's rotational inertia about its center of mass is
[[1, .001, .002], [.001, .01, .003], [.002, .003, .01]], which violates the triangle
inequality (1 > 0.01 + 0.01): the plant accepts it with an InertiaValidityWarning naming
the body, and a plant with strict inertia validation refuses it.
"""

import numpy as np
import pytest
import sympy as sp

from merganser.geometry import RigidTransform
from merganser.multibody.math import InertiaValidityWarning, SpatialInertia
from merganser.multibody.plant import MultibodyForces, MultibodyPlant
from merganser.multibody.tree import FixedOffsetFrame, RevoluteJoint

L1 = L2 = 1.0
MASS = 1.0
GRAVITY = 9.81
I_CM = np.array([[1.0, 0.001, 0.002], [0.001, 0.01, 0.003], [0.002, 0.003, 0.01]])


def link_inertia():
    return SpatialInertia.make_from_central_inertia(MASS, [0.0, 0.0, L1 / 2], I_CM)


def two_link_plant(strict_inertia=False):
    plant = MultibodyPlant(0.0, strict_inertia=strict_inertia)
    link1 = plant.add_rigid_body("link1", link_inertia())
    link2 = plant.add_rigid_body("link2", link_inertia())
    plant.add_joint(RevoluteJoint("joint1", plant.world_frame(), link1.body_frame(), [1, 0, 0]))
    elbow = plant.add_frame(FixedOffsetFrame("elbow", link1.body_frame(),
                                             RigidTransform([0.0, 0.0, L1])))
    plant.add_joint(RevoluteJoint("joint2", elbow, link2.body_frame(), [1, 0, 0]))
    plant.finalize()
    return plant


@pytest.fixture(scope="module")
def plant():
    with pytest.warns(InertiaValidityWarning):
        return two_link_plant()


def test_plant_warns_about_the_triangle_inequality_naming_the_body():
    plant = MultibodyPlant(0.0)
    with pytest.warns(InertiaValidityWarning, match=r"'link1'.*triangle inequality"):
        plant.add_rigid_body("link1", SpatialInertia(MASS, [0, 0, 0.5], _unit_inertia(),
                                                     skip_validity_check=True))


def test_strict_plant_refuses_the_inertia():
    plant = MultibodyPlant(0.0, strict_inertia=True)
    with pytest.raises(ValueError, match=r"'link1' is not physically valid.*triangle inequality"):
        plant.add_rigid_body("link1", SpatialInertia(MASS, [0, 0, 0.5], _unit_inertia(),
                                                     skip_validity_check=True))


def _unit_inertia():
    c = np.array([0.0, 0.0, L1 / 2])
    return I_CM / MASS + (c @ c) * np.eye(3) - np.outer(c, c)


# ------------------------------------------------------------------ symbolic derivations
def _rot_x(angle):
    c, s = sp.cos(angle), sp.sin(angle)
    return sp.Matrix([[1, 0, 0], [0, c, -s], [0, s, c]])


def _kinematics():
    """Symbols and the world-frame kinematics of both links."""
    q = sp.Matrix(sp.symbols("q1 q2"))
    u = sp.Matrix(sp.symbols("u1 u2"))          # generalized speeds u = q̇
    ud = sp.Matrix(sp.symbols("ud1 ud2"))
    R1, R2 = _rot_x(q[0]), _rot_x(q[0] + q[1])
    ez = sp.Matrix([0, 0, 1])
    p_c1 = R1 * ez * (L1 / 2)
    p_c2 = R1 * ez * L1 + R2 * ez * (L2 / 2)
    w1 = sp.Matrix([u[0], 0, 0])
    w2 = sp.Matrix([u[0] + u[1], 0, 0])
    I = sp.Matrix(I_CM)
    links = [(p_c1, w1, R1 * I * R1.T), (p_c2, w2, R2 * I * R2.T)]
    return q, u, ud, links


def _time_derivative(expr, q, u, ud):
    """d/dt of an expression in q and u, with q̇ = u and u̇ = ud."""
    return expr.jacobian(q) * u + expr.jacobian(u) * ud


def _lambdify(q, u, exprs):
    return sp.lambdify([list(q), list(u)], exprs, "numpy")


@pytest.fixture(scope="module")
def lagrange():
    """M, C v and tau_g from T and V: d/dt ∂T/∂q̇ - ∂T/∂q + ∂V/∂q = τ."""
    q, u, _, links = _kinematics()
    T = sp.Integer(0)
    V = sp.Integer(0)
    for p_c, w, I_W in links:
        v_c = p_c.jacobian(q) * u
        T += sp.Rational(1, 2) * MASS * (v_c.T * v_c)[0] + sp.Rational(1, 2) * (w.T * I_W * w)[0]
        V += MASS * GRAVITY * p_c[2]
    M = sp.hessian(T, u)
    Mdot = sum((M.diff(q[k]) * u[k] for k in range(2)), sp.zeros(2, 2))
    Cv = Mdot * u - sp.Matrix([T]).jacobian(q).T
    tau_g = -sp.Matrix([V]).jacobian(q).T
    return _lambdify(q, u, [M, Cv, tau_g])


@pytest.fixture(scope="module")
def kane():
    """Kane: F_r + F*_r = 0 with the partial velocities of u, so that
    τ = -F* - F = M u̇ + C v - τ_g."""
    q, u, ud, links = _kinematics()
    g = sp.Matrix([0, 0, -GRAVITY])
    F_star = sp.zeros(2, 1)
    F_active = sp.zeros(2, 1)
    for p_c, w, I_W in links:
        v_c = p_c.jacobian(q) * u
        a_c = _time_derivative(v_c, q, u, ud)
        alpha = _time_derivative(w, q, u, ud)
        torque_star = -(I_W * alpha + w.cross(I_W * w))
        for r in range(2):
            v_r, w_r = v_c.diff(u[r]), w.diff(u[r])
            F_star[r] += (-MASS * a_c).dot(v_r) + torque_star.dot(w_r)
            F_active[r] += (MASS * g).dot(v_r)
    inertial = -F_star
    M = inertial.jacobian(ud)
    Cv = inertial.subs({ud[0]: 0, ud[1]: 0})
    return _lambdify(q, u, [M, sp.simplify(Cv), F_active])


def newton_euler(q, v, vdot):
    """τ = M vdot + C v - τ_g by the recursive Newton-Euler algorithm in world coordinates
    (forward: velocities and accelerations; backward: forces and moments about the
    joints; τ_i = x̂ · n_i)."""
    x_hat = np.array([1.0, 0.0, 0.0])      # both axes stay along world x
    ez = np.array([0.0, 0.0, 1.0])
    g = np.array([0.0, 0.0, -GRAVITY])

    def rot_x(a):
        c, s = np.cos(a), np.sin(a)
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])

    R = [rot_x(q[0]), rot_x(q[0] + q[1])]
    w = alpha = np.zeros(3)
    a_joint = np.zeros(3)
    r_next = [R[0] @ ez * L1, None]            # joint i origin -> joint i+1 origin
    frames = []
    for i in range(2):
        w_parent = w
        w = w_parent + v[i] * x_hat
        alpha = alpha + vdot[i] * x_hat + np.cross(w_parent, v[i] * x_hat)
        r_c = R[i] @ ez * (L1 / 2)
        a_c = a_joint + np.cross(alpha, r_c) + np.cross(w, np.cross(w, r_c))
        frames.append((w, alpha, r_c, a_c, R[i] @ I_CM @ R[i].T))
        if r_next[i] is not None:
            a_joint = a_joint + np.cross(alpha, r_next[i]) + np.cross(w, np.cross(w, r_next[i]))
    f_next = n_next = np.zeros(3)
    tau = np.zeros(2)
    for i in (1, 0):
        w, alpha, r_c, a_c, I_W = frames[i]
        f = MASS * (a_c - g) + f_next
        n = (I_W @ alpha + np.cross(w, I_W @ w) + np.cross(r_c, MASS * (a_c - g)) + n_next
             + (np.cross(r_next[i], f_next) if r_next[i] is not None else 0.0))
        tau[i] = x_hat @ n
        f_next, n_next = f, n
    return tau


def random_states(n=5, seed=7):
    rng = np.random.default_rng(seed)
    return [(rng.uniform(-np.pi, np.pi, 2), rng.uniform(-3, 3, 2), rng.uniform(-5, 5, 2))
            for _ in range(n)]


def plant_terms(plant, context, q, v):
    plant.set_positions(context, q)
    plant.set_velocities(context, v)
    return (plant.calc_mass_matrix(context), plant.calc_bias_term(context),
            plant.calc_gravity_generalized_forces(context))


@pytest.mark.parametrize("formulation", ["lagrange", "kane"])
def test_symbolic_equations_match_the_plant(plant, formulation, request):
    terms = request.getfixturevalue(formulation)
    context = plant.create_default_context()
    for q, v, _ in random_states():
        M, Cv, tau_g = plant_terms(plant, context, q, v)
        M_s, Cv_s, tau_g_s = (np.array(x, dtype=float) for x in terms(q, v))
        np.testing.assert_allclose(M, M_s, atol=1e-10)
        np.testing.assert_allclose(Cv, Cv_s.reshape(2), atol=1e-10)
        np.testing.assert_allclose(tau_g, tau_g_s.reshape(2), atol=1e-10)


def test_newton_euler_recursion_matches_the_plant(plant):
    context = plant.create_default_context()
    forces = MultibodyForces(plant)
    for q, v, vdot in random_states():
        M, Cv, tau_g = plant_terms(plant, context, q, v)
        expected = newton_euler(q, v, vdot)
        np.testing.assert_allclose(M @ vdot + Cv - tau_g, expected, atol=1e-10)
        plant.calc_force_elements_contribution(context, forces)     # gravity
        np.testing.assert_allclose(plant.calc_inverse_dynamics(context, vdot, forces), expected,
                                   atol=1e-10)


def test_only_ixx_enters_the_planar_dynamics(plant):
    """A check on the derivation itself: rotation about x alone makes M depend on the
    inertia only through Ixx = 1 (the products and the small moments drop out)."""
    context = plant.create_default_context()
    M, _, _ = plant_terms(plant, context, [0.0, 0.0], [0.0, 0.0])
    # q = 0: links aligned; M11 = 2 Ixx + m (L/2)² + m (L1 + L2/2)², M12 = Ixx + m L2/2 (L1 + L2/2)
    M11 = 2 * 1.0 + MASS * 0.25 + MASS * 1.5**2
    M12 = 1.0 + MASS * 0.5 * 1.5
    np.testing.assert_allclose(M, [[M11, M12], [M12, 1.0 + MASS * 0.25]], atol=1e-12)
