"""Malformed model files raise ParseError whose file and line point at the problem."""

import re
import warnings
from pathlib import Path

import pytest

from merganser.geometry import SceneGraph
from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant

LINK = ('<link name="{}"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" '
        'ixz="0" iyz="0"/></inertial></link>')
A, B, C = LINK.format("a"), LINK.format("b"), LINK.format("c")


def joint(name, parent, child, kind="revolute"):
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/></joint>')


def parse_file(tmp_path, text, suffix=".urdf", packages=None):
    path = tmp_path / f"model{suffix}"
    path.write_text(text)
    # With a SceneGraph, so that geometry is registered and meshes must resolve.
    parser = Parser(MultibodyPlant(0.0), SceneGraph())
    for name, folder in (packages or {}).items():
        parser.package_map().add(name, folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        with pytest.raises(ParseError) as err:
            parser.add_models(path)
    assert err.value.file == str(path)
    assert str(err.value).startswith(f"{path}:{err.value.line}: ")
    return err.value


URDF_CASES = {
    "unclosed tag": ('<robot name="r">\n<link name="a">\n</robot>\n', 3, "malformed XML"),
    "mismatched tag": ('<robot name="r">\n<link name="a"></joint>\n</robot>', 2, "mismatch"),
    "unknown joint type": (f'<robot name="r">\n{A}\n{B}\n{joint("j", "a", "b", "hinge2")}\n'
                           f'</robot>', 4, "joint 'j' has unknown type 'hinge2'"),
    "joint to a missing link": (f'<robot name="r">\n{A}\n{joint("j", "a", "ghost")}\n</robot>',
                                3, "names child link 'ghost', which is not a link"),
    "link with two parents": (f'<robot name="r">\n{A}\n{B}\n{C}\n{joint("j1", "a", "c")}\n'
                              f'{joint("j2", "b", "c")}\n</robot>', 6,
                              "kinematic loop: link 'c' is the child of joint 'j1' \\(line 5\\)"),
    "cycle": (f'<robot name="r">\n{A}\n{B}\n{joint("j1", "a", "b")}\n{joint("j2", "b", "a")}\n'
              f'</robot>', 4, "kinematic loop: the joints form a cycle"),
    "non-numeric attribute": ('<robot name="r">\n<link name="a"><inertial>\n'
                              '<mass value="heavy"/></inertial></link>\n</robot>', 3,
                              "<mass> attribute 'value' must be a number, got 'heavy'"),
    "wrong vector size": (f'<robot name="r">\n{A}\n{B}\n<joint name="j" type="revolute">'
                          f'<parent link="a"/><child link="b"/>\n<axis xyz="1 0"/></joint>\n'
                          f'</robot>', 5, "must have 3 numbers, got 2"),
    "NaN": ('<robot name="r">\n<link name="a"><inertial>\n<mass value="nan"/></inertial>'
            '</link>\n</robot>', 3, "must be a number, got 'nan'"),
    "mesh that does not resolve": ('<robot name="r">\n<link name="a"><visual><geometry>\n'
                                   '<mesh filename="meshes/missing.stl"/></geometry></visual>'
                                   '</link>\n</robot>', 3, "missing.stl.*does not exist"),
    "missing package": ('<robot name="r">\n<link name="a"><visual><geometry>\n'
                        '<mesh filename="package://nowhere/m.stl"/></geometry></visual>'
                        '</link>\n</robot>', 3, "unknown package 'nowhere'"),
    "zero axis": (f'<robot name="r">\n{A}\n{B}\n<joint name="j" type="revolute"><parent '
                  f'link="a"/><child link="b"/>\n<axis xyz="0 0 0"/></joint>\n</robot>', 5,
                  "zero axis"),
    "lower above upper": (f'<robot name="r">\n{A}\n{B}\n<joint name="j" type="prismatic">'
                          f'<parent link="a"/><child link="b"/>\n<limit lower="1" upper="0"/>'
                          f'</joint>\n</robot>', 5, "lower limit 1.0 exceeds upper limit 0.0"),
    "duplicate link": (f'<robot name="r">\n{A}\n{A}\n</robot>', 3, "declared twice"),
    "missing name": ('<robot name="r">\n<link/>\n</robot>', 2,
                     "missing the required attribute 'name'"),
    "not a robot": ('<?xml version="1.0"?>\n<model name="x"/>', 2, "<robot> root element"),
    "negative damping": (f'<robot name="r">\n{A}\n{B}\n<joint name="j" type="revolute">'
                         f'<parent link="a"/><child link="b"/>\n<dynamics damping="-1"/>'
                         f'</joint>\n</robot>', 5, "must be >= 0.0"),
}


@pytest.mark.parametrize("case", sorted(URDF_CASES))
def test_malformed_urdf_raises_parse_error_at_the_line(tmp_path, case):
    text, line, match = URDF_CASES[case]
    err = parse_file(tmp_path, text)
    assert err.line == line
    assert re.search(match, err.detail), err.detail


SDF_CASES = {
    "unknown joint type": ('<sdf version="1.9"><model name="m"><link name="a"/>\n'
                           '<joint name="j" type="hinge"><parent>world</parent><child>a'
                           '</child></joint></model></sdf>', 2, "unknown type 'hinge'"),
    "missing link": ('<sdf version="1.9"><model name="m"><link name="a"/>\n'
                     '<joint name="j" type="fixed"><parent>world</parent><child>b</child>'
                     '</joint></model></sdf>', 2, "no frame, link, joint or model named 'b'"),
    "bad pose": ('<sdf version="1.9"><model name="m">\n<link name="a"><pose>1 2 x 0 0 0</pose>'
                 '</link></model></sdf>', 2, "must be numbers"),
    "include missing package": ('<sdf version="1.9"><world name="w">\n<include><uri>'
                                'model://nothing</uri></include></world></sdf>', 2,
                                "unknown package 'nothing'"),
}


@pytest.mark.parametrize("case", sorted(SDF_CASES))
def test_malformed_sdformat_raises_parse_error_at_the_line(tmp_path, case):
    text, line, match = SDF_CASES[case]
    err = parse_file(tmp_path, text, ".sdf")
    assert err.line == line
    assert re.search(match, err.detail), err.detail


MJCF_CASES = {
    "unknown geom type": ('<mujoco model="m"><worldbody>\n<body name="b">'
                          '<geom type="blob" size="1"/></body></worldbody></mujoco>', 2,
                          "unknown or unsupported type 'blob'"),
    "unknown mesh asset": ('<mujoco model="m"><worldbody>\n<geom type="mesh" mesh="x"/>'
                           '</worldbody></mujoco>', 2, "names mesh 'x'"),
    "motor on a missing joint": ('<mujoco model="m"><worldbody/><actuator>\n'
                                 '<motor name="m1" joint="nope"/></actuator></mujoco>', 2,
                                 "names joint 'nope'"),
    "bad joint type": ('<mujoco model="m"><worldbody><body name="b">\n<joint type="spin"/>'
                       '<geom size="0.1"/></body></worldbody></mujoco>', 2,
                       "unknown type 'spin'"),
}


@pytest.mark.parametrize("case", sorted(MJCF_CASES))
def test_malformed_mjcf_raises_parse_error_at_the_line(tmp_path, case):
    text, line, match = MJCF_CASES[case]
    err = parse_file(tmp_path, text, ".xml")
    assert err.line == line
    assert re.search(match, err.detail), err.detail


def test_missing_file_and_empty_document(tmp_path):
    parser = Parser(MultibodyPlant(0.0))
    with pytest.raises(ParseError, match="cannot read the file") as err:
        parser.add_models(tmp_path / "nothing.urdf")
    assert err.value.file == str(tmp_path / "nothing.urdf")
    with pytest.raises(ParseError, match="document is empty"):
        parser.add_models_from_string("  \n", "urdf")
    with pytest.raises(ValueError, match="extension '.stl'"):
        parser.add_models(tmp_path / "mesh.stl")
    with pytest.raises(ParseError, match="mesh.obj: cannot read the file"):   # a mesh model
        parser.add_models(tmp_path / "mesh.obj")
    with pytest.raises(ValueError, match="file_type must be one of"):
        parser.add_models_from_string("<robot/>", "mjcf")


def test_solo_urdf_names_meshes_missing_from_the_data(tmp_path):
    """solo.urdf (not a reference model) references OBJ meshes that the copied data lacks;
    with a SceneGraph, loading it fails at the first one, naming it (as Drake); without
    one (dynamics only) each is a located warning and the model loads."""
    models = Path(__file__).resolve().parents[2] / "data" / "models"
    solo = models / "example-robot-data/robots/solo_description/robots/solo.urdf"
    parser = Parser(MultibodyPlant(0.0), SceneGraph())
    parser.package_map().add("example-robot-data", models / "example-robot-data")
    with pytest.raises(ParseError, match=r"solo_body\.obj.*does not exist") as err:
        parser.add_models(solo)
    assert err.value.line == 20
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().add("example-robot-data", models / "example-robot-data")
    with pytest.warns(ParseWarning, match=r"solo\.urdf:20: .*solo_body\.obj.*no SceneGraph"):
        parser.add_models(solo)
    assert plant.has_body_named("base_link")


def test_finalized_plant_is_refused():
    plant = MultibodyPlant(0.0)
    plant.finalize()
    with pytest.raises(ValueError, match="already finalized"):
        Parser(plant).add_models_from_string('<robot name="r"/>', "urdf")


def test_parse_error_is_a_value_error_that_keeps_its_location_when_pickled():
    import pickle

    err = ParseError("joint 'j' has unknown type 'x'", "robot.urdf", 12)
    assert isinstance(err, ValueError)
    assert str(err) == "robot.urdf:12: joint 'j' has unknown type 'x'"
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.file, copy.line, copy.detail, str(copy)) == (
        err.file, err.line, err.detail, str(err))
