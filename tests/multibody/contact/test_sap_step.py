"""The compiled discrete step: the fused SAP-family kernel equals its stages called one by
one, the compiled constraint rows satisfy ġ = J v (finite differences of an independent
numpy g(q)), the weld's rotation vector near 0 and π, the bilateral regularization
formulas, and the fused TAMSI step equals the contact Jacobian and the solve called
separately."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder
from merganser.geometry import Box, CoulombFriction, HalfSpace, RigidTransform, RotationMatrix
from merganser.multibody import (
    FixedOffsetFrame, MultibodyPlant, MultibodyPlantConfig, RevoluteJoint, SpatialInertia,
    SpatialVelocity, add_multibody_plant,
)
from merganser.multibody.contact.constraint_kernels import (
    BALL, COUPLER, bilateral_regularization, constraint_delassus, rotation_vector,
)
from merganser.multibody.contact.contact_kernels import contact_jacobian, pose_pass
from merganser.multibody.contact.problem_kernels import (
    delassus_estimate, near_rigid_factor, sap_parameters,
)
from merganser.multibody.contact.sap import LAGGED, SAP, SIMILAR, sap_solve
from merganser.multibody.contact.tamsi import tamsi_solve, tamsi_step
from merganser.multibody.kernels.layout import make_workspace
from merganser.multibody.plant.plant_core import get_plant_core
from merganser.multibody.tree.constraints import (
    BallConstraintSpec, CouplerConstraintSpec, DistanceConstraintSpec, WeldConstraintSpec,
)
from scenes import BoxScene

H = 1e-3
MODELS = {"sap": SAP, "similar": SIMILAR, "lagged": LAGGED}


def rodrigues(axis, angle):
    """R (3, 3) of the rotation by `angle` about the unit `axis`."""
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


# ---- the fused SAP step ------------------------------------------------------------------
def mixed_scene(approximation):
    """A box on a half space, a bob hanging from a ball constraint, a plate welded to the
    bob, a compliant distance constraint between box and bob and two coupled wheels."""
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=H, contact_model="point", discrete_contact_approximation=approximation),
        builder)
    friction = CoulombFriction(0.5, 0.5)
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.1, 0.1))
    plant.register_collision_geometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box", friction)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", friction)
    bob = plant.add_rigid_body("bob", SpatialInertia.solid_sphere_with_mass(0.5, 0.05))
    plate = plant.add_rigid_body("plate", SpatialInertia.solid_box_with_mass(
        0.2, 0.1, 0.02, 0.1))
    plant.add_ball_constraint(plant.world_body(), [0.5, 0.0, 1.0], bob, [0.0, 0.0, 0.2])
    plant.add_weld_constraint(bob, RigidTransform([0.1, 0.0, 0.0]), plate, RigidTransform())
    plant.add_distance_constraint(box, [0.05, 0.0, 0.05], bob, [0.0, 0.0, 0.0], 0.835,
                                  stiffness=2e3, damping=5.0)
    joints = []
    for i in range(2):
        wheel = plant.add_rigid_body(f"wheel{i}", SpatialInertia.solid_cylinder_with_mass(
            1.0 + i, 0.2, 0.05, [0, 0, 1]))
        joints.append(plant.add_joint(RevoluteJoint(
            f"axle{i}", plant.world_frame(), wheel.body_frame(), [0, 0, 1])))
    plant.add_coupler_constraint(joints[0], joints[1], 2.0, 0.1)
    plant.finalize()
    diagram = builder.build()
    root = diagram.create_default_context()
    ctx = plant.get_my_context_from_root(root)
    return plant, ctx, box, bob, plate, joints


def set_mixed_state(plant, ctx, box, bob, plate, joints, box_height):
    """A state a little off every constraint, with random velocities."""
    plant.set_free_body_pose(ctx, box, RigidTransform([0.0, 0.0, box_height]))
    plant.set_free_body_pose(ctx, bob, RigidTransform(RotationMatrix(rodrigues([1, 2, 3], 0.3)),
                                                      [0.52, 0.01, 0.79]))
    X_WB = plant.eval_body_pose_in_world(ctx, bob)
    plant.set_free_body_pose(ctx, plate, X_WB @ RigidTransform(
        RotationMatrix(rodrigues([0, 1, 1], 0.01)), [0.1, 0.002, 0.0]))
    joints[1].set_angle(ctx, 0.3)
    joints[0].set_angle(ctx, 2.0 * 0.3 + 0.1 + 1e-3)
    rng = np.random.default_rng(1)
    plant.set_velocities(ctx, 0.2 * rng.normal(size=plant.num_velocities()))
    plant.set_free_body_spatial_velocity(ctx, box, SpatialVelocity(   # sliding, pressing
        np.array([0.1, -0.2, 0.0]), np.array([0.1, 0.05, -0.05])))


def step_by_step(plant, ctx, model):
    """v_next, gamma, vc, tau, iterations by the stages called one by one."""
    core = get_plant_core(plant)
    stepper = core.stepper
    cache = core.cache
    state = cache.state.eval(ctx)
    q, v0 = state.q, state.v
    vdot = cache.forward_dynamics.eval(ctx).vdot
    M = cache.mass_matrix.eval(ctx).M
    pcs = core.contact_manager.eval_point_contacts(ctx)
    nc, m, nv = pcs.nc, stepper.constraints.m, plant.num_velocities()
    rows = 3 * nc + m
    J = np.full((rows, nv), np.nan)
    ip, fp, ws = core.ip, core.fp, make_workspace(plant.num_bodies())
    if nc:
        contact_jacobian(ip, fp, ws, q, nc, pcs.node_a, pcs.node_b, pcs.p_WC, pcs.R_WC, J)
    else:
        pose_pass(ip, fp, q, ws)
    g, k, c = np.zeros(m), np.zeros(m), np.zeros(m)
    stepper.constraints.fill(q, ws, J[3 * nc:], g, k, c)
    w = np.zeros(rows)
    delassus_estimate(J, M, rows, w)
    Rt, Rn, vhat, fe0, n0, eps = np.zeros((6, nc))
    sl = slice(0, nc)
    vs = plant.get_stiction_tolerance()
    sap_parameters(nc, w, pcs.phi0[sl], pcs.k[sl], pcs.d[sl], pcs.tau[sl], pcs.mu[sl], J, v0,
                   H, vs, near_rigid_factor(plant.get_sap_near_rigid_threshold()), Rt, Rn, vhat,
                   fe0, n0, eps)
    if m:
        constraint_delassus(J[3 * nc:], M, stepper.constraints.kinds, w[3 * nc:])
    Rh, vhath = np.zeros(m), np.zeros(m)
    bilateral_regularization(m, H, w[3 * nc:], g, k, c, Rh, vhath)
    v = v0.copy()
    gamma, vc = np.zeros(rows), np.zeros(rows)
    it, _ = sap_solve(model, M, v0 + H * vdot, v, J, nc, m, 0, pcs.mu[sl], Rt, Rn, vhat, H,
                      pcs.k[sl], pcs.d[sl], fe0, n0, eps, Rh, vhath, stepper.rel_tolerance,
                      stepper.abs_tolerance, stepper.max_iterations, gamma, vc)
    return v, gamma, vc, J.T @ gamma / H, it, nc, m


@pytest.mark.parametrize("approximation", ["sap", "similar", "lagged"])
@pytest.mark.parametrize("box_height", [0.05 - 1e-3, 0.3])
def test_fused_sap_step_equals_its_stages_called_one_by_one(approximation, box_height):
    plant, ctx, box, bob, plate, joints = mixed_scene(approximation)
    set_mixed_state(plant, ctx, box, bob, plate, joints, box_height)
    stepper = get_plant_core(plant).stepper
    res = stepper.entry.eval(ctx)
    v, gamma, vc, tau, it, nc, m = step_by_step(plant, ctx, MODELS[approximation])
    assert m == 1 + 1 + 3 + 6
    assert (nc > 0) == (box_height < 0.05)
    assert (res.nc, res.m, res.iterations) == (nc, m, it)
    assert it > 0
    assert res.gamma.shape == res.vc.shape == (3 * nc + m,)
    for got, expected in ((res.v_next, v), (res.gamma, gamma), (res.vc, vc),
                          (res.tau_contact, tau)):
        np.testing.assert_allclose(got, expected, rtol=0,
                                   atol=1e-12 * max(1.0, np.abs(expected).max()))
    assert np.abs(res.gamma[3 * nc:]).max() > 1e-4     # the constraints do work
    if nc:
        assert res.gamma[2:3 * nc:3].sum() > 0.0         # the ground pushes the box up


# ---- constraint rows against finite differences of g(q) ----------------------------------
def chain_plant():
    """Two revolute links (z, then x) and a free body B: every constraint kind between
    link 2 and B (rows 0: coupler, 1: distance, 2-4: ball, 5-10: weld)."""
    plant = MultibodyPlant(H)
    inertia = SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.2, 0.3)
    link1 = plant.add_rigid_body("link1", inertia)
    link2 = plant.add_rigid_body("link2", inertia)
    body_b = plant.add_rigid_body("B", inertia)
    j1 = plant.add_joint(RevoluteJoint("j1", plant.world_frame(), link1.body_frame(),
                                       [0, 0, 1]))
    frame = plant.add_frame(FixedOffsetFrame(
        "link1_tip", link1.body_frame(), RigidTransform([0.3, 0.1, 0.0])))
    j2 = plant.add_joint(RevoluteJoint("j2", frame, link2.body_frame(), [1, 0, 0]))
    plant.add_coupler_constraint(j1, j2, 1.7, 0.2)
    plant.add_distance_constraint(link2, [0.1, 0.2, 0.0], body_b, [0.0, -0.1, 0.05], 0.3)
    plant.add_ball_constraint(link2, [0.0, 0.1, 0.2], body_b, [0.1, 0.0, -0.05])
    X_AP = RigidTransform(RotationMatrix(rodrigues([1, -1, 2], 0.7)), [0.05, 0.0, 0.1])
    X_BQ = RigidTransform(RotationMatrix(rodrigues([0, 1, 0], -0.4)), [0.0, 0.02, 0.0])
    plant.add_weld_constraint(link2, X_AP, body_b, X_BQ)
    plant.finalize()
    return plant, (j1, j2), link2, body_b, X_AP.get_as_matrix4(), X_BQ.get_as_matrix4()


def constraint_values(plant, q):
    """g(q) (m,) in numpy from the poses of forward kinematics, and the world rotations of
    the bodies of every spec (A, B)."""
    core = get_plant_core(plant)
    X = core.dyn.forward_kinematics(np.ascontiguousarray(q)).copy()
    node = core.tables.node_of_body
    g, rotations = [], []
    for spec in plant.get_constraint_specs():
        if isinstance(spec, CouplerConstraintSpec):
            i0 = plant.get_joint(spec.joint0_index).position_start()
            i1 = plant.get_joint(spec.joint1_index).position_start()
            g.append(q[i0] - spec.gear_ratio * q[i1] - spec.offset)
            continue
        X_WA, X_WB = X[node[spec.body_A_index]], X[node[spec.body_B_index]]
        rotations.append((X_WA[:3, :3], X_WB[:3, :3]))
        if isinstance(spec, WeldConstraintSpec):
            X_WP, X_WQ = X_WA @ spec.X_AP, X_WB @ spec.X_BQ
            g.extend(X_WQ[:3, 3] - X_WP[:3, 3])
            g.extend([np.nan] * 3)          # the rotation rows: checked separately
            continue
        p_WP = X_WA[:3, :3] @ spec.p_AP + X_WA[:3, 3]
        p_WQ = X_WB[:3, :3] @ spec.p_BQ + X_WB[:3, 3]
        if isinstance(spec, DistanceConstraintSpec):
            g.append(np.linalg.norm(p_WQ - p_WP) - spec.distance)
        else:
            assert isinstance(spec, BallConstraintSpec)
            g.extend(p_WQ - p_WP)
    return np.array(g), rotations


def compiled_rows(plant, q):
    core = get_plant_core(plant)
    stepper = core.stepper
    m, nv = stepper.constraints.m, plant.num_velocities()
    J, g, k, c = np.full((m, nv), np.nan), np.zeros(m), np.zeros(m), np.zeros(m)
    ws = make_workspace(plant.num_bodies())
    pose_pass(core.ip, core.fp, q, ws)
    stepper.constraints.fill(q, ws, J, g, k, c)
    return J, g, k, c


def moved(plant, q, v, t):
    """q advanced by t along v (q̇ = N(q) v), quaternions re-normalized."""
    core = get_plant_core(plant)
    out = q + t * core.dyn.map_velocity_to_qdot(q, v)
    for s in core.tables.quaternion_q_starts:
        out[s:s + 4] /= np.linalg.norm(out[s:s + 4])
    return out


def relative_angular_velocity(plant, q, v, eps=1e-6):
    """ω_WB - ω_WA (3,) of every non-coupler spec from finite differences of the
    rotations: R(+ε) R(-ε)ᵀ = I + 2ε [ω]."""
    _, plus = constraint_values(plant, moved(plant, q, v, eps))
    _, minus = constraint_values(plant, moved(plant, q, v, -eps))
    out = []
    for (Ap, Bp), (Am, Bm) in zip(plus, minus):
        w = []
        for Rp, Rm in ((Ap, Am), (Bp, Bm)):
            S = Rp @ Rm.T
            S = (S - S.T) / (4.0 * eps)
            w.append(np.array([S[2, 1], S[0, 2], S[1, 0]]))
        out.append(w[1] - w[0])
    return out


def set_chain_state(plant, ctx, joints, body_b, R_WB, p_WB):
    joints[0].set_angle(ctx, 0.4)
    joints[1].set_angle(ctx, -0.9)
    plant.set_free_body_pose(ctx, body_b, RigidTransform(RotationMatrix(R_WB), p_WB))
    return plant.get_positions(ctx).copy()


def weld_pose_of_b(plant, ctx, link2, X_AP, X_BQ, R_PQ):
    """R_WB putting the weld's frames at the relative rotation R_PQ."""
    R_WA = plant.eval_body_pose_in_world(ctx, link2).rotation().matrix()
    return R_WA @ X_AP[:3, :3] @ R_PQ @ X_BQ[:3, :3].T


@pytest.mark.parametrize("seed", range(3))
def test_constraint_rows_give_the_time_derivative_of_g(seed):
    plant, joints, link2, body_b, X_AP, X_BQ = chain_plant()
    ctx = plant.create_default_context()
    rng = np.random.default_rng(seed)
    q = set_chain_state(plant, ctx, joints, body_b, rodrigues(rng.normal(size=3), 1.0),
                        rng.normal(size=3) * 0.3)
    v = rng.normal(size=plant.num_velocities())
    J, g, k, c = compiled_rows(plant, q)
    g_np, _ = constraint_values(plant, q)
    translational = ~np.isnan(g_np)
    np.testing.assert_allclose(g[translational], g_np[translational], rtol=0, atol=1e-14)
    eps = 1e-6
    g_dot = (constraint_values(plant, moved(plant, q, v, eps))[0]
             - constraint_values(plant, moved(plant, q, v, -eps))[0]) / (2 * eps)
    Jv = J @ v
    np.testing.assert_allclose(Jv[translational], g_dot[translational], rtol=0, atol=1e-6)
    # the weld's angular rows (8-10): ω_WB - ω_WA in W
    w_rel = relative_angular_velocity(plant, q, v)[-1]
    np.testing.assert_allclose(Jv[8:11], w_rel, rtol=0, atol=1e-6)
    assert np.abs(Jv).min() > 1e-4              # every row moves along a random v
    assert np.isinf(k).all() and (c == 0.0).all()


def test_weld_near_zero_rotation_rows_and_rotation_vector():
    plant, joints, link2, body_b, X_AP, X_BQ = chain_plant()
    ctx = plant.create_default_context()
    q = set_chain_state(plant, ctx, joints, body_b, np.eye(3), [0.1, 0.2, 0.3])
    axis = np.array([0.2, -0.3, 0.9]) / np.linalg.norm([0.2, -0.3, 0.9])
    R_PQ = rodrigues(axis, 1e-10)                   # sin θ < 1e-9: the near-zero branch
    q = set_chain_state(plant, ctx, joints, body_b,
                        weld_pose_of_b(plant, ctx, link2, X_AP, X_BQ, R_PQ), [0.1, 0.2, 0.3])
    J, g, _, _ = compiled_rows(plant, q)
    R_WP = plant.eval_body_pose_in_world(ctx, link2).rotation().matrix() @ X_AP[:3, :3]
    np.testing.assert_allclose(g[8:11], R_WP @ (1e-10 * axis), rtol=0, atol=1e-15)
    # at a vanishing rotation the rotation vector's rate is the relative angular velocity
    v = np.random.default_rng(5).normal(size=plant.num_velocities())
    eps = 1e-6
    _, g_plus, _, _ = compiled_rows(plant, moved(plant, q, v, eps))
    _, g_minus, _, _ = compiled_rows(plant, moved(plant, q, v, -eps))
    np.testing.assert_allclose(J @ v, (g_plus - g_minus) / (2 * eps), rtol=0, atol=1e-6)


@pytest.mark.parametrize("delta", [1e-8, 1e-11, 0.0])
def test_weld_near_pi_rotation_vector_and_angular_rows(delta):
    plant, joints, link2, body_b, X_AP, X_BQ = chain_plant()
    ctx = plant.create_default_context()
    q = set_chain_state(plant, ctx, joints, body_b, np.eye(3), [0.1, 0.2, 0.3])
    axis = np.array([0.3, 0.5, -0.8]) / np.linalg.norm([0.3, 0.5, -0.8])  # largest < 0
    R_PQ = rodrigues(axis, np.pi - delta)           # sin θ < 1e-9: the near-π branch
    q = set_chain_state(plant, ctx, joints, body_b,
                        weld_pose_of_b(plant, ctx, link2, X_AP, X_BQ, R_PQ), [0.1, 0.2, 0.3])
    J, g, _, _ = compiled_rows(plant, q)
    R_WP = plant.eval_body_pose_in_world(ctx, link2).rotation().matrix() @ X_AP[:3, :3]
    expected = R_WP @ ((np.pi - delta) * axis)
    if delta == 0.0:                                # π k and -π k: the same rotation
        expected *= np.sign(expected @ g[8:11])
    np.testing.assert_allclose(g[8:11], expected, rtol=0, atol=1e-7)
    v = np.random.default_rng(6).normal(size=plant.num_velocities())
    np.testing.assert_allclose((J @ v)[8:11], relative_angular_velocity(plant, q, v)[-1],
                               rtol=0, atol=1e-6)


@pytest.mark.parametrize("angle", [0.3, 2.0, 3.1, np.pi - 1e-6, np.pi - 1e-8, np.pi - 1e-11,
                                   1e-8, 1e-10, 0.0])
def test_rotation_vector_of_an_axis_angle_rotation(angle):
    axis = np.array([-0.4, 0.2, -0.7])
    axis /= np.linalg.norm(axis)
    R = rodrigues(axis, angle)
    # near π the axis w/|w| has the relative error (round-off of R)/sin θ
    np.testing.assert_allclose(rotation_vector(tuple(R.reshape(9))), angle * axis, rtol=0,
                               atol=1e-12 if angle < 1.0 else 1e-7)


def test_rotation_vector_of_a_half_turn_is_pi_times_the_axis_up_to_sign():
    axis = np.array([0.6, 0.0, -0.8])
    R = 2.0 * np.outer(axis, axis) - np.eye(3)      # rotation by π about the axis
    theta = np.array(rotation_vector(tuple(R.reshape(9))))
    np.testing.assert_allclose(theta * np.sign(theta @ axis), np.pi * axis, rtol=0, atol=1e-14)


def test_compliant_distance_row_carries_stiffness_and_damping():
    plant = MultibodyPlant(H)
    body = plant.add_rigid_body("bob", SpatialInertia.solid_sphere_with_mass(1.0, 0.05))
    plant.add_distance_constraint(plant.world_body(), [0, 0, 1.0], body, [0, 0, 0], 0.4,
                                  stiffness=1e4, damping=20.0)
    plant.finalize()
    ctx = plant.create_default_context()
    plant.set_free_body_pose(ctx, body, RigidTransform([0.0, 0.3, 0.6]))  # 0.5 from P
    J, g, k, c = compiled_rows(plant, plant.get_positions(ctx).copy())
    np.testing.assert_allclose(g, [0.1], atol=1e-15)
    np.testing.assert_array_equal(k, [1e4])
    np.testing.assert_array_equal(c, [20.0])
    # û = (0, 0.6, -0.8): J = [0 0 0 | ûᵀ] on the free body's [ω; v]
    np.testing.assert_allclose(J, [[0, 0, 0, 0, 0.6, -0.8]], atol=1e-15)


# ---- bilateral regularization --------------------------------------------------------------
def test_bilateral_regularization_formulas():
    h = 1e-3
    near_rigid = 0.1 ** 2 / (4 * np.pi ** 2)          # Drake's β = 0.1
    w = np.array([2.0, 0.0, 5.0, 7.0, 4e6])
    g = np.array([1e-3, -2e-3, 4e-3, 0.5, 1e-3])
    stiffness = np.array([np.inf, np.inf, 1e4, 7.0, 1e4])
    damping = np.array([0.0, 3.0, 10.0, 0.0, 10.0])
    R, vhat = np.zeros(6), np.full(6, 9.0)
    bilateral_regularization(5, h, w, g, stiffness, damping, R, vhat)
    # rigid: R = β²/(4π²) max(w, 1e-12), and the relaxation time becomes h: v̂ = -g/(2h)
    assert R[0] == pytest.approx(near_rigid * 2.0, rel=1e-15)
    assert R[1] == pytest.approx(near_rigid * 1e-12, rel=1e-15)
    assert vhat[0] == pytest.approx(-0.5, rel=1e-15)
    assert vhat[1] == pytest.approx(1.0, rel=1e-15)
    # compliant k = 1e4, c = 10: τ = 1e-3, R = 1/(h (h + τ) k) = 50 > β²/(4π²) w
    assert R[2] == pytest.approx(50.0, rel=1e-14)
    assert vhat[2] == pytest.approx(-2.0, rel=1e-14)
    # undamped compliant: τ = 0
    assert R[3] == pytest.approx(1.0 / (h * h * 7.0), rel=1e-14)
    assert vhat[3] == pytest.approx(-500.0, rel=1e-14)
    # the same compliant row on a light body: the near-rigid bound wins, τ -> h
    assert R[4] == pytest.approx(near_rigid * 4e6, rel=1e-14) and R[4] > 50.0
    assert vhat[4] == pytest.approx(-0.5, rel=1e-14)
    assert (R[5], vhat[5]) == (0.0, 9.0)          # only the first m entries written


def test_constraint_delassus_is_the_frobenius_norm_per_constraint():
    # a coupler (1 row) and a ball (3 rows) on a diagonal A
    A = np.diag([2.0, 4.0, 5.0])
    J = np.array([[1.0, -2.0, 0.0],
                  [1.0, 0.0, 0.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]])
    w = np.zeros(4)
    constraint_delassus(J, A, np.array([COUPLER, BALL]), w)
    assert w[0] == pytest.approx(1 / 2 + 4 / 4, rel=1e-15)
    W = J[1:] @ np.diag(1 / np.diag(A)) @ J[1:].T
    np.testing.assert_allclose(w[1:], np.linalg.norm(W) / 3, rtol=1e-15)


# ---- the fused TAMSI step --------------------------------------------------------------------
def test_tamsi_step_equals_jacobian_and_solve_called_separately():
    scene = BoxScene("tamsi")
    scene.place(0.05 - 1e-3, velocity=(0.2, -0.1, -0.3))
    plant, ctx = scene.plant, scene.context
    core = get_plant_core(plant)
    stepper = core.stepper
    cache = core.cache
    state = cache.state.eval(ctx)
    vdot = cache.forward_dynamics.eval(ctx).vdot
    M = cache.mass_matrix.eval(ctx).M
    pcs = core.contact_manager.eval_point_contacts(ctx)
    nc, nv = pcs.nc, plant.num_velocities()
    ip, fp, ws = core.ip, core.fp, make_workspace(plant.num_bodies())
    assert nc == 4
    vs = plant.get_stiction_tolerance()
    tol = (stepper.rel_tolerance, stepper.abs_tolerance, stepper.max_iterations)
    J1, v1 = np.full((3 * nc + 5, nv), np.nan), np.zeros(nv)
    gamma1, vc1, tau1 = np.zeros(3 * nc), np.zeros(3 * nc), np.zeros(nv)
    it1, res1 = tamsi_step(ip, fp, ws, state.q, state.v, vdot, M, H, nc,
                           pcs.node_a, pcs.node_b, pcs.p_WC, pcs.R_WC, pcs.phi0, pcs.mu, pcs.k,
                           pcs.d, vs, *tol, J1, v1, gamma1, vc1, tau1)
    J2 = np.zeros((3 * nc, nv))
    contact_jacobian(ip, fp, ws, state.q, nc, pcs.node_a, pcs.node_b,
                     pcs.p_WC, pcs.R_WC, J2)
    v2, gamma2, vc2 = state.v.copy(), np.zeros(3 * nc), np.zeros(3 * nc)
    it2, res2 = tamsi_solve(M, state.v + H * vdot, v2, J2, nc, pcs.mu[:nc], H, pcs.k[:nc],
                            pcs.d[:nc], -pcs.phi0[:nc], vs, *tol, gamma2, vc2)
    assert it1 == it2 > 0 and res1 == res2
    np.testing.assert_array_equal(J1[:3 * nc], J2)
    np.testing.assert_allclose(v1, v2, rtol=0, atol=1e-14)
    np.testing.assert_allclose(gamma1, gamma2, rtol=0, atol=1e-14)
    np.testing.assert_allclose(vc1, vc2, rtol=0, atol=1e-14)
    np.testing.assert_allclose(tau1, J2.T @ gamma2 / H, rtol=0, atol=1e-11)
    assert gamma2[2::3].sum() > 0.0


@pytest.mark.parametrize("approximation", ["sap", "similar", "lagged"])
def test_a_tree_no_contact_acts_on_gets_the_free_motion_velocity_exactly(approximation):
    """The box presses on the ground; a tumbling brick far above it is its own tree, so
    the solve leaves it v* = v + h v̇ bit for bit while the box's contact takes impulses."""
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=H, contact_model="point", discrete_contact_approximation=approximation),
        builder)
    friction = CoulombFriction(0.5, 0.5)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", friction)
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.1, 0.1))
    plant.register_collision_geometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box",
                                      friction)
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_box_with_mass(0.3, 0.05, 0.1,
                                                                           0.2))
    plant.finalize()
    ctx = plant.get_my_context_from_root(builder.build().create_default_context())
    plant.set_free_body_pose(ctx, box, RigidTransform([0.0, 0.0, 0.049]))
    plant.set_free_body_pose(ctx, ball, RigidTransform(RotationMatrix(rodrigues([1, 2, 3], 0.7)),
                                                       [0.0, 0.0, 2.0]))
    V_ball = SpatialVelocity(np.array([0.3, -0.1, 0.2]), np.array([0.5, 0.2, -1.0]))
    plant.set_free_body_spatial_velocity(ctx, ball, V_ball)
    core = get_plant_core(plant)
    res = core.stepper.entry.eval(ctx)
    assert res.nc == 4 and res.iterations >= 0
    v0 = plant.get_velocities(ctx)
    vdot = core.cache.forward_dynamics.eval(ctx).vdot
    ball_v = slice(ball.floating_velocities_start(), ball.floating_velocities_start() + 6)
    np.testing.assert_array_equal(res.v_next[ball_v], v0[ball_v] + H * vdot[ball_v])
    np.testing.assert_allclose(vdot[ball_v][5], -9.81, rtol=1e-12)
    box_vz = box.floating_velocities_start() + 5
    assert res.v_next[box_vz] > v0[box_vz] + H * vdot[box_vz] + 1e-4    # the ground pushes
