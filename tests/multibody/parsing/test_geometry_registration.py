"""The Parser registers parsed geometry with the plant's SceneGraph, as Drake does."""

import pytest

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import HalfSpace, RigidTransform
from merganser.multibody import MultibodyPlantConfig, Parser, add_multibody_plant

URDF = """<robot name="crate">
  <link name="crate">
    <inertial><mass value="2.0"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.2 0.2 0.2"/></geometry></visual>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
  </link>
</robot>"""


def scene(**parser_kwargs):
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant(
        MultibodyPlantConfig(time_step=1e-3, contact_model="point",
                             discrete_contact_approximation="sap"), builder)
    Parser(plant, **parser_kwargs).add_models_from_string(URDF, "urdf")
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground")
    plant.finalize()
    return builder.build(), plant


def test_parsed_collision_geometry_makes_the_model_rest_on_the_ground():
    diagram, plant = scene()
    crate = plant.get_body_by_name("crate")
    assert len(plant.get_collision_geometries(crate)) == 1
    assert len(plant.get_visual_geometries(crate)) == 1
    simulator = Simulator(diagram)
    ctx = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant.set_free_body_pose(ctx, crate, RigidTransform([0.0, 0.0, 0.3]))
    simulator.advance_to(1.0)
    z = plant.eval_body_pose_in_world(ctx, crate).translation()[2]
    assert z == pytest.approx(0.1, abs=1e-3)          # half the box height, within 1 mm


def test_geometry_roles_select_what_is_registered():
    diagram, plant = scene(geometry_roles=("visual",))
    crate = plant.get_body_by_name("crate")
    assert len(plant.get_collision_geometries(crate)) == 0
    assert len(plant.get_visual_geometries(crate)) == 1
    with pytest.raises(ValueError, match="geometry_roles"):
        Parser(plant, geometry_roles=("perception",))
