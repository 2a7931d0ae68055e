"""Zero-moment point and support polygon: the cart-table closed form, a pitching rigid
body, agreement with the base wrench from inverse dynamics (RNEA) on a floating planar
biped, the static center-of-mass projection, the center of pressure of contact forces,
and the support polygon's hull and margins."""

import numpy as np
import pytest

from merganser.geometry import RigidTransform
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import MultibodyForces, MultibodyPlant
from merganser.multibody.planning import (
    SupportPolygon,
    calc_ground_reaction_wrench,
    calc_zero_moment_point,
    calc_zero_moment_point_from_contact_forces,
    is_in_support_polygon,
)
from merganser.multibody.tree import FixedOffsetFrame, PrismaticJoint, RevoluteJoint

G = 9.81


def planar_base(plant, body_inertia, pitch=True):
    """World -> prismatic x -> prismatic z (-> revolute y) -> trunk; returns the trunk."""
    slider_x = plant.add_rigid_body("slider_x", SpatialInertia.zero())
    trunk = plant.add_rigid_body("trunk", body_inertia)
    plant.add_joint(PrismaticJoint("x", plant.world_frame(), slider_x.body_frame(), [1, 0, 0]))
    if not pitch:
        plant.add_joint(PrismaticJoint("z", slider_x.body_frame(), trunk.body_frame(),
                                       [0, 0, 1]))
        return trunk
    slider_z = plant.add_rigid_body("slider_z", SpatialInertia.zero())
    plant.add_joint(PrismaticJoint("z", slider_x.body_frame(), slider_z.body_frame(),
                                   [0, 0, 1]))
    plant.add_joint(RevoluteJoint("pitch", slider_z.body_frame(), trunk.body_frame(),
                                  [0, 1, 0]))
    return trunk


def make_context(plant, q, v):
    ctx = plant.create_default_context()
    plant.set_positions(ctx, q)
    plant.set_velocities(ctx, v)
    return ctx


def test_point_mass_follows_the_cart_table_formula():
    plant = MultibodyPlant(0.0)
    planar_base(plant, SpatialInertia.point_mass(3.0, [0.0, 0.0, 0.0]), pitch=False)
    plant.finalize()
    rng = np.random.default_rng(0)
    for h in (0.0, 0.1):
        x, z = 0.2, 0.9
        vdot = rng.uniform(-2.0, 2.0, 2)
        ctx = make_context(plant, [x, z], rng.uniform(-1.0, 1.0, 2))
        p_Z = calc_zero_moment_point(plant, ctx, vdot, ground_height=h)
        expected_x = x - (z - h) * vdot[0] / (G + vdot[1])
        np.testing.assert_allclose(p_Z, [expected_x, 0.0, h], atol=1e-12)


def test_pitching_body_adds_its_angular_momentum_rate():
    m, I_yy = 2.0, 0.3
    plant = MultibodyPlant(0.0)
    planar_base(plant, SpatialInertia.make_from_central_inertia(
        m, [0.0, 0.0, 0.0], np.diag([0.2, I_yy, 0.1])))
    plant.finalize()
    x, z = -0.1, 0.8
    ctx = make_context(plant, [x, z, 0.7], [0.3, -0.2, 1.5])
    xdd, zdd, thdd = 1.2, -0.5, 3.0
    p_Z = calc_zero_moment_point(plant, ctx, [xdd, zdd, thdd])
    expected = x - z * xdd / (zdd + G) - I_yy * thdd / (m * (zdd + G))
    assert p_Z[0] == pytest.approx(expected, abs=1e-12)


def biped():
    """Planar biped: floating trunk (x, z, pitch) and two 2-link legs."""
    plant = MultibodyPlant(0.0)
    trunk = planar_base(plant, SpatialInertia.make_from_central_inertia(
        10.0, [0.0, 0.0, 0.2], np.diag([0.3, 0.25, 0.1])))
    for side, y in (("left", 0.1), ("right", -0.1)):
        parent = plant.add_frame(FixedOffsetFrame(f"{side}_hip_F", trunk.body_frame(),
                                                  RigidTransform([0.0, y, 0.0])))
        for name, length in (("thigh", 0.45), ("shank", 0.45)):
            link = plant.add_rigid_body(f"{side}_{name}", SpatialInertia.make_from_central_inertia(
                2.0, [0.01, 0.0, -length / 2], np.diag([0.04, 0.035, 0.005])))
            plant.add_joint(RevoluteJoint(f"{side}_{name}_joint", parent, link.body_frame(),
                                          [0, 1, 0]))
            parent = plant.add_frame(FixedOffsetFrame(f"{side}_{name}_end", link.body_frame(),
                                                      RigidTransform([0.0, 0.0, -length])))
    plant.finalize()
    return plant


def test_biped_zmp_agrees_with_the_base_wrench_from_inverse_dynamics():
    plant = biped()
    rng = np.random.default_rng(1)
    for _ in range(3):
        q = np.concatenate([[0.1, 0.95], rng.uniform(-0.5, 0.5, 5)])
        ctx = make_context(plant, q, rng.uniform(-1.0, 1.0, 7))
        vdot = rng.uniform(-2.0, 2.0, 7)
        forces = MultibodyForces(plant)
        plant.calc_force_elements_contribution(ctx, forces)
        tau = plant.calc_inverse_dynamics(ctx, vdot, forces)
        # Base coordinates: the external force along x and z, and the moment about the
        # pitch axis through the base point (x, 0, z).
        f_x, f_z, tau_pitch = tau[0], tau[1], tau[2]
        tau_Wo_y = tau_pitch + q[1] * f_x - q[0] * f_z
        F = calc_ground_reaction_wrench(plant, ctx, vdot)
        np.testing.assert_allclose(F[[3, 5]], [f_x, f_z], rtol=1e-12, atol=1e-10)
        assert F[1] == pytest.approx(tau_Wo_y, abs=1e-10)
        assert F[4] == pytest.approx(0.0, abs=1e-10)          # no force across the plane
        p_Z = calc_zero_moment_point(plant, ctx, vdot)
        assert p_Z[0] == pytest.approx(-tau_Wo_y / f_z, abs=1e-12)


def test_static_zmp_is_the_center_of_mass_projection():
    plant = biped()
    q = np.array([0.05, 0.9, 0.1, 0.3, -0.5, -0.2, 0.4])
    ctx = make_context(plant, q, np.zeros(7))
    p_Z = calc_zero_moment_point(plant, ctx, np.zeros(7))
    p_com = plant.calc_center_of_mass_position_in_world(ctx)
    np.testing.assert_allclose(p_Z[:2], p_com[:2], atol=1e-12)


def test_flight_has_no_zero_moment_point():
    plant = biped()
    ctx = make_context(plant, np.r_[0.0, 1.0, np.zeros(5)], np.zeros(7))
    vdot = np.zeros(7)
    vdot[1] = -G                                   # free fall
    with pytest.raises(ValueError, match="calc_zero_moment_point: the vertical ground "
                                         "reaction force is"):
        calc_zero_moment_point(plant, ctx, vdot)
    with pytest.raises(ValueError, match=r"vdot has size 3, expected nv = 7"):
        calc_zero_moment_point(plant, ctx, np.zeros(3))


def test_zmp_from_contact_forces_is_the_center_of_pressure():
    p = np.array([[0.1, 0.3, 0.3, 0.1], [-0.05, -0.05, 0.05, 0.05], [0.0, 0.0, 0.0, 0.0]])
    f = np.array([[5.0, -2.0, 1.0, 0.5], [1.0, 0.0, -3.0, 0.2], [100.0, 50.0, 30.0, 20.0]])
    expected = (p[:2] * f[2]).sum(axis=1) / f[2].sum()
    np.testing.assert_allclose(calc_zero_moment_point_from_contact_forces(p, f),
                               [*expected, 0.0], atol=1e-14)
    # Raised contact points: horizontal forces at height 0.2 shift it by -0.2 f_x / f_z.
    one = calc_zero_moment_point_from_contact_forces([0.1, 0.0, 0.2], [10.0, 0.0, 100.0])
    np.testing.assert_allclose(one, [0.1 - 0.2 * 10.0 / 100.0, 0.0, 0.0], atol=1e-14)
    with pytest.raises(ValueError, match="p_WCi has shape \\(3, 2\\) but f_Ci_W has shape"):
        calc_zero_moment_point_from_contact_forces(np.zeros((3, 2)), np.ones((3, 3)))


def test_support_polygon_of_two_feet():
    feet = []
    for y in (0.1, -0.1):
        for x in (-0.05, 0.15):
            for dy in (-0.03, 0.03):
                feet.append([x, y + dy, 0.0])
    feet.append([0.05, 0.0, 0.0])                       # interior point, dropped
    polygon = SupportPolygon(np.array(feet).T)
    V = polygon.vertices()
    assert V.shape == (2, 4)
    area = 0.5 * np.sum(V[0] * np.roll(V[1], -1) - np.roll(V[0], -1) * V[1])
    assert area == pytest.approx(0.2 * 0.26)            # counterclockwise: positive
    assert polygon.margin([0.05, 0.0, 0.0]) == pytest.approx(0.1)
    assert polygon.margin([0.25, 0.0, 0.0]) == pytest.approx(-0.1)
    assert polygon.margin([0.18, 0.17, 0.0]) == pytest.approx(-np.hypot(0.03, 0.04))
    assert polygon.contains([0.0, 0.12, 0.3])
    assert not polygon.contains([0.0, 0.2, 0.0])
    assert is_in_support_polygon([0.15, 0.13, 0.0], np.array(feet).T)   # on a corner


def test_collinear_contacts_of_a_planar_robot_give_a_segment():
    polygon = SupportPolygon([[0.3, -0.1, 0.1, 0.2], [0.0, 0.0, 0.0, 0.0], [0, 0, 0, 0]])
    assert polygon.is_degenerate()
    np.testing.assert_allclose(np.sort(polygon.vertices()[0]), [-0.1, 0.3])
    assert polygon.margin([0.0, 0.0, 0.0]) == pytest.approx(0.1)
    assert polygon.margin([0.5, 0.0, 0.0]) == pytest.approx(-0.2)
    assert polygon.margin([0.0, 0.05, 0.0]) == pytest.approx(-0.05)
    point = SupportPolygon([0.1, 0.2, 0.0])
    assert point.margin([0.1, 0.5, 0.0]) == pytest.approx(-0.3)
    with pytest.raises(ValueError, match=r"SupportPolygon: p_WCi has shape \(4, 2\)"):
        SupportPolygon(np.zeros((4, 2)))
