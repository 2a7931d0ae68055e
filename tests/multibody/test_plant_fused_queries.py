"""The plant's per-call fast paths (one fused kernel call per query, lean state setters)
give the values of the general computations and never a stale cache.

- values: Drake 1.51's reference values (tests/data/reference) and identities with
  independent paths of the plant (M by CRBA and column by column from inverse dynamics,
  inverse dynamics with force elements and the computed-torque path, Jacobians with
  respect to v and to q̇, relative Jacobians from world ones);
- freshness: every query after set_positions / set_velocities / set_mass, on a context
  that answered queries before, equals (bit for bit) the same query on a fresh context in
  the same state; clones and pickled copies are independent; a plant in a diagram whose
  state does not start at the plant's q gives the values of the plant alone.
"""

import pickle
from pathlib import Path

import numpy as np
import pytest
from robot_models import damping_vector, fast_path_queries, load_reference_model

from merganser.framework import DiagramBuilder
from merganser.multibody.plant import JacobianWrtVariable, MultibodyForces, MultibodyPlant

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference"
KV = JacobianWrtVariable.kV
CASES = ("acrobot", "panda", "solo12")


def load(name, time_step=0.0, plant=None):
    """(plant, model instance) of reference model `name` (finalized unless `plant` given)."""
    plant, instance, _ = load_reference_model(name, time_step, plant)
    return plant, instance


def close(actual, expected, rtol=1e-9):
    expected = np.asarray(expected, dtype=float)
    scale = max(1.0, float(np.max(np.abs(expected))))
    np.testing.assert_allclose(actual, expected, rtol=0.0, atol=rtol * scale)


def queries(plant, context, instance, vdot):
    """Every fast-path query at the state of `context`, as a dict of arrays."""
    bodies = [plant.get_body(b) for b in plant.get_body_indices(instance)]
    ee, mid = bodies[-1], bodies[len(bodies) // 2]
    world = plant.world_frame()
    p = [0.1, -0.2, 0.3]
    return fast_path_queries(plant, context, bodies, {
        "J": (ee.body_frame(), p, world, world),
        "J_rel": (ee.body_frame(), p, mid.body_frame(), mid.body_frame())}, vdot)


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    plant, instance = load(request.param)
    return request.param, plant, instance, dict(np.load(REFERENCE / f"{request.param}.npz"))


# ---- values ------------------------------------------------------------------------------
def test_fused_queries_equal_drake_reference(case):
    name, plant, instance, ref = case
    context = plant.create_default_context()
    D = damping_vector(plant)
    bodies = [plant.get_body_by_name(str(b), instance) for b in ref["body_names"]]
    world = plant.world_frame()
    zero = MultibodyForces(plant)
    for k in range(ref["q"].shape[0]):
        plant.set_positions(context, ref["q"][k])
        plant.set_velocities(context, ref["v"][k])
        M = plant.calc_mass_matrix(context)
        close(M, ref["M"][k])
        close(plant.calc_inverse_dynamics(context, ref["vdot"][k], zero), ref["id"][k])
        forces = MultibodyForces(plant)
        plant.calc_force_elements_contribution(context, forces)
        # gravity and damping as forces: their generalized force is τ_g − D v
        close(plant.calc_generalized_forces(context, forces), ref["tau_g"][k] - D * ref["v"][k])
        # M v̇ + C v − τ_g + D v with the force elements applied
        close(plant.calc_inverse_dynamics(context, ref["vdot"][k], forces),
              ref["id"][k] - ref["tau_g"][k] + D * ref["v"][k])
        # v̇ = M⁻¹ (B u + τ_g − C v − D v), the actuation fixed to u = Bᵀ τ
        B = plant.make_actuation_matrix()
        u = B.T @ ref["tau"][k]
        if B.shape[1]:
            plant.get_actuation_input_port().fix_value(context, u)
        close(plant.calc_forward_dynamics(context),
              np.linalg.solve(ref["M"][k], B @ u + ref["tau_g"][k] - ref["Cv"][k]
                              - D * ref["v"][k]))
        for i, body in enumerate(bodies):
            close(plant.eval_body_pose_in_world(context, body).get_as_matrix4(),
                  ref["X_WB"][k, i])
            close(plant.calc_jacobian_spatial_velocity(context, KV, body.body_frame(),
                                                       np.zeros(3), world, world),
                  ref["J_WB"][k, i])


def test_fused_queries_equal_independent_paths(case):
    name, plant, instance, ref = case
    context = plant.create_default_context()
    bodies = [plant.get_body(b) for b in plant.get_body_indices(instance)]
    ee, mid = bodies[-1], bodies[len(bodies) // 2]
    world = plant.world_frame()
    p = np.array([0.1, -0.2, 0.3])
    for k in range(3):
        q, v, vdot = ref["q"][k], ref["v"][k], ref["vdot"][k]
        plant.set_positions(context, q)
        plant.set_velocities(context, v)
        np.testing.assert_allclose(plant.calc_mass_matrix(context),
                                   plant.calc_mass_matrix_via_inverse_dynamics(context),
                                   rtol=0.0, atol=1e-12)
        forces = MultibodyForces(plant)
        plant.calc_force_elements_contribution(context, forces)
        np.testing.assert_allclose(
            plant.calc_inverse_dynamics(context, vdot, forces),
            plant.calc_generalized_forces_for_acceleration(context, np.concatenate([q, v]),
                                                           vdot),
            rtol=0.0, atol=1e-10)
        # M v̇ = τ_app + τ_g − C v at the forward dynamics' v̇ (no actuation input: u = 0)
        a = plant.calc_forward_dynamics(context)
        np.testing.assert_allclose(plant.calc_inverse_dynamics(context, a, forces),
                                   np.zeros(plant.num_velocities()), atol=1e-9)
        J = plant.calc_jacobian_spatial_velocity(context, KV, ee.body_frame(), p, world, world)
        if plant.is_velocity_equal_to_qdot():       # N = I: kQDot takes the general path
            np.testing.assert_allclose(
                plant.calc_jacobian_spatial_velocity(context, JacobianWrtVariable.kQDot,
                                                     ee.body_frame(), p, world, world),
                J, rtol=0.0, atol=1e-14)
        # J v is the spatial velocity of the point
        V = plant.eval_body_spatial_velocity_in_world(context, ee).get_coeffs()
        R_WE = plant.eval_body_pose_in_world(context, ee).rotation().matrix()
        w = V[:3]
        np.testing.assert_allclose(J @ v, np.concatenate([w, V[3:] + np.cross(w, R_WE @ p)]),
                                   atol=1e-12)
        # relative Jacobian: R_EW (J_WBp − J_WAp) with Ap the point of A coincident with Bp
        p_A = plant.calc_points_positions(context, ee.body_frame(), p, mid.body_frame())[:, 0]
        J_A = plant.calc_jacobian_spatial_velocity(context, KV, mid.body_frame(), p_A, world,
                                                   world)
        R_EW = plant.eval_body_pose_in_world(context, mid).rotation().matrix().T
        D = J - J_A
        np.testing.assert_allclose(
            plant.calc_jacobian_spatial_velocity(context, KV, ee.body_frame(), p,
                                                 mid.body_frame(), mid.body_frame()),
            np.vstack([R_EW @ D[:3], R_EW @ D[3:]]), atol=1e-12)


def test_offset_frames_in_the_fused_jacobian():
    plant, instance = load("acrobot")
    context = plant.create_default_context()
    plant.set_positions(context, np.array([0.4, -1.1]))
    F = plant.get_frame_by_name("elbow_parent", instance)          # fixed to upper_link
    X_BF = F.get_fixed_pose_in_body_frame()
    world = plant.world_frame()
    p_F = np.array([0.05, 0.0, -0.2])
    J_F = plant.calc_jacobian_spatial_velocity(context, KV, F, p_F, world, F)
    J_B = plant.calc_jacobian_spatial_velocity(context, KV, F.body().body_frame(),
                                               X_BF.multiply(p_F), world, world)
    R_FW = plant.calc_relative_transform(context, F, world).rotation().matrix()
    np.testing.assert_allclose(J_F, np.vstack([R_FW @ J_B[:3], R_FW @ J_B[3:]]), atol=1e-14)


# ---- freshness -------------------------------------------------------------------------------
def fresh_queries(plant, instance, q, v, vdot, mass=None):
    context = plant.create_default_context()
    if mass is not None:
        mass[0].set_mass(context, mass[1])
    plant.set_positions(context, q)
    plant.set_velocities(context, v)
    return queries(plant, context, instance, vdot)


def assert_same(a, b):
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_no_stale_value_after_state_changes(case):
    name, plant, instance, ref = case
    context = plant.create_default_context()
    vdot = ref["vdot"][0]
    for k in range(4):
        q, v = ref["q"][k], ref["v"][k]
        plant.set_positions(context, q)
        plant.set_velocities(context, v)
        assert_same(queries(plant, context, instance, vdot),
                    fresh_queries(plant, instance, q, v, vdot))
    # v alone, then q alone, each after the caches were filled
    q, v = ref["q"][1], ref["v"][2]
    plant.set_velocities(context, v)
    assert_same(queries(plant, context, instance, vdot),
                fresh_queries(plant, instance, ref["q"][3], v, vdot))
    plant.set_positions(context, q)
    assert_same(queries(plant, context, instance, vdot),
                fresh_queries(plant, instance, q, v, vdot))
    # the state is a copy: writing the argument afterwards changes nothing
    q_arg = ref["q"][4].copy()
    plant.set_positions(context, q_arg)
    q_arg[:] = 0.5
    np.testing.assert_array_equal(plant.get_positions(context), ref["q"][4])


def test_no_stale_value_after_a_mass_change():
    plant, instance = load("panda")
    ref = dict(np.load(REFERENCE / "panda.npz"))
    q, v, vdot = ref["q"][0], ref["v"][0], ref["vdot"][0]
    context = plant.create_default_context()
    plant.set_positions(context, q)
    plant.set_velocities(context, v)
    before = queries(plant, context, instance, vdot)
    body = plant.get_body_by_name("panda_link5", instance)
    mass = 3.0 * body.get_mass(context)
    body.set_mass(context, mass)
    after = queries(plant, context, instance, vdot)
    assert_same(after, fresh_queries(plant, instance, q, v, vdot, mass=(body, mass)))
    for key in ("M", "vdot", "F_body", "tau"):
        assert not np.array_equal(after[key], before[key]), key
    # the mass matrix grows by the added mass's contribution: M' − M is positive semidefinite
    assert np.linalg.eigvalsh(after["M"] - before["M"]).min() > -1e-12


def test_clone_and_pickled_copy_are_independent():
    plant, instance = load("panda")
    ref = dict(np.load(REFERENCE / "panda.npz"))
    context = plant.create_default_context()
    plant.set_positions(context, ref["q"][0])
    plant.set_velocities(context, ref["v"][0])
    M0 = plant.calc_mass_matrix(context)
    for copy in (context.clone(), pickle.loads(pickle.dumps(context))):
        owner = copy.get_system()           # the plant itself, or its unpickled copy
        np.testing.assert_array_equal(owner.calc_mass_matrix(copy), M0)
        owner.set_positions(copy, ref["q"][1])
        owner.set_velocities(copy, ref["v"][1])
        np.testing.assert_array_equal(plant.get_positions(context), ref["q"][0])
        np.testing.assert_array_equal(plant.calc_mass_matrix(context), M0)
        assert_same(queries(owner, copy, instance, ref["vdot"][0]),
                    fresh_queries(plant, instance, ref["q"][1], ref["v"][1], ref["vdot"][0]))


def panda_in_a_diagram(with_acrobot):
    """(diagram, acrobot plant or None, Panda plant, Panda's model instance): the Panda
    alone in a diagram, or after an acrobot (its q and v then start after the acrobot's)."""
    builder = DiagramBuilder()
    acrobot = None
    if with_acrobot:
        acrobot, _ = load("acrobot", plant=builder.add_system(MultibodyPlant(0.0)))
        acrobot.finalize()
    panda, instance = load("panda", plant=builder.add_system(MultibodyPlant(0.0)))
    panda.finalize()
    return builder.build(), acrobot, panda, instance


def test_plant_in_a_diagram_with_state_before_its_own():
    """Two plants in one diagram: the second's q and v start after the first's, in the
    diagram's [all q; all v] layout; its queries equal those of the plant alone."""
    diagram, acrobot, panda, instance = panda_in_a_diagram(with_acrobot=True)
    root = diagram.create_default_context()
    ref = dict(np.load(REFERENCE / "panda.npz"))
    alone, alone_instance = load("panda")
    for k in range(2):
        acrobot.set_positions(acrobot.get_my_context_from_root(root), np.array([0.3, k + 0.1]))
        context = panda.get_my_context_from_root(root)
        panda.set_positions(context, ref["q"][k])
        panda.set_velocities(context, ref["v"][k])
        np.testing.assert_array_equal(panda.get_positions(context), ref["q"][k])
        with pytest.raises(RuntimeError, match="get_my_context_from_root"):
            panda.get_positions(root)                      # the diagram's: refused, as Drake
        assert_same(queries(panda, context, instance, ref["vdot"][k]),
                    fresh_queries(alone, alone_instance, ref["q"][k], ref["v"][k],
                                  ref["vdot"][k]))
    np.testing.assert_array_equal(acrobot.get_positions(acrobot.get_my_context_from_root(root)),
                                  [0.3, 1.1])


def test_discrete_plant_fast_paths():
    plant, instance = load("panda", time_step=1e-3)
    continuous, _ = load("panda")
    ref = dict(np.load(REFERENCE / "panda.npz"))
    context = plant.create_default_context()
    for k in range(2):
        plant.set_positions(context, ref["q"][k])
        plant.set_velocities(context, ref["v"][k])
        np.testing.assert_array_equal(plant.get_positions_and_velocities(context),
                                      np.concatenate([ref["q"][k], ref["v"][k]]))
        assert_same(queries(plant, context, instance, ref["vdot"][k]),
                    fresh_queries(continuous, instance, ref["q"][k], ref["v"][k],
                                  ref["vdot"][k]))


def test_setters_still_check_and_convert():
    plant, _ = load("panda")
    context = plant.create_default_context()
    with pytest.raises(ValueError, match=r"set_positions: q has size 10, expected nq = 9"):
        plant.set_positions(context, np.zeros(10))
    with pytest.raises(ValueError, match=r"set_velocities: v has size 8, expected nv = 9"):
        plant.set_velocities(context, np.zeros(8))
    with pytest.raises(TypeError, match="set_positions"):
        plant.set_positions(context, "not a vector")
    plant.set_positions(context, list(range(9)))                     # converted
    np.testing.assert_array_equal(plant.get_positions(context), np.arange(9.0))
    plant.set_velocities(context, np.arange(9, dtype=np.int32))
    np.testing.assert_array_equal(plant.get_velocities(context), np.arange(9.0))
    plant.set_positions(context, np.arange(18.0)[::2])                # strided view
    np.testing.assert_array_equal(plant.get_positions(context), np.arange(0.0, 18.0, 2.0))
    with pytest.raises(TypeError, match="calc_inverse_dynamics: forces must be a MultibodyForces"):
        plant.calc_inverse_dynamics(context, np.zeros(9), None)
    with pytest.raises(ValueError, match="calc_inverse_dynamics: known_vdot has size 3"):
        plant.calc_inverse_dynamics(context, np.zeros(3), MultibodyForces(plant))


def test_gravity_disabled_for_an_instance_in_the_fused_force_elements():
    plant = MultibodyPlant(0.0)
    _, panda, _ = load_reference_model("panda", plant=plant)
    plant.set_gravity_enabled(panda, False)
    plant.finalize()
    context = plant.create_default_context()
    ref = dict(np.load(REFERENCE / "panda.npz"))
    plant.set_positions(context, ref["q"][0])
    plant.set_velocities(context, ref["v"][0])
    forces = MultibodyForces(plant)
    forces.body_forces()[:] = 1.0                      # overwritten, as in Drake
    plant.calc_force_elements_contribution(context, forces)
    np.testing.assert_array_equal(forces.body_forces(), 0.0)
    np.testing.assert_array_equal(forces.generalized_forces(),
                                  0.0 - damping_vector(plant) * ref["v"][0])
    # so the inverse dynamics is M v̇ + C v + D v (no gravity)
    close(plant.calc_inverse_dynamics(context, ref["vdot"][0], forces),
          ref["id"][0] + damping_vector(plant) * ref["v"][0])


def test_jacobian_of_a_world_point_measured_in_a_body_frame():
    plant, instance = load("panda")
    context = plant.create_default_context()
    plant.set_positions(context, dict(np.load(REFERENCE / "panda.npz"))["q"][2])
    A = plant.get_body_by_name("panda_link4", instance)
    world = plant.world_frame()
    p_W = np.array([0.3, 0.1, 0.5])
    J = plant.calc_jacobian_spatial_velocity(context, KV, world, p_W, A.body_frame(), world)
    # the world point moves in A as minus A's point coincident with it moves in W
    p_A = plant.calc_points_positions(context, world, p_W, A.body_frame())[:, 0]
    J_A = plant.calc_jacobian_spatial_velocity(context, KV, A.body_frame(), p_A, world, world)
    np.testing.assert_allclose(J, -J_A, atol=1e-14)


# ---- invalidation: a write skips the walk over the dependents only when none was evaluated
def _evaluations(plant, ee):
    """Each way a plant value is made current: a cache entry (velocity kinematics), output
    ports (one computed from a cache entry, one from the state alone) and the time
    derivatives, as functions of a context."""
    poses, state = plant.get_body_poses_output_port(), plant.get_state_output_port()
    return {
        "cache entry": lambda c: plant.eval_body_spatial_velocity_in_world(c, ee).get_coeffs(),
        "output port": lambda c: np.array([X.get_as_matrix4() for X in poses.eval(c)]),
        "state port": lambda c: np.array(state.eval(c)),
        "derivatives": lambda c: np.array(plant.eval_time_derivatives(c).copy_to_vector()),
    }


def test_writes_after_an_evaluation_invalidate_its_value():
    plant, instance = load("panda")
    ref = dict(np.load(REFERENCE / "panda.npz"))
    ee = plant.get_body(plant.get_body_indices(instance)[-1])
    context = plant.create_default_context()
    for name, evaluate in _evaluations(plant, ee).items():
        for _ in range(3):                  # after the first, writes skip the walk
            plant.set_positions(context, ref["q"][0])
            plant.set_velocities(context, ref["v"][0])
        before = evaluate(context)
        # several writes, with only fused queries (which evaluate no cache entry) between
        for k in (1, 2, 3):
            plant.set_positions(context, ref["q"][k])
            plant.set_velocities(context, ref["v"][k])
            plant.eval_body_pose_in_world(context, ee)
            plant.calc_mass_matrix(context)
        fresh = plant.create_default_context()
        plant.set_positions(fresh, ref["q"][3])
        plant.set_velocities(fresh, ref["v"][3])
        after = evaluate(context)
        np.testing.assert_array_equal(after, evaluate(fresh), err_msg=name)
        assert not np.array_equal(after, before), name
        # v alone after the evaluation: what depends on v is current again
        plant.set_velocities(context, ref["v"][4])
        plant.set_velocities(fresh, ref["v"][4])
        if name != "output port":                    # the poses do not depend on v
            np.testing.assert_array_equal(evaluate(context), evaluate(fresh), err_msg=name)


@pytest.mark.parametrize("with_acrobot", [False, True])
def test_writes_through_the_plant_invalidate_the_diagram_derivatives(with_acrobot):
    """The diagram's derivatives are the plant's (one leaf) or assembled from two plants'
    (the diagram's own entry); both follow writes through the plant's own context."""
    diagram, _, plant, instance = panda_in_a_diagram(with_acrobot)
    root = diagram.create_default_context()
    context = plant.get_my_context_from_root(root)
    ref = dict(np.load(REFERENCE / "panda.npz"))
    alone, _ = load("panda")
    fresh = alone.create_default_context()
    for k in range(3):
        plant.set_positions(context, ref["q"][k])
        plant.set_positions(context, ref["q"][k])       # a second write, nothing evaluated
        plant.set_velocities(context, ref["v"][k])
        plant.set_velocities(context, ref["v"][k + 1])
        alone.set_positions(fresh, ref["q"][k])
        alone.set_velocities(fresh, ref["v"][k + 1])
        xdot = diagram.eval_time_derivatives(root).copy_to_vector()
        if with_acrobot:        # the diagram's layout [all q; all v], the acrobot's first
            nq = plant.num_positions()
            xdot = np.concatenate([xdot[2:2 + nq], xdot[2 + nq + 2:]])
        np.testing.assert_array_equal(xdot, alone.eval_time_derivatives(fresh).copy_to_vector())


def test_a_pose_from_the_fast_path_is_immutable_and_independent():
    plant, instance = load("panda")
    ref = dict(np.load(REFERENCE / "panda.npz"))
    ee = plant.get_body(plant.get_body_indices(instance)[-1])
    context = plant.create_default_context()
    plant.set_positions(context, ref["q"][0])
    plant.eval_body_pose_in_world(context, ee)              # first call: the general path
    X = plant.eval_body_pose_in_world(context, ee)          # the fused path
    X4 = X.get_as_matrix4()
    X.translation()[:] = 0.0                                # copies: X is unchanged
    X.rotation().matrix()[:] = 0.0
    plant.set_positions(context, ref["q"][1])
    Y = plant.eval_body_pose_in_world(context, ee)
    np.testing.assert_array_equal(X.get_as_matrix4(), X4)  # not overwritten by the next call
    close(X4, ref["X_WB"][0, -1])
    close(Y.get_as_matrix4(), ref["X_WB"][1, -1])
    np.testing.assert_allclose(Y.rotation().matrix() @ Y.rotation().matrix().T, np.eye(3),
                               atol=1e-14)


def test_fast_paths_keep_the_argument_errors():
    plant, instance = load("panda")
    other, _ = load("acrobot")
    context = plant.create_default_context()
    ee = plant.get_body(plant.get_body_indices(instance)[-1])
    world, frame = plant.world_frame(), ee.body_frame()
    plant.set_positions(context, np.zeros(9))
    plant.eval_body_pose_in_world(context, ee)              # the memos are filled
    plant.calc_jacobian_spatial_velocity(context, KV, frame, np.zeros(3), world, world)
    with pytest.raises(TypeError, match="eval_body_pose_in_world: body must be a RigidBody"):
        plant.eval_body_pose_in_world(context, [ee])
    with pytest.raises(TypeError, match="eval_body_pose_in_world: expected a Context"):
        plant.eval_body_pose_in_world(None, ee)
    with pytest.raises(RuntimeError, match="eval_body_pose_in_world"):
        plant.eval_body_pose_in_world(other.create_default_context(), ee)
    with pytest.raises(ValueError, match="calc_jacobian_spatial_velocity: p_BoBp_B has shape"):
        plant.calc_jacobian_spatial_velocity(context, KV, frame, np.zeros(4), world, world)
    with pytest.raises(TypeError, match="calc_jacobian_spatial_velocity: frame_A must be a Frame"):
        plant.calc_jacobian_spatial_velocity(context, KV, frame, np.zeros(3), None, world)
    with pytest.raises(TypeError, match="calc_jacobian_spatial_velocity: with_respect_to"):
        plant.calc_jacobian_spatial_velocity(context, "kV", frame, np.zeros(3), world, world)
    with pytest.raises(ValueError, match="calc_mass_matrix|expected a Context"):
        plant.calc_mass_matrix(other.create_default_context())
    with pytest.raises(ValueError, match="calc_force_elements_contribution: forces has nv"):
        plant.calc_force_elements_contribution(context, MultibodyForces(other))
    with pytest.raises(TypeError, match="calc_inverse_dynamics: known_vdot must be"):
        plant.calc_inverse_dynamics(context, "x", MultibodyForces(plant))
    # a list point, an int vector and a strided view are converted, with the same values
    J = plant.calc_jacobian_spatial_velocity(context, KV, frame, np.array([0.1, 0.0, 0.2]),
                                             world, world)
    for p in ([0.1, 0.0, 0.2], np.array([0.1, 9.0, 0.0, 5.0, 0.2])[::2]):
        np.testing.assert_array_equal(
            plant.calc_jacobian_spatial_velocity(context, KV, frame, p, world, world), J)
