"""Seeded fuzz of all three formats (issue 15): a few hundred mutated inputs per format.

Property: ``Parser.add_models_from_string`` either loads the model or raises a
ParseError (a RuntimeError) whose message starts with ``file:line:``; a model that loads
either finalizes, or finalize() raises a TopologyError that names the file and line of
an element it is about. Nothing else escapes. Deterministic (numpy's seeded generator)
and fast: no hypothesis, no shrinking.
"""

import re
from pathlib import Path
import warnings

import numpy as np
import pytest
from lxml import etree

from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import TopologyError

# The URDF seed is the one of test_fuzz_urdf (a world link, a fixed mount, materials reused
# by name, a mimic joint, a transmission, drake: and hydro extensions).
URDF = (Path(__file__).resolve().parents[2] / "data" / "parsing" / "urdf"
        / "fuzz_seed.urdf").read_text()

SDF_INERTIAL = ("<inertial><pose>0 0 -0.2 0 0 0</pose><mass>1</mass><inertia><ixx>0.1</ixx>"
                "<iyy>0.1</iyy><izz>0.02</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>"
                "</inertial>")
SDF = f"""<sdf version="1.9"><model name="fuzz">
  <link name="base">{SDF_INERTIAL}
    <visual name="v"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></visual>
    <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry>
    </collision></link>
  <link name="upper"><pose relative_to="base">0 0 -1 0 0 0</pose>{SDF_INERTIAL}</link>
  <link name="lower"><pose relative_to="upper">0 0 -1 0 0 0</pose>{SDF_INERTIAL}</link>
  <frame name="tool" attached_to="lower"><pose>0 0 -0.5 0 0 0</pose></frame>
  <joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
  <joint name="shoulder" type="revolute"><parent>base</parent><child>upper</child>
    <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper><effort>3</effort>
    </limit><dynamics><damping>0.1</damping></dynamics></axis></joint>
  <joint name="elbow" type="prismatic"><parent>upper</parent><child>lower</child>
    <axis><xyz expressed_in="tool">0 0 1</xyz></axis></joint>
</model></sdf>"""

MJCF = """<mujoco model="fuzz">
  <compiler angle="radian"/>
  <default><joint damping="0.1"/><default class="heavy"><geom density="2000"/></default>
  </default>
  <asset><material name="red" rgba="1 0 0 1"/></asset>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <body name="upper" pos="0 0 1" euler="0 0.1 0">
      <joint name="shoulder" type="hinge" axis="0 1 0" range="-1 1"/>
      <joint name="twist" type="hinge" axis="0 0 1" pos="0 0 0.1"/>
      <geom name="upper_geom" type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/>
      <frame pos="0 0 -0.5">
        <body name="lower">
          <joint name="elbow" type="slide" axis="1 0 0"/>
          <inertial pos="0 0 -0.25" mass="2" diaginertia="0.05 0.05 0.001"/>
          <geom class="heavy" type="box" size="0.1 0.1 0.1" material="red"/>
          <body name="hand"><joint name="wrist" type="ball"/>
            <geom type="sphere" size="0.05" quat="1 0 0 0"/></body>
        </body>
      </frame>
    </body>
    <body name="ball" pos="1 0 0.5"><freejoint/><geom type="sphere" size="0.1" mass="3"/></body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="shoulder" coef="1"/><joint joint="elbow" coef="-1"/>
  </fixed></tendon>
  <equality><joint joint1="twist" joint2="shoulder"/><connect body1="hand" body2="ball"
    anchor="0 0 0"/></equality>
  <actuator><motor name="m" joint="shoulder" gear="2" ctrlrange="-1 1"/>
    <position name="p" joint="elbow" kp="10"/></actuator>
</mujoco>"""

VALUES = ["", "nan", "inf", "-inf", "-1", "0", "1e308", "1e400", "5e199", "abc", "1 2",
          "1 2 3", "0 0 0", "1 0 0 0", "-1e-300", "base", "upper", "lower", "world", "true",
          "fixed", "ball", "free", "hinge", "slide", "1 2 3 4 5 6", "  7  ", "/", "/dev/zero",
          "package://pkg/../../x", "a\u00e9\u4e2d", "mesh"]
TAGS = ["joint", "link", "body", "geom", "inertial", "mass", "origin", "pose", "axis",
        "limit", "mimic", "frame", "include", "mesh", "attach", "replicate", "foo"]

CASES = {"urdf": URDF, "sdf": SDF, "xml": MJCF}
LOCATION = re.compile(r"^<string\.(urdf|sdf|xml)>:\d+: |^.+:\d+: ")


def _mutate(rng, text):
    root = etree.fromstring(text.encode())
    for _ in range(int(rng.integers(1, 4))):
        elements = [el for el in root.iter() if isinstance(el.tag, str)]
        el = elements[int(rng.integers(len(elements)))]
        kind = rng.choice(["set_attr", "del_attr", "del_el", "dup_el", "rename", "text",
                           "move"])
        if kind == "set_attr":
            keys = list(el.attrib) or ["name"]
            el.set(str(rng.choice(keys)), str(rng.choice(VALUES)))
        elif kind == "del_attr" and el.attrib:
            del el.attrib[str(rng.choice(list(el.attrib)))]
        elif kind == "del_el" and el.getparent() is not None:
            el.getparent().remove(el)
        elif kind == "dup_el" and el.getparent() is not None:
            el.getparent().append(etree.fromstring(etree.tostring(el)))
        elif kind == "rename":
            el.tag = str(rng.choice(TAGS))
        elif kind == "text":
            el.text = str(rng.choice(VALUES))
        elif kind == "move" and el.getparent() is not None:
            target = elements[int(rng.integers(len(elements)))]
            if target is not el and el not in target.iterancestors():
                target.append(el)
    return etree.tostring(root, encoding="unicode")


@pytest.mark.parametrize("file_type", sorted(CASES))
def test_mutated_models_raise_only_located_parse_errors(file_type):
    rng = np.random.default_rng(20261201 + len(file_type))
    outcomes = {"loaded": 0, "parse_error": 0, "topology_error": 0}
    for k in range(200):
        text = _mutate(rng, CASES[file_type])
        plant = MultibodyPlant(0.0)
        parser = Parser(plant)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ParseWarning)
            try:
                parser.add_models_from_string(text, file_type)
            except ParseError as err:
                assert isinstance(err, RuntimeError)
                assert err.line is not None and LOCATION.match(str(err)), (k, str(err), text)
                # ... and from a specific check, not the parser's last-resort conversion.
                assert "the model cannot be loaded:" not in str(err), (k, str(err), text)
                outcomes["parse_error"] += 1
                continue
            except Exception as err:  # pragma: no cover - the property under test
                raise AssertionError(f"mutant {k}: {type(err).__name__}: {err}\n{text}") from err
            try:
                plant.finalize()
            except TopologyError as err:
                assert re.search(r"at <string\.\w+>:\d+", str(err)), (k, str(err), text)
                outcomes["topology_error"] += 1
                continue
            except Exception as err:  # pragma: no cover
                raise AssertionError(f"mutant {k} at finalize: {type(err).__name__}: {err}\n"
                                     f"{text}") from err
        outcomes["loaded"] += 1
    # The mutations exercise both paths.
    assert outcomes["loaded"] > 20 and outcomes["parse_error"] > 20, outcomes
