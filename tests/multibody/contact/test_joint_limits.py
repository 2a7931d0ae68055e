"""Joint position limits in the discrete SAP-family step (Drake's SapLimitConstraint):
a body driven into a limit stops there as in Drake, limits hold under gravity, limits
changed after finalize apply, and solvers that do not model limits leave them alone."""

import numpy as np
import pytest

from merganser.framework import Simulator
from merganser.multibody import MultibodyPlant, SpatialInertia
from merganser.multibody.plant.discrete_solvers import JointLimitsWarning
from merganser.multibody.tree import FixedOffsetFrame, RevoluteJoint
from merganser.geometry import RigidTransform
from robot_models import load_reference_model


def _spinning_box(approximation, lower, upper):
    """A 2 kg box (0.05 x 0.05 x 1 m) on a pin through its center (no gravity torque),
    undamped, spinning at 2 rad/s from q = 0 toward its upper limit."""
    plant = MultibodyPlant(1e-3)
    plant.set_discrete_contact_approximation(approximation)
    link = plant.add_rigid_body("link", SpatialInertia.solid_box_with_mass(2.0, 0.05, 0.05, 1.0))
    joint = plant.add_joint(RevoluteJoint("pin", plant.world_frame(), link.body_frame(),
                                          [0, 1, 0], damping=0.0))
    joint.set_position_limits([lower], [upper])
    plant.finalize()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    plant.set_velocities(context, [2.0])
    return simulator, plant, joint, context


@pytest.mark.parametrize("approximation", ["sap", "lagged", "similar"])
def test_a_spinning_body_stops_at_its_limit_as_in_drake(approximation):
    simulator, plant, _, context = _spinning_box(approximation, -0.3, 0.4)
    simulator.advance_to(0.1)
    # free flight: q = v t, bit for bit as Drake's (pydrake 1.51.1: 0.20000000000000015)
    assert plant.get_positions(context)[0] == 0.20000000000000015
    simulator.advance_to(0.3)
    q, v = plant.get_positions(context)[0], plant.get_velocities(context)[0]
    # Drake's SAP (and lagged) give q = 0.4 and v = 1.7804131724565171e-21 at 0.3 s: the
    # near-rigid limit stops the body within a step, critically damped
    assert q == pytest.approx(0.4, abs=1e-15)
    assert v == pytest.approx(1.7804131724565171e-21, rel=1e-9)


def test_a_hanging_arm_rests_on_its_lower_limits_under_gravity():
    plant = MultibodyPlant(1e-3)
    parent = plant.world_frame()
    limits = [(0.5, 1.5), (-0.2, 0.2)]
    for i, (lower, upper) in enumerate(limits):
        link = plant.add_rigid_body(f"link{i}", SpatialInertia.solid_box_with_mass(
            1.0, 0.05, 0.05, 0.3))
        joint = plant.add_joint(RevoluteJoint(f"joint{i}", parent, link.body_frame(),
                                              [0, 1, 0], damping=0.5))
        joint.set_position_limits([lower], [upper])
        parent = plant.add_frame(FixedOffsetFrame(f"end{i}", link.body_frame(),
                                                  RigidTransform([0, 0, -0.3])))
    plant.finalize()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    plant.set_positions(context, [1.2, 0.0])
    lowest = np.array([np.inf, np.inf])
    highest = -lowest
    for k in range(1, 301):
        simulator.advance_to(0.01 * k)
        q = plant.get_positions(context)
        lowest, highest = np.minimum(lowest, q), np.maximum(highest, q)
    # the arm falls toward q0 = 0 and the second link swings: both stop at limits
    assert lowest[0] > 0.5 - 1e-6 and lowest[1] > -0.2 - 1e-6 and highest[1] < 0.2 + 1e-6
    np.testing.assert_allclose(plant.get_positions(context)[0], 0.5, atol=1e-6)
    assert np.abs(plant.get_velocities(context)).max() < 1e-6


def test_limits_changed_after_finalize_apply_at_the_next_step():
    simulator, plant, joint, context = _spinning_box("sap", -0.3, 0.4)
    joint.set_position_limits([-0.3], [0.25])
    simulator.advance_to(0.3)
    assert plant.get_positions(context)[0] == pytest.approx(0.25, abs=1e-15)
    joint.set_position_limits([-np.inf], [np.inf])        # removed: the body is free again
    plant.set_velocities(context, [2.0])
    simulator.advance_to(0.4)
    assert plant.get_positions(context)[0] == pytest.approx(0.25 + 0.2, abs=1e-12)


# pydrake 1.51.1, the spinning box with 'tamsi': Drake's penalty forces (explicit,
# critically damped at a period of 20 π h) let it pass the limit by 6 mm and rebound
DRAKE_TAMSI = {0.21: (0.40598636249331355, -0.0131046639887945),
               0.25: (0.3974305979685613, -0.22485270593575893),
               1.0: (0.22879106851674735, -0.22485270593575893)}


def test_tamsi_applies_drakes_joint_limit_penalty():
    simulator, plant, _, context = _spinning_box("tamsi", -0.3, 0.4)
    for t, (q, v) in DRAKE_TAMSI.items():
        simulator.advance_to(t)
        assert plant.get_positions(context)[0] == pytest.approx(q, abs=1e-12)
        assert plant.get_velocities(context)[0] == pytest.approx(v, abs=1e-11)


def test_lcp_warns_that_it_does_not_enforce_the_limits():
    with pytest.warns(JointLimitsWarning, match="'lcp'.*the limits of 'pin' are ignored"):
        simulator, plant, _, context = _spinning_box("lcp", -0.3, 0.4)
    simulator.advance_to(0.3)
    assert plant.get_positions(context)[0] == pytest.approx(0.6, abs=1e-12)


def test_batched_plant_steps_as_the_plant_with_limits_and_warns_for_another_scheme():
    from merganser.multibody.batched import BatchedPlant
    simulator, plant, _, context = _spinning_box("sap", -0.3, 0.4)
    envs = BatchedPlant(plant, 2)                # the plant's step: limit rows included
    x0 = plant.get_positions_and_velocities(context)
    envs.set_state(np.tile(x0, (2, 1)))
    envs.step(num_steps=300)
    simulator.advance_to(0.3)
    np.testing.assert_array_equal(envs.get_state()[0], plant.get_positions_and_velocities(
        context))
    assert envs.get_state()[1, 0] == pytest.approx(0.4, abs=1e-15)
    with pytest.warns(JointLimitsWarning, match="'pin'.*'runge_kutta4' scheme does not"):
        BatchedPlant(plant, 2, integration_scheme="runge_kutta4")


# pydrake 1.51.1, the same plant (example-robot-data's Panda, base welded, h = 1 ms, SAP,
# no geometry), default state, 1 s passive: the arm falls onto two joint limits, the
# fingers (a mimic coupler, damped 0.3) drift open
DRAKE_PANDA_Q = [0.8938853329417816, -1.7628000020440775, -2.897300001776908,
                 -0.5509767015115747, 2.7941393872212905, 2.562246796530357,
                 -1.1294692232999817, 0.00033054327638295443, 0.00033053740846724467]
DRAKE_PANDA_V = [-0.27275087368286277, -3.7077732277505254e-09, -3.4256341387302076e-09,
                 -1.927475242272981, -1.6670232353377397, 1.2666049633230043,
                 -0.8527568735100823, 0.00028243502271589117, 0.000282399295832129]


def test_a_passive_panda_falls_onto_its_limits_as_drakes_does():
    plant = MultibodyPlant(1e-3)
    plant.set_discrete_contact_approximation("sap")
    load_reference_model("panda", plant=plant)       # (no SceneGraph: no geometry)
    plant.finalize()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    simulator.advance_to(1.0)
    # limits, coupler and implicit damping as Drake's SAP step: equal to round-off
    np.testing.assert_allclose(plant.get_positions(context), DRAKE_PANDA_Q, rtol=0, atol=1e-11)
    np.testing.assert_allclose(plant.get_velocities(context), DRAKE_PANDA_V, rtol=0,
                               atol=1e-10)
    # without the limits the same arm would have turned through them (q2 = -1.7628 is
    # panda_joint2's lower limit, q3 = -2.8973 panda_joint3's)
    assert plant.get_positions(context)[1] == pytest.approx(-1.7628, abs=1e-8)
