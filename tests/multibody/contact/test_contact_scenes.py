"""The Must-show scenes under every discrete solver and the continuous penalty model: box
drop to rest (height within 1 mm, normal force m g within 1%), sliding distance
v²/(2 μ g) within 5%, stiction and sliding on a 20° incline (g (sin θ - μ cos θ) within
2%), a ten-sphere pile with no penetration beyond the allowance; and a sphere rolling
down an incline at 5/7 g sin θ (friction acting through the contact Jacobian's
rotational terms)."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder
from merganser.geometry import CoulombFriction, HalfSpace, RigidTransform, RollPitchYaw, Sphere
from merganser.multibody import SpatialInertia, add_multibody_plant
from scenes import G, MODELS, BoxScene, SpherePile, make_config, make_simulator


@pytest.mark.parametrize("model", MODELS)
def test_box_dropped_comes_to_rest_on_the_ground(model):
    scene = BoxScene(model)
    scene.place(0.3)
    scene.simulator.advance_to(1.0)
    bottom = scene.position()[2] - 0.05
    assert abs(bottom) < 1e-3
    assert np.linalg.norm(scene.velocity()) < 1e-3
    fn, results = scene.normal_force_on_box()
    assert fn == pytest.approx(1.0 * G, rel=0.01)
    assert results.num_point_pair_contacts() == 4      # the four bottom corners


@pytest.mark.parametrize("model", MODELS)
def test_box_sliding_at_1_mps_stops_after_v2_over_2_mu_g(model):
    scene = BoxScene(model, mu=0.5)
    scene.place(0.05 - 2.5e-4, velocity=(1.0, 0.0, 0.0))
    x0 = scene.position()[0]
    scene.simulator.advance_to(0.4)
    distance = scene.position()[0] - x0
    assert distance == pytest.approx(1.0 / (2 * 0.5 * G), rel=0.05)
    assert abs(scene.velocity()[0]) < 1e-3


@pytest.mark.parametrize("model", MODELS)
def test_box_on_20_degree_incline_sticks_with_mu_05(model):
    theta = np.deg2rad(20.0)
    scene = BoxScene(model, mu=0.5, incline=theta)
    scene.place(0.05 - 3e-4)
    scene.simulator.advance_to(0.2)
    p0 = scene.position()
    scene.simulator.advance_to(0.6)
    assert np.linalg.norm(scene.position() - p0) < 5e-4
    assert np.linalg.norm(scene.velocity()) < 2e-3


@pytest.mark.parametrize("model", MODELS)
def test_box_on_20_degree_incline_slides_with_mu_02(model):
    theta = np.deg2rad(20.0)
    scene = BoxScene(model, mu=0.2, incline=theta)
    scene.place(0.05 - 3e-4)
    scene.simulator.advance_to(0.2)
    v0 = np.linalg.norm(scene.velocity())
    scene.simulator.advance_to(0.6)
    v1 = np.linalg.norm(scene.velocity())
    expected = G * (np.sin(theta) - 0.2 * np.cos(theta))
    assert (v1 - v0) / 0.4 == pytest.approx(expected, rel=0.02)


@pytest.mark.parametrize("model", MODELS)
def test_ten_spheres_settle_in_a_pile_within_the_allowance(model):
    pile = SpherePile(model)
    pile.simulator.advance_to(2.0)
    assert pile.max_depth() <= pile.plant.get_penetration_allowance()
    heights = [pile.plant.eval_body_pose_in_world(pile.context, b).translation()[2]
               for b in pile.balls]
    assert min(heights) > pile.radius - 1e-3
    assert max(heights) > 2 * pile.radius          # a pile: some sphere rests on others
    assert pile.plant.calc_kinetic_energy(pile.context) < 1e-3


@pytest.mark.parametrize("model", MODELS)
def test_sphere_rolls_down_an_incline_at_five_sevenths_g_sin_theta(model):
    theta = np.deg2rad(20.0)
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(make_config(model), builder)
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    friction = CoulombFriction(0.8, 0.8)
    plant.register_collision_geometry(ball, RigidTransform(), Sphere(0.1), "ball", friction)
    R = RollPitchYaw(0.0, theta, 0.0)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(R), HalfSpace(),
                                      "ground", friction)
    plant.finalize()
    sim = make_simulator(builder.build(), model)
    ctx = plant.get_my_context_from_root(sim.get_mutable_context())
    normal = R.to_rotation_matrix().matrix()[:, 2]
    plant.set_free_body_pose(ctx, ball, RigidTransform(normal * (0.1 - 2e-4)))
    sim.advance_to(0.1)
    v0 = np.linalg.norm(plant.get_velocities(ctx)[3:])
    sim.advance_to(0.5)
    v1 = np.linalg.norm(plant.get_velocities(ctx)[3:])
    assert (v1 - v0) / 0.4 == pytest.approx(5.0 / 7.0 * G * np.sin(theta), rel=0.01)
