"""Joint classes: the user-facing joints of a multibody tree."""

from merganser.multibody.tree.joints.ball_quaternion import BallQuaternionJoint
from merganser.multibody.tree.joints.ball_rpy import BallRpyJoint
from merganser.multibody.tree.joints.joint import Joint
from merganser.multibody.tree.joints.planar import PlanarJoint
from merganser.multibody.tree.joints.prismatic import PrismaticJoint
from merganser.multibody.tree.joints.quaternion_floating import QuaternionFloatingJoint
from merganser.multibody.tree.joints.revolute import RevoluteJoint
from merganser.multibody.tree.joints.rpy_floating import RpyFloatingJoint
from merganser.multibody.tree.joints.screw import ScrewJoint
from merganser.multibody.tree.joints.universal import UniversalJoint
from merganser.multibody.tree.joints.weld import WeldJoint

__all__ = [
    "BallQuaternionJoint",
    "BallRpyJoint",
    "Joint",
    "PlanarJoint",
    "PrismaticJoint",
    "QuaternionFloatingJoint",
    "RevoluteJoint",
    "RpyFloatingJoint",
    "ScrewJoint",
    "UniversalJoint",
    "WeldJoint",
]
