"""SceneGraphConfig's default proximity properties (Drake's backfill) and the
three-argument add_multibody_plant (issue 18)."""

import numpy as np
import pytest
from pydantic import ValidationError

from merganser.framework import DiagramBuilder
from merganser.geometry import (
    CoulombFriction, DefaultProximityProperties, GeometryFrame, GeometryInstance,
    HalfSpace, ProximityProperties, RigidTransform, SceneGraph, SceneGraphConfig, Sphere,
)
from merganser.multibody import (
    MultibodyPlantConfig, SpatialInertia, add_multibody_plant,
)


def _register(sg, props):
    s = sg.register_source("s")
    f = sg.register_frame(s, GeometryFrame("f"))
    g = sg.register_geometry(s, f, GeometryInstance(RigidTransform(), Sphere(0.1), "g"))
    sg.assign_role(s, g, props)
    return g


def test_drake_defaults_fill_only_what_a_geometry_lacks():
    sg = SceneGraph(config=SceneGraphConfig())
    props = ProximityProperties()
    props.add_property("material", "point_contact_stiffness", 123.0)
    g = _register(sg, props)
    got = sg.model_inspector().get_proximity_properties(g)
    assert got.get_property("material", "point_contact_stiffness") == 123.0   # kept
    assert got.get_property("material", "hunt_crossley_dissipation") == 50.0
    assert got.get_property("material", "relaxation_time") == 0.1
    assert got.get_property("hydroelastic", "hydroelastic_modulus") == 1e7
    friction = got.get_property("material", "coulomb_friction")
    assert (friction.static_friction(), friction.dynamic_friction()) == (0.5, 0.5)
    assert not got.has_property("hydroelastic", "compliance_type")      # "undefined"
    assert not props.has_property("material", "relaxation_time")        # the input is copied


def test_set_config_refills_existing_geometries_and_default_scene_graph_fills_nothing():
    sg = SceneGraph()
    assert sg.get_config().default_proximity_properties.point_stiffness is None
    g = _register(sg, ProximityProperties())
    assert not sg.model_inspector().get_proximity_properties(g).has_property(
        "material", "point_contact_stiffness")
    config = SceneGraphConfig()
    config.default_proximity_properties.compliance_type = "compliant"
    config.default_proximity_properties.point_stiffness = 2e5
    sg.set_config(config=config)
    got = sg.model_inspector().get_proximity_properties(g)
    assert got.get_property("hydroelastic", "compliance_type") == "compliant"
    assert got.get_property("material", "point_contact_stiffness") == 2e5
    assert sg.get_config().default_proximity_properties.compliance_type == "compliant"


def test_default_proximity_properties_validate():
    with pytest.raises(ValidationError, match="compliance_type must be one of"):
        DefaultProximityProperties(compliance_type="soft")
    with pytest.raises(ValidationError, match="both static_friction and dynamic_friction"):
        DefaultProximityProperties(static_friction=None)
    p = DefaultProximityProperties(relaxation_time=None, point_stiffness=9)
    assert p.relaxation_time is None and p.point_stiffness == 9


def test_config_point_stiffness_sets_the_resting_penetration():
    """A ball resting on the ground under point contact sinks m g / k (k the stiffness the
    config gives both geometries, in series: k/2)."""
    m, k = 1.0, 2e4
    config = SceneGraphConfig()
    config.default_proximity_properties.point_stiffness = k
    config.default_proximity_properties.hunt_crossley_dissipation = 50.0
    builder = DiagramBuilder()
    plant, sg = add_multibody_plant(MultibodyPlantConfig(time_step=0.0, contact_model="point"),
                                    config, builder)
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(m, 0.1))
    plant.register_collision_geometry(ball, RigidTransform(), Sphere(0.1), "ball",
                                      CoulombFriction(0.5, 0.5))
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", CoulombFriction(0.5, 0.5))
    plant.finalize()
    diagram = builder.build()
    root = diagram.create_default_context()
    ctx = plant.get_my_context_from_root(root)
    depth = m * 9.81 / (k / 2)
    plant.set_free_body_pose(ctx, ball, RigidTransform([0.0, 0.0, 0.1 - depth]))
    vdot = plant.calc_forward_dynamics(ctx)
    np.testing.assert_allclose(vdot[5], 0.0, atol=1e-9)
