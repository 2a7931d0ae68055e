"""The one-call computed-torque kernel (multibody.kernels.computed_torque) that the
InverseDynamicsController uses for gravity-only models: the same τ as the public plant
API path (Drake's way: a plant context, force elements, inverse dynamics), with and
without integral and reference acceleration, on the Panda; and its size checks."""

import numpy as np
import pytest
from robot_models import actuated_panda

from merganser.controllers import InverseDynamicsController
from merganser.multibody.kernels.computed_torque import calc_computed_torque
from merganser.multibody.plant.plant_core import get_plant_core


def _controller_pair(plant, ki, reference):
    rng = np.random.default_rng(3)
    n = plant.num_positions()
    kp, kd = rng.uniform(10, 100, n), rng.uniform(1, 20, n)
    fast = InverseDynamicsController(plant, kp, ki, kd, reference)
    slow = InverseDynamicsController(plant, kp, ki, kd, reference)
    slow._model.use_plant_api()
    return fast, slow


@pytest.mark.parametrize("ki, reference", [(0.0, False), (2.5, True)])
def test_fused_kernel_equals_the_plant_api_path_on_the_panda(ki, reference):
    plant = actuated_panda()
    n = plant.num_positions()
    fast, slow = _controller_pair(plant, ki, reference)
    assert fast._model.uses_kernel_path() and not slow._model.uses_kernel_path()
    rng = np.random.default_rng(7)
    for _ in range(5):
        x, x_d = rng.normal(size=2 * n), rng.normal(size=2 * n)
        values = []
        for controller in (fast, slow):
            context = controller.create_default_context()
            controller.get_input_port_estimated_state().fix_value(context, x)
            controller.get_input_port_desired_state().fix_value(context, x_d)
            if reference:
                controller.get_input_port_desired_acceleration().fix_value(
                    context, np.linspace(-1.0, 1.0, n))
            if ki:
                controller.set_integral_value(context, np.linspace(0.5, -0.5, n))
            values.append(np.array(controller.get_output_port_actuation().eval(context)))
            values.append(np.array(controller.get_output_port_generalized_force().eval(context)))
        tau_fast, tau_fast_g, tau_slow, tau_slow_g = values
        scale = np.max(np.abs(tau_slow))
        assert scale > 1.0
        np.testing.assert_allclose(tau_fast, tau_slow, atol=1e-11 * scale)
        np.testing.assert_array_equal(tau_fast, tau_fast_g)
        np.testing.assert_allclose(tau_slow_g, tau_slow, atol=1e-11 * scale)


def test_kernel_refuses_wrong_sizes_without_writing():
    plant = actuated_panda()
    core = get_plant_core(plant)
    ip, fp, ws = core.ip, core.fp, core.dyn.workspace
    n = plant.num_positions()
    I10 = np.array(core.eval_I10(plant.create_default_context()))
    g = np.array([0.0, 0.0, -9.81])
    F = np.zeros((plant.num_bodies(), 6))
    ones, empty = np.ones(n), np.zeros(0)
    vd, tau = np.full(n, 7.0), np.full(n, 7.0)
    args = dict(kp=ones, kd=ones, ki=empty, z=empty, vd_ref=empty, damping=ones)
    for name, bad in (("x", np.zeros(2 * n - 1)), ("x_d", np.zeros(2 * n + 1)),
                      ("kp", np.ones(n - 1)), ("z", np.ones(n)), ("vd_ref", np.ones(3)),
                      ("damping", np.ones(n + 1))):
        call = dict(x=np.zeros(2 * n), x_d=np.zeros(2 * n), **args)
        call[name] = bad
        if name == "z":
            call["ki"] = np.ones(n - 1)
        assert calc_computed_torque(ip, fp, ws, call["x"], call["x_d"],
                                    call["kp"], call["kd"], call["ki"], call["z"],
                                    call["vd_ref"], call["damping"], I10, g, F, vd, tau) == 1
        np.testing.assert_array_equal(tau, 7.0)
    # A correct call: at rest with x = x_d the torque is the gravity compensation.
    x = np.zeros(2 * n)
    assert calc_computed_torque(ip, fp, ws, x, x, ones, ones, empty, empty,
                                empty, ones, I10, g, F, vd, tau) == 0
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x)
    np.testing.assert_allclose(tau, -plant.calc_gravity_generalized_forces(context),
                               atol=1e-12)
    np.testing.assert_array_equal(vd, 0.0)
