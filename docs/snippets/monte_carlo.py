import numpy as np
from merganser.framework import Simulator, monte_carlo_simulation
from merganser.multibody import MultibodyPlant, RevoluteJoint, SpatialInertia


def make_pendulum(mass, angle, length=0.8):
    """A pendulum about world y: a point-like bob `length` below the pivot."""
    plant = MultibodyPlant(time_step=0.0)
    bob = plant.add_rigid_body("bob", SpatialInertia.make_from_central_inertia(
        mass, [0.0, 0.0, -length], np.diag([1e-4, 1e-4, 1e-4])))
    joint = plant.add_joint(RevoluteJoint("pivot", plant.world_frame(), bob.body_frame(),
                                          [0.0, 1.0, 0.0]))
    joint.set_default_positions([angle])     # a default: set_random_context keeps it
    plant.finalize()
    return plant


def make_simulator(generator):          # module level: worker processes import it by name
    plant = make_pendulum(mass=generator.uniform(0.5, 2.0), angle=generator.uniform(-1.0, 1.0))
    return Simulator(plant)


def output(system, context):
    return system.get_positions_and_velocities(context)


results = monte_carlo_simulation(make_simulator, output, 5.0, num_samples=1000, seed=0)
