"""More of MultibodyPlant's Drake API (issue 18, group 7): inertia of body sets,
center-of-mass Jacobians and biases, position-vector Jacobians, accelerations from v̇,
body parameter setters, construction settings and the contact surface representation.
Expected values are finite differences, identities between the plant's algorithms, or
Drake's documented behaviour."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder
from merganser.geometry import (
    Box, GeometryInstance, HydroelasticContactRepresentation, RigidTransform, Sphere,
)
from merganser.multibody import (
    ContactModel, JacobianWrtVariable, MultibodyPlant, PrismaticJoint, RevoluteJoint,
    SpatialInertia, add_multibody_plant_scene_graph,
)

kV, kQDot = JacobianWrtVariable.kV, JacobianWrtVariable.kQDot


def _chain():
    """world -revolute z-> a -prismatic x-> b, and a free body c."""
    plant = MultibodyPlant(0.0)
    a = plant.add_rigid_body("a", SpatialInertia.solid_box_with_mass(1.0, 0.2, 0.3, 0.4))
    b = plant.add_rigid_body("b", SpatialInertia.solid_sphere_with_mass(2.0, 0.1))
    c = plant.add_rigid_body("c", SpatialInertia.solid_cube_with_mass(3.0, 0.2))
    plant.add_joint(RevoluteJoint("j1", plant.world_frame(), a.body_frame(), [0, 0, 1]))
    plant.add_joint(PrismaticJoint("j2", a.body_frame(), b.body_frame(), [1, 0, 0]))
    plant.finalize()
    ctx = plant.create_default_context()
    rng = np.random.default_rng(3)
    q = rng.normal(size=plant.num_positions())
    q[2:6] /= np.linalg.norm(q[2:6])
    plant.set_positions(ctx, q)
    plant.set_velocities(ctx, rng.normal(size=plant.num_velocities()))
    return plant, ctx, (a, b, c)


def test_calc_spatial_inertia_of_a_body_set_equals_the_shifted_sum():
    plant, ctx, (a, b, c) = _chain()
    M = plant.calc_spatial_inertia(ctx, a.body_frame(), [0, b.index(), c.index()])
    assert M.get_mass() == pytest.approx(5.0)
    # Its center of mass, measured in A, is the mass-weighted mean of b's and c's.
    p_WScm = (2.0 * plant.eval_body_pose_in_world(ctx, b).translation()
              + 3.0 * plant.eval_body_pose_in_world(ctx, c).translation()) / 5.0
    p_AScm = plant.calc_points_positions(ctx, plant.world_frame(), p_WScm.reshape(3, 1),
                                         a.body_frame())[:, 0]
    np.testing.assert_allclose(M.get_com(), p_AScm, atol=1e-12)
    with pytest.raises(ValueError, match="repeated"):
        plant.calc_spatial_inertia(ctx, a.body_frame(), [1, 1])


def test_center_of_mass_jacobian_in_a_moving_frame_gives_its_velocity():
    plant, ctx, (a, b, c) = _chain()
    A, W = a.body_frame(), plant.world_frame()
    J = plant.calc_jacobian_center_of_mass_translational_velocity(
        ctx, with_respect_to=kV, frame_A=A, frame_E=W)
    # Finite difference of p_AScm (measured in A) along q̇ = N v, re-expressed in W.
    h, q0, v = 1e-6, plant.get_positions(ctx), plant.get_velocities(ctx)
    qdot = plant.map_velocity_to_qdot(ctx, v)

    def p_AScm_A(q):
        plant.set_positions(ctx, q)
        p_W = plant.calc_center_of_mass_position_in_world(ctx)
        return plant.calc_points_positions(ctx, W, p_W.reshape(3, 1), A)[:, 0]

    d = (p_AScm_A(q0 + h * qdot) - p_AScm_A(q0 - h * qdot)) / (2 * h)
    plant.set_positions(ctx, q0)
    R_WA = plant.calc_relative_transform(ctx, W, A).rotation().matrix()
    np.testing.assert_allclose(J @ v, R_WA @ d, rtol=1e-6, atol=1e-8)


def test_jacobian_of_position_vectors_is_the_derivative_with_respect_to_q():
    plant, ctx, (a, b, c) = _chain()
    p_BQ = np.array([[0.1, 0.0], [0.2, 0.3], [-0.1, 0.4]])
    Jq = plant.calc_jacobian_position_vector(ctx, c.body_frame(), p_BQ, a.body_frame(),
                                             a.body_frame())
    assert Jq.shape == (6, plant.num_positions())
    q0, h = plant.get_positions(ctx), 1e-6
    for k in range(plant.num_positions()):
        dq = np.zeros_like(q0)
        dq[k] = h
        plant.set_positions(ctx, q0 + dq)
        plus = plant.calc_points_positions(ctx, c.body_frame(), p_BQ, a.body_frame())
        plant.set_positions(ctx, q0 - dq)
        minus = plant.calc_points_positions(ctx, c.body_frame(), p_BQ, a.body_frame())
        np.testing.assert_allclose(Jq[:, k], ((plus - minus) / (2 * h)).T.reshape(-1),
                                   atol=1e-7)
    plant.set_positions(ctx, q0)


def test_accelerations_from_vdot_and_the_center_of_mass_bias():
    plant, ctx, bodies = _chain()
    vdot = plant.calc_forward_dynamics(ctx)
    A_all = plant.calc_spatial_accelerations_from_vdot(ctx, known_vdot=vdot)
    assert len(A_all) == plant.num_bodies()
    for body in bodies:
        np.testing.assert_allclose(A_all[body.index()].get_coeffs(),
                                   plant.eval_body_spatial_acceleration_in_world(ctx, body)
                                   .get_coeffs(), atol=1e-10)
    # a_WScm = J_com v̇ + bias (Drake's definition of the bias).
    W = plant.world_frame()
    J = plant.calc_jacobian_center_of_mass_translational_velocity(ctx, kV, W, W)
    bias = plant.calc_bias_center_of_mass_translational_acceleration(
        ctx, with_respect_to=kV, frame_A=W, frame_E=W)
    np.testing.assert_allclose(J @ vdot + bias,
                               plant.calc_center_of_mass_translational_acceleration_in_world(
                                   ctx), atol=1e-10)


def test_body_center_of_mass_setters():
    plant, ctx, (a, b, c) = _chain()
    G_before = c.calc_spatial_inertia_in_body_frame(ctx).get_unit_inertia()
    c.set_center_of_mass_in_body_frame(ctx, com=[0.01, 0.0, 0.0])
    M = c.calc_spatial_inertia_in_body_frame(ctx)
    np.testing.assert_array_equal(c.calc_center_of_mass_in_body_frame(ctx), [0.01, 0, 0])
    np.testing.assert_array_equal(M.get_unit_inertia().copy_to_full_matrix3(),
                                  G_before.copy_to_full_matrix3())
    I_cm = M.shift(M.get_com()).calc_rotational_inertia().copy_to_full_matrix3()
    c.set_center_of_mass_in_body_frame_and_preserve_central_inertia(ctx, [0.0, 0.02, 0.0])
    M2 = c.calc_spatial_inertia_in_body_frame(ctx)
    np.testing.assert_allclose(M2.shift(M2.get_com()).calc_rotational_inertia()
                               .copy_to_full_matrix3(), I_cm, atol=1e-15)
    c.set_spatial_inertia_in_body_frame(ctx, M_Bo_B=SpatialInertia.solid_cube_with_mass(
        4.0, 0.2))
    assert c.get_mass(ctx) == 4.0
    assert not c.is_locked(ctx)
    c.lock(ctx)                         # a floating base body locks its floating joint
    assert c.is_locked(ctx)
    c.unlock(ctx)
    assert not c.is_locked(ctx)
    with pytest.raises(RuntimeError, match="RigidBody.lock: body 'a' is not a floating base"):
        a.lock(ctx)
    np.testing.assert_allclose(a.default_rotational_inertia().get_moments(),
                               [(0.09 + 0.16) / 12, (0.04 + 0.16) / 12, (0.04 + 0.09) / 12])


def test_construction_settings_and_geometry_registration():
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    mi = plant.add_model_instance("first")
    plant.rename_model_instance(model_instance=mi, name="second")
    assert plant.get_model_instance_name(mi) == "second" and not plant.has_model_instance_named(
        "first")
    body = plant.add_rigid_body("b", mi, SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    plant.register_visual_geometry(body, geometry_instance=GeometryInstance(
        X_PG=RigidTransform(), shape=Sphere(1.0), name="v"))
    plant.register_collision_geometry(body, RigidTransform(), Box(1, 1, 1), "c1",
                                      properties=None)
    assert plant.num_collision_geometries() == 1
    plant.set_use_sampled_output_ports(use_sampled_output_ports=False)
    assert not plant.has_sampled_output_ports()
    assert plant.get_adjacent_bodies_collision_filters()
    discrete = MultibodyPlant(0.01)
    with pytest.raises(ValueError, match="not supported"):
        discrete.set_use_sampled_output_ports(True)
    assert ContactModel.kHydroelasticsOnly is ContactModel.kHydroelastic
    assert ContactModel.kPointContactOnly is ContactModel.kPoint


def test_default_contact_surface_representation_and_triangulation():
    Rep = HydroelasticContactRepresentation
    assert MultibodyPlant(0.0).get_contact_surface_representation() is Rep.kTriangle
    assert MultibodyPlant(0.01).get_contact_surface_representation() is Rep.kPolygon
    assert MultibodyPlant.get_default_contact_surface_representation(0.1) is Rep.kPolygon
    plant = MultibodyPlant(0.0)
    plant.set_contact_surface_representation(Rep.kPolygon)
    assert plant.get_contact_surface_representation() is Rep.kPolygon
    with pytest.raises(TypeError, match="HydroelasticContactRepresentation"):
        plant.set_contact_surface_representation("polygon")


def test_spatial_force_multiplexer_concatenates_in_port_order():
    from merganser.multibody import (
        ExternallyAppliedSpatialForce, ExternallyAppliedSpatialForceMultiplexer, SpatialForce,
    )

    mux = ExternallyAppliedSpatialForceMultiplexer(num_inputs=2)
    ctx = mux.create_default_context()
    f0 = ExternallyAppliedSpatialForce(1, [0, 0, 0], SpatialForce([0, 0, 0], [1, 0, 0]))
    f1 = ExternallyAppliedSpatialForce(2, [0, 0, 1], SpatialForce([0, 0, 1], [0, 0, 0]))
    f2 = ExternallyAppliedSpatialForce(1, [0, 1, 0], SpatialForce([0, 0, 0], [0, 2, 0]))
    mux.get_input_port(0).fix_value(ctx, [f0])
    mux.get_input_port(1).fix_value(ctx, [f1, f2])
    out = mux.get_output_port().eval(ctx)
    assert [f.body_index for f in out] == [1, 2, 1]
    np.testing.assert_array_equal(out[2].F_Bq_W.get_coeffs(), [0, 0, 0, 0, 2, 0])
    with pytest.raises(ValueError, match="num_inputs must be an integer >= 1"):
        ExternallyAppliedSpatialForceMultiplexer(0)


def test_distance_constraint_params_and_remove_constraint():
    from merganser.multibody import DistanceConstraintParams

    plant = MultibodyPlant(0.01)
    a = plant.add_rigid_body("A", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    b = plant.add_rigid_body("B", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    weld = plant.add_weld_constraint(body_A=a, X_AP=RigidTransform(), body_B=b,
                                     X_BQ=RigidTransform())
    dist = plant.add_distance_constraint(body_A=a, p_AP=[0, 0, 0], body_B=b, p_BQ=[1, 0, 0],
                                         distance=0.5, stiffness=1e4, damping=2.0)
    plant.remove_constraint(id=weld)
    with pytest.raises(ValueError, match="no constraint with id 0"):
        plant.remove_constraint(weld)
    assert plant.num_constraints() == 1
    params = plant.get_default_distance_constraint_params()
    assert list(params) == [dist]          # the remaining id is unchanged
    p = params[dist]
    assert (p.bodyA(), p.bodyB(), p.distance(), p.stiffness(), p.damping()) == (
        a.index(), b.index(), 0.5, 1e4, 2.0)
    np.testing.assert_array_equal(p.p_BQ(), [1, 0, 0])
    assert p == DistanceConstraintParams(a.index(), [0, 0, 0], b.index(), [1, 0, 0], 0.5, 1e4,
                                         2.0)
    assert DistanceConstraintParams(1, [0, 0, 0], 2, [0, 0, 0], 0.1).stiffness() == np.inf
    with pytest.raises(ValueError, match="distance must be finite and > 0"):
        DistanceConstraintParams(1, [0, 0, 0], 2, [0, 0, 0], 0.0)
    plant.finalize()
    assert len(plant.get_constraint_specs()) == 1


def test_propeller_hovers_a_free_body_and_spins_it_by_the_moment_ratio():
    from merganser.framework import ConstantVectorSource
    from merganser.geometry import RollPitchYaw
    from merganser.multibody import Propeller, PropellerInfo

    m, I = 2.0, 0.3
    builder = DiagramBuilder()
    plant = builder.add_system(MultibodyPlant(0.0))
    body = plant.add_rigid_body("drone", SpatialInertia.make_from_central_inertia(
        m, [0, 0, 0], np.diag([I, I, I])))
    plant.finalize()
    # Two propellers, each half the weight: one on the body's z axis, one pointing along
    # the body's z after a 180° turn about x then back (the same direction, offset in y).
    up = PropellerInfo(body.index(), RigidTransform([0.0, 0.1, 0.0]), thrust_ratio=1.0,
                       moment_ratio=0.05)
    flip = PropellerInfo(body.index(), RigidTransform(RollPitchYaw(np.pi, 0, 0),
                                                      [0.0, -0.1, 0.0]),
                         thrust_ratio=-1.0, moment_ratio=0.05)
    prop = builder.add_system(Propeller([up, flip]))
    assert prop.num_propellers() == 2
    u = m * 9.81 / 2
    source = builder.add_system(ConstantVectorSource([u, u]))
    builder.connect(source.get_output_port(), prop.get_command_input_port())
    builder.connect(plant.get_body_poses_output_port(), prop.get_body_poses_input_port())
    builder.connect(prop.get_spatial_forces_output_port(),
                    plant.get_applied_spatial_force_input_port())
    diagram = builder.build()
    root = diagram.create_default_context()
    ctx = plant.get_my_context_from_root(root)
    vdot = plant.calc_forward_dynamics(ctx)        # v = [w_WB; v_WBo]
    # Thrusts cancel gravity and each other's moments about x; the two reaction moments
    # are +0.05 u and -0.05 u about z (the flipped frame's z is -z), so they cancel too.
    np.testing.assert_allclose(vdot, np.zeros(6), atol=1e-12)
    single = Propeller(body.index(), RigidTransform(), thrust_ratio=0.0, moment_ratio=0.2)
    sctx = single.create_default_context()
    single.get_command_input_port().fix_value(sctx, [3.0])
    single.get_body_poses_input_port().fix_value(sctx, [RigidTransform(), RigidTransform()])
    [F] = single.get_spatial_forces_output_port().eval(sctx)
    np.testing.assert_allclose(F.F_Bq_W.get_coeffs(), [0, 0, 0.6, 0, 0, 0])


def test_joint_force_helpers_write_into_multibody_forces():
    from merganser.multibody import MultibodyForces

    plant = MultibodyPlant(0.0)
    a = plant.add_rigid_body("a", SpatialInertia.solid_box_with_mass(1.0, 0.2, 0.3, 0.4))
    j = plant.add_joint(RevoluteJoint("j", plant.world_frame(), a.body_frame(), [0, 0, 1],
                                      damping=0.7))
    plant.finalize()
    ctx = plant.create_default_context()
    j.set_angular_rate(ctx, 2.0)
    forces = MultibodyForces(plant)
    j.add_in_one_force(ctx, 0, 1.5, forces)
    j.add_in_damping(ctx, forces)
    np.testing.assert_allclose(forces.generalized_forces(), [1.5 - 0.7 * 2.0])
    with pytest.raises(ValueError, match="joint_dof must be in \\[0, 1\\)"):
        j.add_in_one_force(ctx, 1, 1.0, forces)
    other = MultibodyForces(plant)
    other.add_in_forces(forces)
    np.testing.assert_allclose(other.generalized_forces(), forces.generalized_forces())


def test_wing_flat_plate_force_and_aerodynamic_center():
    from merganser.multibody import SpatialVelocity, Wing

    m, rho, A = 2.0, 1.2, 0.5
    builder = DiagramBuilder()
    plant = builder.add_system(MultibodyPlant(0.0))
    body = plant.add_rigid_body("glider", SpatialInertia.solid_cube_with_mass(m, 0.1))
    plant.finalize()
    X_BW = RigidTransform([0.0, 0.0, 0.2])
    wing = Wing.add_to_builder(builder, plant, body.index(), surface_area=A, X_BodyWing=X_BW,
                               fluid_density=rho)
    diagram = builder.build()
    root = diagram.create_default_context()
    ctx = plant.get_my_context_from_root(root)
    plant.set_free_body_pose(ctx, body, RigidTransform([1.0, 2.0, 3.0]))
    vx, vz = 3.0, -1.0
    plant.set_free_body_spatial_velocity(ctx, body, SpatialVelocity([0, 0, 0], [vx, 0, vz]))
    wctx = wing.get_my_context_from_root(root)
    [F] = wing.get_spatial_force_output_port().eval(wctx)
    fz = -rho * A * vz * np.hypot(vx, vz)
    np.testing.assert_allclose(F.F_Bq_W.get_coeffs(), [0, 0, 0, 0, 0, fz], atol=1e-14)
    np.testing.assert_allclose(F.p_BoBq_B, [0, 0, 0.2])
    np.testing.assert_allclose(wing.get_aerodynamic_center_output_port().eval(wctx),
                               [1.0, 2.0, 3.2])
    # The plant feels it: a_z = f_z / m - g, no torque (the force is along z through Bcm).
    vdot = plant.calc_forward_dynamics(ctx)
    np.testing.assert_allclose(vdot, [0, 0, 0, 0, 0, fz / m - 9.81], atol=1e-12)
    # Wind moving with the body gives no force; the density port overrides the default.
    wing.get_wind_velocity_input_port().fix_value(wctx, [vx, 0.0, vz])
    [F] = wing.get_spatial_force_output_port().eval(wctx)
    np.testing.assert_allclose(F.F_Bq_W.get_coeffs(), np.zeros(6), atol=1e-14)
    wing.get_wind_velocity_input_port().fix_value(wctx, [0.0, 0.0, 0.0])
    wing.get_fluid_density_input_port().fix_value(wctx, [2 * rho])
    [F] = wing.get_spatial_force_output_port().eval(wctx)
    assert F.F_Bq_W.translational()[2] == pytest.approx(2 * fz)


def _resting_penetration(beta, k=1e9, m=1.0, r=0.1, h=1e-3, t_final=0.6):
    from merganser.framework import Simulator
    from merganser.geometry import (
        CoulombFriction, HalfSpace, ProximityProperties, add_contact_material,
    )
    from merganser.multibody import (
        DiscreteContactSolver, MultibodyPlantConfig, add_multibody_plant,
    )

    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=h, contact_model="point", discrete_contact_approximation="sap",
        sap_near_rigid_threshold=beta), builder)
    assert plant.get_sap_near_rigid_threshold() == beta
    assert plant.get_discrete_contact_solver() is DiscreteContactSolver.kSap
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(m, r))
    props = add_contact_material(point_stiffness=k, friction=CoulombFriction(0.5, 0.5),
                                 properties=ProximityProperties())
    plant.register_collision_geometry(ball, RigidTransform(), Sphere(r), "ball", props)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", props)
    plant.finalize()
    simulator_diagram = builder.build()
    simulator = Simulator(simulator_diagram)
    ctx = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant.set_free_body_pose(ctx, ball, RigidTransform([0.0, 0.0, r]))
    simulator.advance_to(t_final)
    return r - plant.get_positions(ctx)[6]


def test_sap_near_rigid_threshold_softens_a_very_stiff_contact():
    """SAP's normal regularization is Rn = max(β²/(4π²) w, 1/(h k (h + τ))) and a resting
    contact sinks x = m g h (h + τ) Rn: with k = 1e9 N/m the compliance term gives
    nanometres, the near-rigid bound (β = 1, Drake's default) tens of micrometres."""
    stiff, bounded = _resting_penetration(0.0), _resting_penetration(1.0)
    assert 0.0 < stiff < 1e-6
    assert bounded > 50 * stiff
    with pytest.raises(ValueError, match="near_rigid_threshold must be finite and >= 0"):
        MultibodyPlant(1e-3).set_sap_near_rigid_threshold(-1.0)
