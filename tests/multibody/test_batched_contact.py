"""BatchedPlant with contact: N envs stepped in one kernel equal N plants stepped one at a
time with their own discrete SAP-family contact step (same plant, same config), to 1e-12,
for a quadruped on flat ground, a gripper pushing a box and spheres and capsules piled on
each other; the envs are independent (one env's contact does not touch the others')."""

import threading
import time

import numpy as np
import pytest

from batched_helpers import states_for_each_thread_count

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import (Box, Capsule, CoulombFriction, HalfSpace, ProximityProperties,
                                RigidTransform, RollPitchYaw, Sphere,
                                add_compliant_hydroelastic_properties)
from merganser.multibody import MultibodyPlantConfig, SpatialInertia, add_multibody_plant
from merganser.multibody.batched import BatchedPlant
from merganser.multibody.contact.errors import ContactSolverError
from merganser.multibody.tree import FixedOffsetFrame, PrismaticJoint, RevoluteJoint

H = 1e-3
FRICTION = CoulombFriction(0.8, 0.8)


def _plant(approximation="sap", contact_model="point"):
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=H, contact_model=contact_model,
        discrete_contact_approximation=approximation), builder)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", FRICTION)
    return builder, plant


def _frame(plant, body, name, p):
    return plant.add_frame(FixedOffsetFrame(name, body.body_frame(), RigidTransform(p)))


def quadruped(approximation="sap"):
    """A 4 kg box trunk (free) on four two-link legs (hip and knee about y, actuated),
    capsule shins ending in sphere feet."""
    builder, plant = _plant(approximation)
    trunk = plant.add_rigid_body("trunk", SpatialInertia.solid_box_with_mass(
        4.0, 0.4, 0.2, 0.08))
    plant.register_collision_geometry(trunk, RigidTransform(), Box(0.4, 0.2, 0.08), "trunk",
                                      FRICTION)
    for i, (x, y) in enumerate([(0.18, 0.12), (0.18, -0.12), (-0.18, 0.12), (-0.18, -0.12)]):
        thigh = plant.add_rigid_body(f"thigh{i}", SpatialInertia.solid_capsule_with_mass(
            0.3, 0.02, 0.16, [0, 0, 1]))
        shin = plant.add_rigid_body(f"shin{i}", SpatialInertia.solid_capsule_with_mass(
            0.2, 0.015, 0.16, [0, 0, 1]))
        hip = plant.add_joint(RevoluteJoint(
            f"hip{i}", _frame(plant, trunk, f"hip{i}_f", [x, y, 0.0]),
            _frame(plant, thigh, f"thigh{i}_top", [0, 0, 0.1]),
            [0, 1, 0], damping=0.1))
        knee = plant.add_joint(RevoluteJoint(
            f"knee{i}", _frame(plant, thigh, f"thigh{i}_bot", [0, 0, -0.1]),
            _frame(plant, shin, f"shin{i}_top", [0, 0, 0.1]),
            [0, 1, 0], damping=0.1))
        plant.add_joint_actuator(f"hip{i}", hip)
        plant.add_joint_actuator(f"knee{i}", knee)
        plant.register_collision_geometry(shin, RigidTransform(), Capsule(0.015, 0.16),
                                          f"shin{i}", FRICTION)
        plant.register_collision_geometry(shin, RigidTransform([0, 0, -0.1]), Sphere(0.02),
                                          f"foot{i}", FRICTION)
    plant.finalize()
    return builder.build(), plant


def gripper_and_box(approximation="sap"):
    """A pusher (prismatic along x, actuated) with a box pad and a sphere, and a free
    0.1 m, 1 kg box resting on the ground in front of it."""
    builder, plant = _plant(approximation)
    pusher = plant.add_rigid_body("pusher", SpatialInertia.solid_box_with_mass(
        0.5, 0.02, 0.12, 0.06))
    rail = plant.add_frame(FixedOffsetFrame("rail", plant.world_frame(),
                                            RigidTransform([0.0, 0.0, 0.05])))
    slide = plant.add_joint(PrismaticJoint("slide", rail, pusher.body_frame(), [1, 0, 0],
                                           damping=1.0))
    plant.add_joint_actuator("slide", slide)
    plant.register_collision_geometry(pusher, RigidTransform(), Box(0.02, 0.12, 0.06), "pad",
                                      FRICTION)
    plant.register_collision_geometry(pusher, RigidTransform([0.0, 0.0, 0.04]), Sphere(0.015),
                                      "nub", FRICTION)
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.1, 0.1))
    plant.register_collision_geometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box",
                                      FRICTION)
    plant.finalize()
    return builder.build(), plant


def pile(approximation="sap"):
    """Three spheres and two capsules (free) dropped on each other and the ground."""
    builder, plant = _plant(approximation)
    for i in range(3):
        body = plant.add_rigid_body(f"ball{i}", SpatialInertia.solid_sphere_with_mass(
            0.5 + 0.2 * i, 0.05))
        plant.register_collision_geometry(body, RigidTransform(), Sphere(0.05), f"ball{i}",
                                          FRICTION)
    for i in range(2):
        body = plant.add_rigid_body(f"rod{i}", SpatialInertia.solid_capsule_with_mass(
            0.4, 0.03, 0.2, [0, 0, 1]))
        plant.register_collision_geometry(body, RigidTransform(), Capsule(0.03, 0.2), f"rod{i}",
                                          FRICTION)
    plant.finalize()
    return builder.build(), plant


def step_plants_one_by_one(diagram, plant, X0, U, num_steps):
    """The final states (N, nx) of N simulations of the diagram's plant."""
    out = np.empty_like(X0)
    for e in range(X0.shape[0]):
        simulator = Simulator(diagram)
        context = plant.get_my_context_from_root(simulator.get_mutable_context())
        plant.set_positions_and_velocities(context, X0[e])
        if plant.num_actuators():
            plant.get_actuation_input_port().fix_value(context, U[e])
        simulator.advance_to(num_steps * H)
        assert simulator.get_num_discrete_updates() == num_steps
        out[e] = plant.get_positions_and_velocities(context)
    return out


def _free_pose(q, start, xyz, rpy=(0.0, 0.0, 0.0)):
    q[start:start + 4] = RollPitchYaw(*rpy).to_quaternion()      # [w, x, y, z]
    q[start + 4:start + 7] = xyz


def quadruped_states(rng, n):
    X0 = np.zeros((n, 29))
    for e in range(n):
        _free_pose(X0[e], 0, [0.0, 0.0, 0.36 + 0.01 * e], 0.05 * rng.standard_normal(3))
        X0[e, 7:15] = np.tile([0.4, -0.8], 4) + 0.05 * rng.standard_normal(8)
        X0[e, 18:21] = 0.1 * rng.standard_normal(3)
    return X0, rng.uniform(-1.0, 1.0, (n, 8))


def gripper_states(rng, n):
    X0 = np.zeros((n, 1 + 7 + 1 + 6))
    for e in range(n):
        X0[e, 0] = -0.08 - 0.01 * e                         # pusher x
        _free_pose(X0[e], 1, [0.02 * e, 0.01 * e, 0.0499], (0.0, 0.0, 0.1 * e))
        X0[e, 8] = 0.2                                      # pusher speed
    return X0, rng.uniform(3.0, 8.0, (n, 1))


def pile_states(rng, n):
    X0 = np.zeros((n, 5 * 13))
    for e in range(n):
        q, v = X0[e, :35], X0[e, 35:]
        for i in range(3):
            _free_pose(q, 7 * i, [0.03 * i, 0.02 * e, 0.06 + 0.09 * i])
        _free_pose(q, 21, [0.0, 0.0, 0.4], (0.3 * e, 1.4, 0.0))
        _free_pose(q, 28, [0.05, 0.0, 0.6], (1.5, 0.2 * e, 0.5))
        v[:] = 0.2 * rng.standard_normal(30)
    return X0, np.zeros((n, 0))


SCENES = {"quadruped": (quadruped, quadruped_states),
          "gripper_and_box": (gripper_and_box, gripper_states),
          "pile": (pile, pile_states)}


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_batched_contact_equals_the_single_plant_discrete_step(scene):
    make, states = SCENES[scene]
    diagram, plant = make()
    n, num_steps = 4, 300
    X0, U = states(np.random.default_rng(7), n)
    envs = BatchedPlant(plant, n)
    assert envs.has_contact()
    envs.set_state(X0)
    envs.step(U, num_steps=num_steps // 2)
    envs.step(U, num_steps=num_steps - num_steps // 2)
    assert np.all(envs.get_num_contacts() >= 1)             # the step solved contact
    expected = step_plants_one_by_one(diagram, plant, X0, U, num_steps)
    np.testing.assert_allclose(envs.get_state(), expected, rtol=0.0, atol=1e-12)
    assert not np.allclose(expected, X0, atol=1e-3)          # something moved


@pytest.mark.parametrize("approximation", ["similar", "lagged"])
def test_hunt_crossley_approximations_equal_the_single_plant(approximation):
    diagram, plant = pile(approximation)
    X0, U = pile_states(np.random.default_rng(3), 3)
    envs = BatchedPlant(plant, 3)
    envs.set_state(X0)
    envs.step(num_steps=200)
    assert np.all(envs.get_num_contacts() >= 2)
    np.testing.assert_allclose(envs.get_state(),
                               step_plants_one_by_one(diagram, plant, X0, U, 200),
                               rtol=0.0, atol=1e-12)


def test_envs_are_independent_a_falling_env_is_in_free_fall():
    diagram, plant = pile()
    X0, _ = pile_states(np.random.default_rng(1), 2)
    X0[1, 35:] = 0.0
    for i in range(5):                     # env 1: every body 10 m higher, 1 m apart
        X0[1, 7 * i + 4] = float(i)
        X0[1, 7 * i + 6] += 10.0
    envs = BatchedPlant(plant, 2)
    envs.set_state(X0)
    envs.step(num_steps=100)
    assert envs.get_num_contacts()[0] > 0 and envs.get_num_contacts()[1] == 0
    v = envs.get_velocities()[1].reshape(5, 6)
    np.testing.assert_allclose(v[:, 5], -9.81 * 100 * H, rtol=1e-12)
    np.testing.assert_allclose(v[:, :5], 0.0, atol=1e-12)


def test_plants_whose_contact_the_kernel_cannot_model_are_rejected():
    diagram, plant = pile("tamsi")
    with pytest.raises(ValueError, match="'tamsi'.*SAP family"):
        BatchedPlant(plant, 2)
    diagram, plant = pile()
    with pytest.raises(ValueError, match="integration_scheme must be 'semi_explicit_euler'"):
        BatchedPlant(plant, 2, integration_scheme="runge_kutta2")
    builder, plant = _plant(contact_model="hydroelastic_with_fallback")
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.05))
    properties = ProximityProperties()
    add_compliant_hydroelastic_properties(0.02, 1e6, properties)
    plant.register_collision_geometry(ball, RigidTransform(), Sphere(0.05), "ball", properties)
    plant.finalize()
    with pytest.raises(ValueError, match="geometry 'ball' .* has hydroelastic properties"):
        BatchedPlant(plant, 2)


def test_contact_solver_failure_raises_naming_the_env_and_keeps_its_state():
    diagram, plant = pile()
    X0, _ = pile_states(np.random.default_rng(1), 3)
    X0[1, 35:] = 1e300                     # env 1: a velocity the solve overflows on
    envs = BatchedPlant(plant, 3)
    envs.set_state(X0)
    with pytest.raises(ContactSolverError, match=r"in 1 env\(s\) \(first: env 1, at step 1"):
        envs.step(num_steps=10)
    np.testing.assert_array_equal(envs.get_state()[1], X0[1])
    assert not np.allclose(envs.get_state()[0], X0[0])


def test_a_long_batched_call_releases_the_gil():
    """Another Python thread keeps running while a batched step call is in the kernel."""
    diagram, plant = pile()
    X0, _ = pile_states(np.random.default_rng(2), 64)
    envs = BatchedPlant(plant, 64)
    envs.set_state(X0)
    envs.step(num_steps=1)                                   # load the kernel first
    in_kernel = threading.Event()
    done = threading.Event()

    def run():
        in_kernel.set()
        envs.step(num_steps=1500)
        done.set()

    def spin(until):
        count = 0
        while not until():
            count += 1
        return count

    start = time.perf_counter()                              # the loop's rate alone
    alone = spin(lambda: time.perf_counter() - start > 0.05) / (time.perf_counter() - start)
    worker = threading.Thread(target=run)
    worker.start()
    in_kernel.wait()
    start = time.perf_counter()
    count = spin(done.is_set)
    elapsed = time.perf_counter() - start
    worker.join()
    # a held GIL would let the loop run only in the 5 ms switch intervals around the call
    assert elapsed > 0.1, elapsed
    assert count / elapsed > 0.05 * alone, (count, elapsed, alone)


def test_contact_result_does_not_depend_on_the_number_of_threads():
    diagram, plant = pile()
    X0, _ = pile_states(np.random.default_rng(4), 7)

    def run():
        envs = BatchedPlant(plant, 7)
        envs.set_state(X0)
        for _ in range(4):                                   # short calls, as an RL loop
            envs.step(num_steps=25)
        return envs.get_state()

    states = states_for_each_thread_count(run)
    assert all(np.array_equal(s, states[0]) for s in states)
