"""The plant's one-call forward dynamics (actuation and joint damping folded into the ABA
kernel, multibody.kernels.aba.calc_forward_dynamics_damped) against the mass matrix and
bias term: v̇ = M⁻¹ (u − D v − C v + τ_g), on the Panda; and the general path, taken when
an applied-force input is connected, giving the same numbers plus that force."""

import numpy as np
from robot_models import actuated_panda

from merganser.multibody.kernels.aba import calc_forward_dynamics, calc_forward_dynamics_damped
from merganser.multibody.plant.plant_core import get_plant_core


def test_one_call_forward_dynamics_matches_mass_matrix_and_bias():
    plant = actuated_panda()
    core = get_plant_core(plant)
    assert core.one_call_forward_dynamics
    damping = np.array(core.tables.damping)
    assert np.all(damping > 0.0)
    context = plant.create_default_context()
    rng = np.random.default_rng(11)
    for _ in range(4):
        x, u = rng.normal(size=18), rng.normal(size=9) * 5.0
        plant.set_positions_and_velocities(context, x)
        plant.get_actuation_input_port().fix_value(context, u)
        vdot = plant.get_generalized_acceleration_output_port().eval(context)
        M = plant.calc_mass_matrix(context)
        rhs = (u - damping * x[9:] - plant.calc_bias_term(context)
               + plant.calc_gravity_generalized_forces(context))
        np.testing.assert_allclose(M @ vdot, rhs, rtol=1e-10, atol=1e-10)
        # An applied generalized force input takes the general path: + M⁻¹ τ_applied.
        tau_applied = rng.normal(size=9)
        plant.get_applied_generalized_force_input_port().fix_value(context, tau_applied)
        vdot_general = plant.get_generalized_acceleration_output_port().eval(context)
        np.testing.assert_allclose(M @ vdot_general, rhs + tau_applied, rtol=1e-10, atol=1e-10)
        context = plant.create_default_context()


def test_damped_kernel_equals_the_plain_kernel_on_u_minus_damping():
    plant = actuated_panda()
    core = get_plant_core(plant)
    ip, fp, ws = core.ip, core.fp, core.dyn.workspace
    I10 = np.array(core.eval_I10(plant.create_default_context()))
    g = np.array([0.0, 0.0, -9.81])
    F = np.zeros((plant.num_bodies(), 6))
    rng = np.random.default_rng(2)
    q, v, u, D = rng.normal(size=9), rng.normal(size=9), rng.normal(size=9), rng.uniform(0, 1, 9)
    tau, vd, vd_ref = np.empty(9), np.empty(9), np.empty(9)
    assert calc_forward_dynamics_damped(ip, fp, ws, q, v, u, D, I10, g, F, False,
                                        tau, vd) == 0
    np.testing.assert_array_equal(tau, u - D * v)
    assert calc_forward_dynamics(ip, fp, ws, q, v, u - D * v, I10, g, F, False,
                                 vd_ref) == 0
    np.testing.assert_array_equal(vd, vd_ref)
    assert calc_forward_dynamics_damped(ip, fp, ws, q, v, u, D[:8], I10, g, F,
                                        False, tau, vd) == 1
