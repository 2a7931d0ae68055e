"""Energy-optimal cubic joint trajectories: closed forms for a free mass (the minimizer of
∫q̈² is the single cubic; a free end velocity quarters the effort), the effort integral of
a rotor, and a two-link arm under gravity whose optimal trajectory costs less than the
straight-line cubic with the same boundary conditions (measured independently by dense
quadrature of M q̈ + C q̇ - τ_g)."""

import numpy as np
import pytest

from merganser.geometry import RigidTransform, RollPitchYaw
from merganser.multibody.dh_chain import add_dh_chain
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.planning import (
    calc_trajectory_effort,
    make_straight_line_cubic_trajectory,
    solve_energy_optimal_cubic_trajectory,
)
from merganser.multibody.tree import PrismaticJoint, RevoluteJoint


def sliding_mass(m):
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("mass", SpatialInertia.point_mass(m, [0.0, 0.0, 0.0]))
    plant.add_joint(PrismaticJoint("slide", plant.world_frame(), body.body_frame(), [1, 0, 0]))
    plant.finalize()
    return plant


def vertical_two_link_arm():
    """Two 0.5 m links rotating about world y (so gravity loads both joints)."""
    plant = MultibodyPlant(0.0)
    M = SpatialInertia.make_from_central_inertia(1.0, [-0.25, 0.0, 0.0],
                                                 np.diag([1e-3, 0.02, 0.02]))
    add_dh_chain(plant, [[0.5, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0]],
                 X_PB=RigidTransform(RollPitchYaw(np.pi / 2, 0.0, 0.0), [0.0, 0.0, 0.0]),
                 spatial_inertias=[M, M])
    plant.finalize()
    return plant


def dense_effort(plant, trajectory, samples=4001):
    """∫ τᵀτ dt by the trapezoid rule, τ = M q̈ + C q̇ - τ_g from the plant's terms."""
    ctx = plant.create_default_context()
    t = np.linspace(trajectory.start_time(), trajectory.end_time(), samples)
    values = np.empty(samples)
    for k, tk in enumerate(t):
        plant.set_positions(ctx, trajectory.value(tk)[:, 0])
        plant.set_velocities(ctx, trajectory.eval_derivative(tk, 1)[:, 0])
        tau = (plant.calc_mass_matrix(ctx) @ trajectory.eval_derivative(tk, 2)[:, 0]
               + plant.calc_bias_term(ctx) - plant.calc_gravity_generalized_forces(ctx))
        values[k] = tau @ tau
    return np.trapezoid(values, t) if hasattr(np, "trapezoid") else np.trapz(values, t)


def test_straight_line_cubic_is_optimal_for_a_free_mass():
    m, D, T = 2.0, 0.6, 1.5
    plant = sliding_mass(m)
    result = solve_energy_optimal_cubic_trajectory(plant, [0.0], [D], T, num_segments=3)
    assert result.num_free_coefficients == 2
    # ∫ (m q̈)² dt of the rest-to-rest cubic is 12 m² D² / T³, the minimum over all paths.
    assert result.straight_line_effort == pytest.approx(12 * m**2 * D**2 / T**3, rel=1e-12)
    assert result.effort == pytest.approx(result.straight_line_effort, rel=1e-9)
    line = make_straight_line_cubic_trajectory([0.0], [D], T)
    for t in np.linspace(0.0, T, 7):
        assert result.trajectory.value(t)[0, 0] == pytest.approx(line.value(t)[0, 0], abs=1e-7)


def test_free_end_velocity_quarters_the_effort_of_a_free_mass():
    m, D, T = 2.0, 0.6, 1.5
    plant = sliding_mass(m)
    result = solve_energy_optimal_cubic_trajectory(plant, [0.0], [D], T, v_end=None)
    # Natural boundary condition q̈(T) = 0: q̈ = 3 D / T² (1 - t / T), ∫ (m q̈)² = 3 m² D² / T³.
    assert result.effort == pytest.approx(3 * m**2 * D**2 / T**3, rel=1e-8)
    assert result.trajectory.eval_derivative(T, 2)[0, 0] == pytest.approx(0.0, abs=1e-6)
    assert result.trajectory.eval_derivative(T, 1)[0, 0] == pytest.approx(1.5 * D / T, rel=1e-6)


def test_effort_of_a_rotor_on_a_straight_line_cubic():
    # A body spinning about the vertical axis: τ = I q̈, no gravity torque.
    I_zz = 0.4
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("rotor", SpatialInertia.make_from_central_inertia(
        3.0, [0.0, 0.0, 0.0], np.diag([0.25, 0.25, I_zz])))
    plant.add_joint(RevoluteJoint("spin", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    plant.finalize()
    line = make_straight_line_cubic_trajectory([0.2], [1.4], 0.8)
    assert calc_trajectory_effort(plant, line) == pytest.approx(
        12 * I_zz**2 * 1.2**2 / 0.8**3, rel=1e-12)


def test_energy_optimal_beats_the_straight_line_cubic_under_gravity():
    plant = vertical_two_link_arm()
    q0, qf, T = np.array([-np.pi / 2, 0.0]), np.array([0.5, 0.3]), 1.0
    v0, vf = np.array([0.0, 0.2]), np.array([-0.1, 0.0])
    result = solve_energy_optimal_cubic_trajectory(plant, q0, qf, T, v_start=v0, v_end=vf,
                                                   num_segments=3)
    assert result.success, result.message
    line = make_straight_line_cubic_trajectory(q0, qf, T, v0, vf)
    line_effort = dense_effort(plant, line)
    optimal_effort = dense_effort(plant, result.trajectory)
    assert optimal_effort < 0.8 * line_effort
    assert result.effort == pytest.approx(optimal_effort, rel=1e-4)
    assert result.straight_line_effort == pytest.approx(line_effort, rel=1e-4)
    traj = result.trajectory
    np.testing.assert_allclose(traj.value(0.0)[:, 0], q0, atol=1e-12)
    np.testing.assert_allclose(traj.value(T)[:, 0], qf, atol=1e-12)
    np.testing.assert_allclose(traj.eval_derivative(0.0, 1)[:, 0], v0, atol=1e-12)
    np.testing.assert_allclose(traj.eval_derivative(T, 1)[:, 0], vf, atol=1e-12)
    for t in (T / 3, 2 * T / 3):                  # continuous q, q̇, q̈ at the breaks
        for k in range(3):
            left = traj.eval_derivative(t - 1e-9, k)[:, 0] if k else traj.value(t - 1e-9)[:, 0]
            right = traj.eval_derivative(t, k)[:, 0] if k else traj.value(t)[:, 0]
            np.testing.assert_allclose(left, right, atol=1e-6)


def test_a_single_cubic_with_given_velocities_is_determined():
    plant = vertical_two_link_arm()
    result = solve_energy_optimal_cubic_trajectory(plant, [0.0, 0.0], [0.3, -0.3], 0.5)
    assert result.num_free_coefficients == 0
    assert "no free coefficients" in result.message
    line = make_straight_line_cubic_trajectory([0.0, 0.0], [0.3, -0.3], 0.5)
    np.testing.assert_allclose(result.trajectory.value(0.2), line.value(0.2), atol=1e-15)


def test_bad_arguments_raise():
    plant = vertical_two_link_arm()
    with pytest.raises(ValueError, match="solve_energy_optimal_cubic_trajectory: duration "
                                         "must be finite and > 0"):
        solve_energy_optimal_cubic_trajectory(plant, [0, 0], [1, 1], 0.0)
    with pytest.raises(ValueError, match="q_end must be finite with size 2"):
        solve_energy_optimal_cubic_trajectory(plant, [0, 0], [1, 1, 1], 1.0)
    with pytest.raises(ValueError, match="num_segments must be an integer >= 1"):
        solve_energy_optimal_cubic_trajectory(plant, [0, 0], [1, 1], 1.0, num_segments=0)
    free = MultibodyPlant(0.0)
    free.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    free.finalize()
    with pytest.raises(ValueError, match=r"needs q̇ = v \(nq == nv\), got nq = 7, nv = 6"):
        solve_energy_optimal_cubic_trajectory(free, np.zeros(7), np.zeros(7), 1.0)
