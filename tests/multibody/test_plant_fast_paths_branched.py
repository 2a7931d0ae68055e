"""The per-call fast paths on a branched, free-base plant with welded bodies and offset
frames: the path-only pose pass of `eval_body_pose_in_world` and of the fused Jacobian
gives the full forward kinematics' values, the fused Jacobian equals the general
(cache-based) Jacobians for frames fixed at an offset from their bodies, and two
contexts of one plant used in turn never read each other's state, however often q and v
change.
"""

import numpy as np
import pytest
from robot_models import fast_path_queries

from merganser.geometry import RigidTransform, RollPitchYaw
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import JacobianWrtVariable, MultibodyForces, MultibodyPlant
from merganser.multibody.tree import FixedOffsetFrame, PrismaticJoint, RevoluteJoint, WeldJoint

KV = JacobianWrtVariable.kV


def pose(rpy, p):
    return RigidTransform(RollPitchYaw(*rpy), np.asarray(p, dtype=float))


def branched_plant():
    """A free torso with two revolute arms (the first ending in a prismatic link and a
    welded tool) and a leg; offset frames on an arm link, the tool and the torso.

    Returns (plant, bodies, frames) with the frames by name."""
    plant = MultibodyPlant(0.0)
    box = SpatialInertia.solid_box_with_mass
    torso = plant.add_rigid_body("torso", box(5.0, 0.3, 0.2, 0.5))
    bodies = [torso]
    axes = ([0, 0, 1], [0, 1, 0], [1, 0, 0])
    for arm, side in (("left", 1.0), ("right", -1.0)):
        parent = torso.body_frame()
        X = pose([0.1 * side, 0.0, 0.2], [0.0, 0.2 * side, 0.25])
        for i in range(3):
            link = plant.add_rigid_body(f"{arm}_{i}", box(1.0 - 0.2 * i, 0.05, 0.05, 0.3))
            F = plant.add_frame(FixedOffsetFrame(f"{arm}_{i}_mount", parent, X))
            plant.add_joint(RevoluteJoint(f"{arm}_{i}_joint", F, link.body_frame(),
                                          axes[i], damping=0.1 * (i + 1)))
            parent, X = link.body_frame(), pose([0.2, -0.1, 0.05 * i], [0.0, 0.0, 0.3])
            bodies.append(link)
        if arm == "left":
            slider = plant.add_rigid_body("slider", box(0.3, 0.04, 0.04, 0.1))
            plant.add_joint(PrismaticJoint("slide", parent, slider.body_frame(), [0, 0, 1]))
            tool = plant.add_rigid_body("tool", box(0.2, 0.05, 0.05, 0.05))
            plant.add_joint(WeldJoint("tool_weld", slider.body_frame(), tool.body_frame(),
                                      pose([0.3, 0.2, -0.1], [0.02, 0.0, 0.1])))
            bodies += [slider, tool]
    leg = plant.add_rigid_body("leg", box(2.0, 0.1, 0.1, 0.6))
    plant.add_joint(RevoluteJoint("hip", torso.body_frame(), leg.body_frame(), [0, 1, 0]))
    bodies.append(leg)
    frames = {
        "elbow_tip": plant.add_frame(FixedOffsetFrame(
            "elbow_tip", plant.get_body_by_name("left_1").body_frame(),
            pose([0.3, -0.4, 0.5], [0.05, -0.02, 0.2]))),
        "tcp": plant.add_frame(FixedOffsetFrame(
            "tcp", plant.get_body_by_name("tool").body_frame(),
            pose([-0.2, 0.1, 0.7], [0.0, 0.01, 0.08]))),
        "chest": plant.add_frame(FixedOffsetFrame(
            "chest", torso.body_frame(), pose([0.0, 0.3, -0.2], [0.1, 0.0, 0.3]))),
    }
    plant.finalize()
    return plant, bodies, frames


@pytest.fixture(scope="module")
def branched():
    return branched_plant()


def random_state(plant, rng):
    q = rng.uniform(-1.0, 1.0, plant.num_positions())
    torso = plant.get_body_by_name("torso")
    i = torso.floating_positions_start()
    q[i:i + 4] /= np.linalg.norm(q[i:i + 4])
    return q, rng.uniform(-1.0, 1.0, plant.num_velocities())


def test_the_plant_is_free_based_with_a_welded_body(branched):
    plant, bodies, _ = branched
    assert plant.get_body_by_name("torso").is_floating_base_body()
    assert plant.num_positions() == plant.num_velocities() + 1     # quaternion base
    assert len(bodies) == plant.num_bodies() - 1


def test_path_only_poses_equal_the_full_forward_kinematics(branched):
    """Each body's pose from the fused path-only pass equals, bit for bit, its pose in the
    plant's full forward kinematics (the body-poses output port), in every order of the
    queries and after every change of q."""
    plant, bodies, _ = branched
    context = plant.create_default_context()
    port = plant.get_body_poses_output_port()
    rng = np.random.default_rng(3)
    for k in range(12):
        q, _ = random_state(plant, rng)
        plant.set_positions(context, q)
        order = bodies if k % 2 == 0 else bodies[::-1]
        fast = {b.name(): plant.eval_body_pose_in_world(context, b).get_as_matrix4()
                for b in order}
        full = port.eval(context)
        for b in bodies:
            np.testing.assert_array_equal(fast[b.name()], full[b.index()].get_as_matrix4(),
                                          err_msg=b.name())


def general_jacobian(plant, context, frame_B, p, frame_A, frame_E):
    """[J_w; J_v] from the general path (cached full kinematics, one Jacobian per body)."""
    return np.vstack([
        plant.calc_jacobian_angular_velocity(context, KV, frame_B, frame_A, frame_E),
        plant.calc_jacobian_translational_velocity(context, KV, frame_B, p, frame_A,
                                                   frame_E)])


def test_fused_jacobian_equals_the_general_path_for_offset_frames(branched):
    plant, _, frames = branched
    context = plant.create_default_context()
    world = plant.world_frame()
    right = plant.get_body_by_name("right_2").body_frame()
    leg = plant.get_body_by_name("leg").body_frame()
    triples = [(frames["tcp"], world, world), (frames["tcp"], frames["chest"], frames["chest"]),
               (frames["elbow_tip"], right, frames["tcp"]), (leg, frames["elbow_tip"], world),
               (world, frames["tcp"], leg), (frames["chest"], world, frames["elbow_tip"])]
    p = np.array([0.03, -0.05, 0.12])
    rng = np.random.default_rng(4)
    for _ in range(6):
        q, _ = random_state(plant, rng)
        plant.set_positions(context, q)
        for B, A, E in triples:
            J = plant.calc_jacobian_spatial_velocity(context, KV, B, p, A, E)
            np.testing.assert_allclose(J, general_jacobian(plant, context, B, p, A, E),
                                       rtol=0.0, atol=1e-12, err_msg=f"{B.name()} {A.name()}")


def test_fused_jacobian_times_v_is_the_velocity_of_an_offset_point(branched):
    """J v = [w_WB; v_WBp] with the body's velocity from the velocity kinematics."""
    plant, _, frames = branched
    context = plant.create_default_context()
    world, tcp = plant.world_frame(), frames["tcp"]
    tool = plant.get_body_by_name("tool")
    p_tcp = np.array([0.01, 0.02, -0.03])
    rng = np.random.default_rng(5)
    for _ in range(4):
        q, v = random_state(plant, rng)
        plant.set_positions(context, q)
        plant.set_velocities(context, v)
        J = plant.calc_jacobian_spatial_velocity(context, KV, tcp, p_tcp, world, world)
        V = plant.eval_body_spatial_velocity_in_world(context, tool).get_coeffs()
        X_WB = plant.eval_body_pose_in_world(context, tool)
        p_BoP_W = X_WB.rotation().matrix() @ (
            tcp.get_fixed_pose_in_body_frame().multiply(p_tcp))
        np.testing.assert_allclose(J @ v, np.concatenate([V[:3], V[3:] + np.cross(V[:3],
                                                                                    p_BoP_W)]),
                                   atol=1e-12)


def every_query(plant, context, bodies, frames, vdot):
    J = (frames["tcp"], [0.1, 0.0, -0.1], frames["chest"], plant.world_frame())
    return fast_path_queries(plant, context, bodies, {"J": J}, vdot)


def test_two_contexts_used_in_turn_never_read_each_others_state(branched):
    """Writes and queries alternate between two contexts of the plant (q only, v only, or
    both, many times); each answer equals that of a fresh context in the same state."""
    plant, bodies, frames = branched
    contexts = [plant.create_default_context(), plant.create_default_context()]
    states = [list(random_state(plant, np.random.default_rng(s))) for s in (6, 7)]
    for context, (q, v) in zip(contexts, states):
        plant.set_positions(context, q)
        plant.set_velocities(context, v)
    rng = np.random.default_rng(8)
    vdot = rng.uniform(-1.0, 1.0, plant.num_velocities())
    for step in range(10):
        i = step % 2
        q, v = random_state(plant, rng)
        if step % 3 != 1:
            plant.set_positions(contexts[i], q)
            states[i][0] = q
        if step % 3 != 2:
            plant.set_velocities(contexts[i], v)
            states[i][1] = v
        for j in (i, 1 - i):                    # the written context, then the other one
            fresh = plant.create_default_context()
            plant.set_positions(fresh, states[j][0])
            plant.set_velocities(fresh, states[j][1])
            got = every_query(plant, contexts[j], bodies, frames, vdot)
            want = every_query(plant, fresh, bodies, frames, vdot)
            for key in got:
                np.testing.assert_array_equal(got[key], want[key], err_msg=f"{step} {key}")


def test_fused_queries_of_the_branched_plant_satisfy_the_dynamics_identities(branched):
    plant, bodies, frames = branched
    context = plant.create_default_context()
    rng = np.random.default_rng(9)
    for _ in range(3):
        q, v = random_state(plant, rng)
        plant.set_positions(context, q)
        plant.set_velocities(context, v)
        M = plant.calc_mass_matrix(context)
        np.testing.assert_allclose(M, plant.calc_mass_matrix_via_inverse_dynamics(context),
                                   rtol=0.0, atol=1e-12)
        forces = MultibodyForces(plant)
        plant.calc_force_elements_contribution(context, forces)
        a = plant.calc_forward_dynamics(context)
        # M v̇ + C v − τ_g + D v = 0 at the forward dynamics' v̇ (no actuation)
        np.testing.assert_allclose(plant.calc_inverse_dynamics(context, a, forces), 0.0,
                                   atol=1e-9)
        vdot = rng.uniform(-1.0, 1.0, plant.num_velocities())
        np.testing.assert_allclose(
            plant.calc_inverse_dynamics(context, vdot, forces),
            plant.calc_generalized_forces_for_acceleration(context, np.concatenate([q, v]),
                                                           vdot),
            rtol=0.0, atol=1e-10)
