"""URDF <hydro> blocks: parsed values (axis reordering), buoyancy, drag, added mass in the
plant's mass matrix, dynamics and simulation, energy bookkeeping, and malformed blocks."""

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from merganser.geometry import RigidTransform, RollPitchYaw
from merganser.framework import Simulator
from merganser.multibody.hydrodynamics import (
    BodyHydroData,
    HydrodynamicForce,
    calc_added_mass_bias,
    calc_added_mass_matrix,
    calc_forward_dynamics_with_added_mass,
    calc_mass_matrix_with_added_mass,
    hydrodynamic_force_elements,
)
from merganser.multibody.math import SpatialInertia, SpatialVelocity
from merganser.multibody.parsing import ParseError, Parser, ParseWarning, parse_hydrodynamics_parameters
from merganser.multibody.plant import MultibodyForces, MultibodyPlant
from merganser.multibody.tree import FixedOffsetFrame, RevoluteJoint

ROV = Path(__file__).resolve().parents[2] / "data" / "parsing" / "hydro_rov.urdf"
RHO, G = 1000.0, 9.81


def blkdiag(R):
    P = np.zeros((6, 6))
    P[:3, :3] = P[3:, 3:] = R
    return P


def one_body(mass, com, hydro, gravity=None, **parser_options):
    """A free body `b` with the given <hydro> contents, loaded from a URDF string."""
    text = (f'<robot name="r"><link name="b"><inertial><origin xyz="{com}"/>'
            f'<mass value="{mass}"/><inertia ixx="0.1" iyy="0.2" izz="0.3" ixy="0" ixz="0" '
            f'iyz="0"/></inertial><hydro>{hydro}</hydro></link></robot>')
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    if parser_options:
        parser.set_hydrodynamics_options(**parser_options)
    [mi] = parser.add_models_from_string(text, "urdf")
    if gravity is not None:
        plant.gravity_field().set_gravity_vector(gravity)
    plant.finalize()
    return plant, plant.get_body_by_name("b", mi)


def set_state(plant, body, rpy, p, V_W):
    ctx = plant.create_default_context()
    X = RigidTransform(RollPitchYaw(*rpy), p)
    plant.set_free_body_pose(ctx, body, X)
    plant.set_free_body_spatial_velocity(ctx, body, SpatialVelocity(V_W[:3], V_W[3:]))
    return ctx, X.rotation().matrix()


# ------------------------------------------------------------------ parsed values
def test_parsed_values_match_the_file_rotational_first():
    data = parse_hydrodynamics_parameters(ROV.read_text())
    assert set(data) == {"hull", "arm"}
    arm = data["arm"]
    assert not arm.has_hydro and arm.volume == 0.0 and not np.any(arm.added_mass_matrix)
    hull = data["hull"]
    assert hull.has_hydro and hull.volume == 0.0105
    np.testing.assert_array_equal(hull.center_of_buoyancy, [0.01, -0.02, 0.05])
    # File order x y z r p y -> stored r p y x y z.
    np.testing.assert_array_equal(hull.linear_drag, [-4, -5, -6, -1, -2, -3])
    np.testing.assert_array_equal(hull.quadratic_drag, [-40, -50, -60, -10, -20, -30])
    M = hull.added_mass_matrix
    np.testing.assert_array_equal(np.diag(M), [0.5, 0.6, 0.7, 5.0, 6.0, 7.0])
    assert M[1, 3] == M[3, 1] == 0.3    # pitch-x coupling (file entry [0, 4])
    assert M[0, 4] == M[4, 0] == -0.2   # roll-y coupling (file entry [1, 3])
    assert M[2, 5] == M[5, 2] == 0.1    # yaw-z coupling (file entry [2, 5])
    assert np.count_nonzero(M) == 12


def test_parser_adds_one_hydrodynamic_force_per_hydro_block():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.set_hydrodynamics_options(fluid_density=1025.0)
    parser.set_strict_parsing()  # the file has nothing unsupported
    [mi] = parser.add_models(ROV)
    elements = [plant.get_force_element(i) for i in range(plant.num_force_elements())]
    [hydro] = [e for e in elements if isinstance(e, HydrodynamicForce)]
    assert hydro.body() is plant.get_body_by_name("hull", mi)
    assert hydro.fluid_density() == 1025.0
    assert hydro.buoyancy_magnitude() == pytest.approx(1025.0 * G * 0.0105)


# ------------------------------------------------------------------ buoyancy
def test_neutrally_buoyant_body_has_no_net_force():
    mass = 7.3
    plant, body = one_body(mass, "0.1 -0.2 0.05",
                           f"<buoyancy><volume>{mass / RHO}</volume>"
                           f"<origin xyz='0.1 -0.2 0.05'/></buoyancy>")
    ctx, _ = set_state(plant, body, [0.4, -0.3, 1.2], [1, 2, -3], np.zeros(6))
    np.testing.assert_allclose(plant.calc_forward_dynamics(ctx), np.zeros(6), atol=1e-12)
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(ctx, forces)  # gravity + buoyancy
    np.testing.assert_allclose(forces.body_forces()[body.index()], np.zeros(6), atol=1e-12)


def test_buoyancy_acts_up_at_the_center_of_buoyancy():
    plant, body = one_body(2.0, "0 0 0", "<buoyancy><volume>0.001</volume>"
                                         "<origin xyz='0 0 0.1'/></buoyancy>")
    ctx, R = set_state(plant, body, [0.5, 0, 0], [0, 0, 0], np.zeros(6))
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(ctx, forces)
    f_b = np.array([0, 0, RHO * G * 0.001])
    F = forces.body_forces()[body.index()]
    np.testing.assert_allclose(F[3:], f_b + 2.0 * np.array([0, 0, -9.81]), atol=1e-12)
    np.testing.assert_allclose(F[:3], np.cross(R @ [0, 0, 0.1], f_b), atol=1e-12)
    # Potential energy of the constant buoyancy force: -f · p_WBcb.
    pe_gravity = 0.0  # the center of mass is at the origin, at height 0
    assert plant.calc_potential_energy(ctx) == pytest.approx(
        pe_gravity - f_b @ (R @ [0, 0, 0.1]), abs=1e-12)


# ------------------------------------------------------------------ drag
def test_drag_force_is_a_v_plus_b_v_abs_v_in_the_body_frame():
    a = np.array([-4, -5, -6, -1, -2, -3.0])
    b = np.array([-40, -50, -60, -10, -20, -30.0])
    plant, body = one_body(3.0, "0 0 0", "<drag><linear_damping>-1 -2 -3 -4 -5 -6"
                                         "</linear_damping><quadratic_damping>-10 -20 -30 -40 "
                                         "-50 -60</quadratic_damping></drag>",
                           gravity=[0, 0, 0])
    V_W = np.array([0.3, -0.7, 0.2, 1.5, -0.4, 0.9])
    ctx, R = set_state(plant, body, [0.2, -0.6, 2.0], [1, 1, 1], V_W)
    V_B = blkdiag(R).T @ V_W
    F_B = a * V_B + b * V_B * np.abs(V_B)
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(ctx, forces)
    np.testing.assert_allclose(forces.body_forces()[body.index()], blkdiag(R) @ F_B,
                               rtol=1e-13, atol=1e-13)
    # Negative coefficients oppose the motion: the drag power is negative.
    assert plant.calc_non_conservative_power(ctx) == pytest.approx(F_B @ V_B)
    assert F_B @ V_B < 0


def test_positive_drag_coefficients_warn():
    with pytest.warns(ParseWarning, match="positive coefficients .* add energy"):
        one_body(1.0, "0 0 0", "<drag><linear_damping>1 0 0 0 0 0</linear_damping></drag>")


# ------------------------------------------------------------------ added mass
def rov(text):
    """The ROV loaded from URDF `text`, and a context with a tilted, moving hull."""
    plant = MultibodyPlant(0.0)
    [mi] = Parser(plant).add_models_from_string(text, "urdf")
    plant.finalize()
    hull = plant.get_body_by_name("hull", mi)
    ctx, R = set_state(plant, hull, [0.3, 0.2, -0.4], [0, 1, 2],
                       np.array([0.4, -0.3, 0.8, 0.5, -1.0, 0.3]))
    plant.get_joint_by_name("arm_joint", mi).set_angle(ctx, 0.4)
    plant.get_joint_by_name("arm_joint", mi).set_angular_rate(ctx, -0.7)
    return plant, mi, ctx, R


def wet_and_dry_rov():
    """The ROV, and the same file without its <added_mass> block, in the same state."""
    text = ROV.read_text()
    dry_text = re.sub(r"<added_mass>.*?</added_mass>", "", text, flags=re.S)
    assert dry_text != text
    return rov(text), rov(dry_text)


def test_mass_matrix_grows_by_the_added_mass():
    (wet, mi, ctx, R), (dry, _, dry_ctx, _) = wet_and_dry_rov()
    M_A = parse_hydrodynamics_parameters(ROV.read_text())["hull"].added_mass_matrix
    M = wet.calc_mass_matrix(ctx)
    M_dry = dry.calc_mass_matrix(dry_ctx)
    # The hull is the free base: its velocities are [w_W; v_W] at its origin, so the
    # added mass enters the base block as R M_A Rᵀ and nothing else.
    expected = M_dry.copy()
    expected[:6, :6] += blkdiag(R) @ M_A @ blkdiag(R).T
    np.testing.assert_allclose(M, expected, rtol=0, atol=1e-13)
    assert np.all(np.linalg.eigvalsh(M - M_dry)[:-6] > -1e-13)
    np.testing.assert_allclose(wet.calc_mass_matrix_via_inverse_dynamics(ctx), M, atol=1e-13)
    # The helpers: a wrapper, and the Jacobian-based Σ J_Bᵀ M_A J_B.
    np.testing.assert_array_equal(calc_mass_matrix_with_added_mass(wet, ctx), M)
    np.testing.assert_allclose(calc_added_mass_matrix(wet, ctx), M - M_dry, atol=1e-13)
    # Kinetic energy ½ vᵀ M v and momentum (whole plant and by model instance) include it.
    v = wet.get_velocities(ctx)
    assert wet.calc_kinetic_energy(ctx) == pytest.approx(0.5 * v @ M @ v, rel=1e-14)
    L = wet.calc_spatial_momentum_in_world_about_point(ctx, [0.1, 0.2, 0.3]).get_coeffs()
    L_mi = wet.calc_spatial_momentum_in_world_about_point(ctx, [mi], [0.1, 0.2, 0.3])
    np.testing.assert_allclose(L_mi.get_coeffs(), L, rtol=1e-13, atol=1e-13)
    L_dry = dry.calc_spatial_momentum_in_world_about_point(dry_ctx, [0.1, 0.2, 0.3])
    V_B = blkdiag(R).T @ v[:6]     # the hull's spatial velocity in B
    l_A = R @ (M_A @ V_B)[3:]
    np.testing.assert_allclose(L[3:] - L_dry.get_coeffs()[3:], l_A, rtol=1e-12, atol=1e-13)


def test_dynamics_include_the_added_mass_forces():
    """Inverse and forward dynamics and the bias term equal the rigid ROV's plus the
    added-mass terms Σ J_Bᵀ M_A J_B v̇ + Σ J_Bᵀ (M_A c_B + V_B ×* M_A V_B) evaluated from
    Jacobians, with gravity, buoyancy and drag acting (the added mass has no weight)."""
    (wet, _, ctx, _), (dry, _, dry_ctx, _) = wet_and_dry_rov()
    M_added, bias_added = calc_added_mass_matrix(wet, ctx), calc_added_mass_bias(wet, ctx)
    assert np.abs(bias_added).max() > 0.1
    np.testing.assert_allclose(wet.calc_bias_term(ctx), dry.calc_bias_term(dry_ctx) + bias_added,
                               rtol=0, atol=1e-12)
    vdot = np.array([0.3, -0.5, 0.2, 1.0, -0.4, 0.6, 2.0])
    np.testing.assert_allclose(
        wet.calc_inverse_dynamics(ctx, vdot, MultibodyForces(wet)),
        dry.calc_inverse_dynamics(dry_ctx, vdot, MultibodyForces(dry)) + M_added @ vdot
        + bias_added, rtol=0, atol=1e-12)
    np.testing.assert_allclose(wet.calc_gravity_generalized_forces(ctx),
                               dry.calc_gravity_generalized_forces(dry_ctx), atol=1e-13)
    vdot_wet = wet.calc_forward_dynamics(ctx)
    M_dry = dry.calc_mass_matrix(dry_ctx)
    np.testing.assert_allclose((M_dry + M_added) @ vdot_wet,
                               M_dry @ dry.calc_forward_dynamics(dry_ctx) - bias_added,
                               rtol=0, atol=1e-11)
    np.testing.assert_array_equal(calc_forward_dynamics_with_added_mass(wet, ctx), vdot_wet)
    # The free base's joint has nothing to transmit: its reaction force is zero.
    [free] = [j for j in range(wet.num_joints()) if wet.get_joint(j).name() == "$world_hull"]
    reaction = wet.get_reaction_forces_output_port().eval(ctx)[free].get_coeffs()
    np.testing.assert_allclose(reaction, np.zeros(6), atol=1e-12)


def test_added_mass_dynamics_equal_a_heavier_rigid_body():
    """A rigid-body-shaped added mass must act exactly like added mass of the body
    (Kirchhoff's equations reduce to Newton-Euler), Coriolis terms included."""
    M_body = SpatialInertia.make_from_central_inertia(2.0, [0.1, 0.2, -0.1],
                                                      np.diag([0.3, 0.2, 0.25]))
    M_add = SpatialInertia.make_from_central_inertia(0.7, [-0.2, 0.05, 0.3],
                                                     np.diag([0.1, 0.15, 0.12]))

    def build(hydro):
        plant = MultibodyPlant(0.0)
        base = plant.add_rigid_body("base", M_body if hydro else M_body + M_add)
        link = plant.add_rigid_body("link", M_body)
        F = plant.add_frame(FixedOffsetFrame("F", base.body_frame(),
                                             RigidTransform([0.3, 0.1, 0.2])))
        plant.add_joint(RevoluteJoint("j", F, link.body_frame(), [0.3, 1, 0.2]))
        if hydro:
            plant.add_force_element(HydrodynamicForce(base, BodyHydroData(
                True, added_mass_matrix=M_add.copy_to_full_matrix6())))
        plant.gravity_field().set_gravity_vector([0, 0, 0])
        plant.finalize()
        return plant

    fluid, rigid = build(True), build(False)
    rng = np.random.default_rng(3)
    q = rng.normal(size=8)
    q[:4] /= np.linalg.norm(q[:4])
    v = rng.normal(size=7)
    contexts = []
    for plant in (fluid, rigid):
        ctx = plant.create_default_context()
        plant.set_positions(ctx, q)
        plant.set_velocities(ctx, v)
        contexts.append(ctx)
    fc, rc = contexts
    np.testing.assert_allclose(fluid.calc_mass_matrix(fc), rigid.calc_mass_matrix(rc),
                               atol=1e-13)
    np.testing.assert_allclose(fluid.calc_bias_term(fc), rigid.calc_bias_term(rc), atol=1e-12)
    np.testing.assert_allclose(fluid.calc_forward_dynamics(fc), rigid.calc_forward_dynamics(rc),
                               rtol=1e-11, atol=1e-12)
    assert fluid.calc_kinetic_energy(fc) == pytest.approx(rigid.calc_kinetic_energy(rc),
                                                          rel=1e-14)


def test_simulation_conserves_energy_and_momentum_with_the_added_mass():
    """Without gravity, buoyancy or drag, the kinetic energy ½ vᵀ (M + M_added) v and the
    spatial momentum (the fluid's impulse included) are constants of the motion
    (Kirchhoff): the simulation must keep them, with the ROV's coupled added mass."""
    M_A = parse_hydrodynamics_parameters(ROV.read_text())["hull"].added_mass_matrix
    plant = MultibodyPlant(0.0)
    [mi] = Parser(plant).add_models_from_string(
        re.sub(r"\n\s*<hydro>.*?</hydro>", "", ROV.read_text(), flags=re.S), "urdf")
    hull = plant.get_body_by_name("hull", mi)
    plant.add_force_element(HydrodynamicForce(hull, BodyHydroData(True, added_mass_matrix=M_A)))
    plant.gravity_field().set_gravity_vector([0, 0, 0])
    plant.finalize()
    ctx, _ = set_state(plant, hull, [0.3, 0.2, -0.4], [0, 1, 2],
                       np.array([0.4, -1.3, 0.8, 0.5, -1.0, 0.3]))
    plant.get_joint_by_name("arm_joint", mi).set_angular_rate(ctx, 2.0)
    p = np.array([0.5, -0.2, 1.0])
    ke0 = plant.calc_kinetic_energy(ctx)
    L0 = plant.calc_spatial_momentum_in_world_about_point(ctx, p).get_coeffs()
    v0 = plant.get_velocities(ctx).copy()
    simulator = Simulator(plant, ctx)
    simulator.get_mutable_integrator().set_target_accuracy(1e-10)
    simulator.advance_to(1.0)
    assert plant.calc_kinetic_energy(ctx) == pytest.approx(ke0, rel=1e-7)
    np.testing.assert_allclose(
        plant.calc_spatial_momentum_in_world_about_point(ctx, p).get_coeffs(), L0,
        rtol=0, atol=1e-7 * np.abs(L0).max())
    assert np.abs(plant.get_velocities(ctx) - v0).max() > 0.1   # the motion is not trivial


def test_empty_hydro_block_has_no_effect():
    plant, body = one_body(1.0, "0 0 0", "")
    ctx, _ = set_state(plant, body, [0.1, 0.2, 0.3], [0, 0, 0], np.zeros(6))
    np.testing.assert_allclose(plant.calc_forward_dynamics(ctx), [0, 0, 0, 0, 0, -9.81],
                               atol=1e-14)
    # No added mass: the mass matrix is the rigid body's (diag(I_Bo, m) at this pose,
    # I_Bo rotated to W), and there is no element contributing one.
    R = plant.eval_body_pose_in_world(ctx, body).rotation().matrix()
    expected = np.zeros((6, 6))
    expected[:3, :3] = R @ np.diag([0.1, 0.2, 0.3]) @ R.T
    expected[3:, 3:] = np.eye(3)
    np.testing.assert_allclose(plant.calc_mass_matrix(ctx), expected, atol=1e-15)
    assert not hydrodynamic_force_elements(plant)
    assert plant.calc_non_conservative_power(ctx) == 0.0


# ------------------------------------------------------------------ malformed blocks
@pytest.mark.parametrize("hydro, match, line", [
    ("<added_mass>1 2 3</added_mass>", "must have 36 numbers, got 3", 3),
    ("<added_mass>" + " ".join(["1"] * 35 + ["x"]) + "</added_mass>", "must be numbers", 3),
    ("<added_mass>" + " ".join(str(v) for v in np.eye(6).ravel()).replace("0.0", "0.5", 1)
     + "</added_mass>", "must be a symmetric 6x6 matrix", 3),
    ("<added_mass>" + " ".join(str(v) for v in np.diag([1, 1, 1, 1, 1, -1.0]).ravel())
     + "</added_mass>", "must be positive definite", 3),
    ("<drag>\n<linear_damping>1 2 3 4 5</linear_damping></drag>", "must have 6 numbers", 4),
    ("<buoyancy>\n<volume>abc</volume></buoyancy>", "must be a number, got 'abc'", 4),
    ("<buoyancy>\n<volume>-1</volume></buoyancy>", "must be >= 0.0", 4),
    ("<buoyancy>\n<origin xyz='0 0 0'/></buoyancy>", "missing its required <volume>", 3),
])
def test_malformed_hydro_blocks_raise_with_their_line(hydro, match, line):
    text = f'<robot name="r">\n<link name="b">\n<hydro>{hydro}</hydro></link></robot>'
    with pytest.raises(ParseError, match=match) as err:
        parse_hydrodynamics_parameters(text)
    assert err.value.line == line
    with pytest.raises(ParseError, match=match) as err:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ParseWarning)
            Parser(MultibodyPlant(0.0)).add_models_from_string(text, "urdf")
    assert err.value.line == line
