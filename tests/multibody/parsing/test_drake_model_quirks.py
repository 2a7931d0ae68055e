"""What Drake's own model files (RobotLocomotion/models) contain and Drake loads: a
zero-radius collision sphere (a contact point, in the Atlas and Jaco models), an
SDFormat scalar with characters after its number (``<velocity>2.356194490192345"``,
in iiwa14_polytope_collision.sdf) and a ``<drake:declare_convex/>`` beside the
``<mesh>`` instead of inside it (atlas_convex_hull.urdf)."""

import warnings

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import CoulombFriction, HalfSpace, RigidTransform, Sphere
from merganser.multibody import (MultibodyPlantConfig, ParseError, Parser, ParseWarning,
                                 SpatialInertia, add_multibody_plant)
from merganser.multibody.plant import MultibodyPlant

INERTIAL = ("<inertial><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' "
            "ixz='0' iyz='0'/></inertial>")


def _sdf_arm(velocity_text):
    return f"""<sdf version="1.9"><model name="arm">
      <link name="base">{INERTIAL.replace("'", '"').replace('<mass value="1"/>', '<mass>1</mass>')
                         .replace('<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" '
                                  'iyz="0"/>', '<inertia><ixx>0.01</ixx><iyy>0.01</iyy>'
                                               '<izz>0.01</izz></inertia>')}</link>
      <link name="tip"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>
        <izz>0.01</izz></inertia></inertial></link>
      <joint name="j" type="revolute"><parent>base</parent><child>tip</child>
        <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper>
          <velocity>{velocity_text}</velocity></limit></axis></joint>
    </model></sdf>"""


def test_sdformat_reads_the_number_a_scalar_starts_with_and_says_so():
    plant = MultibodyPlant(0.0)
    with pytest.warns(ParseWarning, match=r"""<velocity> the value '2.356194490192345"' has """
                                          r"""'"' after its number; read as 2.356194490192345"""):
        Parser(plant).add_models_from_string(_sdf_arm('2.356194490192345"'), "sdf")
    plant.finalize()
    assert plant.get_joint_by_name("j").velocity_upper_limits()[0] == 2.356194490192345
    # text that does not start with a number is still an error, at its line
    with pytest.raises(ParseError, match=r"<string.sdf>:\d+: <velocity> the value must be a "
                                         r"number, got 'fast'"):
        Parser(MultibodyPlant(0.0)).add_models_from_string(_sdf_arm("fast"), "sdf")


def test_urdf_scalars_stay_exact_numbers():
    urdf = f"""<robot name="r"><link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="1" velocity='2.5"'/></joint></robot>"""
    with pytest.raises(ParseError, match=r"""velocity.*2.5".*is not a number"""):
        Parser(MultibodyPlant(0.0)).add_models_from_string(urdf, "urdf")


def test_zero_radius_spheres_load_and_rest_on_the_ground_as_contact_points():
    assert Sphere(0.0).radius() == 0.0
    with pytest.raises(ValueError, match="Sphere: radius must be finite and >= 0, got -0.1"):
        Sphere(-0.1)
    urdf = f"""<robot name="foot"><link name="foot">{INERTIAL}
      <collision><geometry><sphere radius="0.0"/></geometry></collision></link></robot>"""
    plant = MultibodyPlant(0.0)
    Parser(plant).add_models_from_string(urdf, "urdf")       # loads, as in Drake
    bad = urdf.replace('radius="0.0"', 'radius="-0.1"')
    with pytest.raises(ParseError, match=r"'radius' must be >= 0.0, got -0.1$"):
        Parser(MultibodyPlant(0.0)).add_models_from_string(bad, "urdf")

    # three contact points carry a body on the ground: no warning, resting at the
    # penetration allowance (the stiffness is chosen so that gravity presses 1 mm)
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=1e-3, discrete_contact_approximation="sap"), builder)
    body = plant.add_rigid_body("plate", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    for i, angle in enumerate(np.radians([0.0, 120.0, 240.0])):
        p = [0.1 * np.cos(angle), 0.1 * np.sin(angle), 0.0]
        plant.register_collision_geometry(body, RigidTransform(p), Sphere(0.0), f"pt{i}",
                                          CoulombFriction(0.5, 0.5))
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", CoulombFriction(0.5, 0.5))
    plant.finalize()
    simulator = Simulator(builder.build())
    context = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant.set_free_body_pose(context, body, RigidTransform([0.0, 0.0, 0.02]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        simulator.advance_to(1.0)
    z = plant.get_positions(context)[6]
    assert -2e-3 < z < 0.0
    np.testing.assert_allclose(plant.get_velocities(context), 0.0, atol=1e-4)     # at rest


def test_declare_convex_beside_the_mesh_is_ignored_as_drake_does(tmp_path):
    (tmp_path / "cube.obj").write_text(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")

    def load(inside):
        mesh = ('<mesh filename="cube.obj"><drake:declare_convex/></mesh>' if inside else
                '<mesh filename="cube.obj"/><drake:declare_convex/>')
        urdf = (f'<robot name="r" xmlns:drake="http://drake.mit.edu"><link name="a">{INERTIAL}'
                f'<collision><geometry>{mesh}</geometry></collision></link></robot>')
        (tmp_path / "r.urdf").write_text(urdf)
        parser = Parser(MultibodyPlant(0.0))
        parser.add_models(tmp_path / "r.urdf")
        [record] = parser.geometries()
        return record.shape

    with pytest.warns(ParseWarning, match=r"r.urdf:1: .*<drake:declare_convex> beside the "
                                          r"shape in <geometry> is ignored"):
        assert load(inside=False) == "Mesh"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load(inside=True) == "Convex"
    two = (f'<robot name="r"><link name="a">{INERTIAL}<collision><geometry><box size="1 1 1"/>'
           f'<sphere radius="1"/></geometry></collision></link></robot>')
    with pytest.raises(ParseError, match="must contain exactly one shape"):
        Parser(MultibodyPlant(0.0)).add_models_from_string(two, "urdf")


def test_a_deformable_link_is_refused_not_loaded_as_a_rigid_body():
    sdf = """<sdf version="1.9" xmlns:drake="http://drake.mit.edu"><model name="soft">
      <link name="rigid"/><link name="torus"><drake:deformable_properties>
        <drake:youngs_modulus>3e4</drake:youngs_modulus></drake:deformable_properties></link>
    </model></sdf>"""
    plant = MultibodyPlant(0.0)
    with pytest.raises(ParseError, match=r"<string.sdf>:2: link 'torus' is a deformable body "
                                         r".*rigid bodies only"):
        Parser(plant).add_models_from_string(sdf, "sdf")
    assert plant.num_bodies() == 1                   # refused before anything was added
