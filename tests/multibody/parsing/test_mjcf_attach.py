"""MJCF ``<attach>`` of a frame, of a whole model and of this model's own frame
(self-attachment), issue 14: names prefixed, poses composed, defaults and actuators
carried as MuJoCo does (checked against values worked out by hand)."""

import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant

DATA = Path(__file__).resolve().parents[2] / "data" / "parsing" / "mjcf"


def load(name):
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        [mi] = parser.add_models(DATA / name)
    return plant, parser, mi


def test_whole_model_attach_copies_every_body_in_a_new_frame():
    plant, parser, mi = load("attach_whole_model.xml")
    assert plant.get_joint_by_name("copy_shoulder", mi).damping() == 0.05   # its defaults
    motor = plant.get_joint_actuator_by_name("copy_shoulder_motor", mi)
    assert motor.joint().name() == "copy_shoulder" and motor.default_gear_ratio() == 2.0
    assert any(g.name == "copy_floor" and g.body_name == "world" for g in parser.geometries())
    plant.finalize()
    ball = plant.get_body_by_name("copy_ball", mi)
    assert ball.is_floating_base_body() and ball.default_mass() == 3.0
    context = plant.create_default_context()
    # frame at (0, 2, 0) turned 90° about z: (1, 0, 0.5) -> (0, 3, 0.5), (0, 0, 1) -> (0, 2, 1)
    for name, p in (("copy_ball", [0, 3, 0.5]), ("copy_upper", [0, 2, 1])):
        X = plant.eval_body_pose_in_world(context, plant.get_body_by_name(name, mi))
        np.testing.assert_allclose(X.translation(), p, atol=1e-15)
    assert plant.num_positions() == 2 + 7


def test_frame_attach_copies_the_frame_with_its_pose_and_actuator_only():
    plant, parser, mi = load("attach_frame.xml")
    assert not plant.has_body_named("p_elsewhere", mi)
    door = plant.get_body_by_name("p_door", mi)
    # the attached model's default density 200 on the 0.3 x 0.02 x 0.4 panel
    assert door.default_mass() == pytest.approx(200 * 0.3 * 0.02 * 0.4)
    assert plant.get_joint_actuator_by_name("p_door_motor", mi).joint().name() == "p_hinge"
    shelf = next(g for g in parser.geometries() if g.name == "p_shelf")
    assert shelf.body_name == "cart"
    plant.finalize()
    context = plant.create_default_context()
    X = plant.eval_body_pose_in_world(context, door)
    # cart at (1, 0, 0); the frame at (0, 0, 0.5), turned 90° about x; the door at
    # (0.3, 0, 0) in it, its hinge axis z becoming -y
    np.testing.assert_allclose(X.translation(), [1.3, 0, 0.5], atol=1e-15)
    np.testing.assert_allclose(X.rotation().matrix()[:, 2], [0, -1, 0], atol=1e-15)


def test_self_attachment_copies_this_models_frame_and_the_motor_on_its_joint():
    plant, _, mi = load("attach_self_frame.xml")
    assert plant.get_joint_actuator_by_name("second_swing_motor", mi).joint().name() == \
        "second_swing"
    assert plant.num_actuators() == 2
    plant.finalize()
    context = plant.create_default_context()
    arm = plant.eval_body_pose_in_world(context, plant.get_body_by_name("arm", mi))
    copy = plant.eval_body_pose_in_world(context, plant.get_body_by_name("second_arm", mi))
    np.testing.assert_allclose(arm.translation(), [0, 0, 1.2], atol=1e-15)
    np.testing.assert_allclose(copy.translation(), [2, 0, 1.2], atol=1e-15)
    c, s = math.cos(math.pi / 2), math.sin(math.pi / 2)
    np.testing.assert_allclose(copy.rotation().matrix(), [[c, -s, 0], [s, c, 0], [0, 0, 1]],
                               atol=1e-15)
    # the same arm: the same inertia about each one's hinge
    M = plant.calc_mass_matrix(context)
    assert M[0, 0] == pytest.approx(M[1, 1], rel=1e-14)


@pytest.mark.parametrize(("attach", "message"), [
    ('<attach prefix="x_"/>', "self-attachment\\) needs 'body' or 'frame'"),
    ('<attach frame="f" body="b" prefix="x_"/>', "'body' or 'frame', not both"),
    ('<attach frame="nothing" prefix="x_"/>', "has no frame named 'nothing'"),
])
def test_bad_attach_is_a_located_parse_error(attach, message):
    text = (f'<mujoco model="m">\n<worldbody>\n<frame name="f"/>\n{attach}\n</worldbody>\n'
            f'</mujoco>')
    with pytest.raises(ParseError, match=message) as info:
        Parser(MultibodyPlant(0.0)).add_models_from_string(file_contents=text, file_type="xml")
    assert ":4:" in str(info.value)


def test_a_frame_that_attaches_itself_is_refused():
    text = ('<mujoco model="m">\n<worldbody>\n<frame name="f">\n'
            '<attach frame="f" prefix="x_"/>\n</frame>\n</worldbody>\n</mujoco>')
    with pytest.raises(ParseError, match="copies the frame that contains it"):
        Parser(MultibodyPlant(0.0)).add_models_from_string(file_contents=text, file_type="xml")
