"""Hydroelastic contact in the continuous plant: the sphere pressed into a rigid half
space against the closed-form pressure integral, a resting compliant box carrying m g,
symmetry under swapping the geometry order, dissipation, strict vs fallback selection,
and QueryObject.compute_contact_surfaces."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, Simulator, SimulatorConfig, apply_simulator_config
from merganser.geometry import (
    Box, CoulombFriction, HalfSpace, RigidTransform, Sphere, add_compliant_hydroelastic_properties,
    add_compliant_hydroelastic_properties_for_half_space, add_contact_material,
    add_rigid_hydroelastic_properties,
)
from merganser.multibody import MultibodyPlantConfig, SpatialInertia, SpatialVelocity, add_multibody_plant

G = 9.81
FRICTION = CoulombFriction(0.5, 0.5)


def material(dissipation=None):
    return add_contact_material(dissipation=dissipation, friction=FRICTION)


def frictionless(dissipation):
    return add_contact_material(dissipation=dissipation, friction=CoulombFriction(0.0, 0.0))


class Scene:
    """One free body (`shape`, `props`) over a world HalfSpace (`ground_props`)."""

    def __init__(self, shape, props, ground_props, mass=1.0, model="hydroelastic",
                 ground_first=False, stiction=1e-2):
        builder = DiagramBuilder()
        self.plant, self.scene_graph = add_multibody_plant(MultibodyPlantConfig(
            time_step=0.0, contact_model=model, stiction_tolerance=stiction), builder)
        plant = self.plant
        inertia = (SpatialInertia.solid_sphere_with_mass(mass, shape.radius())
                   if isinstance(shape, Sphere) else
                   SpatialInertia.solid_box_with_mass(mass, *shape.size()))
        self.body = plant.add_rigid_body("body", inertia)

        def ground():
            plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                              "ground", ground_props)
        if ground_first:
            ground()
        plant.register_collision_geometry(self.body, RigidTransform(), shape, "body", props)
        if not ground_first:
            ground()
        plant.finalize()
        self.diagram = builder.build()
        self.simulator = Simulator(self.diagram)
        apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-4,
                                               max_step_size=1e-2), self.simulator)
        self.context = plant.get_my_context_from_root(self.simulator.get_mutable_context())

    def place(self, z, v=(0.0, 0.0, 0.0), x=0.0, y=0.0):
        self.plant.set_free_body_pose(self.context, self.body, RigidTransform([x, y, z]))
        self.plant.set_free_body_spatial_velocity(self.context, self.body, SpatialVelocity(
            np.zeros(3), np.array(v, float)))

    def results(self):
        return self.plant.get_contact_results_output_port().eval(self.context)

    def force_on_body(self):
        """Total hydroelastic force on the body (N, in W) and the results."""
        res = self.results()
        total = np.zeros(3)
        gid = self.plant.get_collision_geometries(self.body)[0]
        for i in range(res.num_hydroelastic_contacts()):
            info = res.hydroelastic_contact_info(i)
            f = info.F_Ac_W.translational()
            total += f if info.contact_surface.id_M == gid else -f
        return total, res


def sphere_force_closed_form(E, R, delta):
    h = R - delta
    return E * (np.pi * (R * R - h * h) - 2.0 * np.pi / (3.0 * R) * (R ** 3 - h ** 3))


def test_sphere_on_rigid_half_space_matches_the_pressure_integral_and_converges():
    R, E, delta = 0.1, 1e5, 0.02
    exact = sphere_force_closed_form(E, R, delta)
    errors = []
    for hint in (0.025, 0.0125, 0.00625):
        scene = Scene(Sphere(R), add_compliant_hydroelastic_properties(hint, E, material()),
                      add_rigid_hydroelastic_properties(properties=material()))
        scene.place(R - delta, x=0.3, y=-0.1)
        force, res = scene.force_on_body()
        assert res.num_hydroelastic_contacts() == 1 and res.num_point_pair_contacts() == 0
        surface = res.hydroelastic_contact_info(0).contact_surface
        np.testing.assert_allclose(surface.centroid, [0.3, -0.1, 0.0], atol=1e-12)
        assert force[:2] == pytest.approx([0.0, 0.0], abs=1e-9 * exact)
        errors.append(abs(force[2] / exact - 1.0))
    assert errors[0] > errors[1] > errors[2]
    assert errors[2] < 0.01
    # the contact disk's area converges too
    a2 = R * R - (R - delta) ** 2
    assert surface.area == pytest.approx(np.pi * a2, rel=0.01)
    # the pressure at the surface vertices is the field E (1 - r/R)
    r = np.linalg.norm(surface.vertices_W - [0.3, -0.1, R - delta], axis=1)
    np.testing.assert_allclose(surface.pressure, E * (1.0 - r / R), atol=0.02 * E)


def test_box_resting_on_rigid_half_space_carries_its_weight():
    s, E = 0.1, 1e4
    scene = Scene(Box(s, s, s), add_compliant_hydroelastic_properties(0.025, E, material(10.0)),
                  add_rigid_hydroelastic_properties(properties=material()))
    scene.place(s / 2 - 0.003)
    scene.simulator.advance_to(0.5)
    force, res = scene.force_on_body()
    assert res.num_hydroelastic_contacts() == 1 and res.num_point_pair_contacts() == 0
    assert np.linalg.norm(force - [0.0, 0.0, G]) < 1e-3 * G
    # centre of pressure under the centre of mass, box level
    p = scene.plant.eval_body_pose_in_world(scene.context, scene.body).translation()
    centroid = res.hydroelastic_contact_info(0).contact_surface.centroid
    # (the one-point-per-polygon quadrature of the Kuhn tets leaves a ~1e-4 N m couple:
    # a tilt of ~5e-5 rad that moves the centre of mass by ~5 µm)
    np.testing.assert_allclose(centroid[:2], [0.0, 0.0], atol=1e-6)
    np.testing.assert_allclose(p[:2], [0.0, 0.0], atol=2e-5)
    assert abs(np.linalg.norm(scene.plant.get_velocities(scene.context))) < 1e-3


def test_swapping_the_geometry_order_gives_the_opposite_reported_force():
    R, E = 0.1, 1e5
    infos = []
    for ground_first in (False, True):
        scene = Scene(Sphere(R), add_compliant_hydroelastic_properties(0.025, E, material()),
                      add_rigid_hydroelastic_properties(properties=material()),
                      ground_first=ground_first)
        scene.place(R - 0.01, v=(0.1, 0.0, -0.05))
        force, res = scene.force_on_body()
        infos.append((force, res.hydroelastic_contact_info(0)))
    (f0, a), (f1, b) = infos
    assert a.contact_surface.id_M != b.contact_surface.id_M
    np.testing.assert_allclose(a.F_Ac_W.get_coeffs(), -b.F_Ac_W.get_coeffs(), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(f0, f1, rtol=1e-12)
    np.testing.assert_allclose(a.contact_surface.face_normals_W,
                               -b.contact_surface.face_normals_W)


def test_compliant_half_space_against_rigid_box_and_dissipation():
    s, E, T = 0.1, 1e5, 0.5
    slab = add_compliant_hydroelastic_properties_for_half_space(T, E, material(2.0))
    scene = Scene(Box(s, s, s), add_rigid_hydroelastic_properties(0.02, material()), slab)
    delta = 0.004
    scene.place(s / 2 - delta)
    force, res = scene.force_on_body()
    assert force == pytest.approx([0.0, 0.0, E * delta / T * s * s], rel=1e-9, abs=1e-9)
    # approaching at 0.1 m/s: bottom p (1 - d vn) with vn = -0.1 (Hunt & Crossley); the
    # four submerged side strips slide at 0.1 m/s: friction μ × their normal force
    # s δ × E δ / (2 T) each, upwards on the box
    scene.place(s / 2 - delta, v=(0.0, 0.0, -0.1))
    force_moving, _ = scene.force_on_body()
    side = s * delta * E * delta / (2.0 * T)
    assert force_moving[2] == pytest.approx(force[2] * (1.0 + 2.0 * 0.1) + 4 * 0.5 * side,
                                            rel=1e-9)


def bounce_height(dissipation):
    R = 0.05
    scene = Scene(Sphere(R), add_compliant_hydroelastic_properties(0.02, 1e5,
                                                                   material(dissipation)),
                  add_rigid_hydroelastic_properties(properties=material()), mass=0.5)
    scene.place(R + 0.05)
    top = []
    t = 0.0
    while t < 0.35:
        t += 0.005
        scene.simulator.advance_to(t)
        top.append(scene.plant.get_positions(scene.context)[6])
    top = np.array(top)
    after = top[np.argmin(top):]
    return after.max() - R


def test_larger_dissipation_bounces_lower():
    elastic, h0, h1 = bounce_height(0.0), bounce_height(0.1), bounce_height(1.0)
    assert elastic == pytest.approx(0.05, rel=0.01)  # d = 0 conserves energy
    assert 0.0 < h1 < h0 < 0.95 * elastic


def test_strict_raises_for_compliant_pair_with_half_space_fallback_uses_points():
    props = add_compliant_hydroelastic_properties(0.05, 1e5, material())
    slab = add_compliant_hydroelastic_properties_for_half_space(0.5, 1e5, material())
    scene = Scene(Sphere(0.1), props, slab)
    scene.place(0.09)
    with pytest.raises(ValueError, match="'body' and 'ground'|'ground' and 'body'"):
        scene.results()
    fallback = Scene(Sphere(0.1), props, slab, model="hydroelastic_with_fallback")
    fallback.place(0.09)
    res = fallback.results()
    assert res.num_hydroelastic_contacts() == 0 and res.num_point_pair_contacts() == 1
    # a geometry without hydroelastic properties: point contact under fallback
    plain = Scene(Sphere(0.1), material(), add_rigid_hydroelastic_properties(
        properties=material()), model="hydroelastic_with_fallback")
    plain.place(0.09)
    assert plain.results().num_point_pair_contacts() == 1


def test_query_object_compute_contact_surfaces():
    R, E = 0.1, 1e5
    scene = Scene(Sphere(R), add_compliant_hydroelastic_properties(0.0125, E, material()),
                  add_rigid_hydroelastic_properties(properties=material()))
    scene.place(R - 0.02)
    sg_context = scene.scene_graph.get_my_context_from_root(
        scene.simulator.get_mutable_context())
    query = scene.scene_graph.get_query_output_port().eval(sg_context)
    surfaces = query.compute_contact_surfaces()
    assert len(surfaces) == 1
    force = surfaces[0].total_normal_force()
    exact = sphere_force_closed_form(E, R, 0.02)
    sign = 1.0 if surfaces[0].id_M == scene.plant.get_collision_geometries(scene.body)[0] \
        else -1.0
    assert sign * force[2] == pytest.approx(exact, rel=0.03)
    scene.place(R + 0.01)
    assert query.compute_contact_surfaces() == []


@pytest.mark.parametrize("approximation", ["sap", "tamsi"])
def test_discrete_solvers_hold_the_box_at_the_static_depth_of_the_pressure_field(approximation):
    s, E, m_half = 0.1, 1e5, 0.05
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=1e-3, contact_model="hydroelastic",
        discrete_contact_approximation=approximation), builder)
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, s, s, s))
    plant.register_collision_geometry(box, RigidTransform(), Box(s, s, s), "box",
                                      add_compliant_hydroelastic_properties(0.05, E,
                                                                            material(10.0)))
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", add_rigid_hydroelastic_properties(
                                          properties=material()))
    plant.finalize()
    simulator = Simulator(builder.build())
    context = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant.set_free_body_pose(context, box, RigidTransform([0.0, 0.0, s / 2]))
    simulator.advance_to(0.3)
    res = plant.get_contact_results_output_port().eval(context)
    # the quadrature-point constraints are reported as one hydroelastic contact
    assert res.num_point_pair_contacts() == 0 and res.num_hydroelastic_contacts() == 1
    info = res.hydroelastic_contact_info(0)
    sign = 1.0 if info.contact_surface.id_M == plant.get_collision_geometries(box)[0] else -1.0
    np.testing.assert_allclose(sign * info.F_Ac_W.translational(), [0.0, 0.0, G], rtol=0,
                               atol=1e-3 * G)
    tau = plant.get_generalized_contact_forces_output_port(box.model_instance()).eval(context)
    np.testing.assert_allclose(tau[3:], [0.0, 0.0, G], atol=1e-3 * G)
    np.testing.assert_allclose(tau[:3], 0.0, atol=1e-4)
    # static depth: m g = E/m ∫_0^δ 4 (a - t)(b - t) dt with a = b = s/2
    a = s / 2
    depths = np.linspace(1e-5, 2e-3, 20001)
    weight = E / m_half * 4.0 * (a * a * depths - a * depths ** 2 + depths ** 3 / 3)
    delta = np.interp(G, weight, depths)
    z = plant.eval_body_pose_in_world(context, box).translation()[2]
    if approximation == "tamsi":
        assert s / 2 - z == pytest.approx(delta, rel=0.01)
    else:
        # SAP's near-rigid regularization stiffens the many stiff quadrature-point
        # constraints: the box sinks less than the pressure field implies
        assert 0.5 * delta < s / 2 - z < delta


def test_urdf_drake_hydroelastic_tags_reach_the_contact_surface():
    from merganser.multibody import Parser
    R, E = 0.1, 1e5
    urdf = f"""<robot name="ball" xmlns:drake="http://drake.mit.edu">
      <link name="ball">
        <inertial><mass value="1"/><inertia ixx="0.004" iyy="0.004" izz="0.004"
          ixy="0" ixz="0" iyz="0"/></inertial>
        <collision><geometry><sphere radius="{R}"/></geometry>
          <drake:proximity_properties>
            <drake:compliant_hydroelastic/>
            <drake:hydroelastic_modulus value="{E}"/>
            <drake:mesh_resolution_hint value="0.0125"/>
            <drake:hunt_crossley_dissipation value="3.0"/>
          </drake:proximity_properties></collision>
      </link></robot>"""
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(time_step=0.0,
                                                        contact_model="hydroelastic"), builder)
    parser = Parser(plant)
    parser.add_models_from_string(urdf, "urdf")        # registers its geometry, as Drake does
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", add_rigid_hydroelastic_properties(
                                          properties=material()))
    plant.finalize()
    diagram = builder.build()
    context = plant.get_my_context_from_root(diagram.create_default_context())
    ball = plant.get_body_by_name("ball")
    plant.set_free_body_pose(context, ball, RigidTransform([0.0, 0.0, R - 0.02]))
    res = plant.get_contact_results_output_port().eval(context)
    assert res.num_hydroelastic_contacts() == 1
    info = res.hydroelastic_contact_info(0)
    f = abs(info.F_Ac_W.translational()[2])
    assert f == pytest.approx(sphere_force_closed_form(E, R, 0.02), rel=0.03)
    # approaching at 0.1 m/s: every face's pressure scaled by (1 + d 0.1) with d = 3
    plant.set_free_body_spatial_velocity(context, ball, SpatialVelocity(
        np.zeros(3), np.array([0.0, 0.0, -0.1])))
    res = plant.get_contact_results_output_port().eval(context)
    assert abs(res.hydroelastic_contact_info(0).F_Ac_W.translational()[2]) == pytest.approx(
        1.3 * f, rel=1e-9)


def test_compliant_sphere_on_compliant_sphere():
    """A compliant ball on a world-fixed compliant ball of the same modulus: the
    equal-pressure surface halves the overlap; d combines as (E d₁ + E d₂)/(2E)."""
    R, E, delta = 0.1, 1e5, 0.02
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(time_step=0.0,
                                                        contact_model="hydroelastic"), builder)
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, R))
    plant.register_collision_geometry(ball, RigidTransform(), Sphere(R), "ball",
                                      add_compliant_hydroelastic_properties(0.025, E, frictionless(1.0)))
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), Sphere(R), "base",
                                      add_compliant_hydroelastic_properties(0.025, E, frictionless(3.0)))
    plant.finalize()
    context = plant.get_my_context_from_root(builder.build().create_default_context())
    plant.set_free_body_pose(context, ball, RigidTransform([0.0, 0.0, 2 * R - 2 * delta]))
    res = plant.get_contact_results_output_port().eval(context)
    assert res.num_hydroelastic_contacts() == 1 and res.num_point_pair_contacts() == 0
    info = res.hydroelastic_contact_info(0)
    sign = 1.0 if info.contact_surface.id_M == plant.get_collision_geometries(ball)[0] else -1.0
    f = sign * info.F_Ac_W.translational()
    assert f[2] == pytest.approx(sphere_force_closed_form(E, R, delta), rel=0.12)
    assert info.contact_surface.centroid[2] == pytest.approx(R - delta, abs=2e-3)
    plant.set_free_body_spatial_velocity(context, ball, SpatialVelocity(
        np.zeros(3), np.array([0.0, 0.0, -0.1])))
    res = plant.get_contact_results_output_port().eval(context)
    info = res.hydroelastic_contact_info(0)
    # frictionless; the faces' normals are nearly vertical, so each face's pressure is
    # scaled by ~(1 + d 0.1) with d = 2
    assert sign * info.F_Ac_W.translational()[2] == pytest.approx(f[2] * (1 + 2.0 * 0.1),
                                                                  rel=0.01)
