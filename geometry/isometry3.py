"""Isometry3: Eigen's rigid transform value as pydrake binds it (a mutable 4x4 [R p; 0 1]).

pydrake keeps ``Isometry3`` beside `RigidTransform` for code that passes Eigen's type
around; it only admits rigid transforms (a rotation part that is orthonormal with
determinant +1 and a bottom row [0, 0, 0, 1], both to 1e-5). Unlike the immutable
RigidTransform it has setters. ``RigidTransform(isometry)`` and
``RigidTransform.get_as_isometry3()`` convert between the two.
"""

import numpy as np

from merganser.framework.templates import ScalarCast

from .quaternion import (EIGEN_ROTATION_TOLERANCE, check_rotation_matrix,
                         quaternion_to_rotation_matrix, rotation_matrix_to_quaternion)
from .quaternion_type import Quaternion

__all__ = ["Isometry3"]


def _translation(caller, p):
    a = np.array(p, dtype=np.float64).reshape(-1)
    if a.shape != (3,) or not np.all(np.isfinite(a)):
        raise RuntimeError(f"{caller}: argument translation: expected 3 finite values, "
                           f"got {p!r}")
    return a


def _homogeneous(caller, matrix):
    X = np.array(matrix, dtype=np.float64)
    if X.shape != (4, 4):
        raise RuntimeError(f"{caller}: argument matrix: expected a (4, 4) matrix, got "
                           f"shape {X.shape}")
    check_rotation_matrix(X[:3, :3], caller, "matrix")
    bottom_error = np.max(np.abs(X[3] - np.array([0.0, 0.0, 0.0, 1.0])))
    if not bottom_error < EIGEN_ROTATION_TOLERANCE:
        raise RuntimeError(f"{caller}: argument matrix: expected the bottom row "
                           f"[0, 0, 0, 1], got {X[3].tolist()}")
    return X


class Isometry3:
    """A rigid transform X_AB held as the 4x4 homogeneous matrix [[R_AB, p_AB], [0, 1]].

    Parameters
    ----------
    matrix : array_like (4, 4) or Isometry3, optional
        The homogeneous matrix (or another Isometry3 to copy); the identity when nothing
        is given.
    rotation : array_like (3, 3), optional
        With `translation`, instead of `matrix`.
    translation : array_like (3,), optional
    quaternion : Quaternion, optional
        Instead of `rotation`.
    other : Isometry3, optional
        pydrake's copy constructor.

    Raises
    ------
    RuntimeError
        If the rotation part is not orthonormal with determinant +1 or the bottom row is
        not [0, 0, 0, 1] (to 1e-5), as pydrake.
    """

    __slots__ = ("_X",)
    __array_ufunc__ = None

    #: ``X.cast[float]()``: a copy (Drake's cast<U>(); float64 only).
    cast = ScalarCast()

    def __init__(self, matrix=None, *, rotation=None, translation=None, quaternion=None,
                 other=None):
        if isinstance(matrix, Isometry3):
            other, matrix = matrix, None
        if other is not None:
            if not isinstance(other, Isometry3):
                raise TypeError(f"Isometry3: argument other: expected an Isometry3, got "
                                f"{type(other).__name__}")
            self._X = other._X.copy()
            return
        if matrix is not None:
            self._X = _homogeneous("Isometry3", matrix)
            return
        X = np.eye(4)
        if quaternion is not None:
            X[:3, :3] = quaternion_to_rotation_matrix(np.asarray(quaternion, dtype=np.float64))
        elif rotation is not None:
            X[:3, :3] = check_rotation_matrix(rotation, "Isometry3")
        if translation is not None:
            X[:3, 3] = _translation("Isometry3", translation)
        self._X = X

    @staticmethod
    def identity():
        """The identity transform (pydrake's Identity())."""
        return Isometry3()

    def matrix(self):
        """The 4x4 homogeneous matrix (a copy)."""
        return self._X.copy()

    def set_matrix(self, matrix):
        """Replace the whole transform by a 4x4 homogeneous matrix (checked as in the
        constructor; on an error the transform is unchanged)."""
        self._X = _homogeneous("Isometry3.set_matrix", matrix)

    def translation(self):
        """p_AB, shape (3,) (a copy)."""
        return self._X[:3, 3].copy()

    def set_translation(self, translation):
        self._X[:3, 3] = _translation("Isometry3.set_translation", translation)

    def rotation(self):
        """R_AB, shape (3, 3) (a copy)."""
        return self._X[:3, :3].copy()

    def set_rotation(self, rotation):
        """Replace R_AB (checked; on an error the transform is unchanged)."""
        self._X[:3, :3] = check_rotation_matrix(rotation, "Isometry3.set_rotation")

    def quaternion(self):
        """R_AB as a Quaternion."""
        return Quaternion._raw(rotation_matrix_to_quaternion(self._X[:3, :3]))

    def set_quaternion(self, quaternion):
        self._X[:3, :3] = quaternion_to_rotation_matrix(
            np.asarray(Quaternion(quaternion), dtype=np.float64))

    def inverse(self):
        """X_BA = [[R_ABᵀ, -R_ABᵀ p_AB], [0, 1]]."""
        out = Isometry3()
        R_T = self._X[:3, :3].T
        out._X[:3, :3] = R_T
        out._X[:3, 3] = -R_T @ self._X[:3, 3]
        return out

    def multiply(self, other=None, *, position=None):
        """X_AB · X_BC (an Isometry3), or the positions p_AQ = X_AB p_BQ of a point (3,)
        or of the columns of a (3, N) array (``position=``, pydrake's keyword)."""
        if position is not None:
            other = position
        if isinstance(other, Isometry3):
            out = Isometry3()
            out._X = self._X @ other._X
            return out
        p = np.asarray(other, dtype=np.float64)
        if p.shape[:1] != (3,) or p.ndim > 2:
            raise ValueError(f"Isometry3.multiply: argument position: expected shape (3,) "
                             f"or (3, N), got {p.shape}")
        t = self._X[:3, 3] if p.ndim == 1 else self._X[:3, 3:4]
        return self._X[:3, :3] @ p + t

    __matmul__ = multiply

    def __copy__(self):
        return Isometry3(other=self)

    def __deepcopy__(self, memo):
        return Isometry3(other=self)

    def __reduce__(self):
        return (Isometry3, (self._X.copy(),))

    def __str__(self):
        return str(self._X)

    def __repr__(self):
        return f"Isometry3(matrix={self._X.tolist()!r})"
