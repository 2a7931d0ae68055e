"""added-mass spatial inertia per body (``M_added``, e.g. hydrodynamic added mass) in the
kernels and the plant: identities between CRBA, RNEA and ABA on random trees with every
joint type and random positive semidefinite added masses; a rigid-body-shaped extra
inertia equals the heavier rigid body (and is weightless); the kinetic energy's rate is
the power of the forces; the batch, derivative and default-argument paths; the plant's
``added_mass_spatial_inertia()`` protocol of force elements."""

import numpy as np
import pytest

from merganser.multibody.kernels import DynamicsArgumentError, TreeDynamics
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import ForceElement
from merganser.multibody.tree.random_tree import random_inertia, random_state, random_tree

G = np.array([0.0, 0.0, -9.81])
CASES = [(seed, floating) for floating in (False, True) for seed in range(2)]


def random_extra(nb, rng, rank=6):
    """Random symmetric PSD (nb, 6, 6) with row 0 zero (rank < 6: singular ones)."""
    E = np.zeros((nb, 6, 6))
    for k in range(1, nb):
        B = rng.normal(size=(6, rank))
        E[k] = 0.3 * B @ B.T
        E[k] = 0.5 * (E[k] + E[k].T)    # exactly symmetric
    return E


def spatial_inertia_6x6(p):
    """The 6x6 spatial inertia about Bo of the 10 parameters p = [m, h, I] (in B)."""
    m, h = p[0], p[1:4]
    Ixx, Iyy, Izz, Ixy, Ixz, Iyz = p[4:]
    hx = np.array([[0, -h[2], h[1]], [h[2], 0, -h[0]], [-h[1], h[0], 0]])
    return np.block([[np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]]), hx],
                     [hx.T, m * np.eye(3)]])


@pytest.fixture(params=CASES, ids=lambda c: f"{'floating' if c[1] else 'fixed'}-{c[0]}")
def tree(request):
    seed, floating = request.param
    model = random_tree(11, seed=seed, floating_base=floating)
    q, v = random_state(model, seed + 100)
    rng = np.random.default_rng(seed + 300)
    E = random_extra(model.nb, rng, rank=6 if seed == 0 else 2)
    return model, TreeDynamics(model), q, v, E, rng


# ------------------------------------------------------------------ identities
def test_crba_columns_equal_rnea_unit_accelerations_minus_bias(tree):
    model, td, q, v, E, rng = tree
    I10 = model.default_inertia
    F = rng.normal(size=(model.nb, 6))
    M = td.mass_matrix(q, I10, M_added=E).copy()
    bias = td.inverse_dynamics(q, v, np.zeros(model.nv), I10, G, F, M_added=E).copy()
    for j in range(model.nv):
        e = np.zeros(model.nv)
        e[j] = 1.0
        col = td.inverse_dynamics(q, v, e, I10, G, F, M_added=E) - bias
        np.testing.assert_allclose(col, M[:, j], rtol=0, atol=1e-11)
    np.testing.assert_allclose(M, M.T, rtol=0, atol=1e-12)
    # The added mass adds a positive semidefinite matrix to the rigid-body M.
    dM = M - td.mass_matrix(q, I10)
    assert np.abs(dM).max() > 0.1
    assert np.linalg.eigvalsh(dM)[0] > -1e-10


def test_aba_inverts_rnea(tree):
    model, td, q, v, E, rng = tree
    I10 = model.default_inertia
    vd = rng.normal(size=model.nv)
    F = rng.normal(size=(model.nb, 6))
    for forces in (None, F):
        tau = td.inverse_dynamics(q, v, vd, I10, G, forces, M_added=E).copy()
        np.testing.assert_allclose(td.forward_dynamics(q, v, tau, I10, G, forces, M_added=E),
                                   vd, rtol=0, atol=1e-9)
    # and ABA solves with the CRBA mass matrix: M vd = tau - (C v - tau_g).
    M = td.mass_matrix(q, I10, M_added=E).copy()
    tau = rng.normal(size=model.nv)
    h = td.inverse_dynamics(q, v, np.zeros(model.nv), I10, G, M_added=E).copy()
    np.testing.assert_allclose(M @ td.forward_dynamics(q, v, tau, I10, G, M_added=E), tau - h,
                               rtol=0, atol=1e-9)


def test_bias_term_energy_and_momentum_are_consistent(tree):
    model, td, q, v, E, _ = tree
    I10 = model.default_inertia
    M = td.mass_matrix(q, I10, M_added=E).copy()
    assert td.kinetic_energy(q, v, I10, M_added=E) == pytest.approx(0.5 * v @ M @ v,
                                                                     rel=1e-12)
    np.testing.assert_allclose(td.bias_term(q, v, I10, M_added=E),
                               td.inverse_dynamics(q, v, np.zeros(model.nv), I10,
                                                   np.zeros(3), M_added=E), atol=1e-12)
    # Momentum: each body adds R_WB (M_added V_B), shifted from Bo to P.
    p = np.array([0.3, -0.2, 0.5])
    X = td.forward_kinematics(q).copy()
    V = td.body_spatial_velocities(q, v).copy()
    expected = td.spatial_momentum(q, v, I10, p).copy()
    for k in range(1, model.nb):
        R = X[k, :3, :3]
        L_B = E[k] @ np.concatenate([R.T @ V[k, :3], R.T @ V[k, 3:]])
        expected[:3] += R @ L_B[:3] + np.cross(X[k, :3, 3] - p, R @ L_B[3:])
        expected[3:] += R @ L_B[3:]
    np.testing.assert_allclose(td.spatial_momentum(q, v, I10, p, M_added=E), expected,
                               rtol=1e-12, atol=1e-11)


def test_rigid_shaped_added_mass_is_a_weightless_heavier_body(tree):
    """M_added = the 6x6 of rigid parameters I10_a gives the dynamics of I10 + I10_a,
    except that the added mass has no weight: with gravity it matches the heavier
    bodies lifted by -m_a g at their extra centers of mass."""
    model, td, q, v, _, rng = tree
    I10 = model.default_inertia
    I10_a = np.zeros_like(I10)
    for k in range(1, model.nb):
        I10_a[k] = random_inertia(rng)
    E = np.stack([spatial_inertia_6x6(p) for p in I10_a])
    heavy = I10 + I10_a
    tau, vd = rng.normal(size=model.nv), rng.normal(size=model.nv)
    p = np.array([1.0, 2.0, -0.5])
    zero_g = np.zeros(3)
    X = td.forward_kinematics(q).copy()
    lift = np.zeros((model.nb, 6))     # -m_a g at each extra center of mass, at Bo in W
    for k in range(1, model.nb):
        lift[k, :3] = np.cross(X[k, :3, :3] @ I10_a[k, 1:4], -G)
        lift[k, 3:] = -I10_a[k, 0] * G

    def both(method, extra_args, heavy_args, tol):
        # (the facade's results are overwritten by the next call: copy the first)
        with_extra = np.array(method(*extra_args, M_added=E), copy=True)
        np.testing.assert_allclose(with_extra, method(*heavy_args), rtol=tol, atol=tol)
        return with_extra

    both(td.mass_matrix, (q, I10), (q, heavy), 1e-11)
    both(td.bias_term, (q, v, I10), (q, v, heavy), 1e-10)
    both(td.kinetic_energy, (q, v, I10), (q, v, heavy), 1e-12)
    both(td.spatial_momentum, (q, v, I10, p), (q, v, heavy, p), 1e-11)
    both(td.forward_dynamics, (q, v, tau, I10, zero_g), (q, v, tau, heavy, zero_g), 1e-9)
    vd_fluid = both(td.forward_dynamics, (q, v, tau, I10, G), (q, v, tau, heavy, G, lift),
                    1e-9)
    both(td.inverse_dynamics, (q, v, vd, I10, G), (q, v, vd, heavy, G, lift), 1e-10)
    # Without the lift the heavier bodies fall faster: the added mass has no weight.
    assert np.abs(vd_fluid - td.forward_dynamics(q, v, tau, heavy, G)).max() > 1e-2


def test_kinetic_energy_rate_equals_the_power_of_the_forces(tree):
    """d(KE)/dt along the motion = v · (tau + tau_g) with vd from ABA (central
    differences in time; q moves along q̇ = N(q) v)."""
    model, td, q, v, E, rng = tree
    I10 = model.default_inertia
    tau = rng.normal(size=model.nv)
    vd = td.forward_dynamics(q, v, tau, I10, G, M_added=E).copy()
    qdot = td.map_velocity_to_qdot(q, v).copy()
    h = 1e-5

    def ke(s):
        return td.kinetic_energy(q + s * h * qdot, v + s * h * vd, I10, M_added=E)

    rate = (ke(1.0) - ke(-1.0)) / (2.0 * h)
    power = v @ (tau + td.gravity_generalized_forces(q, I10, G))
    assert rate == pytest.approx(power, rel=1e-6, abs=1e-7 * ke(0.0))


# ------------------------------------------------------------------ facade paths
def test_default_added_mass_batches_and_derivatives():
    model = random_tree(7, seed=5, floating_base=True)
    rng = np.random.default_rng(7)
    E = random_extra(model.nb, rng)
    I10 = model.default_inertia
    plain, default = TreeDynamics(model), TreeDynamics(model, M_added=E)
    assert plain.M_added is None and not default.M_added.flags.writeable
    states = [random_state(model, s) for s in range(3)]
    Q = np.stack([s[0] for s in states])
    V = np.stack([s[1] for s in states])
    A = rng.normal(size=V.shape)
    q, v, vd = Q[0], V[0], A[0]
    M = plain.mass_matrix(q, I10, M_added=E).copy()
    np.testing.assert_array_equal(default.mass_matrix(q, I10), M)
    # An explicit M_added overrides the default (zeros: rigid bodies only).
    np.testing.assert_allclose(default.mass_matrix(q, I10, M_added=np.zeros_like(E)),
                               plain.mass_matrix(q, I10), atol=1e-14)
    assert default.kinetic_energy(q, v, I10) == plain.kinetic_energy(q, v, I10, M_added=E)
    tau = default.inverse_dynamics(q, v, vd, I10, G).copy()
    np.testing.assert_array_equal(tau, plain.inverse_dynamics(q, v, vd, I10, G, M_added=E))
    # Argument lists go through the slow path with the same result.
    np.testing.assert_allclose(plain.inverse_dynamics(q.tolist(), v, vd, I10, G,
                                                      M_added=E.tolist()), tau, atol=0)
    # Batches (shared added mass) equal single calls.
    TAU = default.rnea_batch(Q, V, A, I10, G)
    np.testing.assert_allclose(TAU, plain.rnea_batch(Q, V, A, I10, G, M_added=E), atol=0)
    for i in range(len(Q)):
        np.testing.assert_allclose(TAU[i], plain.inverse_dynamics(Q[i], V[i], A[i], I10, G,
                                                                  M_added=E), atol=1e-12)
    np.testing.assert_allclose(default.aba_batch(Q, V, TAU, I10, G), A, atol=1e-9)
    np.testing.assert_allclose(default.crba_batch(Q, I10)[0], M, atol=1e-13)
    # Derivatives: dtau/dvdot is the mass matrix with the added mass; dtau/dv by
    # central differences.
    dq, dv, dvd = default.inverse_dynamics_derivatives(q, v, vd, I10, G)
    np.testing.assert_allclose(dvd, M, atol=1e-13)
    h = 1e-6
    for j in range(model.nv):
        e = np.zeros(model.nv)
        e[j] = h
        fd = (plain.inverse_dynamics(q, v + e, vd, I10, G, M_added=E).copy()
              - plain.inverse_dynamics(q, v - e, vd, I10, G, M_added=E)) / (2 * h)
        np.testing.assert_allclose(dv[:, j], fd, rtol=1e-6, atol=1e-6)
    dq_f, dv_f, Minv = default.forward_dynamics_derivatives(q, v, tau, I10, G)
    np.testing.assert_allclose(Minv @ M, np.eye(model.nv), atol=1e-10)
    np.testing.assert_allclose(dv_f, -Minv @ dv, atol=1e-9)


def test_bad_added_masss_raise():
    model = random_tree(4, seed=1)
    q, v = random_state(model, 1)
    td = TreeDynamics(model)
    assert model.nb == 5
    with pytest.raises(DynamicsArgumentError,
                       match=r"mass_matrix: M_added has shape \(4, 6, 6\), expected \(5, 6, 6\)"):
        td.mass_matrix(q, model.default_inertia, M_added=np.zeros((4, 6, 6)))
    with pytest.raises(DynamicsArgumentError, match="forward_dynamics: M_added has shape"):
        td.forward_dynamics(q, v, v, model.default_inertia, G, M_added=np.zeros((5, 6)))
    with pytest.raises(DynamicsArgumentError, match="kinetic_energy: M_added has shape"):
        td.kinetic_energy(q, v, model.default_inertia, M_added=np.zeros((5, 6, 5)))
    E = np.zeros((model.nb, 6, 6))
    E[2, 0, 1] = 1.0
    with pytest.raises(DynamicsArgumentError, match=r"M_added\[2\] .* must be symmetric"):
        TreeDynamics(model, M_added=E)
    E[2] = -np.eye(6)
    with pytest.raises(DynamicsArgumentError,
                       match=r"M_added\[2\] .* positive semidefinite.* -1"):
        TreeDynamics(model, M_added=E)


# ------------------------------------------------------------------ plant protocol
class FluidInertia(ForceElement):
    """A force element with no force that declares added masses."""

    def __init__(self, entries):
        super().__init__(None)
        self._entries = entries

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out):
        pass

    def added_mass_spatial_inertia(self):
        return self._entries

    def __repr__(self):
        return "FluidInertia"


def test_plant_sums_added_masss_of_force_elements_per_body():
    rng = np.random.default_rng(2)
    E1, E2 = random_extra(3, rng)[1:]
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("body", SpatialInertia.make_from_central_inertia(
        1.5, [0.1, 0.0, 0.2], np.diag([0.1, 0.2, 0.3])))
    plant.add_force_element(FluidInertia([(body.index(), E1)]))
    plant.add_force_element(FluidInertia([(body.index(), E2), (body.index(), np.zeros((6, 6)))]))
    plant.finalize()
    ctx = plant.create_default_context()
    plant.set_positions(ctx, [1.0, 0, 0, 0, 0, 0, 0])    # identity pose: V_B = v
    M = plant.calc_mass_matrix(ctx)
    dry = MultibodyPlant(0.0)
    dry.add_rigid_body("body", SpatialInertia.make_from_central_inertia(
        1.5, [0.1, 0.0, 0.2], np.diag([0.1, 0.2, 0.3])))
    dry.finalize()
    M_dry = dry.calc_mass_matrix(dry.create_default_context())
    np.testing.assert_allclose(M, M_dry + E1 + E2, rtol=0, atol=1e-13)


@pytest.mark.parametrize("entries, error, match", [
    ([(0, np.eye(6))], ValueError, "body index 0, expected a non-world body"),
    ([(7, np.eye(6))], ValueError, "body index 7"),
    ([("body", np.eye(6))], TypeError, "expected an integer"),
    ([(1, np.eye(5))], ValueError, r"shape \(5, 5\), expected \(6, 6\)"),
    ([(1, np.triu(np.ones((6, 6))))], ValueError, "must be symmetric"),
    ([(1, -np.eye(6))], ValueError, "positive semidefinite"),
    ([(1, np.full((6, 6), np.nan))], ValueError, "must be finite"),
    ([1], TypeError, "must be a pair"),
    (None, TypeError, "must return a list"),
])
def test_plant_rejects_bad_added_masss_at_finalize(entries, error, match):
    plant = MultibodyPlant(0.0)
    plant.add_rigid_body("body", SpatialInertia.make_from_central_inertia(
        1.0, [0, 0, 0], np.diag([0.1, 0.1, 0.1])))
    plant.add_force_element(FluidInertia(entries))
    with pytest.raises(error, match=r"MultibodyPlant.finalize: force element FluidInertia.*"
                       + match):
        plant.finalize()
