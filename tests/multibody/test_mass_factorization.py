"""The tree-sparse LTDL factorization of M(q) (Featherstone's, RBDA section 6.5): M = Lᵀ D L
with L of the tree's sparsity, solves equal a dense solve, and the RNEA bias at v̇ = 0
with the poses already computed equals inverse dynamics at v̇ = 0."""

import numpy as np

from merganser.multibody import SpatialInertia
from merganser.multibody.contact.contact_kernels import pose_pass
from merganser.multibody.kernels.crba import calc_mass_matrix
from merganser.multibody.kernels.layout import make_workspace
from merganser.multibody.kernels.mass_factorization import (
    ltdl_factor, ltdl_solve, solve_with_factor, velocity_parents,
)
from merganser.multibody.kernels.rnea import bias_forces_at_poses, calc_inverse_dynamics
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.plant.plant_core import get_plant_core
from merganser.geometry import RigidTransform
from merganser.multibody.tree import FixedOffsetFrame, RevoluteJoint


def branched_plant():
    """A free trunk with two two-link legs (a branch at the trunk) and a free ball."""
    plant = MultibodyPlant(1e-3)
    trunk = plant.add_rigid_body("trunk", SpatialInertia.solid_box_with_mass(3.0, 0.4, 0.2, 0.1))
    for i, y in enumerate((0.1, -0.1)):
        parent = trunk
        for j in range(2):
            link = plant.add_rigid_body(f"link{i}{j}", SpatialInertia.solid_capsule_with_mass(
                0.3 + 0.1 * j, 0.02, 0.15, [0, 0, 1]))
            frame = plant.add_frame(FixedOffsetFrame(f"f{i}{j}", parent.body_frame(),
                                                     RigidTransform([0.1, y, -0.1 * j])))
            plant.add_joint(RevoluteJoint(f"j{i}{j}", frame, link.body_frame(),
                                          [0, 1, 0] if j else [1, 0, 0]))
            parent = link
    plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(0.5, 0.05))
    plant.finalize()
    return plant


def _state(plant, rng):
    q = np.array(plant.get_default_positions(), dtype=float) + 0.3 * rng.standard_normal(
        plant.num_positions())
    for body in ("trunk", "ball"):
        s = plant.get_body_by_name(body).floating_positions_start()
        q[s:s + 4] /= np.linalg.norm(q[s:s + 4])
    return q, rng.standard_normal(plant.num_velocities())


def _model(plant):
    core = get_plant_core(plant)
    I10 = core.cache.inertia.eval(plant.create_default_context()).I10
    return core.ip, core.fp, I10, core.gravity


def test_velocity_parents_follow_the_tree():
    plant = branched_plant()
    ip, _, _, _ = _model(plant)
    lam = np.zeros(plant.num_velocities(), np.int64)
    assert velocity_parents(ip, lam)
    trunk = plant.get_body_by_name("trunk").floating_velocities_start()
    ball = plant.get_body_by_name("ball").floating_velocities_start()
    assert lam[trunk] == -1 and lam[ball] == -1
    np.testing.assert_array_equal(lam[trunk + 1:trunk + 6], np.arange(trunk, trunk + 5))
    for i in range(2):
        hip = plant.get_joint_by_name(f"j{i}0").velocity_start()
        knee = plant.get_joint_by_name(f"j{i}1").velocity_start()
        assert lam[hip] == trunk + 5 and lam[knee] == hip        # both legs branch at the trunk


def test_the_factor_reproduces_M_and_solves_like_a_dense_solve():
    plant = branched_plant()
    ip, fp, I10, _ = _model(plant)
    nv = plant.num_velocities()
    lam = np.zeros(nv, np.int64)
    velocity_parents(ip, lam)
    rng = np.random.default_rng(4)
    for _ in range(5):
        q, _ = _state(plant, rng)
        M = np.zeros((nv, nv))
        assert calc_mass_matrix(ip, fp, make_workspace(ip.shape[0]), q, I10, M) == 0
        F = np.tril(M)
        assert ltdl_factor(F, lam)
        D = np.diag(np.diag(F))
        L = np.tril(F, -1) + np.eye(nv)
        np.testing.assert_allclose(L.T @ D @ L, M, rtol=0, atol=1e-13 * np.abs(M).max())
        hip0 = plant.get_joint_by_name("j00").velocity_start()
        hip1 = plant.get_joint_by_name("j10").velocity_start()
        assert L[hip1, hip0] == 0.0                             # no fill-in across branches
        b = rng.standard_normal(nv)
        x = b.copy()
        ltdl_solve(F, lam, x)
        np.testing.assert_allclose(x, np.linalg.solve(M, b), rtol=1e-12, atol=1e-12)
        y, work = b.copy(), np.zeros((nv, nv))
        assert solve_with_factor(M, lam, work, y)
        np.testing.assert_array_equal(y, x)


def test_a_matrix_that_is_not_positive_definite_is_reported():
    lam = np.array([-1, 0], np.int64)
    M = np.array([[1.0, 2.0], [2.0, 1.0]])
    b = np.array([1.0, 1.0])
    assert not solve_with_factor(M, lam, np.zeros((2, 2)), b)
    np.testing.assert_array_equal(b, [1.0, 1.0])


def test_bias_at_poses_equals_inverse_dynamics_at_zero_acceleration():
    plant = branched_plant()
    ip, fp, I10, g = _model(plant)
    nv = plant.num_velocities()
    q, v = _state(plant, np.random.default_rng(2))
    zeros = np.zeros(nv)
    expected = np.zeros(nv)
    calc_inverse_dynamics(ip, fp, make_workspace(ip.shape[0]), q, v, zeros, I10, g,
                          np.zeros((ip.shape[0], 6)), False, expected)
    ws = make_workspace(ip.shape[0])
    pose_pass(ip, fp, q, ws)
    bias = np.zeros(nv)
    bias_forces_at_poses(ip, fp, ws, q, v, zeros, I10, g, bias)
    np.testing.assert_array_equal(bias, expected)
    assert np.abs(expected).max() > 1.0                         # gravity and velocity terms
