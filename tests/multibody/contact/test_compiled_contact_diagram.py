"""A discrete plant with point contact (TAMSI or SAP) inside a compiled diagram: its
contact step runs in the compiled simulation loop (the plant's compiled form), and the
states, logs and statistics equal the block-by-block simulation bit for bit; where the
plant's step raises or warns, the compiled loop hands that step to Python, which raises
or warns as block by block."""

import warnings

import numpy as np
import pytest
from random_diagrams import prepared_context
from scenes import G, BoxScene

from merganser.controllers import PidController
from merganser.framework import (ConstantVectorSource, DiagramBuilder, Simulator,
                                 ZeroOrderHold, log_vector_output)
from merganser.framework.compiled_diagram import (compile_diagram_dynamics,
                                                  compiled_dynamics_status,
                                                  unfuse_compiled_dynamics)
from merganser.geometry import CoulombFriction, HalfSpace, RigidTransform, Sphere
from merganser.multibody import MultibodyPlantConfig, SpatialInertia, add_multibody_plant
from merganser.multibody.contact import ContactSolverError
from merganser.multibody.contact.contact_manager import PenetrationWarning
from merganser.multibody.plant.plant_core import get_plant_core
from merganser.multibody.tree import FixedOffsetFrame, RevoluteJoint


def _dropped_box(approximation, compiled, height=0.3, time_step=1e-3, setup=None):
    """The box of `scenes.BoxScene` (state logged every 10 ms) dropped from `height` with
    a sideways velocity, its diagram compiled or block by block (`setup(plant)` first)."""
    scene = BoxScene(approximation, log_period=0.01, time_step=time_step)
    if setup is not None:
        setup(scene.plant)
    ctx = scene.simulator.get_mutable_context()
    if compiled:
        assert compile_diagram_dynamics(scene.diagram, ctx), compiled_dynamics_status(ctx)
    else:
        unfuse_compiled_dynamics(ctx)
    scene.place(height, velocity=(0.4, -0.2, 0.0))
    return scene.simulator, ctx, scene.plant, scene.context, scene.logger


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
    """A two-link arm (0.25 m links, actuated damped elbow and shoulder) on a pivot 0.4 m
    up, its sphere tip pressed into the ground by a PID set point below it (the tip's body
    is not jointed to the world: its contact with the ground is not filtered); the PID's
    torque through a ZeroOrderHold when `hold`; the plant's state logged."""
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=1e-3, discrete_contact_approximation=approximation,
        contact_model="point"), builder)
    friction = CoulombFriction(0.5, 0.5)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", friction)
    inertia = SpatialInertia.make_from_central_inertia(
        0.5, [0.0, 0.0, -0.125], np.diag([0.003, 0.003, 0.0005]))
    upper = plant.add_rigid_body("upper", inertia)
    lower = plant.add_rigid_body("lower", inertia)
    pivot = plant.add_frame(FixedOffsetFrame("pivot", plant.world_frame(),
                                             RigidTransform([0, 0, 0.4])))
    elbow = plant.add_frame(FixedOffsetFrame("elbow", upper.body_frame(),
                                             RigidTransform([0, 0, -0.25])))
    for joint in (RevoluteJoint("shoulder", pivot, upper.body_frame(), [0, 1, 0], damping=0.1),
                  RevoluteJoint("elbow", elbow, lower.body_frame(), [0, 1, 0], damping=0.05)):
        plant.add_joint_actuator(joint.name(), plant.add_joint(joint))
    plant.register_collision_geometry(lower, RigidTransform([0, 0, -0.25]), Sphere(0.03),
                                      "tip", friction)
    plant.finalize()
    pid = builder.add_named_system("pid", PidController(np.full(2, 10.0), np.full(2, 1.0),
                                                        np.full(2, 1.0)))
    desired = builder.add_named_system("desired", ConstantVectorSource([0.3, 0.4, 0.0, 0.0]))
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
        plant.set_positions(context, [0.9, 0.6])
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
        simulator, ctx, plant, context, logger = _dropped_box(
            approximation, compiled, height=0.06,       # the setting is read when compiled
            setup=lambda plant: setattr(get_plant_core(plant).stepper, "max_iterations", 0))
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
    scene = BoxScene("sap", log_period=0.01)
    ctx = scene.diagram.create_default_context()
    scene.plant.get_applied_generalized_force_input_port().fix_value(
        scene.plant.get_my_context_from_root(ctx), np.zeros(6))
    assert not compile_diagram_dynamics(scene.diagram, ctx)
    status = compiled_dynamics_status(ctx)
    assert status.path == "block_by_block"
    assert "'applied_generalized_force' is connected or fixed" in status.reason


def test_a_new_stiction_tolerance_reaches_the_compiled_step():
    runs = []
    for compiled in (True, False):
        simulator, ctx, plant, context, logger = _dropped_box("sap", compiled, height=0.05)
        simulator.advance_to(0.05)
        plant.set_stiction_tolerance(1e-2)
        simulator.advance_to(0.2)
        runs.append(_outcome(simulator, ctx, plant, context, logger))
    assert runs[0] == runs[1]


def test_a_collision_filter_applied_in_the_scene_graph_context_mid_run_reaches_the_compiled_step():
    """Excluding the box-ground pair in the SceneGraph's Context between two advances
    (Drake's per-Context collision filter): the compiled contact step sees the new
    filter, as block by block does, so the box falls through the ground in both (before,
    the compiled step kept the tables it was compiled with and the box landed). Each run
    is whole before the next scene is built (building one renews every plan)."""
    from merganser.geometry import CollisionFilterDeclaration, GeometrySet, SceneGraph
    outcomes = []
    for compiled in (True, False):
        scene = BoxScene("sap", log_period=0.01, time_step=1e-3)
        simulator, ctx = scene.simulator, scene.simulator.get_mutable_context()
        if compiled:
            assert compile_diagram_dynamics(scene.diagram, ctx), compiled_dynamics_status(ctx)
        else:
            unfuse_compiled_dynamics(ctx)
        scene.place(0.3, velocity=(0.0, 0.0, 0.0))
        simulator.advance_to(0.1)                        # falling, not yet touching
        scene_graph = next(s for s in scene.diagram.get_systems() if isinstance(s, SceneGraph))
        sg_context = scene_graph.get_my_context_from_root(ctx)
        ids = scene_graph.model_inspector().get_all_geometry_ids()
        scene_graph.collision_filter_manager(sg_context).apply(
            CollisionFilterDeclaration().exclude_within(GeometrySet(list(ids))))
        simulator.advance_to(0.6)
        outcomes.append((ctx.get_discrete_state_vector().tobytes(),
                         scene.logger.find_log(ctx).data().tobytes(),
                         compiled_dynamics_status(ctx).path,
                         scene.plant.get_positions(scene.context)[6]))
    assert outcomes[0][:2] == outcomes[1][:2]
    assert outcomes[0][2] == "compiled"
    assert outcomes[0][3] < 0.3 - 0.5 * G * 0.6 ** 2 + 0.01     # free fall from 0.3 m
