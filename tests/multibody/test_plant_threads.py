"""One finalized MultibodyPlant (and its diagram) shared by several threads, each with its
own Context and Simulator, gives bitwise the results of the same runs made one after the
other (Drake's rule: one system, many contexts, many threads). Checked for the continuous
plant and every discrete contact approximation, with and without contact.

The interpreter's thread switch interval is made tiny while the threads run, so that the
threads interleave between almost every pair of bytecodes (a shared scratch buffer then
shows up in every run instead of now and then)."""

import sys
import threading

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import Box, CoulombFriction, HalfSpace, RigidTransform, RollPitchYaw
from merganser.multibody import MultibodyPlantConfig, SpatialInertia, add_multibody_plant
from merganser.multibody.math import SpatialVelocity
from merganser.multibody.tree import FixedOffsetFrame, RevoluteJoint

MODELS = ["continuous", "tamsi", "sap", "similar", "lagged", "lcp"]
THREADS = 4


def _diagram(model, contact):
    """A box (free body) and a two-link arm; with `contact` the box lies on a ground."""
    h = 0.0 if model == "continuous" else 2e-3
    config = MultibodyPlantConfig(time_step=h, contact_model="point",
                                  discrete_contact_approximation="sap" if h == 0 else model,
                                  stiction_tolerance=1e-2 if h == 0 else 1e-4)
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(config, builder)
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.1, 0.1))
    link1 = plant.add_rigid_body("link1", SpatialInertia.make_from_central_inertia(
        1.0, [0.0, 0.0, -0.5], np.diag([0.08, 0.08, 1e-3])))
    link2 = plant.add_rigid_body("link2", SpatialInertia.make_from_central_inertia(
        1.0, [0.0, 0.0, -0.5], np.diag([0.08, 0.08, 1e-3])))
    plant.add_joint(RevoluteJoint("shoulder", plant.world_frame(), link1.body_frame(),
                                  [0, 1, 0]))
    elbow = plant.add_frame(FixedOffsetFrame("elbow", link1.body_frame(),
                                             RigidTransform([0.0, 0.0, -1.0])))
    plant.add_joint(RevoluteJoint("elbow", elbow, link2.body_frame(), [0, 1, 0]))
    if contact:
        friction = CoulombFriction(0.5, 0.5)
        plant.register_collision_geometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box",
                                          friction)
        plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                          "ground", friction)
    plant.finalize()
    return builder.build(), plant, box


def _run(diagram, plant, box, k, model):
    """Simulate run k (its own initial state) for a few steps; return the final state."""
    simulator = Simulator(diagram)
    context = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant.set_free_body_pose(context, box, RigidTransform(RollPitchYaw(0.1 * k, 0.2, 0.0),
                                                          [0.0, 0.1 * k, 0.053]))
    plant.set_free_body_spatial_velocity(context, box, SpatialVelocity(
        [0.5 * k, -0.3, 1.0], [0.2, 0.1 * k, -0.1]))
    plant.get_joint_by_name("shoulder").set_angle(context, 0.3 + 0.2 * k)
    plant.get_joint_by_name("elbow").set_angle(context, -0.4 * k)
    simulator.advance_to(0.02)
    return plant.get_positions_and_velocities(context).copy()


@pytest.mark.parametrize("contact", [False, True], ids=["free", "contact"])
@pytest.mark.parametrize("model", MODELS)
def test_shared_plant_on_four_threads_matches_serial_bitwise(model, contact):
    diagram, plant, box = _diagram(model, contact)
    serial = [_run(diagram, plant, box, k, model) for k in range(THREADS)]
    assert len({s.tobytes() for s in serial}) == THREADS   # the runs really differ
    threaded = [None] * THREADS
    errors = []
    barrier = threading.Barrier(THREADS)

    def work(k):
        try:
            barrier.wait()
            threaded[k] = _run(diagram, plant, box, k, model)
        except Exception as e:          # noqa: BLE001 (reported below)
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors
    for k in range(THREADS):
        assert threaded[k].tobytes() == serial[k].tobytes(), (
            f"run {k}: max difference {np.max(np.abs(threaded[k] - serial[k]))}")
