"""Robot models for the inverse-kinematics tests: a planar 3-link arm from a DH table and
the Franka Panda from example-robot-data's URDF (through `multibody.Parser` when it
exists, otherwise built here from the URDF's numbers with xml.etree)."""

import os
import warnings
import xml.etree.ElementTree as ET

import numpy as np

from merganser.geometry import RigidTransform, RollPitchYaw
from merganser.multibody.dh_chain import add_dh_chain
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import FixedOffsetFrame, PrismaticJoint, RevoluteJoint

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
ROBOT_DATA = os.path.join(ROOT, "tests", "data", "models", "example-robot-data")
PANDA_URDF = os.path.join(ROBOT_DATA, "robots", "panda_description", "urdf", "panda.urdf")
PANDA_ARM_JOINTS = [f"panda_joint{i}" for i in range(1, 8)]

LINKS = (0.5, 0.4, 0.3)
ARM_LIMIT = 2.5


def planar_arm(limits=(-ARM_LIMIT, ARM_LIMIT)):
    """Planar RRR arm in the world x-y plane (joint axes z), link lengths LINKS.

    Returns (plant, end-effector frame); the end-effector frame's origin is the tip.
    """
    plant = MultibodyPlant(0.0)
    chain = add_dh_chain(plant, [[a, 0.0, 0.0, 0.0] for a in LINKS],
                         position_limits=None if limits is None else [limits] * 3)
    plant.finalize()
    return plant, chain.end_effector_frame


def planar_tip(q):
    """Closed-form tip position (3,) of `planar_arm`."""
    angles = np.cumsum(q)
    return np.array([sum(a * np.cos(t) for a, t in zip(LINKS, angles)),
                     sum(a * np.sin(t) for a, t in zip(LINKS, angles)), 0.0])


def _floats(text):
    return [float(x) for x in text.split()]


def _origin(element):
    origin = element.find("origin")
    if origin is None:
        return RigidTransform()
    xyz = _floats(origin.get("xyz", "0 0 0"))
    rpy = _floats(origin.get("rpy", "0 0 0"))
    return RigidTransform(RollPitchYaw(*rpy), xyz)


def _inertia(link):
    inertial = link.find("inertial")
    mass = float(inertial.find("mass").get("value"))
    com = _floats(inertial.find("origin").get("xyz", "0 0 0"))
    if mass == 0.0:
        return SpatialInertia.zero()
    i = inertial.find("inertia")
    I_cm = np.array([[float(i.get("ixx")), float(i.get("ixy")), float(i.get("ixz"))],
                     [float(i.get("ixy")), float(i.get("iyy")), float(i.get("iyz"))],
                     [float(i.get("ixz")), float(i.get("iyz")), float(i.get("izz"))]])
    return SpatialInertia.make_from_central_inertia(mass, com, I_cm)


def _panda_by_hand(plant):
    root = ET.parse(PANDA_URDF).getroot()
    bodies = {link.get("name"): plant.add_rigid_body(link.get("name"), _inertia(link))
              for link in root.findall("link")}
    plant.weld_frames(plant.world_frame(), bodies["panda_link0"].body_frame())
    for joint in root.findall("joint"):
        parent = bodies[joint.find("parent").get("link")]
        child = bodies[joint.find("child").get("link")]
        X_PJ = _origin(joint)
        kind, name = joint.get("type"), joint.get("name")
        if kind == "fixed":
            plant.weld_frames(parent.body_frame(), child.body_frame(), X_PJ)
            continue
        F = plant.add_frame(FixedOffsetFrame(name + "_parent", parent.body_frame(), X_PJ))
        axis = _floats(joint.find("axis").get("xyz"))
        limit = joint.find("limit")
        lo, hi = float(limit.get("lower")), float(limit.get("upper"))
        cls = RevoluteJoint if kind == "revolute" else PrismaticJoint
        plant.add_joint(cls(name, F, child.body_frame(), axis, pos_lower_limit=lo,
                            pos_upper_limit=hi))


def _parser_class():
    """`multibody.Parser` (or `multibody.parsing.Parser` until it is re-exported), or None."""
    try:
        from merganser.multibody import Parser
    except ImportError:
        try:
            from merganser.multibody.parsing import Parser
        except ImportError:
            return None
    return Parser


def panda():
    """The Panda welded to the world. Returns (plant, TCP frame, arm q indices (7,)).

    The plant is discrete (kinematics does not depend on it) because the parsed fingers'
    <mimic> becomes a coupler constraint, which only discrete plants accept.
    """
    plant = MultibodyPlant(1e-3)
    Parser = _parser_class()
    if Parser is None:
        _panda_by_hand(plant)
    else:
        parser = Parser(plant)
        parser.package_map().add("example-robot-data", ROBOT_DATA)
        with warnings.catch_warnings():
            # The URDF's <safety_controller> and extra <dynamics> attributes are ignored.
            warnings.simplefilter("ignore")
            parser.add_models(PANDA_URDF)
        plant.weld_frames(plant.world_frame(), plant.get_frame_by_name("panda_link0"))
    plant.finalize()
    indices = np.array([plant.get_joint_by_name(n).position_start() for n in PANDA_ARM_JOINTS])
    return plant, plant.get_frame_by_name("panda_hand_tcp"), indices


PANDA_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
