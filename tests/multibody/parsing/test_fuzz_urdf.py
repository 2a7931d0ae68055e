"""Property: a randomly mutated valid URDF either loads or raises ParseError; nothing else
escapes the parser. A model that loads either finalizes or is refused by finalize() with
the plant's named TopologyError, and then has a finite mass matrix."""

import copy
from pathlib import Path
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from merganser.multibody.parsing import ParseError, Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import TopologyError

BASE = (Path(__file__).resolve().parents[2] / "data" / "parsing" / "urdf"
        / "fuzz_seed.urdf").read_text()

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
