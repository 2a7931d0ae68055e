"""Module-level (picklable) simulator factories and outputs for the Monte Carlo and
parameter-sweep tests; worker processes import them by name."""

import numpy as np

from merganser.framework import LeafSystem, Simulator, SimulatorConfig, apply_simulator_config

LENGTH = 0.8          # m
DAMPING = 0.1         # N m s / rad
G = 9.81              # m / s²
MASS_RANGE = (0.5, 2.0)
ANGLE_RANGE = (-1.0, 1.0)


# ---- a MultibodyPlant pendulum whose mass and initial angle come from the generator ------
def make_plant_pendulum_simulator(generator):
    """A continuous MultibodyPlant pendulum (point-like bob LENGTH below a pivot about
    world y, joint damping DAMPING) with mass ~ U(MASS_RANGE) and initial angle
    ~ U(ANGLE_RANGE), both drawn here and put into the plant's defaults, which
    ``set_random_context`` restores (Drake's semantics)."""
    from merganser.multibody.math import SpatialInertia
    from merganser.multibody.plant import MultibodyPlant
    from merganser.multibody.tree import RevoluteJoint

    mass = generator.uniform(*MASS_RANGE)
    angle = generator.uniform(*ANGLE_RANGE)
    plant = MultibodyPlant(0.0)
    bob = plant.add_rigid_body("bob", SpatialInertia.make_from_central_inertia(
        mass, [0.0, 0.0, -LENGTH], np.diag([1e-4, 1e-4, 1e-4])))
    joint = plant.add_joint(RevoluteJoint("pivot", plant.world_frame(), bob.body_frame(),
                                          [0.0, 1.0, 0.0], damping=DAMPING))
    joint.set_default_positions([angle])
    plant.finalize()
    simulator = Simulator(plant)
    apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-6),
                           simulator)
    return simulator


def plant_state_and_mass(system, context):
    """[q, v, mass] of the plant pendulum at the final time."""
    bob = system.get_body_by_name("bob")
    return np.append(system.get_positions_and_velocities(context), bob.get_mass(context))


# ---- a LeafSystem pendulum that draws its state and parameter in set_random_* ------------
class RandomPendulum(LeafSystem):
    """θ̈ = -(G / LENGTH) sin θ - DAMPING θ̇ / (m LENGTH²); state [θ, θ̇], parameter [m].

    ``set_random_state`` draws θ ~ U(ANGLE_RANGE), θ̇ = 0; ``set_random_parameters``
    draws m ~ U(MASS_RANGE).
    """

    def __init__(self):
        super().__init__()
        self.declare_continuous_state(1, 1, 0)
        self.declare_numeric_parameter([1.0])
        self.declare_state_output_port("state", 0)

    def do_calc_time_derivatives(self, context, derivatives):
        theta, omega = context.get_continuous_state_vector()
        m = context.get_numeric_parameter(0)[0]
        derivatives.set_value([omega, -(G / LENGTH) * np.sin(theta)
                               - DAMPING * omega / (m * LENGTH ** 2)])

    def set_random_state(self, context, state, generator):
        state.get_mutable_continuous_state().set_from_vector(
            [generator.uniform(*ANGLE_RANGE), 0.0])

    def set_random_parameters(self, context, parameters, generator):
        parameters.get_mutable_numeric_parameter(0).set_value([generator.uniform(*MASS_RANGE)])


def make_leaf_pendulum_simulator(generator):
    """A RandomPendulum simulator; the randomness comes in through set_random_context."""
    return Simulator(RandomPendulum())


def leaf_initial_and_final(system, context):
    """[θ(T), θ̇(T), m]."""
    return np.append(context.get_continuous_state_vector(), context.get_numeric_parameter(0))


class UnpicklableError(RuntimeError):
    """An exception that cannot be unpickled (its constructor needs two arguments)."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def make_sometimes_failing_simulator(generator):
    """Like `make_leaf_pendulum_simulator`, but raises ValueError when the first draw is
    below 0.25 and UnpicklableError when it is above 0.9."""
    x = generator.uniform()
    if x < 0.25:
        raise ValueError(f"draw {x:.6f} is below 0.25")
    if x > 0.9:
        raise UnpicklableError(f"draw {x:.6f} is above 0.9", 7)
    return Simulator(RandomPendulum())


def unpicklable_output(system, context):
    """An output value that cannot be pickled (a closure)."""
    return lambda: context.get_time()
