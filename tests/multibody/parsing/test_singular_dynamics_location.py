"""A SingularDynamicsError from a parsed model carries the file:line of the body that
caused it (and names its joint's), from URDF and MJCF (issue 14)."""

import warnings
from pathlib import Path

import numpy as np
import pytest

from merganser.multibody import MultibodyPlant, Parser, SingularDynamicsError

MODELS = Path(__file__).resolve().parents[2] / "data" / "models"
ACROBOT = MODELS / "drake" / "acrobot" / "Acrobot_no_collision.urdf"
MJCF = MODELS / "singular" / "acrobot_massless_base.xml"
HINGE_ON_MASSLESS_BODY = """<mujoco model="bead">
  <worldbody>
    <geom type="sphere" size="0.1"/>
    <body name="bead">
      <joint name="slide" type="slide" axis="1 0 0"/>
      <inertial pos="0 0 0" mass="0" diaginertia="0 0 0"/>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize(("path", "body_line"), [(ACROBOT, 3), (MJCF, 5)],
                         ids=["urdf", "mjcf"])
@pytest.mark.parametrize("time_step", [0.0, 0.01])
def test_singular_dynamics_error_names_the_body_file_and_line(path, body_line, time_step):
    plant = MultibodyPlant(time_step)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Parser(plant).add_models(str(path))
    plant.finalize()
    context = plant.create_default_context()
    plant.get_actuation_input_port().fix_value(context, np.zeros(plant.num_actuators()))
    with pytest.raises(SingularDynamicsError) as info:
        if time_step:
            plant.eval_unique_periodic_discrete_update(context)
        else:
            plant.calc_forward_dynamics(context)
    error = info.value
    assert error.body_name == "base_link"
    assert error.source_location == f"{path}:{body_line}"
    assert f"body 'base_link' at {path}:{body_line}" in str(error)
    assert "joint '$world_base_link' at" not in str(error)   # the plant's own joint


def test_the_joint_location_is_given_when_the_joint_is_from_the_file():
    plant = MultibodyPlant(0.0)
    [mi] = Parser(plant).add_models_from_string(file_contents=HINGE_ON_MASSLESS_BODY,
                                                file_type="xml")
    plant.finalize()
    with pytest.raises(SingularDynamicsError) as info:
        plant.calc_forward_dynamics(plant.create_default_context())
    assert info.value.joint_name == "slide"
    assert "body 'bead' at " in str(info.value) and ":4; joint 'slide' at " in str(info.value)
    assert str(info.value).endswith(":5)")


def test_bodies_built_in_code_have_no_location():
    plant = MultibodyPlant(0.0)
    plant.add_rigid_body("b")
    plant.finalize()
    with pytest.raises(SingularDynamicsError) as info:
        plant.calc_forward_dynamics(plant.create_default_context())
    assert info.value.source_location is None
    assert " at " not in str(info.value)
