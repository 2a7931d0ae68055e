"""Frames: the body frame of each rigid body and frames fixed to it.

A frame F is attached to exactly one body B and has a fixed pose X_BF in that body's
frame. ``RigidBodyFrame`` (Drake's name; ``BodyFrame``, its older one, is the same
class) is the body's own frame (X_BF = identity, same name as the body);
``FixedOffsetFrame(name, P, X_PF)`` is fixed at pose X_PF in another frame P, so its pose
in the body is X_BF = X_BP @ X_PF (chains of fixed-offset frames compose).
"""

from __future__ import annotations

import numpy as np

from merganser.geometry import RigidTransform
from merganser.multibody.tree.element import MultibodyElement
from merganser.multibody.tree.frame_kinematics import FrameKinematicsMixin
from merganser.multibody.tree.scoped_name import ScopedName

__all__ = ["BodyFrame", "FixedOffsetFrame", "Frame", "RigidBodyFrame", "pose_matrix"]


def pose_matrix(X, func: str, arg: str) -> np.ndarray:
    """Convert a pose given as a RigidTransform (or anything it accepts) to a 4x4 array.

    Parameters
    ----------
    X : RigidTransform, ndarray (4, 4), RotationMatrix, ndarray (3,) or None
        The pose; ``None`` means the identity.
    func, arg : str
        Names of the calling function and argument, for the error message.

    Returns
    -------
    ndarray, shape (4, 4)
        The homogeneous matrix [[R, p], [0, 0, 0, 1]] (a new array).

    Raises
    ------
    ValueError
        If `X` is not a valid rigid transform.
    """
    if X is None:
        return np.eye(4)
    if isinstance(X, RigidTransform):
        return X.get_as_matrix4()
    try:
        return RigidTransform(X).get_as_matrix4()
    except (ValueError, TypeError) as err:
        raise ValueError(f"{func}: {arg} must be a rigid transform: {err}") from None


def _rigid_transform(X44: np.ndarray) -> RigidTransform:
    return RigidTransform(np.asarray(X44, dtype=np.float64))


class Frame(FrameKinematicsMixin, MultibodyElement):
    """Base class of frames; a frame F is fixed to one body B at pose X_BF.

    Parameters
    ----------
    name : str
        The frame name, unique within its model instance.
    body : RigidBody
        The body the frame is attached to.
    X_BF : ndarray, shape (4, 4)
        The pose of the frame in the body frame.
    model_instance : int or None
        Model instance; ``None`` takes the body's.
    """

    _kind = "frame"

    def __init__(self, name: str, body, X_BF: np.ndarray, model_instance: int | None = None):
        if not isinstance(name, str) or not name:
            raise ValueError(f"{type(self).__name__}: name must be a non-empty str, got {name!r}")
        super().__init__(model_instance)
        self._name = name
        self._body = body
        self._X_BF = np.array(X_BF, dtype=np.float64)
        self._X_BF.flags.writeable = False

    def name(self) -> str:
        """The frame's name."""
        return self._name

    def body(self):
        """The RigidBody this frame is attached to."""
        return self._body

    def model_instance(self) -> int:
        """Model instance index (defaults to the body's)."""
        if self._model_instance is None:
            return self._body.model_instance()
        return self._model_instance

    def scoped_name(self) -> ScopedName:
        """``"<model instance name>::<frame name>"`` (requires the frame to be in a tree)."""
        tree = self._require_tree("scoped_name")
        return ScopedName(tree.get_model_instance_name(self.model_instance()), self._name)

    def is_world_frame(self) -> bool:
        """True for the world frame (the world body's frame)."""
        return self.is_body_frame() and self._body.index() == 0

    def is_body_frame(self) -> bool:
        """True if this is a body's own frame."""
        return False

    def get_fixed_pose_in_body_frame(self) -> RigidTransform:
        """Return X_BF, the (fixed) pose of this frame in its body's frame B."""
        return _rigid_transform(self._X_BF)

    def pose_in_body_matrix(self) -> np.ndarray:
        """Return X_BF as a read-only (4, 4) array (no copy)."""
        return self._X_BF

    def calc_pose_in_body_frame(self, context) -> RigidTransform:
        """Return X_BF in `context` (the fixed pose unless a FixedOffsetFrame on the way to
        the body had its pose set in `context`, `FixedOffsetFrame.set_pose_in_parent_frame`)."""
        if self.is_body_frame() or self._tree is None or self._tree.state_accessor() is None:
            return self.get_fixed_pose_in_body_frame()
        return _rigid_transform(self._state("calc_pose_in_body_frame").frame_pose_in_body(
            context, self))

    def calc_pose_in_world(self, context) -> RigidTransform:
        """Return X_WF = X_WB @ X_BF for the configuration in `context` (needs a plant)."""
        X_WB = self._state("calc_pose_in_world").eval_body_pose_in_world(context, self._body)
        return X_WB @ self.calc_pose_in_body_frame(context)

    def calc_pose(self, context, frame_M) -> RigidTransform:
        """Return X_MF, this frame's pose in `frame_M`, for the configuration in `context`."""
        return frame_M.calc_pose_in_world(context).inverse() @ self.calc_pose_in_world(context)



class RigidBodyFrame(Frame):
    """The frame B of a rigid body B (pose identity in itself, same name as the body).

    Created by the body; users get it from ``body.body_frame()``.
    """

    def __init__(self, body):
        super().__init__(body.name(), body, np.eye(4))

    def model_instance(self) -> int:
        """Model instance of the body."""
        return self._body.model_instance()

    def is_body_frame(self) -> bool:
        """Always True."""
        return True


#: Drake's earlier name of the class (still importable there too).
BodyFrame = RigidBodyFrame


class FixedOffsetFrame(Frame):
    """A frame F fixed at pose X_PF in a parent frame P (Drake's FixedOffsetFrame).

    Parameters
    ----------
    name : str
        The frame name, unique within its model instance.
    P : Frame
        The frame P this frame is fixed to (a body frame or another fixed frame).
    X_PF : RigidTransform or ndarray (4, 4), optional
        Pose of F in P; identity when omitted.
    model_instance : int, optional
        Model instance; defaults to `P`'s.
    bodyB, X_BF : RigidBody, pose, keyword only
        Drake's other form: fixed at X_BF in the body frame of `bodyB` (instead of `P`,
        `X_PF`).

    Examples
    --------
    >>> hand = plant.add_frame(FixedOffsetFrame("hand", link.body_frame(), X_LH))
    """

    def __init__(self, name: str, P: Frame = None, X_PF=None, model_instance=None, *,
                 bodyB=None, X_BF=None, parent_frame=None):
        if parent_frame is not None:            # API.md's keyword for P
            if P is not None:
                raise TypeError("FixedOffsetFrame: give P or parent_frame, not both")
            P = parent_frame
        if bodyB is not None:
            if P is not None or X_PF is not None:
                raise TypeError("FixedOffsetFrame: pass either (P, X_PF) or (bodyB, X_BF)")
            P, X_PF = bodyB.body_frame(), X_BF
        parent_frame = P
        if not isinstance(parent_frame, Frame):
            raise TypeError(
                f"FixedOffsetFrame: P must be a Frame, got {type(parent_frame).__name__}"
            )
        X_PF_matrix = pose_matrix(X_PF, "FixedOffsetFrame", "X_PF")
        X_BF = parent_frame.pose_in_body_matrix() @ X_PF_matrix
        if model_instance is None:
            model_instance = parent_frame.model_instance()
        super().__init__(name, parent_frame.body(), X_BF, model_instance)
        self._parent_frame = parent_frame
        self._X_PF = X_PF_matrix
        self._X_PF.flags.writeable = False

    def parent_frame(self) -> Frame:
        """The frame P this frame is fixed to."""
        return self._parent_frame

    def get_fixed_pose_in_parent_frame(self) -> RigidTransform:
        """Return X_PF, the pose given at construction (the default of every Context)."""
        return _rigid_transform(self._X_PF)

    def set_pose_in_parent_frame(self, context, X_PF) -> None:
        """Set X_PF in `context` only (Drake's SetPoseInParentFrame): the frame's queries
        in that Context (and those of frames fixed to it) use it. Refused (RuntimeError)
        for a frame that a joint or a bushing is attached to, whose pose is compiled into
        the plant at finalize."""
        X = pose_matrix(X_PF, "FixedOffsetFrame.set_pose_in_parent_frame", "X_PF")
        self._state("set_pose_in_parent_frame").set_frame_pose_in_parent(context, self, X)

    def get_pose_in_parent_frame(self, context) -> RigidTransform:
        """X_PF in `context` (Drake's GetPoseInParentFrame)."""
        return _rigid_transform(self._state("get_pose_in_parent_frame").get_frame_pose_in_parent(
            context, self))
