"""InverseDynamics: its output against M v̇ + C v − τ_g + D v assembled from the plant's
own algorithms, the round trip through the plant's forward dynamics, gravity
compensation, force elements, per-context plant contexts and errors."""


import numpy as np
import pytest
from controller_models import add_acrobot, make_acrobot, make_double_pendulum

from merganser.controllers import InverseDynamics
from merganser.multibody import MultibodyPlant, RevoluteSpring

RNG = np.random.default_rng(7)


def _damping(plant):
    d = np.zeros(plant.num_velocities())
    for j in plant.get_joint_indices():
        joint = plant.get_joint(j)
        if joint.num_velocities():
            d[joint.velocity_start()] = joint.damping()
    return d


def _expected(plant, x, vdot, extra_tau=None):
    """M v̇ + C v − τ_g + D v (− extra_tau) from the plant's mass matrix, bias and gravity."""
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x)
    tau = (plant.calc_mass_matrix(context) @ vdot + plant.calc_bias_term(context)
           - plant.calc_gravity_generalized_forces(context) + _damping(plant) * x[2:])
    return tau if extra_tau is None else tau - extra_tau


def _eval(controller, x, vdot=None):
    context = controller.create_default_context()
    controller.get_input_port_estimated_state().fix_value(context, x)
    if vdot is not None:
        controller.get_input_port_desired_acceleration().fix_value(context, vdot)
    return controller.get_output_port_generalized_force().eval(context)


def test_output_is_mass_matrix_times_acceleration_plus_bias_minus_gravity_plus_damping():
    plant = make_acrobot()                 # joint damping 0.1 on both joints
    controller = InverseDynamics(plant)
    for _ in range(5):
        x, vdot = RNG.uniform(-2, 2, 4), RNG.uniform(-3, 3, 2)
        np.testing.assert_allclose(_eval(controller, x, vdot), _expected(plant, x, vdot),
                                   rtol=1e-12, atol=1e-12)


def test_plant_driven_by_the_output_accelerates_as_desired():
    plant = make_acrobot()
    controller = InverseDynamics(plant)
    x, vdot = np.array([0.3, -1.1, 0.7, 2.0]), np.array([1.5, -0.5])
    tau = _eval(controller, x, vdot)
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x)
    plant.get_applied_generalized_force_input_port().fix_value(context, tau)
    np.testing.assert_allclose(plant.calc_forward_dynamics(context), vdot, atol=1e-12)


def test_force_elements_are_included():
    plant = MultibodyPlant(0.0)
    add_acrobot(plant)
    spring = plant.add_force_element(RevoluteSpring(plant.get_joint_by_name("elbow"), 0.2, 7.0))
    assert spring is not None
    plant.finalize()
    controller = InverseDynamics(plant)
    x, vdot = np.array([0.4, 0.5, -0.3, 0.2]), np.array([0.1, 2.0])
    tau_spring = np.array([0.0, -7.0 * (0.5 - 0.2)])
    np.testing.assert_allclose(_eval(controller, x, vdot), _expected(plant, x, vdot, tau_spring),
                               atol=1e-12)


def test_gravity_compensation_ignores_velocity_and_has_no_acceleration_port():
    plant = make_double_pendulum(damping=(0.3, 0.3))
    controller = InverseDynamics(plant, mode="gravity_compensation")
    assert controller.is_pure_gravity_compensation()
    assert controller.num_input_ports() == 1
    with pytest.raises(RuntimeError, match="no desired_acceleration port"):
        controller.get_input_port_desired_acceleration()
    q = np.array([0.3, -0.8])
    context = plant.create_default_context()
    plant.set_positions(context, q)
    tau_g = plant.calc_gravity_generalized_forces(context)
    for v in ([0.0, 0.0], [3.0, -2.0]):
        np.testing.assert_allclose(_eval(controller, np.concatenate([q, v])), -tau_g, atol=1e-12)
    # Closed form for point masses m1 = m2 = 1 at the ends of unit rods.
    g = 9.81
    s1, s12 = np.sin(q[0]), np.sin(q[0] + q[1])
    np.testing.assert_allclose(-tau_g, [g * (2 * s1 + s12), g * s12], atol=1e-12)


def test_ports_and_feedthrough_as_drake():
    controller = InverseDynamics(make_acrobot())
    assert [controller.get_input_port(i).get_name() for i in range(2)] == [
        "estimated_state", "desired_acceleration"]
    assert controller.get_output_port().get_name() == "generalized_force"
    assert controller.has_direct_feedthrough(0, 0) and controller.has_direct_feedthrough(1, 0)
    assert controller.get_input_port("estimated_state").size() == 4


def test_each_context_has_its_own_plant_context():
    plant = make_acrobot()
    controller = InverseDynamics(plant)
    x_a, x_b, vdot = np.array([0.1, 0.2, 0.0, 0.0]), np.array([1.0, -1.0, 0.5, 0.5]), np.zeros(2)
    context_a = controller.create_default_context()
    context_b = controller.create_default_context()
    for context, x in ((context_a, x_a), (context_b, x_b)):
        controller.get_input_port(0).fix_value(context, x)
        controller.get_input_port(1).fix_value(context, vdot)
    tau_a = np.array(controller.get_output_port().eval(context_a))
    tau_b = np.array(controller.get_output_port().eval(context_b))
    np.testing.assert_allclose(tau_a, _expected(plant, x_a, vdot), atol=1e-12)
    np.testing.assert_allclose(tau_b, _expected(plant, x_b, vdot), atol=1e-12)
    clone = context_a.clone()
    controller.get_input_port(0).fix_value(clone, x_b)
    np.testing.assert_allclose(controller.get_output_port().eval(clone), tau_b, atol=1e-12)
    np.testing.assert_allclose(controller.get_output_port().eval(context_a), tau_a, atol=1e-12)


def test_parameters_come_from_the_given_plant_context():
    plant = make_double_pendulum()
    plant_context = plant.create_default_context()
    link2 = plant.get_body_by_name("link2")
    link2.set_mass(plant_context, 3.0)
    heavy = InverseDynamics(plant, "gravity_compensation", plant_context=plant_context)
    x = np.array([np.pi / 2, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(_eval(heavy, x), [9.81 * (1 + 2 * 3.0), 9.81 * 3.0], atol=1e-12)


def test_kernel_path_equals_the_plant_api_path():
    plant = make_acrobot()                # gravity only, joint damping: the kernel path
    x, vdot = np.array([0.7, -0.2, 1.5, -0.4]), np.array([-2.0, 0.5])
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x)
    gravity = -plant.calc_gravity_generalized_forces(context)
    np.testing.assert_allclose(_eval(InverseDynamics(plant, "inverse_dynamics"), x, vdot),
                               _expected(plant, x, vdot), atol=1e-12)
    np.testing.assert_allclose(_eval(InverseDynamics(plant, "gravity_compensation"), x),
                               gravity, atol=1e-12)


def test_model_without_gravity_uses_the_plant_api():
    plant = MultibodyPlant(0.0)
    add_acrobot(plant)
    plant.set_gravity_enabled(plant.default_model_instance(), False)
    plant.finalize()
    controller = InverseDynamics(plant)
    x, vdot = np.array([0.3, 0.2, -1.0, 0.5]), np.array([0.4, -0.3])
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x)
    expected = (plant.calc_mass_matrix(context) @ vdot + plant.calc_bias_term(context)
                + _damping(plant) * x[2:])
    np.testing.assert_allclose(_eval(controller, x, vdot), expected, atol=1e-12)


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="InverseDynamics: mode must be one of 'inverse_dynamics', "
                                         "'gravity_compensation' .*got 'torque'"):
        InverseDynamics(make_acrobot(), mode="torque")
    unfinalized = MultibodyPlant(0.0)
    add_acrobot(unfinalized)
    with pytest.raises(RuntimeError, match="InverseDynamics: the plant must be finalized"):
        InverseDynamics(unfinalized)
    with pytest.raises(TypeError, match="plant must be a MultibodyPlant"):
        InverseDynamics("acrobot")
    with pytest.raises(ValueError, match="plant_context is not a context of the given plant"):
        InverseDynamics(make_acrobot(), plant_context=make_acrobot().create_default_context())
