"""Joint classes: the user-facing joints of a multibody tree."""

from multibody.tree.joints.ball_rpy import BallRpyJoint
from multibody.tree.joints.joint import Joint
from multibody.tree.joints.planar import PlanarJoint
from multibody.tree.joints.prismatic import PrismaticJoint
from multibody.tree.joints.quaternion_floating import QuaternionFloatingJoint
from multibody.tree.joints.revolute import RevoluteJoint
from multibody.tree.joints.rpy_floating import RpyFloatingJoint
from multibody.tree.joints.screw import ScrewJoint
from multibody.tree.joints.universal import UniversalJoint
from multibody.tree.joints.weld import WeldJoint

__all__ = [
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
