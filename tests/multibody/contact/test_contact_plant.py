"""The plant side of contact: solver selection by config only, geometry registration,
collision filtering at finalize, the geometry pose and contact outputs, constraint
enforcement (coupler, ball, distance, weld), and catchable solver failures."""

import io
import pathlib
import runpy
from contextlib import redirect_stdout

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import (
    Box, CoulombFriction, RigidTransform, Role, RollPitchYaw, SceneGraph, Sphere,
)
from merganser.multibody import (
    MultibodyPlant, MultibodyPlantConfig, RevoluteJoint, SpatialInertia, add_multibody_plant,
)
from merganser.multibody.contact import ContactSolverError
from merganser.multibody.plant.plant_geometry import register_geometry_records
from merganser.multibody.plant.plant_core import get_plant_core
from scenes import G, SOLVERS, BoxScene

USAGE = pathlib.Path(__file__).resolve().parents[4] / "shared" / "usage" / \
    "box_contact_solvers.py"


@pytest.mark.skipif(not USAGE.is_file(), reason="shared/usage not available")
def test_usage_program_runs_every_solver_with_the_same_outcome():
    out = io.StringIO()
    with redirect_stdout(out):
        runpy.run_path(str(USAGE), run_name="__main__")
    lines = out.getvalue().strip().splitlines()
    assert [line.split()[0] for line in lines] == ["tamsi", "sap", "similar", "lagged", "lcp"]
    for line in lines:
        z = float(line.split("]")[0].split()[-1])
        force = float(line.split("]")[1])
        assert abs(z - 0.05) < 1e-3 and force == pytest.approx(G, rel=0.01)


def test_config_selects_the_solver_and_nothing_else():
    finals = []
    for approximation in SOLVERS:
        scene = BoxScene(approximation)
        assert get_plant_core(scene.plant).stepper.approximation == approximation
        scene.place(0.1)
        scene.simulator.advance_to(0.5)
        finals.append(scene.position())
    np.testing.assert_allclose(finals, np.tile(finals[0], (len(finals), 1)), atol=5e-4)


def test_contact_results_report_bodies_points_and_speeds():
    scene = BoxScene("tamsi")
    scene.place(0.05 - 2e-4, velocity=(0.5, 0.0, 0.0))
    results = scene.plant.get_contact_results_output_port().eval(scene.context)
    assert results.num_point_pair_contacts() == 4
    for i in range(4):
        info = results.point_pair_contact_info(i)
        assert {info.bodyA_index, info.bodyB_index} == {0, scene.box.index()}
        assert info.contact_point[2] == pytest.approx(-1e-4, abs=1.1e-4)
        assert info.point_pair.depth == pytest.approx(2e-4)
        assert info.slip_speed == pytest.approx(0.5, rel=0.02)     # at the next step
        assert abs(info.separation_speed) < 0.01


def test_penalty_time_scale_and_default_stiffness_follow_the_allowance():
    scene = BoxScene("continuous", penetration_allowance=2e-3)
    plant = scene.plant
    assert plant.get_contact_penalty_method_time_scale() == pytest.approx(np.sqrt(2e-3 / G))
    k, d = plant.get_point_contact_parameters()
    assert k == pytest.approx(2 * 1.0 * G / 2e-3)
    assert d == pytest.approx(np.sqrt(2e-3 / G) / 2e-3)


def test_generalized_contact_forces_balance_gravity_at_rest():
    for model in ("sap", "continuous"):
        scene = BoxScene(model)
        scene.place(0.3)
        scene.simulator.advance_to(1.0)
        port = scene.plant.get_generalized_contact_forces_output_port(
            scene.plant.default_model_instance())
        tau = port.eval(scene.context)
        tau_g = scene.plant.calc_gravity_generalized_forces(scene.context)
        np.testing.assert_allclose(tau, -tau_g, atol=0.02 * G)


def _pendulum_with_overlapping_base(weld_second=False):
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(time_step=1e-3, contact_model="point"),
                                   builder)
    base = plant.add_rigid_body("base", SpatialInertia.solid_box_with_mass(1, 0.2, 0.2, 0.2))
    link = plant.add_rigid_body("link", SpatialInertia.solid_box_with_mass(1, 0.2, 0.2, 0.2))
    plant.weld_frames(plant.world_frame(), base.body_frame(), RigidTransform([0, 0, 1.0]))
    plant.add_joint(RevoluteJoint("pin", base.body_frame(), link.body_frame(), [0, 1, 0]))
    for body in (base, link):
        plant.register_collision_geometry(body, RigidTransform(), Box(0.2, 0.2, 0.2), "box",
                                          CoulombFriction(0.5, 0.5))
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1, 0.1))
    plant.register_collision_geometry(ball, RigidTransform(), Sphere(0.1), "ball",
                                      CoulombFriction(0.5, 0.5))
    plant.register_collision_geometry(plant.world_body(), RigidTransform([0, 0, 0.95]),
                                      Box(1.0, 1.0, 0.1), "table", CoulombFriction(0.5, 0.5))
    plant.finalize()
    diagram = builder.build()
    ctx = plant.get_my_context_from_root(diagram.create_default_context())
    plant.set_free_body_pose(ctx, ball, RigidTransform([0.3, 0.3, 1.0]))
    return plant, ctx, base, link, ball


def test_jointed_and_welded_bodies_are_filtered_at_finalize():
    plant, ctx, base, link, ball = _pendulum_with_overlapping_base()
    results = plant.get_contact_results_output_port().eval(ctx)
    pairs = {frozenset((results.point_pair_contact_info(i).bodyA_index,
                        results.point_pair_contact_info(i).bodyB_index))
             for i in range(results.num_point_pair_contacts())}
    # base-link (joint) and base-table (welded to the world) are filtered; the free ball
    # touches the table (world) and the link does too
    assert frozenset((0, ball.index())) in pairs
    assert frozenset((base.index(), link.index())) not in pairs
    assert frozenset((0, base.index())) not in pairs
    assert frozenset((0, link.index())) in pairs


def test_geometry_pose_output_gives_body_poses():
    plant, ctx, base, link, ball = _pendulum_with_overlapping_base()
    poses = plant.get_geometry_pose_output_port().eval(ctx)
    frame = plant.get_body_frame_id_or_throw(ball.index())
    np.testing.assert_allclose(poses.value(frame).translation(), [0.3, 0.3, 1.0])
    assert plant.get_body_from_frame_id(frame) is ball


def test_geometry_registration_roles_and_lifecycle():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", SpatialInertia.solid_sphere_with_mass(1, 0.1))
    with pytest.raises(RuntimeError, match="register_as_source_for_scene_graph"):
        plant.register_collision_geometry(body, RigidTransform(), Sphere(0.1), "s")
    sg = SceneGraph()
    plant.register_as_source_for_scene_graph(sg)
    g = plant.register_collision_geometry(body, RigidTransform(), Sphere(0.1), "s")
    v = plant.register_visual_geometry(body, RigidTransform(), Sphere(0.1), "v", [1, 0, 0, 1])
    inspector = sg.model_inspector()
    assert inspector.get_properties(g, Role.PROXIMITY).get_property(
        "material", "coulomb_friction") == CoulombFriction(0.5, 0.5)
    assert inspector.get_illustration_properties(v) is not None
    assert inspector.get_perception_properties(v) is not None
    assert plant.get_collision_geometries(body) == [g]
    plant.finalize()
    with pytest.raises(Exception, match="after finalize"):
        plant.register_collision_geometry(body, RigidTransform(), Sphere(0.1), "t")


def test_parsed_geometry_records_register_on_their_bodies():
    from merganser.multibody.parsing.geometry_records import GeometryRecord
    plant = MultibodyPlant(1e-3)
    scene_graph = SceneGraph()
    plant.register_as_source_for_scene_graph(scene_graph)
    body = plant.add_rigid_body("link", SpatialInertia.solid_box_with_mass(1, 0.1, 0.1, 0.1))
    records = [
        GeometryRecord("collision", "c", body.model_instance(), "link", np.eye(4), "Box",
                       {"width": 0.1, "depth": 0.2, "height": 0.3},
                       proximity={("material", "coulomb_friction"): (0.8, 0.6)}),
        GeometryRecord("visual", "v", body.model_instance(), "link", np.eye(4), "Sphere",
                       {"radius": 0.1}, diffuse_rgba=np.array([0, 1, 0, 1.0])),
    ]
    gc, gv = register_geometry_records(plant, records)
    inspector = scene_graph.model_inspector()
    assert inspector.get_shape(gc) == Box(0.1, 0.2, 0.3)
    assert inspector.get_proximity_properties(gc).get_property(
        "material", "coulomb_friction") == CoulombFriction(0.8, 0.6)
    assert plant.get_visual_geometries(body) == [gv]


# ---- constraints -------------------------------------------------------------------------
def _coupled_wheels(approximation, rho=2.0, offset=0.1):
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=1e-3, discrete_contact_approximation=approximation), builder)
    joints = []
    for i in range(2):
        wheel = plant.add_rigid_body(f"wheel{i}", SpatialInertia.solid_cylinder_with_mass(
            1.0 + i, 0.2, 0.05, [0, 0, 1]))
        joints.append(plant.add_joint(RevoluteJoint(f"axle{i}", plant.world_frame(),
                                                    wheel.body_frame(), [0, 0, 1])))
    plant.add_joint_actuator("motor", joints[1])
    plant.add_coupler_constraint(joints[0], joints[1], rho, offset)
    plant.finalize()
    diagram = builder.build()
    return plant, diagram, joints


@pytest.mark.parametrize("approximation", ["sap", "similar", "lagged", "lcp"])
def test_coupler_keeps_q0_equal_rho_q1_plus_offset(approximation):
    rho, offset = 2.0, 0.1
    plant, diagram, joints = _coupled_wheels(approximation, rho, offset)
    sim = Simulator(diagram)
    ctx = plant.get_my_context_from_root(sim.get_mutable_context())
    joints[1].set_angle(ctx, 0.3)
    joints[0].set_angle(ctx, rho * 0.3 + offset)
    plant.get_actuation_input_port().fix_value(ctx, [0.5])
    worst = 0.0
    for t in np.arange(0.01, 0.51, 0.01):
        sim.advance_to(t)
        q = plant.get_positions(ctx)
        worst = max(worst, abs(q[0] - rho * q[1] - offset))
    assert worst < 1e-6
    v = plant.get_velocities(ctx)
    assert v[1] > 0.1 and v[0] == pytest.approx(rho * v[1], rel=1e-5)


def test_tamsi_refuses_constraints_at_finalize():
    with pytest.raises(ValueError, match="'tamsi' does not support constraints"):
        _coupled_wheels("tamsi")


def _free_body_plant(approximation="sap"):
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=1e-3, discrete_contact_approximation=approximation), builder)
    body = plant.add_rigid_body("bob", SpatialInertia.solid_sphere_with_mass(1.0, 0.05))
    return builder, plant, body


@pytest.mark.parametrize("approximation", ["sap", "lcp"])
def test_ball_constraint_makes_a_pendulum(approximation):
    builder, plant, body = _free_body_plant(approximation)
    plant.add_ball_constraint(plant.world_body(), [0, 0, 1.0], body, [0, 0, 0.5])
    plant.finalize()
    sim = Simulator(builder.build())
    ctx = plant.get_my_context_from_root(sim.get_mutable_context())
    # pendulum of length 0.5 released at 0.5 rad: Q (0.5 above the bob) sits on P
    plant.set_free_body_pose(ctx, body, RigidTransform(
        RollPitchYaw(0, 0.5, 0), [-0.5 * np.sin(0.5), 0, 1.0 - 0.5 * np.cos(0.5)]))
    worst = 0.0
    for t in np.arange(0.02, 0.6, 0.02):
        sim.advance_to(t)
        X = plant.eval_body_pose_in_world(ctx, body)
        worst = max(worst, np.linalg.norm(X @ np.array([0, 0, 0.5]) - [0, 0, 1.0]))
    assert worst < 1e-5
    assert plant.eval_body_pose_in_world(ctx, body).translation()[0] > 0.0   # it swung


def test_distance_constraint_keeps_the_distance():
    builder, plant, body = _free_body_plant()
    plant.add_distance_constraint(plant.world_body(), [0, 0, 1.0], body, [0, 0, 0], 0.4)
    plant.finalize()
    sim = Simulator(builder.build())
    ctx = plant.get_my_context_from_root(sim.get_mutable_context())
    plant.set_free_body_pose(ctx, body, RigidTransform([0.4, 0, 1.0]))
    sim.advance_to(0.5)
    p = plant.eval_body_pose_in_world(ctx, body).translation()
    # Drake's near-rigid regularization (β = 0.1) lets the swinging bob stretch the rod by
    # about 1e-5 (1.3e-5 here)
    assert np.linalg.norm(p - [0, 0, 1.0]) == pytest.approx(0.4, abs=3e-5)
    assert p[2] < 0.9                                    # it fell on the circle


def test_weld_constraint_holds_a_body_against_gravity():
    builder, plant, body = _free_body_plant()
    X_AP = RigidTransform([0.2, 0, 1.0])
    plant.add_weld_constraint(plant.world_body(), X_AP, body, RigidTransform())
    plant.finalize()
    sim = Simulator(builder.build())
    ctx = plant.get_my_context_from_root(sim.get_mutable_context())
    plant.set_free_body_pose(ctx, body, X_AP)
    sim.advance_to(0.5)
    X = plant.eval_body_pose_in_world(ctx, body)
    # at rest the weld (Drake's near-rigid rows, β = 0.1) sags by δ = 2 h² m g R, with
    # R = β²/(4π²) w and w = ‖J M⁻¹ Jᵀ‖_F / 6 = ‖diag(1/I, 1/I, 1/I, 1/m, 1/m, 1/m)‖ / 6
    h, m, g = 1e-3, 1.0, 9.81
    I = 0.4 * m * 0.05 ** 2
    w = np.sqrt(3 / I ** 2 + 3 / m ** 2) / 6
    sag = 2 * h ** 2 * m * g * (0.1 ** 2 / (4 * np.pi ** 2)) * w
    np.testing.assert_allclose(X.translation(), [0.2, 0, 1.0 - sag], rtol=0, atol=1e-9)
    np.testing.assert_allclose(X.rotation().matrix(), np.eye(3), atol=1e-9)


# ---- failures ----------------------------------------------------------------------------
@pytest.mark.parametrize("approximation", SOLVERS)
def test_a_failed_solve_raises_a_catchable_error_and_keeps_the_context(approximation):
    scene = BoxScene(approximation)
    scene.place(0.05 - 5e-4, velocity=(0.3, 0, -0.5))
    x_before = scene.plant.get_positions_and_velocities(scene.context)
    get_plant_core(scene.plant).stepper.max_iterations = 0
    if approximation == "lcp":
        scene.plant.set_lcp_solver("fischer_burmeister")
        import merganser.multibody.contact.lcp as lcp
        original = lcp.fischer_burmeister
        lcp.fischer_burmeister = lambda *args: -1
    try:
        with pytest.raises(ContactSolverError) as info:
            scene.simulator.advance_to(0.01)
    finally:
        if approximation == "lcp":
            lcp.fischer_burmeister = original
    message = str(info.value)
    assert "t = 0 s" in message and f"'{approximation}'" in message
    assert "residual" in message and "remedy" in message
    np.testing.assert_array_equal(
        scene.plant.get_positions_and_velocities(scene.context), x_before)


def test_lcp_fischer_burmeister_matches_lemke():
    finals = []
    for solver in ("lemke", "fischer_burmeister"):
        scene = BoxScene("lcp")
        scene.plant.set_lcp_solver(solver)
        scene.place(0.05 - 2.5e-4, velocity=(1.0, 0, 0))
        scene.simulator.advance_to(0.3)
        finals.append(scene.position())
    np.testing.assert_allclose(finals[0], finals[1], atol=1e-6)
