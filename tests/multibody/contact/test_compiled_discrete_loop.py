"""A Simulator whose step is nothing but a discrete plant's contact update takes those
updates in one compiled call (`multibody.batched.plant_loop`); the same simulation
observed step by step (a monitor makes the Simulator apply every update itself) gives the
same states bit for bit, the same statistics and the same contact results, and the loop
keeps the plant's errors, warnings and the resting box's analytic equilibrium."""

import warnings

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, EventStatus, Simulator
from merganser.geometry import CoulombFriction, HalfSpace, RigidTransform, Sphere
from merganser.multibody import (MultibodyPlant, MultibodyPlantConfig, SpatialInertia,
                                 add_multibody_plant)
from merganser.multibody.batched import plant_loop
from merganser.multibody.contact import ContactSolverError
from merganser.multibody.contact.contact_manager import PenetrationWarning
from merganser.multibody.plant.plant_core import get_plant_core
from merganser.multibody.tree import FixedOffsetFrame, RevoluteJoint
from robot_models import load_reference_model
from scenes import G, BoxScene, SpherePile

APPROXIMATIONS = ["tamsi", "sap", "similar", "lagged"]


def _observe_every_step(simulator):
    simulator.set_monitor(lambda context: EventStatus.succeeded())


def _contact_summary(plant, context):
    results = plant.get_contact_results_output_port().eval(context)
    return [(results.point_pair_contact_info(i).contact_force.tolist(),
             results.point_pair_contact_info(i).point_pair.depth)
            for i in range(results.num_point_pair_contacts())]


def _run(make, observed, times):
    scene = make()
    if observed:
        _observe_every_step(scene.simulator)
    for t in times:
        scene.simulator.advance_to(t)
    sim = scene.simulator
    return (scene.plant.get_positions_and_velocities(scene.context).copy(),
            (sim.get_num_steps_taken(), sim.get_num_discrete_updates(),
             scene.context.get_time()),
            _contact_summary(scene.plant, scene.context))


def _dropped_box(approximation):
    scene = BoxScene(approximation)
    scene.place(0.3, velocity=(0.4, -0.2, 0.0))
    return scene


@pytest.mark.parametrize("approximation", APPROXIMATIONS)
@pytest.mark.parametrize("make", [_dropped_box, SpherePile], ids=["box", "pile"])
def test_the_compiled_loop_equals_the_loop_observed_step_by_step(approximation, make):
    times = [0.1234, 0.4, 0.6]          # a boundary between two update times, then on them
    x, stats, contacts = _run(lambda: make(approximation), False, times)
    x_ref, stats_ref, contacts_ref = _run(lambda: make(approximation), True, times)
    np.testing.assert_array_equal(x, x_ref)
    assert stats == stats_ref and stats[1] == 600    # updates at 0, 1 ms, ... 0.599 s
    assert contacts == contacts_ref and contacts      # in contact at the end


def test_a_resting_tamsi_box_carries_its_weight_and_sticks():
    scene = BoxScene("tamsi")
    scene.place(0.05)
    scene.simulator.advance_to(1.0)
    fn, results = scene.normal_force_on_box()
    assert results.num_point_pair_contacts() == 4
    assert fn == pytest.approx(1.0 * G, rel=1e-5)                 # m g
    # stiction: every contact point's slip far below the stiction tolerance
    assert np.abs(scene.velocity()).max() < 1e-3 * scene.plant.get_stiction_tolerance()
    for i in range(4):
        assert results.point_pair_contact_info(i).slip_speed < 1e-7


def test_a_resting_box_on_an_incline_below_the_friction_angle_sticks():
    scene = BoxScene("tamsi", mu=0.5, incline=0.3)     # tan(0.3) = 0.31 < 0.5
    scene.place(0.05)
    scene.simulator.advance_to(1.0)
    fn, _ = scene.normal_force_on_box()
    assert fn == pytest.approx(G * np.cos(0.3), rel=1e-6)
    # creep of the regularized friction only: below the stiction tolerance
    assert np.linalg.norm(scene.velocity()) < scene.plant.get_stiction_tolerance()


@pytest.mark.parametrize("approximation", ["tamsi", "sap"])
def test_a_failed_solve_inside_the_loop_raises_and_keeps_the_last_state(approximation):
    runs = []
    for observed in (False, True):
        scene = BoxScene(approximation)
        scene.place(0.06)                        # 10 mm of free fall first
        if observed:
            _observe_every_step(scene.simulator)
        scene.simulator.advance_to(0.02)
        get_plant_core(scene.plant).stepper.max_iterations = 0
        with pytest.raises(ContactSolverError, match=f"'{approximation}' solver did not"):
            scene.simulator.advance_to(0.2)
        runs.append((scene.context.get_time(),
                     scene.plant.get_positions_and_velocities(scene.context).copy()))
    assert runs[0][0] == runs[1][0] > 0.02
    np.testing.assert_array_equal(runs[0][1], runs[1][1])


def test_falling_through_the_ground_still_warns_once():
    scene = BoxScene("tamsi", time_step=0.5)
    scene.place(0.3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scene.simulator.advance_to(5.0)
    assert len([w for w in caught if issubclass(w.category, PenetrationWarning)]) == 1


def _arm_on_the_ground(approximation):
    """A two-link arm hanging from a fixed pivot 0.5 m up (actuated joints with damping,
    the actuation input left at its zero default), its sphere tip swinging into the
    ground; Drake's default contact model (hydroelastic with point fallback)."""
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=1e-3, discrete_contact_approximation=approximation), builder)
    friction = CoulombFriction(0.5, 0.5)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", friction)
    pivot = plant.add_frame(FixedOffsetFrame("pivot", plant.world_frame(),
                                             RigidTransform([0, 0, 0.5])))
    parent = pivot
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
    simulator = Simulator(builder.build())
    context = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant.set_positions(context, [0.3, 0.5])
    return simulator, plant, context


@pytest.mark.parametrize("approximation", ["tamsi", "sap"])
def test_an_actuated_damped_arm_equals_the_loop_observed_step_by_step(approximation):
    runs = []
    for observed in (False, True):
        simulator, plant, context = _arm_on_the_ground(approximation)
        if observed:
            _observe_every_step(simulator)
        contacts = []
        for k in range(1, 11):
            simulator.advance_to(0.1 * k)
            contacts.append(plant.get_contact_results_output_port().eval(
                context).num_point_pair_contacts())
        runs.append((plant.get_positions_and_velocities(context).copy(), contacts))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    assert runs[0][1] == runs[1][1] and max(runs[0][1]) == 1      # the tip touched down



@pytest.mark.parametrize("progress", [False, None, True])
def test_simulate_without_record_equals_the_loop_observed_step_by_step(progress):
    """simulate() sets no monitor when nothing is recorded (its progress bar polls the
    time from a thread instead), so the compiled loop applies; the result equals the
    simulation observed step by step, bit for bit."""
    observed = _dropped_box("sap")
    _observe_every_step(observed.simulator)
    observed.simulator.advance_to(0.4)
    scene = _dropped_box("sap")
    result = scene.diagram.simulate(0.4, context=scene.simulator.get_mutable_context(),
                                    progress=progress)
    context = scene.plant.get_my_context_from_root(result.context)
    np.testing.assert_array_equal(scene.plant.get_positions_and_velocities(context),
                                  observed.plant.get_positions_and_velocities(observed.context))
    assert result.num_steps == observed.simulator.get_num_steps_taken() == 400
    assert result.simulator.get_num_discrete_updates() == 400
    assert result.simulator.get_monitor() is None and result.time.size == 0
    assert _contact_summary(scene.plant, context) == _contact_summary(observed.plant,
                                                                      observed.context)


def _arm_without_scene_graph(approximation):
    """The two-link damped arm with joint limits it swings into, in a plant that was never
    registered with a SceneGraph (no geometry at all; the limits are the SAP family's
    constraints, so the plant steps with its solver)."""
    plant = MultibodyPlant(1e-3)
    plant.set_discrete_contact_approximation(approximation)
    parent = plant.world_frame()
    for i, (mass, damping) in enumerate([(1.0, 0.2), (0.5, 0.1)]):
        link = plant.add_rigid_body(f"link{i}", SpatialInertia.solid_box_with_mass(
            mass, 0.05, 0.05, 0.3))
        joint = plant.add_joint(RevoluteJoint(f"joint{i}", parent, link.body_frame(),
                                              [0, 1, 0], damping=damping))
        joint.set_position_limits([-0.4], [0.6])
        plant.add_joint_actuator(f"motor{i}", joint)
        parent = plant.add_frame(FixedOffsetFrame(f"end{i}", link.body_frame(),
                                                  RigidTransform([0, 0, -0.3])))
    plant.finalize()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    plant.set_positions(context, [0.5, -0.3])
    plant.set_velocities(context, [4.0, -4.0])          # into the limits at once
    return simulator, plant, context


@pytest.mark.parametrize("approximation", ["sap", "lagged"])
def test_a_plant_without_scene_graph_takes_the_compiled_loop_bit_for_bit(approximation,
                                                                         monkeypatch):
    calls = []
    compiled_steps = plant_loop.repeat_contact_steps

    def counted(*args):
        calls.append(args[7])                       # num_steps asked for
        return compiled_steps(*args)

    monkeypatch.setattr(plant_loop, "repeat_contact_steps", counted)
    runs = []
    for observed in (False, True):
        simulator, plant, context = _arm_without_scene_graph(approximation)
        if observed:
            _observe_every_step(simulator)
        simulator.advance_to(0.05)
        q_early = plant.get_positions(context).copy()
        simulator.advance_to(0.5)
        runs.append((plant.get_positions_and_velocities(context).copy(),
                     simulator.get_num_discrete_updates(), q_early))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    assert runs[0][1] == runs[1][1] == 500
    assert calls and all(n > 1 for n in calls)      # the unobserved run took the loop
    np.testing.assert_array_equal(runs[0][2], runs[1][2])
    # within 50 ms the first joint was driven onto its upper limit (0.6 rad; free, it
    # would be past 0.7) and stopped there
    assert 0.6 - 2e-3 < runs[0][2][0] <= 0.6 + 1e-6
    q = runs[0][0][:2]
    assert np.all(q > -0.4 - 1e-6) and np.all(q < 0.6 + 1e-6)


def _panda_with_coupled_fingers():
    """example-robot-data's Panda, base welded, no geometry: damped joints, limits the arm
    falls onto and the fingers' mimic coupler (a constraint)."""
    plant = MultibodyPlant(1e-3)
    plant.set_discrete_contact_approximation("sap")
    load_reference_model("panda", plant=plant)
    plant.finalize()
    assert plant.num_constraints() == 1
    simulator = Simulator(plant)
    return simulator, plant, simulator.get_mutable_context()


@pytest.mark.parametrize("deactivated", [False, True])
def test_constraints_take_the_compiled_loop_bit_for_bit_unless_changed_in_the_context(
        deactivated, monkeypatch):
    calls = []
    compiled_steps = plant_loop.repeat_contact_steps
    monkeypatch.setattr(plant_loop, "repeat_contact_steps",
                        lambda *args: calls.append(args[7]) or compiled_steps(*args))
    runs = []
    for observed in (False, True):
        simulator, plant, context = _panda_with_coupled_fingers()
        if deactivated:
            plant.set_constraint_active_status(context, plant.get_constraint_ids()[0], False)
        if observed:
            _observe_every_step(simulator)
        simulator.advance_to(0.3)
        runs.append(plant.get_positions_and_velocities(context).copy())
    np.testing.assert_array_equal(runs[0], runs[1])
    assert bool(calls) is not deactivated      # a context's own status: the Python step
