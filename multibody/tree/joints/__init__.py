"""Joint classes: the user-facing joints of a multibody tree."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".ball_quaternion": ("BallQuaternionJoint",),
    ".ball_rpy": ("BallRpyJoint",),
    ".joint": ("Joint",),
    ".planar": ("PlanarJoint",),
    ".prismatic": ("PrismaticJoint",),
    ".quaternion_floating": ("QuaternionFloatingJoint",),
    ".revolute": ("RevoluteJoint",),
    ".rpy_floating": ("RpyFloatingJoint",),
    ".screw": ("ScrewJoint",),
    ".universal": ("UniversalJoint",),
    ".weld": ("WeldJoint",),
})
