"""WeldJoint: a 0-dof joint fixing M at pose X_FM in F."""

from __future__ import annotations

from merganser.geometry import RigidTransform
from merganser.multibody.tree.frames import pose_matrix
from merganser.multibody.tree.joints.joint import Joint

__all__ = ["WeldJoint"]


def _one_of(name, a, value_a, b, value_b):
    if value_a is not None and value_b is not None:
        raise TypeError(f"WeldJoint {name!r}: give {a} or {b}, not both")
    value = value_a if value_a is not None else value_b
    if value is None:
        raise TypeError(f"WeldJoint {name!r}: missing the frame argument {a} (or {b})")
    return value


class WeldJoint(Joint):
    """A joint with no coordinates: frame M is fixed at pose X_FM in frame F.

    Parameters
    ----------
    name : str
        Joint name.
    frame_on_parent_F, frame_on_child_M : Frame
        Frames F (on the parent body) and M (on the child body).
    X_FM : RigidTransform or ndarray (4, 4), optional
        Pose of M in F; identity when omitted.
    """

    _type_name = "weld"
    _type_code_name = "WELD"
    _position_suffixes = ()
    _velocity_suffixes = ()
    _default_q = ()

    def __init__(self, name, frame_on_parent_F=None, frame_on_child_M=None, X_FM=None, *,
                 frame_on_parent=None, frame_on_child=None):
        # pydrake's keywords (frame_on_parent_F, frame_on_child_M) and the other joints'
        # (frame_on_parent, frame_on_child) both name the two frames.
        frame_on_parent_F = _one_of(name, "frame_on_parent_F", frame_on_parent_F,
                                    "frame_on_parent", frame_on_parent)
        frame_on_child_M = _one_of(name, "frame_on_child_M", frame_on_child_M,
                                   "frame_on_child", frame_on_child)
        self._X_FM = pose_matrix(X_FM, f"WeldJoint {name!r}", "X_FM")
        self._X_FM.flags.writeable = False
        super().__init__(name, frame_on_parent_F, frame_on_child_M, ())

    def X_FM(self):
        """Pose of M in F (RigidTransform)."""
        return RigidTransform(self._X_FM)

    def _compiled_X_FM(self):
        return self._X_FM.copy()
