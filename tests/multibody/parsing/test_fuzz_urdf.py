"""Property: a randomly mutated valid URDF either loads or raises ParseError; nothing else
escapes the parser. A model that loads either finalizes or is refused by finalize() with
the plant's named TopologyError, and then has a finite mass matrix."""

import copy
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import TopologyError

BASE = """<robot name="fuzz" xmlns:drake="http://drake.mit.edu">
  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>
  <link name="world"/>
  <link name="base">
    <inertial><origin xyz="0 0 0.1" rpy="0.1 0 0"/><mass value="2"/>
      <inertia ixx="0.02" iyy="0.03" izz="0.04" ixy="0.001" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 0.1"/><geometry><box size="0.2 0.2 0.2"/></geometry>
      <material name="grey"/></visual>
    <collision name="c"><geometry><cylinder radius="0.1" length="0.3"/></geometry>
      <drake:proximity_properties><drake:mu_static value="0.5"/>
        <drake:hunt_crossley_dissipation value="1"/></drake:proximity_properties></collision>
    <hydro><buoyancy><volume>0.002</volume><origin xyz="0 0 0.1"/></buoyancy>
      <drag><linear_damping>-1 -1 -1 -1 -1 -1</linear_damping></drag></hydro>
  </link>
  <link name="upper">
    <inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
      <inertia ixx="0.1" iyy="0.1" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="lower">
    <inertial><origin xyz="0 0 -0.4"/><mass value="0.5"/>
      <inertia ixx="0.05" iyy="0.05" izz="0.005" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><sphere radius="0.05"/></geometry></visual>
  </link>
  <link name="finger">
    <inertial><mass value="0.1"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="mount" type="fixed"><parent link="world"/><child link="base"/>
    <origin xyz="0 0 1"/></joint>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0.1 0" rpy="0 0 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="3"/><dynamics damping="0.1"/></joint>
  <joint name="elbow" type="continuous"><parent link="upper"/><child link="lower"/>
    <origin xyz="0 0 -1"/><axis xyz="1 0 0"/></joint>
  <joint name="slide" type="prismatic"><parent link="lower"/><child link="finger"/>
    <axis xyz="0 0 1"/><limit lower="0" upper="0.1" effort="5" velocity="1"/>
    <mimic joint="elbow" multiplier="0.5"/></joint>
  <transmission name="t"><type>SimpleTransmission</type><joint name="shoulder"/>
    <actuator name="shoulder_motor"/></transmission>
  <frame name="tool" link="lower" xyz="0 0 -0.8" rpy="0 0 0"/>
</robot>"""

VALUES = ["", "nan", "inf", "-inf", "-1", "0", "1e400", "abc", "1 2", "1 2 3", "0 0 0",
          "-1e-300", "world", "base", "upper", "1,2,3", "true", "fixed", "floating",
          "planar", "1 2 3 4 5 6", "SimpleTransmission", "  7  "]
TAGS = ["joint", "link", "inertial", "mass", "origin", "axis", "limit", "geometry", "box",
        "hydro", "mimic", "transmission", "frame", "parent", "child", "foo", "mesh"]


def _elements(root):
    return [el for el in root.iter() if isinstance(el.tag, str)]


@st.composite
def mutated_urdf(draw):
    root = etree.fromstring(BASE.encode())
    for _ in range(draw(st.integers(1, 4))):
        elements = _elements(root)
        el = elements[draw(st.integers(0, len(elements) - 1))]
        kind = draw(st.sampled_from(["set_attr", "del_attr", "del_el", "dup_el", "rename",
                                     "text"]))
        if kind == "set_attr":
            keys = list(el.attrib) or ["name"]
            el.set(draw(st.sampled_from(keys)), draw(st.sampled_from(VALUES)))
        elif kind == "del_attr" and el.attrib:
            del el.attrib[draw(st.sampled_from(sorted(el.attrib)))]
        elif kind == "del_el" and el.getparent() is not None:
            el.getparent().remove(el)
        elif kind == "dup_el" and el.getparent() is not None:
            el.getparent().append(copy.deepcopy(el))
        elif kind == "rename":
            el.tag = draw(st.sampled_from(TAGS))
        elif kind == "text":
            el.text = draw(st.sampled_from(VALUES))
    text = etree.tostring(root, encoding="unicode")
    if draw(st.booleans()) and draw(st.integers(0, 9)) == 0:
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(["", "<", "&", "</link>", '"'])) + text[cut:]
    return text


def test_the_base_model_loads_and_finalizes():
    plant = MultibodyPlant(0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ParseWarning)      # a valid model loads silently
        Parser(plant).add_models_from_string(BASE, "urdf")
    plant.finalize()
    assert plant.num_positions() == 3 and plant.num_actuators() == 1
    assert len(plant.get_constraint_specs()) == 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_urdf(), st.sampled_from([0.0, 0.01]))
def test_mutated_urdf_loads_or_raises_parse_error(text, time_step):
    plant = MultibodyPlant(time_step)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            Parser(plant).add_models_from_string(text, "urdf")
        except ParseError as err:
            assert err.line is None or err.line >= 1
            assert str(err).startswith("<string.urdf>")
            return
    try:
        plant.finalize()
    except TopologyError:
        return
    context = plant.create_default_context()
    assert np.all(np.isfinite(plant.calc_mass_matrix(context)))


def test_parse_warnings_do_not_escape_as_other_types():
    """Warnings are ParseWarning (UserWarning) only."""
    text = BASE.replace('<link name="finger">', '<link name="finger" color="red">')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Parser(MultibodyPlant(0.0)).add_models_from_string(text, "urdf")
    assert caught and all(issubclass(w.category, ParseWarning) for w in caught)
