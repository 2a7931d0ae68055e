"""RigidTransform: an immutable pose X_AB = (R_AB, p_AoBo_A).

``X_AB`` maps a point's position in B to its position in A,
``p_AoQ_A = p_AoBo_A + R_AB @ p_BoQ_B``, written ``X_AB @ p_BQ``. Poses compose by the
monogram rule ``X_AC = X_AB @ X_BC``; the 4x4 homogeneous form is [[R, p], [0 0 0 1]].
"""

import numpy as np

from merganser.framework.templates import ScalarCast

from .isometry3 import Isometry3
from .rotation_matrix import RollPitchYaw, RotationMatrix

__all__ = ["RigidTransform"]

# Tolerance on the bottom row [0, 0, 0, 1] of a user-supplied homogeneous matrix.
_BOTTOM_ROW_TOLERANCE = 128 * np.finfo(np.float64).eps


def _rebuild(matrix, translation):
    """Unpickle without re-validating (the stored rotation was valid when pickled)."""
    return RigidTransform._unchecked(RotationMatrix._unchecked(matrix), translation)


def _as_translation(p, caller="RigidTransform"):
    p = np.array(p, dtype=np.float64)
    if p.shape != (3,):
        raise ValueError(f"{caller}: p must have shape (3,), got shape {p.shape}")
    if not np.all(np.isfinite(p)):
        raise ValueError(f"{caller}: p must be finite, got {p.tolist()}")
    return p


class RigidTransform:
    """An immutable rigid transform X_AB: rotation R_AB and translation p_AoBo_A.

    Parameters
    ----------
    R : None, RotationMatrix, RollPitchYaw, RigidTransform, or array_like
        The rotation: a RotationMatrix, a RollPitchYaw, a (3, 3) rotation matrix or a
        quaternion [w, x, y, z] of shape (4,). Given alone, `R` may also be a translation
        of shape (3,) (``RigidTransform(p)``), a (4, 4) homogeneous matrix, a (3, 4)
        matrix [R | p], an `Isometry3` or another RigidTransform. None means the identity
        rotation.
    p : array_like, shape (3,), optional
        The translation p_AoBo_A; zero when omitted.
    pose : Isometry3 or array_like (4, 4), optional
        pydrake's keyword for the whole pose, instead of `R` and `p`.
    other : RigidTransform, optional
        pydrake's copy constructor keyword.
    rpy, quaternion, theta_lambda : RollPitchYaw, Quaternion, AngleAxis, optional
        pydrake's keywords for the rotation, instead of `R` (at most one of the four).

    Raises
    ------
    ValueError
        If the rotation is invalid (see RotationMatrix), `p` is not a finite (3,) vector,
        or a (4, 4) matrix's bottom row is not [0, 0, 0, 1].
    """

    __slots__ = ("_R", "_p")
    __array_ufunc__ = None
    #: ``X.cast[float]()``: a copy (Drake's cast<U>(); float64 only).
    cast = ScalarCast()

    def __init__(self, R=None, p=None, *, pose=None, other=None, rpy=None, quaternion=None,
                 theta_lambda=None):
        if rpy is not None or quaternion is not None or theta_lambda is not None:
            R = self._keyword_rotation(R, rpy, quaternion, theta_lambda)
        if other is not None:                   # pydrake's copy constructor
            if not isinstance(other, RigidTransform) or R is not None or p is not None:
                raise TypeError(f"RigidTransform: argument other: expected a RigidTransform "
                                f"alone, got {type(other).__name__}")
            R = other
        if pose is not None:
            if R is not None or p is not None:
                raise ValueError("RigidTransform: pose cannot be given with R or p")
            R = pose
        if isinstance(R, Isometry3):
            R = R.matrix()
        if isinstance(R, RigidTransform):
            if p is not None:
                raise ValueError("RigidTransform: p cannot be given with a RigidTransform")
            rotation, translation = R._R, R._p
        elif R is None or isinstance(R, (RotationMatrix, RollPitchYaw)):
            rotation = RotationMatrix(R)
            translation = np.zeros(3) if p is None else _as_translation(p)
        else:
            a = np.asarray(R, dtype=np.float64)
            if p is None and a.shape == (3,):
                rotation, translation = RotationMatrix.identity(), _as_translation(a)
            elif p is None and a.shape == (4, 4):
                rotation, translation = self._from_matrix4(a)
            elif p is None and a.shape == (3, 4):
                rotation, translation = RotationMatrix(a[:, :3]), _as_translation(a[:, 3])
            else:
                rotation = RotationMatrix(a)
                translation = np.zeros(3) if p is None else _as_translation(p)
        self._R = rotation
        self._p = translation
        self._p.flags.writeable = False

    @staticmethod
    def _keyword_rotation(R, rpy, quaternion, theta_lambda):
        """The rotation of pydrake's keywords rpy= / quaternion= / theta_lambda= (one of
        them, and not with R)."""
        keyed = [k for k, v in (("R", R), ("rpy", rpy), ("quaternion", quaternion),
                                ("theta_lambda", theta_lambda)) if v is not None]
        if len(keyed) > 1:
            raise TypeError(f"RigidTransform: give one rotation, got {', '.join(keyed)}")
        if rpy is not None:
            return rpy if isinstance(rpy, RollPitchYaw) else RollPitchYaw(rpy=rpy)
        if quaternion is not None:
            return RotationMatrix(quaternion=quaternion)
        return RotationMatrix(theta_lambda=theta_lambda)

    @staticmethod
    def _from_matrix4(X):
        bottom_error = np.max(np.abs(X[3] - np.array([0.0, 0.0, 0.0, 1.0])))
        if not bottom_error <= _BOTTOM_ROW_TOLERANCE:
            raise ValueError(
                "RigidTransform: the bottom row of a 4x4 homogeneous matrix must be "
                f"[0, 0, 0, 1], got {X[3].tolist()}"
            )
        return RotationMatrix(X[:3, :3]), _as_translation(X[:3, 3])

    @classmethod
    def _unchecked(cls, rotation, translation):
        """Wrap a RotationMatrix and a float64 (3,) array without validation."""
        obj = object.__new__(cls)
        obj._R = rotation
        obj._p = translation
        obj._p.flags.writeable = False
        return obj

    def __reduce__(self):
        return (_rebuild, (self._R._R.copy(), self._p.copy()))

    @classmethod
    def make_unchecked(cls, pose):
        """The RigidTransform of the (3, 4) matrix [R_AB | p_AoBo_A] without the rotation's
        orthonormality check (Drake's MakeUnchecked).

        Raises
        ------
        ValueError
            If `pose` is not of shape (3, 4).
        """
        a = np.array(pose, dtype=np.float64)
        if a.shape != (3, 4):
            raise ValueError(f"RigidTransform.make_unchecked: pose must have shape (3, 4), "
                             f"got {a.shape}")
        return cls._unchecked(RotationMatrix.make_unchecked(a[:, :3]), a[:, 3].copy())

    @classmethod
    def identity(cls):
        """Return the identity transform."""
        return cls._unchecked(RotationMatrix.identity(), np.zeros(3))

    # ------------------------------------------------------------------ accessors
    def rotation(self):
        """Return the rotation R_AB (a RotationMatrix)."""
        return self._R

    def translation(self):
        """Return the translation p_AoBo_A, ndarray of shape (3,) (a copy)."""
        return self._p.copy()

    def get_as_matrix4(self):
        """Return the homogeneous matrix [[R_AB, p_AoBo_A], [0, 0, 0, 1]], shape (4, 4)."""
        X = np.eye(4)
        X[:3, :3] = self._R._R
        X[:3, 3] = self._p
        return X

    def get_as_isometry3(self):
        """Return this pose as an `Isometry3` (pydrake's GetAsIsometry3)."""
        return Isometry3(matrix=self.get_as_matrix4())

    def get_as_matrix34(self):
        """Return [R_AB, p_AoBo_A], ndarray of shape (3, 4)."""
        return np.hstack([self._R._R, self._p[:, None]])

    def inverse(self):
        """Return X_BA = [R_ABᵀ, -R_ABᵀ p_AoBo_A]."""
        R_BA = self._R._R.T.copy()
        return RigidTransform._unchecked(RotationMatrix._unchecked(R_BA), -(R_BA @ self._p))

    # ------------------------------------------------------------------ operators
    def __matmul__(self, other):
        """X_AB @ X_BC -> X_AC; X_AB @ p_BoQ_B -> p_AoQ_A for shape (3,) or (3, n)."""
        if isinstance(other, RigidTransform):
            R_AB = self._R._R
            return RigidTransform._unchecked(
                RotationMatrix._unchecked(R_AB @ other._R._R), self._p + R_AB @ other._p
            )
        if isinstance(other, (np.ndarray, list, tuple)):
            p = np.asarray(other, dtype=np.float64)
            if p.shape == (3,):
                return self._p + self._R._R @ p
            if p.ndim == 2 and p.shape[0] == 3:
                return self._p[:, None] + self._R._R @ p
            raise ValueError(
                f"RigidTransform @ p: p must have shape (3,) or (3, n), got shape {p.shape}"
            )
        return NotImplemented

    def multiply(self, other):
        """Same as ``self @ other``."""
        result = self.__matmul__(other)
        if result is NotImplemented:
            raise TypeError(
                "RigidTransform.multiply: expected a RigidTransform or points of shape (3,) "
                f"or (3, n), got {type(other).__name__}"
            )
        return result

    def invert_and_compose(self, other):
        """X_AB⁻¹ X_AC = X_BC for ``self`` X_AB and `other` X_AC (Drake's
        InvertAndCompose), without forming the inverse.

        Raises
        ------
        TypeError
            If `other` is not a RigidTransform.
        """
        other = self._other(other, "invert_and_compose")
        R_AB = self._R._R
        return RigidTransform._unchecked(RotationMatrix._unchecked(R_AB.T @ other._R._R),
                                         R_AB.T @ (other._p - self._p))

    # ------------------------------------------------------------------ comparisons
    @staticmethod
    def _other(other, fn):
        if not isinstance(other, RigidTransform):
            raise TypeError(f"RigidTransform.{fn}: other must be a RigidTransform, got "
                            f"{type(other).__name__}")
        return other

    def get_maximum_absolute_difference(self, other):
        """max |X_self - X_other| over the elements of the two 3x4 matrices [R, p]."""
        other = self._other(other, "get_maximum_absolute_difference")
        return float(max(np.max(np.abs(self._R._R - other._R._R)),
                         np.max(np.abs(self._p - other._p))))

    def get_maximum_absolute_translation_difference(self, other):
        """max |p_self - p_other| over the three elements of the translations."""
        other = self._other(other, "get_maximum_absolute_translation_difference")
        return float(np.max(np.abs(self._p - other._p)))

    def is_exactly_equal_to(self, other):
        """True if the rotations and the translations are equal element for element."""
        other = self._other(other, "is_exactly_equal_to")
        return bool(np.array_equal(self._R._R, other._R._R)
                    and np.array_equal(self._p, other._p))

    def is_nearly_identity(self, translation_tolerance):
        """True if max |p| <= `translation_tolerance` and the rotation is the identity to
        within 128 machine epsilons (Drake's IsNearlyIdentity)."""
        return bool(np.max(np.abs(self._p)) <= translation_tolerance
                    and self._R.is_nearly_identity())

    def is_exactly_identity(self):
        """Return True if the rotation is exactly I and the translation exactly zero."""
        return self._R.is_exactly_identity() and not np.any(self._p)

    def is_identity_to_within_tolerance(self, translation_tolerance):
        """Return True if |R - I| <= 2 eps elementwise and |p| <= `translation_tolerance`."""
        return self._R.is_identity_to_within_tolerance(
            2 * np.finfo(np.float64).eps
        ) and bool(np.max(np.abs(self._p)) <= translation_tolerance)

    def is_nearly_equal_to(self, other, tolerance):
        """Return True if the 3x4 matrices differ by at most `tolerance` elementwise."""
        return self.get_maximum_absolute_difference(
            self._other(other, "is_nearly_equal_to")) <= tolerance

    def __repr__(self):
        """pydrake's form: ``R=`` (its rows indented) and ``p=`` on lines of their own."""
        R = repr(self._R).replace("\n", "\n  ")
        return f"RigidTransform(\n  R={R},\n  p={self._p.tolist()!r},\n)"
