"""Tendon constraints (Drake's AddTendonConstraint / SapTendonConstraint): the length
l = aᵀ q + offset over one-dof joints kept within its limits by unilateral rows of the
SAP-family step. pydrake 1.51.1 has no AddTendonConstraint, so the references are closed
forms: the static equilibrium of joint springs against the near-rigid limit (with SAP's
near-rigid penetration 2 h² R λ, R = β²/(4π²) w, β = 0.1, w = aᵀ diag(M + h D)⁻¹ a) and
the compliant tendon's force k (l - lᵤ)."""

import math

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, EventStatus, Simulator
from merganser.framework.compiled_diagram import (compile_diagram_dynamics,
                                                  compiled_dynamics_status,
                                                  unfuse_compiled_dynamics)
from merganser.geometry import RigidTransform
from merganser.multibody import MultibodyPlant, SpatialInertia
from merganser.multibody.batched import plant_loop
from merganser.multibody.tree import (BallRpyJoint, FixedOffsetFrame, RevoluteJoint,
                                      RevoluteSpring)

H = 1e-3
A = np.array([1.0, 0.5])            # the tendon's coefficients
OFFSET, UPPER = 0.1, 0.5            # l = q0 + q1/2 + 0.1 <= 0.5
SPRING_K = np.array([10.0, 20.0])
SPRING_Q0 = np.array([0.8, 0.6])    # the springs alone rest at l = 1.2: beyond the limit
DAMPING = 0.5


def _wheel_inertia(mass):
    """Rotational inertia about y of the 0.1 x 0.1 x 0.6 m box of `mass`."""
    return mass * (0.1 ** 2 + 0.6 ** 2) / 12.0


def _sprung_wheels(approximation="sap", tendon=True, **kwargs):
    """Two boxes (1 kg, 2 kg) on pins through their centers (two kinematic trees, no
    gravity torque), damped, each pulled by a torsional spring past the tendon's upper
    limit."""
    plant = MultibodyPlant(H)
    plant.set_discrete_contact_approximation(approximation)
    joints = []
    for i in range(2):
        body = plant.add_rigid_body(f"wheel{i}", SpatialInertia.solid_box_with_mass(
            1.0 + i, 0.1, 0.1, 0.6))
        joints.append(plant.add_joint(RevoluteJoint(f"pin{i}", plant.world_frame(),
                                                    body.body_frame(), [0, 1, 0],
                                                    damping=DAMPING)))
        plant.add_force_element(RevoluteSpring(joints[i], SPRING_Q0[i], SPRING_K[i]))
    tendon_id = None
    if tendon:
        kwargs.setdefault("upper_limit", UPPER)
        tendon_id = plant.add_tendon_constraint([j.index() for j in joints], A.tolist(),
                                                offset=OFFSET, **kwargs)
    plant.finalize()
    simulator = Simulator(plant)
    return simulator, plant, simulator.get_mutable_context(), tendon_id


def test_a_rigid_tendon_holds_two_sprung_joints_at_its_upper_limit():
    simulator, plant, context, tendon_id = _sprung_wheels()
    assert plant.num_constraints() == plant.num_tendon_constraints() == 1
    spec = plant.get_tendon_constraint_specs(tendon_id)
    assert (spec.joints, spec.offset, spec.lower_limit, spec.upper_limit, spec.stiffness,
            spec.damping) == ((0, 1), OFFSET, -math.inf, UPPER, math.inf, 0.0)
    simulator.advance_to(8.0)
    q, v = plant.get_positions(context), plant.get_velocities(context)
    # equilibrium of the springs against the tendon force λ: k (q - q₀) = -λ a, with the
    # near-rigid row's steady violation l - lᵤ = -2 h² R λ
    M_damped = np.array([_wheel_inertia(1.0), _wheel_inertia(2.0)]) + H * DAMPING
    R = 0.1 ** 2 / (4 * math.pi ** 2) * np.sum(A * A / M_damped)
    lam = (A @ SPRING_Q0 + OFFSET - UPPER) / (np.sum(A * A / SPRING_K) + 2 * H * H * R)
    q_expected = SPRING_Q0 - lam * A / SPRING_K
    np.testing.assert_allclose(q, q_expected, rtol=0, atol=1e-8)   # (SAP tolerances)
    length = A @ q + OFFSET
    assert length - UPPER == pytest.approx(2 * H * H * R * lam, rel=1e-3)  # ≈ 1.1e-7
    assert np.abs(v).max() < 1e-8
    # the tendon's generalized force: Jᵀ γ / h = -a λ on the two joints
    tau = plant.get_generalized_contact_forces_output_port(
        plant.default_model_instance()).eval(context)
    np.testing.assert_allclose(tau, -lam * A, rtol=1e-6)


@pytest.mark.parametrize("approximation", ["sap", "similar", "lagged"])
def test_a_compliant_tendon_pulls_back_with_its_stiffness_times_the_violation(approximation):
    k_tendon = 1e3
    simulator, plant, context, _ = _sprung_wheels(approximation, stiffness=k_tendon)
    simulator.advance_to(8.0)
    q = plant.get_positions(context)
    violation = A @ q + OFFSET - UPPER
    lam = k_tendon * (A @ SPRING_Q0 + OFFSET - UPPER) / (1 + k_tendon * np.sum(A * A / SPRING_K))
    assert violation == pytest.approx(lam / k_tendon, rel=1e-6)
    np.testing.assert_allclose(q, SPRING_Q0 - lam * A / SPRING_K, rtol=0, atol=1e-7)
    tau = plant.get_generalized_contact_forces_output_port(
        plant.default_model_instance()).eval(context)
    np.testing.assert_allclose(tau, -k_tendon * violation * A, rtol=1e-6)


def test_a_tendon_within_its_limits_or_inactive_does_nothing():
    runs = []
    for case in ("inactive", "slack", "none"):
        simulator, plant, context, tendon_id = _sprung_wheels(
            tendon=case != "none", **({"upper_limit": 5.0} if case == "slack" else {}))
        if case == "inactive":
            plant.set_constraint_active_status(context, tendon_id, False)
            assert not plant.get_constraint_active_status(context, tendon_id)
        simulator.advance_to(1.0)
        runs.append(plant.get_positions_and_velocities(context).copy())
    # the springs carry l past the active tendon's limit of 0.5 within the second
    assert A @ runs[2][:2] + OFFSET > 0.9
    np.testing.assert_array_equal(runs[0], runs[2])
    np.testing.assert_array_equal(runs[1], runs[2])


@pytest.mark.parametrize("inactive", ["coupler", "tendon"])
def test_each_constraint_of_a_plant_with_a_coupler_and_a_tendon_switches_alone(inactive):
    plant = MultibodyPlant(H)
    joints = []
    for i in range(4):
        body = plant.add_rigid_body(f"wheel{i}", SpatialInertia.solid_box_with_mass(
            1.0 + i % 2, 0.1, 0.1, 0.6))
        joints.append(plant.add_joint(RevoluteJoint(f"pin{i}", plant.world_frame(),
                                                    body.body_frame(), [0, 1, 0],
                                                    damping=DAMPING)))
    for i in range(2):
        plant.add_force_element(RevoluteSpring(joints[i], SPRING_Q0[i], SPRING_K[i]))
    plant.add_force_element(RevoluteSpring(joints[3], 1.0, 10.0))
    coupler = plant.add_coupler_constraint(joints[2], joints[3], 2.0)     # q2 = 2 q3
    tendon = plant.add_tendon_constraint(joints[:2], A, offset=OFFSET, upper_limit=UPPER)
    plant.finalize()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    plant.set_constraint_active_status(context, {"coupler": coupler, "tendon": tendon}[inactive],
                                       False)
    simulator.advance_to(2.0)
    q = plant.get_positions(context)
    length = A @ q[:2] + OFFSET
    if inactive == "coupler":
        assert length == pytest.approx(UPPER, abs=1e-6)
        assert abs(q[2]) < 1e-12 and q[3] > 0.5             # q3 springs toward 1 alone
    else:
        assert length > UPPER + 0.5                          # the springs' l = 1.2
        assert q[2] == pytest.approx(2.0 * q[3], abs=1e-6) and q[3] > 0.05


def _add_double_pendulum(plant, lower=-0.4, upper=0.3):
    """A damped double pendulum, its joints tied by a rigid tendon l = q0 - 2 q1 in
    [lower, upper] (one kinematic tree); returns the tendon's id."""
    parent = plant.world_frame()
    joints = []
    for i in range(2):
        link = plant.add_rigid_body(f"link{i}", SpatialInertia.solid_box_with_mass(
            1.0, 0.05, 0.05, 0.4))
        joints.append(plant.add_joint(RevoluteJoint(
            f"joint{i}", parent, plant.add_frame(FixedOffsetFrame(
                f"top{i}", link.body_frame(), RigidTransform([0, 0, 0.2]))),
            [0, 1, 0], damping=0.05)))
        parent = plant.add_frame(FixedOffsetFrame(f"end{i}", link.body_frame(),
                                                  RigidTransform([0, 0, -0.2])))
    return plant.add_tendon_constraint(joints, [1.0, -2.0], lower_limit=lower,
                                       upper_limit=upper)


def _double_pendulum(observed):
    """The double pendulum released from l = 0.2 under gravity, alone in a Simulator."""
    plant = MultibodyPlant(H)
    _add_double_pendulum(plant)
    plant.finalize()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    plant.set_positions(context, [1.2, 0.5])          # l = 0.2, within the limits
    if observed:                                      # the Simulator applies every update
        simulator.set_monitor(lambda ctx: EventStatus.succeeded())
    return simulator, plant, context


def test_the_compiled_loop_equals_the_tendon_plant_observed_step_by_step(monkeypatch):
    calls = []
    compiled_steps = plant_loop.repeat_contact_steps
    monkeypatch.setattr(plant_loop, "repeat_contact_steps",
                        lambda *args: calls.append(args[7]) or compiled_steps(*args))
    runs = []
    for observed in (False, True):
        simulator, plant, context = _double_pendulum(observed)
        lengths = []
        for k in range(1, 101):
            simulator.advance_to(0.01 * k)
            q = plant.get_positions(context)
            lengths.append(q[0] - 2.0 * q[1])
        runs.append((plant.get_positions_and_velocities(context).copy(), np.array(lengths)))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])
    assert calls and all(n > 1 for n in calls)        # the unobserved run took the loop
    lengths = runs[0][1]
    # the swing drives the tendon onto both limits, which hold it to the near-rigid
    # rows' violation (free, the pendulum would swing far past them)
    assert lengths.min() < -0.4 + 1e-3 and lengths.max() > 0.3 - 1e-3
    assert lengths.min() > -0.4 - 5e-3 and lengths.max() < 0.3 + 5e-3


@pytest.mark.parametrize("deactivate_at", [None, 0.0, 0.2])
def test_a_compiled_diagram_equals_block_by_block_and_applies_a_deactivation(deactivate_at):
    runs = []
    for compiled in (True, False):
        builder = DiagramBuilder()
        plant = builder.add_system(MultibodyPlant(H))
        tendon_id = _add_double_pendulum(plant)
        plant.finalize()
        diagram = builder.build()
        simulator = Simulator(diagram)
        root = simulator.get_mutable_context()
        context = diagram.get_subsystem_context(plant, root)
        plant.set_positions(context, [1.2, 0.5])
        if compiled:
            assert compile_diagram_dynamics(diagram, root), compiled_dynamics_status(root)
        else:
            unfuse_compiled_dynamics(root)
        if deactivate_at is not None:
            simulator.advance_to(deactivate_at)
            plant.set_constraint_active_status(context, tendon_id, False)
        simulator.advance_to(0.6)
        q = plant.get_positions(context)
        runs.append((plant.get_positions_and_velocities(context).copy(), q[0] - 2 * q[1]))
        assert not compiled or compiled_dynamics_status(root).path == "compiled"
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    if deactivate_at is None:
        assert -0.4 - 5e-3 < runs[0][1] < 0.3 + 5e-3
    else:                                  # free, the swing carries l past a limit
        assert not -0.4 < runs[0][1] < 0.3


def _two_joint_plant(time_step=H, approximation="sap"):
    plant = MultibodyPlant(time_step)
    if time_step > 0:
        plant.set_discrete_contact_approximation(approximation)
    joints = []
    for i in range(2):
        body = plant.add_rigid_body(f"b{i}", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
        joints.append(plant.add_joint(RevoluteJoint(f"j{i}", plant.world_frame(),
                                                    body.body_frame(), [0, 0, 1])))
    return plant, joints


@pytest.mark.parametrize("kwargs, words", [
    ({"joints": [0, 1], "a": [1.0, 2.0, 3.0], "upper_limit": 1.0},
     ["add_tendon_constraint", "a must be one coefficient per joint", "size 2", "got size 3"]),
    ({"joints": [], "a": [], "upper_limit": 1.0},
     ["add_tendon_constraint", "joints must be a non-empty sequence", "got []"]),
    ({"joints": [0, 0], "a": [1.0, 1.0], "upper_limit": 1.0},
     ["add_tendon_constraint", "joints must be a set of distinct joints", "got joint 0"]),
    ({"joints": [0, 7], "a": [1.0, 1.0], "upper_limit": 1.0},
     ["add_tendon_constraint", "joints[1] must be the index of a joint", "got 7"]),
    ({"joints": [0, 1], "a": [1.0, 1.0], "lower_limit": 2.0, "upper_limit": 1.0},
     ["add_tendon_constraint", "lower_limit must be <= upper_limit (1.0)", "got 2.0"]),
    ({"joints": [0, 1], "a": [1.0, 1.0]},
     ["add_tendon_constraint", "lower_limit and upper_limit must be at least one finite",
      "got lower_limit=None, upper_limit=None"]),
    ({"joints": [0, 1], "a": [1.0, 1.0], "lower_limit": math.inf},
     ["add_tendon_constraint", "lower_limit must be < inf", "got inf"]),
    ({"joints": [0, 1], "a": [1.0, 1.0], "upper_limit": 1.0, "stiffness": 0.0},
     ["add_tendon_constraint", "stiffness must be > 0", "got 0.0"]),
    ({"joints": [0, 1], "a": [1.0, 1.0], "upper_limit": 1.0, "damping": -1.0},
     ["add_tendon_constraint", "damping must be >= 0", "got -1.0"]),
])
def test_bad_arguments_raise_naming_the_function_argument_expectation_and_value(kwargs,
                                                                                words):
    plant, _ = _two_joint_plant()
    with pytest.raises(RuntimeError) as info:       # as pydrake; also a ValueError
        plant.add_tendon_constraint(**kwargs)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value)
    assert plant.num_constraints() == 0


def test_a_joint_with_more_than_one_dof_is_refused():
    plant, joints = _two_joint_plant()
    body = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    ball = plant.add_joint(BallRpyJoint("ball", plant.world_frame(), body.body_frame()))
    with pytest.raises(ValueError, match=r"add_tendon_constraint: joints\[1\] must be a "
                                         r"single-dof joint .* got joint 'ball' with 3 "
                                         r"positions and 3 velocities"):
        plant.add_tendon_constraint([joints[0], ball], [1.0, 1.0], upper_limit=1.0)


@pytest.mark.parametrize("approximation", ["tamsi", "lcp"])
def test_solvers_other_than_sap_refuse_tendons_as_drake(approximation):
    plant, joints = _two_joint_plant(approximation=approximation)
    with pytest.raises(RuntimeError, match=f"add_tendon_constraint: plant .* uses the "
                                           f"discrete contact approximation "
                                           f"'{approximation}', which does not support "
                                           f"tendon constraints; expected 'sap'"):
        plant.add_tendon_constraint(joints, [1.0, 1.0], upper_limit=1.0)
    # chosen after the constraint was added, finalize refuses it
    plant, joints = _two_joint_plant()
    plant.add_tendon_constraint(joints, [1.0, 1.0], upper_limit=1.0)
    plant.set_discrete_contact_approximation(approximation)
    with pytest.raises(ValueError, match=f"finalize: discrete_contact_approximation "
                                         f"'{approximation}' does not support"):
        plant.finalize()


def test_a_continuous_plant_accepts_the_declaration_and_refuses_it_at_finalize():
    plant, joints = _two_joint_plant(time_step=0.0)
    plant.add_tendon_constraint(joints, [1.0, 1.0], upper_limit=1.0)   # as Drake
    with pytest.raises(ValueError, match=r"finalize: the plant has 1 constraint\(s\), which "
                                         r"need a discrete plant \(time_step > 0\).*got a "
                                         r"continuous plant"):
        plant.finalize()


def test_after_finalize_the_declaration_is_refused():
    plant, joints = _two_joint_plant()
    plant.finalize()
    with pytest.raises(RuntimeError, match="add_tendon_constraint.*finalize"):
        plant.add_tendon_constraint(joints, [1.0, 1.0], upper_limit=1.0)
