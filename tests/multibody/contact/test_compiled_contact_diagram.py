"""A discrete plant with point contact (TAMSI or SAP) inside a compiled diagram: its
contact step runs in the compiled simulation loop (the plant's compiled form), and the
states, logs and statistics equal the block-by-block simulation bit for bit; where the
plant's step raises or warns, the compiled loop hands that step to Python, which raises
or warns as block by block."""

import warnings

import numpy as np
import pytest
from random_diagrams import prepared_context

from merganser.controllers import PidController
from merganser.framework import (ConstantVectorSource, DiagramBuilder, Simulator,
                                 ZeroOrderHold, log_vector_output)
from merganser.framework.compiled_diagram import compiled_dynamics_status
from merganser.geometry import Box, CoulombFriction, HalfSpace, RigidTransform, Sphere
from merganser.multibody import (MultibodyPlantConfig, SpatialInertia, SpatialVelocity,
                                 add_multibody_plant)
from merganser.multibody.contact import ContactSolverError
from merganser.multibody.contact.contact_manager import PenetrationWarning
from merganser.multibody.plant.plant_core import get_plant_core
from merganser.multibody.tree import FixedOffsetFrame, RevoluteJoint

G = 9.81


def _box_diagram(approximation, time_step=1e-3):
    """A 1 kg, 10 cm box over the ground, its state logged every 10 ms."""
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=time_step, discrete_contact_approximation=approximation,
        contact_model="point"), builder)
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.1, 0.1))
    friction = CoulombFriction(0.5, 0.5)
    plant.register_collision_geometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box",
                                      friction)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", friction)
    plant.finalize()
    logger = log_vector_output(plant.get_state_output_port(), builder, publish_period=0.01)
    return builder.build(), plant, box, logger


def _dropped_box(approximation, compiled, height=0.3, time_step=1e-3):
    diagram, plant, box, logger = _box_diagram(approximation, time_step)
    ctx = prepared_context(diagram, compiled)
    context = plant.get_my_context_from_root(ctx)
    plant.set_free_body_pose(context, box, RigidTransform([0.0, 0.0, height]))
    plant.set_free_body_spatial_velocity(context, box, SpatialVelocity(
        np.zeros(3), np.array([0.4, -0.2, 0.0])))
    return Simulator(diagram, ctx), ctx, plant, context, logger


def _outcome(simulator, ctx, plant, context, logger):
    results = plant.get_contact_results_output_port().eval(context)
    contacts = [(results.point_pair_contact_info(i).contact_force.tolist(),
                 results.point_pair_contact_info(i).point_pair.depth)
                for i in range(results.num_point_pair_contacts())]
    log = logger.find_log(ctx)
    return (ctx.get_discrete_state_vector().tobytes(), log.sample_times().tobytes(),
            log.data().tobytes(), simulator.get_num_discrete_updates(),
            simulator.get_num_steps_taken(), simulator.get_num_publishes(), contacts)


@pytest.mark.parametrize("approximation", ["tamsi", "sap", "similar", "lagged"])
def test_a_dropped_box_in_a_compiled_diagram_equals_block_by_block(approximation):
    runs = []
    for compiled in (True, False):
        simulator, ctx, plant, context, logger = _dropped_box(approximation, compiled)
        status = compiled_dynamics_status(ctx)
        assert not compiled or (status.path == "compiled" and status.python_events == ())
        for t in (0.1234, 0.6):           # a boundary between two update times, then on one
            simulator.advance_to(t)
        runs.append(_outcome(simulator, ctx, plant, context, logger))
    assert runs[0] == runs[1]
    assert runs[0][3] == 600 and len(runs[0][6]) == 4      # four corners on the ground
    z = plant.get_positions(context)[6]
    assert z == pytest.approx(0.05, abs=1e-3)               # resting on its face
    total = sum(np.array(force) for force, _ in runs[0][6])
    assert abs(total[2]) == pytest.approx(1.0 * G, rel=1e-3)   # m g


def _arm(approximation, hold):
    """A two-link arm (actuated, damped) on a pivot 0.5 m up, its sphere tip pressed into
    the ground by a PID set point below it; the PID's torque through a ZeroOrderHold when
    `hold`; the plant's state logged."""
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=1e-3, discrete_contact_approximation=approximation,
        contact_model="point"), builder)
    friction = CoulombFriction(0.5, 0.5)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", friction)
    parent = plant.add_frame(FixedOffsetFrame("pivot", plant.world_frame(),
                                              RigidTransform([0, 0, 0.5])))
    for i, (mass, damping) in enumerate([(1.0, 0.2), (0.5, 0.1)]):
        link = plant.add_rigid_body(f"link{i}", SpatialInertia.solid_box_with_mass(
            mass, 0.05, 0.05, 0.3))
        joint = plant.add_joint(RevoluteJoint(f"joint{i}", parent, link.body_frame(),
                                              [0, 1, 0], damping=damping))
        plant.add_joint_actuator(f"motor{i}", joint)
        parent = plant.add_frame(FixedOffsetFrame(f"end{i}", link.body_frame(),
                                                  RigidTransform([0, 0, -0.3])))
    plant.register_collision_geometry(link, RigidTransform([0, 0, -0.3]), Sphere(0.03), "tip",
                                      friction)
    plant.finalize()
    pid = builder.add_named_system("pid", PidController(np.full(2, 20.0), np.full(2, 1.0),
                                                        np.full(2, 2.0)))
    desired = builder.add_named_system("desired", ConstantVectorSource([0.2, 0.1, 0.0, 0.0]))
    builder.connect(plant.get_state_output_port(), pid.get_input_port_estimated_state())
    builder.connect(desired.get_output_port(), pid.get_input_port_desired_state())
    if hold:
        zoh = builder.add_named_system("zoh", ZeroOrderHold(0.005, 2))
        builder.connect(pid.get_output_port_control(), zoh.get_input_port())
        builder.connect(zoh.get_output_port(), plant.get_actuation_input_port())
    else:
        builder.connect(pid.get_output_port_control(), plant.get_actuation_input_port())
    logger = log_vector_output(plant.get_state_output_port(), builder, publish_period=0.01)
    return builder.build(), plant, logger


@pytest.mark.parametrize("hold", [False, True], ids=["pid", "pid_zoh"])
@pytest.mark.parametrize("approximation", ["tamsi", "sap"])
def test_a_pid_arm_pressing_on_the_ground_compiled_equals_block_by_block(approximation,
                                                                         hold):
    runs = []
    for compiled in (True, False):
        diagram, plant, logger = _arm(approximation, hold)
        ctx = prepared_context(diagram, compiled)
        context = plant.get_my_context_from_root(ctx)
        plant.set_positions(context, [0.8, 0.6])
        status = compiled_dynamics_status(ctx)
        assert not compiled or (status.python_systems == () and status.python_events == ())
        simulator = Simulator(diagram, ctx)
        simulator.advance_to(1.0)
        contacts = plant.get_contact_results_output_port().eval(
            context).num_point_pair_contacts()
        runs.append((_outcome(simulator, ctx, plant, context, logger)[:6],
                     ctx.get_continuous_state_vector().tobytes(), contacts))
    assert runs[0] == runs[1]
    assert runs[0][2] == 1                 # the tip is on the ground at the end


@pytest.mark.parametrize("approximation", ["tamsi", "sap"])
def test_a_failed_solve_raises_at_the_same_step_on_both_paths(approximation):
    runs = []
    for compiled in (True, False):
        diagram, plant, box, logger = _box_diagram(approximation)
        get_plant_core(plant).stepper.max_iterations = 0     # read when compiled
        ctx = prepared_context(diagram, compiled)
        context = plant.get_my_context_from_root(ctx)
        plant.set_free_body_pose(context, box, RigidTransform([0.0, 0.0, 0.06]))
        simulator = Simulator(diagram, ctx)
        simulator.advance_to(0.02)          # 10 mm of free fall first: compiled steps
        with pytest.raises(ContactSolverError, match=f"'{approximation}' solver did not"):
            simulator.advance_to(0.2)
        runs.append((ctx.get_time(), ctx.get_discrete_state_vector().tobytes(),
                     logger.find_log(ctx).data().tobytes()))
    assert runs[0] == runs[1] and runs[0][0] > 0.02


def test_falling_through_the_ground_warns_once_on_both_paths():
    runs = []
    for compiled in (True, False):
        simulator, ctx, plant, context, logger = _dropped_box("sap", compiled,
                                                              time_step=0.5)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            simulator.advance_to(5.0)
        runs.append((len([w for w in caught if issubclass(w.category, PenetrationWarning)]),
                     ctx.get_discrete_state_vector().tobytes()))
    assert runs[0] == runs[1] and runs[0][0] == 1


def test_an_applied_force_input_keeps_the_contact_plant_in_python():
    diagram, plant, box, logger = _box_diagram("sap")
    ctx = diagram.create_default_context()
    plant.get_applied_generalized_force_input_port().fix_value(
        plant.get_my_context_from_root(ctx), np.zeros(6))
    prepared = prepared_context(diagram, True)
    assert compiled_dynamics_status(prepared).python_events == ()
    from merganser.framework.compiled_diagram import compile_diagram_dynamics
    compile_diagram_dynamics(diagram, ctx)
    status = compiled_dynamics_status(ctx)
    assert "'applied_generalized_force' is connected or fixed" in str(status) + "".join(
        status.python_events)


def test_a_new_stiction_tolerance_reaches_the_compiled_step():
    runs = []
    for compiled in (True, False):
        simulator, ctx, plant, context, logger = _dropped_box("sap", compiled, height=0.05)
        simulator.advance_to(0.05)
        plant.set_stiction_tolerance(1e-2)
        simulator.advance_to(0.2)
        runs.append(_outcome(simulator, ctx, plant, context, logger))
    assert runs[0] == runs[1]
