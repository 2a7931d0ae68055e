"""``merganser warmup``: compile every kernel ahead, for images and CI.

numba compiles a kernel at its first call for each argument types; the machine code is
cached on disk (beside the sources, or in ``NUMBA_CACHE_DIR``), so only the first run on a
machine pays. Warmup runs one small scene per group of kernels, the way a user's program
reaches them, so that the cache holds what a first program needs:

========================  ===========================================================
``framework``             error-controlled and implicit integrators, trajectories
``dynamics``              the dynamics queries of a plant (kinematics, Jacobians, mass
                          matrix, inverse and forward dynamics, momentum, energy)
``continuous``            a continuous plant under Runge-Kutta 3 and implicit Euler
``discrete``              a discrete plant without contact
``point_contact``         a box on the ground under each discrete contact approximation
                          (sap, similar, lagged, tamsi, lcp) and under penalty contact
``hydroelastic``          a compliant box on a rigid ground under SAP
``batched``               `BatchedPlant` and the batched dynamics (parallel kernels)
========================  ===========================================================

Prints a progress bar and, at the end, how many kernels were compiled and how many came
from the cache (all of them on a second run).
"""

from __future__ import annotations

import sys
import time

import numpy as np

__all__ = ["WARMUP_GROUPS", "run", "warm_up"]

#: A URDF with every joint type the kernels switch on (revolute, prismatic, ball-free
#: floating base) and a collision box, built in code so that warmup needs no files.
_ROBOT = """<?xml version="1.0"?>
<robot name="warmup">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.02" iyy="0.02" izz="0.02"
    ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0 0 0.2"/><mass value="1"/><inertia ixx="0.01"
    iyy="0.01" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="slider"><inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001"
    izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="50" velocity="5"/></joint>
  <joint name="slide" type="prismatic"><parent link="arm"/><child link="slider"/>
    <origin xyz="0 0 0.4"/><axis xyz="0 0 1"/><limit lower="-0.1" upper="0.1" effort="50"
    velocity="1"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="shoulder"/>
    <actuator name="m"/></transmission>
</robot>
"""


#: The slider's actuator too: with every joint actuated, the plant's forward dynamics is
#: one kernel call (the one-call path a Panda takes).
_SLIDE_ACTUATOR = """  <transmission name="t2"><type>transmission_interface/SimpleTransmission</type>
    <joint name="slide"/>
    <actuator name="m2"/></transmission>
</robot>"""


def _robot(time_step=0.0, fixed=True, actuate_all=False):
    from merganser.multibody import MultibodyPlant
    from merganser.multibody.parsing import Parser

    plant = MultibodyPlant(time_step)
    urdf = _ROBOT.replace("</robot>", _SLIDE_ACTUATOR) if actuate_all else _ROBOT
    Parser(plant).add_models_from_string(urdf, "urdf")
    if fixed:
        plant.weld_frames(plant.world_frame(), plant.get_body_by_name("base").body_frame())
    plant.finalize()
    return plant


def _framework():
    from merganser.framework import LinearSystem, PiecewisePolynomial, SimulatorConfig

    system = LinearSystem([[0.0, 1.0], [-1.0, -0.1]], np.zeros((2, 1)), np.eye(2), np.zeros((2, 1)))
    for scheme in ("runge_kutta3", "runge_kutta5", "implicit_euler"):
        context = system.create_default_context()
        system.get_input_port(0).fix_value(context, [0.0])
        context.set_continuous_state([1.0, 0.0])
        system.simulate(0.1, context=context, progress=False,
                        config=SimulatorConfig(integration_scheme=scheme))
    spline = PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        [0.0, 1.0, 2.0], np.array([[0.0, 1.0, 0.0]]))
    spline.value(0.5)
    spline.eval_derivative(1.5, 2)


def _dynamics():
    from merganser.multibody import JacobianWrtVariable, MultibodyForces

    for fixed, actuate_all in ((True, False), (False, False), (True, True)):
        plant = _robot(fixed=fixed, actuate_all=actuate_all)
        ctx = plant.create_default_context()
        if actuate_all:
            plant.get_actuation_input_port().fix_value(ctx, np.full(plant.num_actuators(), 0.1))
        plant.set_positions(ctx, plant.get_positions(ctx) + 0.1)
        plant.set_velocities(ctx, np.full(plant.num_velocities(), 0.2))
        arm = plant.get_body_by_name("arm")
        plant.eval_body_pose_in_world(ctx, arm)
        plant.eval_body_spatial_velocity_in_world(ctx, arm)
        plant.calc_mass_matrix(ctx)
        plant.calc_bias_term(ctx)
        plant.calc_gravity_generalized_forces(ctx)
        forces = MultibodyForces(plant)
        plant.calc_force_elements_contribution(ctx, forces)
        plant.calc_inverse_dynamics(ctx, np.zeros(plant.num_velocities()), forces)  # lazy
        forces.generalized_forces()                 # read: computed from the snapshot
        plant.calc_inverse_dynamics(ctx, np.zeros(plant.num_velocities()), forces)
        plant.calc_forward_dynamics(ctx)
        plant.calc_jacobian_spatial_velocity(ctx, JacobianWrtVariable.kV, arm.body_frame(),
                                             np.zeros(3), plant.world_frame(), plant.world_frame())
        # the general path: points (3, n), another frame A (a walking robot's feet)
        plant.calc_jacobian_translational_velocity(
            ctx, JacobianWrtVariable.kV, arm.body_frame(), np.zeros((3, 2)),
            plant.world_frame(), plant.world_frame())
        plant.calc_jacobian_spatial_velocity(ctx, JacobianWrtVariable.kQDot, arm.body_frame(),
                                             np.zeros(3), arm.body_frame(), plant.world_frame())
        plant.calc_center_of_mass_position_in_world(ctx)
        plant.calc_kinetic_energy(ctx)
        plant.calc_potential_energy(ctx)


def _continuous():
    from merganser.framework import SimulatorConfig

    for fixed in (True, False):
        plant = _robot(fixed=fixed)
        for scheme in ("runge_kutta3", "implicit_euler"):
            ctx = plant.create_default_context()
            plant.get_actuation_input_port().fix_value(ctx, np.zeros(plant.num_actuators()))
            plant.simulate(0.01, context=ctx, progress=False,
                           config=SimulatorConfig(integration_scheme=scheme))


def _discrete():
    from merganser.framework import Simulator
    from merganser.multibody import MultibodyPlant
    from merganser.multibody.parsing import Parser

    for fixed in (True, False):
        plant = _robot(1e-3, fixed=fixed)
        ctx = plant.create_default_context()
        plant.get_actuation_input_port().fix_value(ctx, np.zeros(plant.num_actuators()))
        plant.simulate(0.005, context=ctx, progress=False)
    # a plant alone, no actuators, whose step is the SAP solver's (its joint limits): the
    # compiled discrete loop on an empty scene (multibody/batched/plant_loop.py), as a
    # passive robot from a URDF takes it
    plant = MultibodyPlant(1e-3)
    plant.set_discrete_contact_approximation("sap")
    urdf = _ROBOT[:_ROBOT.index("  <transmission")] + "</robot>"
    Parser(plant).add_models_from_string(urdf, "urdf")
    plant.weld_frames(plant.world_frame(), plant.get_body_by_name("base").body_frame())
    plant.finalize()
    Simulator(plant).advance_to(0.006)


def _box_scene(approximation, contact_model, time_step):
    from merganser.framework import DiagramBuilder
    from merganser.geometry import (Box, CoulombFriction, HalfSpace, ProximityProperties,
                                    RigidTransform, add_compliant_hydroelastic_properties,
                                    add_contact_material, add_rigid_hydroelastic_properties)
    from merganser.multibody import MultibodyPlantConfig, SpatialInertia, add_multibody_plant

    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=time_step, contact_model=contact_model,
        discrete_contact_approximation=approximation), builder)
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.1, 0.1))
    box_props = add_contact_material(friction=CoulombFriction(0.5, 0.5),
                                     properties=ProximityProperties())
    ground_props = add_contact_material(friction=CoulombFriction(0.5, 0.5),
                                        properties=ProximityProperties())
    if contact_model == "hydroelastic":
        add_compliant_hydroelastic_properties(0.05, 5e7, box_props)
        add_rigid_hydroelastic_properties(properties=ground_props)
    plant.register_collision_geometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box", box_props)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", ground_props)
    plant.finalize()
    diagram = builder.build()
    ctx = diagram.create_default_context()
    plant.set_free_body_pose(plant.get_my_context_from_root(ctx), box,
                             RigidTransform([0.0, 0.0, 0.049]))
    diagram.simulate(0.003 if time_step else 0.001, context=ctx, progress=False)
    if time_step and approximation in ("sap", "tamsi"):
        # with a monitor (or a visualizer, a logger of a Python port): the per-step
        # Python path, which calls the solver's step kernel from Python
        from merganser.framework import EventStatus, Simulator
        monitored = Simulator(diagram, diagram.create_default_context())
        monitored.set_monitor(lambda context: EventStatus.succeeded())
        monitored.advance_to(0.003)
        # a Simulator with nothing but the plant's update: its compiled discrete loop
        # (multibody/batched/plant_loop.py; one kernel for every approximation it takes)
        from merganser.framework import Simulator
        Simulator(diagram, ctx).advance_to(0.006)


def _point_contact():
    for approximation in ("sap", "similar", "lagged", "tamsi", "lcp"):
        _box_scene(approximation, "point", 1e-3)
    _box_scene("sap", "point", 0.0)


def _hydroelastic():
    _box_scene("sap", "hydroelastic", 1e-3)


def _controllers():
    from merganser.controllers import (InverseDynamics, InverseDynamicsController,
                                       linear_quadratic_regulator)
    from merganser.framework import ConstantVectorSource, DiagramBuilder, EventStatus, Simulator

    plant = _robot(actuate_all=True)
    ctx = plant.create_default_context()
    # gravity compensated: an equilibrium, as linearization requires
    plant.get_actuation_input_port().fix_value(ctx, -plant.calc_gravity_generalized_forces(ctx))
    linear_quadratic_regulator(plant, ctx, np.eye(4), np.eye(2),
                               input_port_index=plant.get_actuation_input_port().get_index())
    # gains as arrays or scalars, with and without the reference acceleration input, the
    # state of the plant or of one model instance, continuous and discrete, in the
    # compiled diagram and in the Python loop (a monitor)
    for time_step, reference in ((0.0, False), (1e-3, False), (0.0, True), (1e-3, True)):
        builder = DiagramBuilder()
        robot = builder.add_system(_robot(time_step, actuate_all=True))
        n = robot.num_velocities()
        gains = (10.0, 0.0, 2.0) if reference else (np.full(n, 10.0), np.zeros(n),
                                                     np.full(n, 2.0))
        controller = builder.add_system(InverseDynamicsController(
            _robot(actuate_all=True), *gains, reference))
        target = builder.add_system(ConstantVectorSource(np.zeros(2 * n)))
        instance = robot.get_model_instance_by_name("warmup")
        builder.connect(robot.get_state_output_port(instance) if reference
                        else robot.get_state_output_port(),
                        controller.get_input_port_estimated_state())
        builder.connect(target.get_output_port(), controller.get_input_port_desired_state())
        if reference:
            acceleration = builder.add_system(ConstantVectorSource(np.zeros(n)))
            builder.connect(acceleration.get_output_port(),
                            controller.get_input_port_desired_acceleration())
        builder.connect(controller.get_output_port_control(), robot.get_actuation_input_port())
        diagram = builder.build()
        diagram.simulate(0.005, progress=False)
        simulator = Simulator(diagram)
        simulator.set_monitor(lambda context: EventStatus.succeeded())
        simulator.advance_to(0.003)
    # InverseDynamics (gravity compensation as `merganser simulate --hold` wires it, and
    # inverse dynamics) into the applied generalized force
    for time_step, mode in ((0.0, "gravity_compensation"), (1e-3, "gravity_compensation"),
                            (0.0, "inverse_dynamics")):
        builder = DiagramBuilder()
        robot = builder.add_system(_robot(time_step, actuate_all=True))
        inverse = builder.add_system(InverseDynamics(_robot(actuate_all=True), mode=mode))
        builder.connect(robot.get_state_output_port(), inverse.get_input_port(0))
        if mode == "inverse_dynamics":
            acceleration = builder.add_system(ConstantVectorSource(
                np.zeros(robot.num_velocities())))
            builder.connect(acceleration.get_output_port(), inverse.get_input_port(1))
        builder.connect(inverse.get_output_port(0),
                        robot.get_applied_generalized_force_input_port())
        diagram = builder.build()
        context = diagram.create_default_context()
        robot.get_actuation_input_port().fix_value(robot.get_my_context_from_root(context),
                                                   np.zeros(robot.num_actuators()))
        diagram.simulate(0.005, context=context, progress=False)


#: A floating hull with a URDF ``<hydro>`` block (buoyancy, drag, added mass).
_HULL = """<?xml version="1.0"?>
<robot name="hull"><link name="hull"><inertial><mass value="20"/><inertia ixx="0.4"
  iyy="0.7" izz="0.9" ixy="0" ixz="0" iyz="0"/></inertial>
  <hydro><buoyancy><volume>0.02</volume><origin xyz="0 0 0.05"/></buoyancy>
    <added_mass>10 0 0 0 0 0 0 15 0 0 0 0 0 0 20 0 0 0 0 0 0 0.5 0 0 0 0 0 0 0.8 0
      0 0 0 0 0 0.8</added_mass>
    <drag><linear_damping>-5 -8 -10 -1 -1 -1</linear_damping>
      <quadratic_damping>-30 -40 -50 -2 -2 -2</quadratic_damping></drag></hydro>
</link></robot>"""


def _hydrodynamics():
    from merganser.multibody import MultibodyPlant
    from merganser.multibody.parsing import Parser

    plant = MultibodyPlant(0.0)
    Parser(plant).add_models_from_string(_HULL, "urdf")
    plant.finalize()
    plant.simulate(0.01, progress=False)


def _batched():
    from merganser.multibody.batched import BatchedPlant
    from merganser.multibody.kernels import TreeDynamics  # noqa: F401  (facade of the batch)

    for fixed in (True, False):
        plant = _robot(fixed=fixed)
        for scheme in ("semi_explicit_euler", "runge_kutta2"):
            batch = BatchedPlant(plant, 4, time_step=1e-3, integration_scheme=scheme)
            batch.step(num_steps=2)
            batch.set_pd_gains(np.ones(batch.num_actuators()), np.ones(batch.num_actuators()))
            batch.step(num_steps=1, desired_state=np.zeros((4, 2 * batch.num_actuators())))


#: (name, what it compiles, function), in the order warmup runs them.
WARMUP_GROUPS = (
    ("framework", "integrators and trajectories", _framework),
    ("dynamics", "dynamics queries", _dynamics),
    ("continuous", "continuous plant (Runge-Kutta 3, implicit Euler)", _continuous),
    ("discrete", "discrete plant without contact", _discrete),
    ("point_contact", "point contact (sap, similar, lagged, tamsi, lcp, penalty)", _point_contact),
    ("hydroelastic", "hydroelastic contact", _hydroelastic),
    ("controllers", "LQR linearization and computed torque", _controllers),
    ("hydrodynamics", "URDF hydrodynamics (added mass)", _hydrodynamics),
    ("batched", "BatchedPlant and batched dynamics", _batched),
)


def warm_up(groups=None, progress=True, file=None):
    """Compile (or load from the cache) the kernels of `groups` (default all).

    Returns
    -------
    dict
        ``{"kernels": n, "compiled": c, "cached": n - c, "seconds": s}``: the kernels
        (signatures) reached, how many were compiled and how many loaded from the cache.
    """
    from tqdm.auto import tqdm

    from merganser.framework.compilation import compile_statistics

    file = sys.stderr if file is None else file
    names = [g[0] for g in WARMUP_GROUPS]
    chosen = names if not groups else list(groups)
    for name in chosen:
        if name not in names:
            raise ValueError(f"warm_up: unknown group {name!r}; groups are {', '.join(names)}")
    start = time.perf_counter()
    bar = tqdm(total=len(chosen), desc="merganser warmup", unit="group", file=file,
               disable=not progress)
    for name, label, fn in WARMUP_GROUPS:
        if name in chosen:
            bar.set_postfix_str(label)
            fn()
            bar.update(1)
    bar.close()
    stats = compile_statistics()
    signatures = sum(s for s, _, _ in stats.values())
    cached = sum(h for _, _, h in stats.values())
    return {"kernels": signatures, "compiled": signatures - cached, "cached": cached,
            "seconds": time.perf_counter() - start}


def run(args, parser):
    """Entry of ``merganser warmup``."""
    summary = warm_up(args.group or None, progress=not args.no_progress)
    print(f"merganser warmup: {summary['kernels']} kernel signatures ready: "
          f"{summary['compiled']} compiled, {summary['cached']} loaded from the cache "
          f"({summary['seconds']:.1f} s)")
    return 0
