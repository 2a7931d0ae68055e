"""FramePoseVector: the poses X_PF of a SceneGraph source's frames (Drake's
FramePoseVector), the value of a source's pose input port. Its own module so that a
plant's ``geometry_pose`` output can be made without loading the SceneGraph (and its
configuration models) when no SceneGraph is used."""

import numpy as np

from .geometry_instance import FrameId
from .rigid_transform import RigidTransform

__all__ = ["FramePoseVector"]

_EYE4 = np.eye(4)


class FramePoseVector:
    """Poses X_PF of a source's frames in their parent frames, keyed by FrameId.

    Parameters
    ----------
    frame_ids : iterable of FrameId, optional
        Frames to hold (identity poses), in a fixed order.
    """

    def __init__(self, frame_ids=()):
        self._ids = list(frame_ids)
        self._index = {f: i for i, f in enumerate(self._ids)}
        self._X = np.tile(_EYE4, (len(self._ids), 1, 1))
        self._slots = None

    def set_value(self, id, value):  # noqa: A002 (pydrake's keyword)
        """Set the pose X_PF `value` (RigidTransform or (4, 4)) of the frame `id`
        (FrameId), adding the frame if it is new."""
        frame_id = id
        M = value.get_as_matrix4() if isinstance(value, RigidTransform) else np.asarray(
            value, dtype=float)
        if M.shape != (4, 4):
            raise ValueError(f"FramePoseVector.set_value: value must be a RigidTransform or a "
                             f"(4, 4) matrix, got shape {M.shape}")
        i = self._index.get(frame_id)
        if i is None:
            if not isinstance(frame_id, FrameId):
                raise TypeError(f"FramePoseVector.set_value: id must be a FrameId, got "
                                f"{type(frame_id).__name__}")
            self._index[frame_id] = i = len(self._ids)
            self._ids.append(frame_id)
            self._X = np.concatenate([self._X, M[None]], axis=0)
            self._slots = None
        else:
            self._X[i] = M

    def value(self, id):  # noqa: A002 (pydrake's keyword)
        """X_PF (RigidTransform) of the frame `id`.

        Raises
        ------
        KeyError
            If the vector has no pose for `id` (the message lists how many it has).
        """
        i = self._index.get(id)
        if i is None:
            raise KeyError(f"FramePoseVector.value: no pose for {id!r} (the vector holds "
                           f"{len(self._ids)} frames; see ids())")
        return RigidTransform(self._X[i])

    def has_id(self, id):  # noqa: A002 (pydrake's keyword)
        """True if the vector holds a pose for the frame `id`."""
        return id in self._index

    def ids(self):
        """The FrameIds held, in insertion order (list)."""
        return list(self._ids)

    def size(self):
        """The number of frames held."""
        return len(self._ids)

    def clear(self):
        """Remove every frame."""
        self._ids, self._index, self._X, self._slots = [], {}, np.zeros((0, 4, 4)), None

    def matrices(self):
        """The poses as an array (size(), 4, 4) in `ids()` order (writable)."""
        return self._X
