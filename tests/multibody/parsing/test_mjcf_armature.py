"""MJCF joint ``armature`` on every joint type (issue 14): the armature of a joint an
actuator drives is the actuator's reflected inertia, as in Drake; any other armature is
the joint's own (`Joint.set_default_armature`), per dof, so M(q) gains MuJoCo's
armature on its diagonal exactly once."""

import warnings
from pathlib import Path

import numpy as np
import pytest

from merganser.multibody.parsing import Parser, ParseWarning
from merganser.multibody.plant import MultibodyPlant

DATA = Path(__file__).resolve().parents[2] / "data" / "parsing" / "mjcf"


def load(name, messages):
    plant = MultibodyPlant(0.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ParseWarning)
        [mi] = Parser(plant).add_models(DATA / name)
    messages.extend(str(w.message) for w in caught if issubclass(w.category, ParseWarning))
    return plant, mi


def test_hinge_mass_matrix_is_the_hand_value_with_the_armature_counted_once():
    messages = []
    plant, mi = load("armature_hinge.xml", messages)
    first = plant.get_joint_actuator_by_name("first", mi)
    second = plant.get_joint_actuator_by_name("second", mi)
    assert first.default_rotor_inertia() == pytest.approx(0.05 / 4)
    assert first.default_reflected_inertia() == pytest.approx(0.05)
    assert second.default_reflected_inertia() == 0.0
    assert plant.get_joint_by_name("hinge", mi).default_armature() == 0.0
    assert not any("armature" in m.split(":", 2)[-1] for m in messages)
    plant.finalize()
    context = plant.create_default_context()
    # Izz + m d² + armature = 0.3 + 2·0.5² + 0.05
    np.testing.assert_allclose(plant.calc_mass_matrix(context), [[0.85]], atol=1e-15)


def test_armature_on_free_ball_hinge_and_slide_joints_is_per_dof():
    plant, mi = load("armature_joint_types.xml", [])
    free = plant.get_joint_by_name("free", mi)
    assert free.type_name() == "quaternion_floating"
    np.testing.assert_array_equal(free.default_armature_vector(), [0.5] * 6)
    np.testing.assert_array_equal(plant.get_joint_by_name("ball", mi).default_armature_vector(),
                                  [0.07] * 3)
    assert plant.get_joint_by_name("hinge", mi).default_armature() == 0.02
    assert plant.get_joint_by_name("slide", mi).default_armature() == 0.01   # its class's
    plain, _ = load("armature_joint_types.xml", [])
    for name in ("free", "ball", "hinge", "slide"):
        plain.get_joint_by_name(name, mi).set_default_armature(0.0)
    plant.finalize()
    plain.finalize()
    base = plant.get_body_by_name("base", mi)
    context, plain_context = plant.create_default_context(), plain.create_default_context()
    # the free joint keeps the body's MJCF pose (pos, euler) as its default
    X_WB = plant.eval_body_pose_in_world(context, base)
    np.testing.assert_allclose(X_WB.translation(), [0.0, 0.0, 1.0], atol=1e-15)
    rng = np.random.default_rng(0)
    q = plant.get_positions(context)
    q[7:11] = rng.standard_normal(4)
    q[7:11] /= np.linalg.norm(q[7:11])
    q[11:] = rng.standard_normal(2)
    plant.set_positions(context, q)
    plain.set_positions(plain_context, q)
    np.testing.assert_allclose(
        plant.calc_mass_matrix(context) - plain.calc_mass_matrix(plain_context),
        np.diag([0.5] * 6 + [0.07] * 3 + [0.02, 0.01]), atol=1e-14)
