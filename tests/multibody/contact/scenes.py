"""Contact test scenes: a 1 kg, 0.1 m box on a (possibly inclined) ground, and ten spheres
dropped into a bin; built through MultibodyPlantConfig so that only the config changes
between solvers ("continuous" means time_step = 0 with the penalty model)."""

import numpy as np

from merganser.framework import (DiagramBuilder, Simulator, SimulatorConfig,
                                 apply_simulator_config, log_vector_output)
from merganser.geometry import Box, CoulombFriction, HalfSpace, RigidTransform, RollPitchYaw, Sphere
from merganser.multibody import MultibodyPlantConfig, SpatialInertia, add_multibody_plant

SOLVERS = ["tamsi", "sap", "similar", "lagged", "lcp"]
MODELS = SOLVERS + ["continuous"]
G = 9.81
# The continuous runs use a coarser stiction tolerance than the default 1e-4 m/s: the
# regularized friction is then 10x less stiff for the error-controlled integrator.
CONTINUOUS_STICTION = 1e-3


def make_config(model, **kwargs):
    if model == "continuous":
        kwargs.setdefault("stiction_tolerance", CONTINUOUS_STICTION)
        return MultibodyPlantConfig(time_step=0.0, contact_model="point", **kwargs)
    kwargs.setdefault("time_step", 1e-3)
    return MultibodyPlantConfig(contact_model="point", discrete_contact_approximation=model,
                                **kwargs)


def make_simulator(diagram, model):
    sim = Simulator(diagram)
    if model == "continuous":
        apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-3,
                                               max_step_size=1e-2), sim)
    return sim


class BoxScene:
    """The box on a ground plane inclined by `incline` (rad) about y, friction μ."""

    def __init__(self, model, mu=0.5, incline=0.0, log_period=None, **config):
        builder = DiagramBuilder()
        self.plant, self.scene_graph = add_multibody_plant(make_config(model, **config), builder)
        plant = self.plant
        self.box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(
            1.0, 0.1, 0.1, 0.1))
        friction = CoulombFriction(mu, mu)
        plant.register_collision_geometry(self.box, RigidTransform(), Box(0.1, 0.1, 0.1), "box",
                                          friction)
        self.R_WG = RollPitchYaw(0.0, incline, 0.0)
        plant.register_collision_geometry(plant.world_body(), RigidTransform(self.R_WG),
                                          HalfSpace(), "ground", friction)
        plant.finalize()
        if log_period is not None:       # the plant's state logged every log_period s
            self.logger = log_vector_output(plant.get_state_output_port(), builder,
                                            publish_period=log_period)
        self.diagram = builder.build()
        self.simulator = make_simulator(self.diagram, model)
        self.context = plant.get_my_context_from_root(self.simulator.get_mutable_context())
        self.normal = self.R_WG.to_rotation_matrix().matrix()[:, 2]

    def place(self, height, velocity=(0.0, 0.0, 0.0)):
        """Box faces aligned with the ground, its centre `height` above it along the normal."""
        from merganser.multibody import SpatialVelocity
        self.plant.set_free_body_pose(self.context, self.box,
                                      RigidTransform(self.R_WG, height * self.normal))
        self.plant.set_free_body_spatial_velocity(
            self.context, self.box, SpatialVelocity(np.zeros(3), np.array(velocity, float)))

    def position(self):
        return self.plant.eval_body_pose_in_world(self.context, self.box).translation()

    def velocity(self):
        return self.plant.get_velocities(self.context)[3:].copy()

    def normal_force_on_box(self):
        """Sum of the contact forces on the box along the ground normal (N)."""
        results = self.plant.get_contact_results_output_port().eval(self.context)
        total = np.zeros(3)
        for i in range(results.num_point_pair_contacts()):
            info = results.point_pair_contact_info(i)
            sign = 1.0 if info.bodyB_index == self.box.index() else -1.0
            total += sign * info.contact_force
        return float(total @ self.normal), results


class SpherePile:
    """Ten 0.1 kg spheres (r = 5 cm) dropped into a 0.25 m square bin."""

    def __init__(self, model, **config):
        if model == "continuous":
            # ten bodies in frictional contact: a coarser friction regularization keeps
            # the error-controlled integrator's steps large enough for a fast test
            config.setdefault("stiction_tolerance", 1e-2)
        builder = DiagramBuilder()
        self.plant, _ = add_multibody_plant(make_config(model, **config), builder)
        plant = self.plant
        friction = CoulombFriction(0.5, 0.5)
        self.radius = r = 0.05
        self.balls = []
        for i in range(10):
            ball = plant.add_rigid_body(f"ball{i}", SpatialInertia.solid_sphere_with_mass(0.1, r))
            plant.register_collision_geometry(ball, RigidTransform(), Sphere(r), "sphere",
                                              friction)
            self.balls.append(ball)
        world = plant.world_body()
        plant.register_collision_geometry(world, RigidTransform(), HalfSpace(), "ground",
                                          friction)
        half = 0.125
        walls = [([half + 0.05, 0, 0.25], (0.1, 0.45, 0.5)), ([-half - 0.05, 0, 0.25], (0.1, 0.45, 0.5)),
                 ([0, half + 0.05, 0.25], (0.45, 0.1, 0.5)), ([0, -half - 0.05, 0.25], (0.45, 0.1, 0.5))]
        for k, (p, size) in enumerate(walls):
            plant.register_collision_geometry(world, RigidTransform(p), Box(*size), f"wall{k}",
                                              friction)
        plant.finalize()
        self.diagram = builder.build()
        self.simulator = make_simulator(self.diagram, model)
        self.context = plant.get_my_context_from_root(self.simulator.get_mutable_context())
        rng = np.random.default_rng(0)
        for i, ball in enumerate(self.balls):
            plant.set_free_body_pose(self.context, ball, RigidTransform(
                [rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), 0.1 + 0.12 * i]))

    def max_depth(self):
        results = self.plant.get_contact_results_output_port().eval(self.context)
        return max(results.point_pair_contact_info(i).point_pair.depth
                   for i in range(results.num_point_pair_contacts()))
