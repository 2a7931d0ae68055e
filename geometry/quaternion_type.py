"""An Eigen-style quaternion value (pydrake's ``Quaternion``), stored as [w, x, y, z].

The plain-array helpers of ``quaternion.py`` do the arithmetic; this class gives pydrake's
object interface over them, and reads as the array [w, x, y, z] where numpy expects one
(indexing, unpacking, ``np.asarray``). A Quaternion holds a unit quaternion (construction from
coefficients checks the norm to 1e-10, as pydrake does).
"""

import numpy as np

from .quaternion import (quaternion_conjugate, quaternion_multiply,
                         quaternion_to_rotation_matrix, rotation_matrix_to_quaternion)

__all__ = ["Quaternion"]

_UNIT_NORM_TOLERANCE = 1e-10


def _unit(fn, wxyz):
    q = np.array(wxyz, dtype=np.float64).reshape(-1)
    if q.shape != (4,) or not np.all(np.isfinite(q)):
        raise ValueError(f"{fn}: argument wxyz: expected 4 finite values, got {wxyz!r}")
    if abs(np.linalg.norm(q) - 1.0) > _UNIT_NORM_TOLERANCE:
        raise RuntimeError(f"{fn}: argument wxyz: expected a unit quaternion (norm within "
                           f"{_UNIT_NORM_TOLERANCE:g} of 1), got norm {np.linalg.norm(q):.12g}")
    return q


class Quaternion:
    """A unit quaternion q = [w, x, y, z] (Eigen's order of arguments, Drake's wxyz()).

    Parameters
    ----------
    wxyz : array_like, shape (4,), optional
        Identity when omitted. Or give w, x, y, z as four numbers, or ``rotation=`` a
        (3, 3) rotation matrix (or a RotationMatrix).
    """

    __slots__ = ("_q",)

    def __init__(self, wxyz=None, x=None, y=None, z=None, *, w=None, rotation=None):
        if rotation is not None:
            R = rotation.matrix() if hasattr(rotation, "matrix") else rotation
            self._q = rotation_matrix_to_quaternion(np.asarray(R, dtype=np.float64))
            return
        if w is not None:
            wxyz = w
        if x is not None or y is not None or z is not None:
            wxyz = [wxyz, x, y, z]
        self._q = np.array([1.0, 0.0, 0.0, 0.0]) if wxyz is None else _unit("Quaternion", wxyz)

    @staticmethod
    def identity():
        """The identity quaternion [1, 0, 0, 0] (pydrake's Identity())."""
        return Quaternion()

    def w(self):
        return float(self._q[0])

    def x(self):
        return float(self._q[1])

    def y(self):
        return float(self._q[2])

    def z(self):
        return float(self._q[3])

    def wxyz(self):
        """The coefficients [w, x, y, z], shape (4,) (a copy)."""
        return self._q.copy()

    def xyz(self):
        """The vector part [x, y, z], shape (3,)."""
        return self._q[1:].copy()

    def set_wxyz(self, wxyz):
        """Replace the coefficients (a unit quaternion [w, x, y, z])."""
        self._q = _unit("Quaternion.set_wxyz", wxyz)

    def rotation(self):
        """The rotation matrix, shape (3, 3)."""
        return quaternion_to_rotation_matrix(self._q)

    def set_rotation(self, rotation):
        """Replace the coefficients by the canonical quaternion of a (3, 3) rotation."""
        self._q = Quaternion(rotation=rotation)._q

    def conjugate(self):
        return Quaternion._raw(quaternion_conjugate(self._q))

    def inverse(self):
        """The inverse (the conjugate, for a unit quaternion)."""
        return self.conjugate()

    def multiply(self, other):
        """The Hamilton product self ⊗ other (a Quaternion), or the rotation of a vector
        (shape (3,)) by self."""
        if isinstance(other, Quaternion):
            return Quaternion._raw(quaternion_multiply(self._q, other._q))
        return self.rotation() @ np.asarray(other, dtype=np.float64)

    __matmul__ = multiply

    @classmethod
    def _raw(cls, q):
        obj = object.__new__(cls)
        obj._q = np.asarray(q, dtype=np.float64)
        return obj

    # The array protocol: a Quaternion reads as its coefficients [w, x, y, z], so code that
    # took the (4,) array `RotationMatrix.to_quaternion()` returned before keeps working
    # (``q[0]``, ``w, x, y, z = q``, ``np.asarray(q)``, ``np.concatenate([q, p])``).
    def __array__(self, dtype=None, copy=None):
        return np.array(self._q, dtype=dtype)

    def __len__(self):
        return 4

    def __getitem__(self, index):
        item = self._q[index]
        return item.copy() if isinstance(item, np.ndarray) else item

    def __iter__(self):
        return iter(self._q.tolist())

    def __reduce__(self):
        return (Quaternion, (self._q.copy(),))

    def __copy__(self):
        return Quaternion._raw(self._q.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __repr__(self):
        w, x, y, z = self._q.tolist()
        return f"Quaternion(w={w!r}, x={x!r}, y={y!r}, z={z!r})"
