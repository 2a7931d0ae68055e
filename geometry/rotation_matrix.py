"""RotationMatrix and RollPitchYaw: the two rotation representations that build each other.

RotationMatrix is an immutable 3x3 rotation (orthonormal, determinant +1).

``R_AB`` relates the unit vectors of frame B to those of frame A: its columns are Bx, By,
Bz expressed in A, and it re-expresses vectors, ``v_A = R_AB @ v_B``. Composition follows
the monogram rule ``R_AC = R_AB @ R_BC``.

RollPitchYaw is an orientation as three angles, Drake's extrinsic X-Y-Z convention.

The rotation is R_AD = Rz(yaw) @ Ry(pitch) @ Rx(roll): roll about Ax, then pitch about
Ay, then yaw about Az (fixed axes), equivalently yaw-pitch-roll about the moving z, y', x''
axes. The conversion from a rotation matrix returns roll, yaw in [-π, π] and pitch in
[-π/2, π/2]; near gimbal lock (|pitch| = π/2) only roll ∓ yaw is determined and the
conversion still reproduces the matrix.

They share one module because each constructs the other (as in Drake).
"""

import math

import numpy as np

from merganser.framework.templates import ScalarCast

from .angle_axis import AngleAxis, angle_axis_of_quaternion
from .quaternion import quaternion_to_rotation_matrix, rotation_matrix_to_quaternion
from .quaternion_type import Quaternion

__all__ = ["RotationMatrix", "RollPitchYaw"]

# Drake's tolerance for accepting a user-supplied matrix as a rotation matrix.
_ORTHONORMALITY_TOLERANCE = 128 * np.finfo(np.float64).eps


def _rebuild(matrix):
    """Unpickle without re-validating (the stored matrix was valid when pickled)."""
    return RotationMatrix._unchecked(matrix)


def _one_keyword(cls_name, positional, keywords):
    """The single constructor argument among ``positional`` and pydrake's keyword
    spellings ``keywords`` (dict name -> value); a Quaternion becomes its [w, x, y, z]."""
    given = {k: v for k, v in keywords.items() if v is not None}
    if len(given) > 1 or (given and positional is not None):
        names = sorted(given) + (["the positional argument"] if positional is not None else [])
        raise TypeError(f"{cls_name}: expected one of the arguments "
                        f"{', '.join(sorted(keywords))}, got {', '.join(names)}")
    value = next(iter(given.values())) if given else positional
    return value.wxyz() if isinstance(value, Quaternion) else value


class RotationMatrix:
    """An immutable rotation matrix R_AB, stored as a read-only float64 (3, 3) array.

    Parameters
    ----------
    R : None, RotationMatrix, RollPitchYaw, Quaternion, AngleAxis, array_like (3, 3) or (4,)
        None gives the identity. pydrake's keywords ``other=``, ``rpy=``, ``quaternion=``,
        ``theta_lambda=`` (an AngleAxis) and ``matrix=`` are accepted in its place (one
        argument in all). A (3, 3) matrix must be orthonormal to within
        128 machine epsilons (max |R Rᵀ - I|) and have determinant +1. A (4,) array is a
        quaternion [w, x, y, z]; it is normalized (any non-zero finite norm is accepted,
        as in Drake), and a zero quaternion raises.

    Raises
    ------
    ValueError
        If the matrix is not finite, not orthonormal, or is a reflection (det -1), or the
        quaternion is zero; the message names the failed condition and its value.
    TypeError
        If `R` is none of the accepted types.
    """

    __slots__ = ("_R",)
    #: ``X.cast[float]()``: a copy (Drake's cast<U>(); float64 only).
    cast = ScalarCast()
    # Make numpy defer `ndarray @ RotationMatrix` etc. to this class's reflected operators.
    __array_ufunc__ = None

    def __init__(self, R=None, *, other=None, rpy=None, quaternion=None, matrix=None,
                 theta_lambda=None):
        R = _one_keyword("RotationMatrix", R, {"other": other, "rpy": rpy,
                                               "quaternion": quaternion, "matrix": matrix,
                                               "theta_lambda": theta_lambda})
        if R is None:
            matrix = np.eye(3)
        elif isinstance(R, RotationMatrix):
            matrix = R._R
        elif hasattr(R, "to_rotation_matrix"):  # RollPitchYaw
            matrix = R.to_rotation_matrix()._R
        elif isinstance(R, AngleAxis):
            matrix = RotationMatrix.make_from_angle_axis(R.angle(), R.axis())._R
        else:
            matrix = self._matrix_from_array(R)
        self._R = matrix
        self._R.flags.writeable = False

    @staticmethod
    def _matrix_from_array(R):
        try:
            a = np.array(R, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                "RotationMatrix: expected a (3, 3) matrix, a RollPitchYaw or a quaternion "
                f"[w, x, y, z], got {type(R).__name__}"
            ) from None
        if a.shape == (4,):
            try:
                return quaternion_to_rotation_matrix(a)
            except ValueError as err:
                raise ValueError(f"RotationMatrix: invalid quaternion: {err}") from None
        if a.shape != (3, 3):
            raise ValueError(
                "RotationMatrix: expected a (3, 3) matrix or a quaternion [w, x, y, z] of "
                f"shape (4,), got an array of shape {a.shape}"
            )
        if not np.all(np.isfinite(a)):
            raise ValueError(f"RotationMatrix: matrix must be finite, got {a.tolist()}")
        err = np.max(np.abs(a @ a.T - np.eye(3)))
        if err > _ORTHONORMALITY_TOLERANCE:
            raise ValueError(
                f"RotationMatrix: matrix is not orthonormal: max |R Rᵀ - I| = {err:.3g} "
                f"exceeds the tolerance {_ORTHONORMALITY_TOLERANCE:.3g} "
                "(use RotationMatrix.project_to_rotation_matrix for an approximate matrix)"
            )
        det = np.linalg.det(a)
        if det < 0.0:
            raise ValueError(
                f"RotationMatrix: matrix has determinant {det:.6g}, expected +1 "
                "(it is a reflection, not a rotation)"
            )
        return a

    @classmethod
    def _unchecked(cls, matrix):
        """Wrap a (3, 3) float64 array known to be a rotation, without validation."""
        obj = object.__new__(cls)
        obj._R = matrix
        obj._R.flags.writeable = False
        return obj

    def __reduce__(self):
        return (_rebuild, (self._R.copy(),))

    @classmethod
    def make_unchecked(cls, R):
        """A RotationMatrix holding the (3, 3) matrix `R` without the orthonormality check
        of the constructor (Drake's MakeUnchecked); `is_valid` tells whether it is one.

        Raises
        ------
        ValueError
            If `R` is not of shape (3, 3).
        """
        a = np.array(R, dtype=np.float64)
        if a.shape != (3, 3):
            raise ValueError(f"RotationMatrix.make_unchecked: R must have shape (3, 3), got "
                             f"{a.shape}")
        return cls._unchecked(a)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def identity(cls):
        """Return the identity rotation."""
        return cls._unchecked(np.eye(3))

    @classmethod
    def make_x_rotation(cls, theta):
        """Return the rotation by `theta` (radians) about the x axis."""
        c, s = np.cos(theta), np.sin(theta)
        return cls._unchecked(np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]))

    @classmethod
    def make_y_rotation(cls, theta):
        """Return the rotation by `theta` (radians) about the y axis."""
        c, s = np.cos(theta), np.sin(theta)
        return cls._unchecked(np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]))

    @classmethod
    def make_z_rotation(cls, theta):
        """Return the rotation by `theta` (radians) about the z axis."""
        c, s = np.cos(theta), np.sin(theta)
        return cls._unchecked(np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]))

    @classmethod
    def make_from_angle_axis(cls, angle, axis):
        """Return the rotation by `angle` (radians) about the unit vector `axis`, shape (3,)."""
        axis = np.asarray(axis, dtype=np.float64)
        norm = np.linalg.norm(axis) if axis.shape == (3,) else 0.0
        if axis.shape != (3,) or abs(norm - 1.0) > 1e-10:
            raise ValueError(
                "RotationMatrix.make_from_angle_axis: axis must be a unit vector of shape (3,), "
                f"got {np.asarray(axis).tolist()} (norm {norm:.6g})"
            )
        half = 0.5 * angle
        return cls._unchecked(
            quaternion_to_rotation_matrix(np.r_[np.cos(half), np.sin(half) * axis])
        )

    @classmethod
    def make_from_one_unit_vector(cls, u_A, axis_index):
        """R_AB whose column `axis_index` is the unit vector `u_A` (3,), the other two
        columns completing a right-handed orthonormal basis (Drake's
        MakeFromOneUnitVector, the same basis): with i the index of u_A's entry of
        smallest magnitude and (i, j, k) cyclic, the next column is v = a × u / |a × u|
        (a the i-th unit vector) and the last is w = u × v.

        Raises
        ------
        ValueError
            If `u_A` is not a unit vector of shape (3,) (|1 - |u|| <= 4 eps, as Drake) or
            `axis_index` is not 0, 1 or 2.
        """
        u = np.asarray(u_A, dtype=np.float64)
        fn = "RotationMatrix.make_from_one_unit_vector"
        norm = float(np.linalg.norm(u)) if u.shape == (3,) else math.nan
        if not abs(1.0 - norm) <= 4 * np.finfo(float).eps:
            raise ValueError(f"{fn}: u_A must be a unit vector of shape (3,), got "
                             f"{np.asarray(u_A).tolist()} (norm {norm:.17g})")
        return cls._from_unit_vector(u, axis_index, fn)

    @classmethod
    def make_from_one_vector(cls, b_A, axis_index):
        """`make_from_one_unit_vector` of b_A / |b_A| (Drake's MakeFromOneVector).

        Raises
        ------
        ValueError
            If `b_A` is not of shape (3,), not finite or shorter than 1e-10 (as Drake),
            or `axis_index` is not 0, 1 or 2.
        """
        b = np.asarray(b_A, dtype=np.float64)
        fn = "RotationMatrix.make_from_one_vector"
        norm = float(np.linalg.norm(b)) if b.shape == (3,) else math.nan
        if not (math.isfinite(norm) and norm >= 1e-10):
            raise ValueError(f"{fn}: b_A must be a finite vector of shape (3,) with magnitude "
                             f">= 1e-10, got {np.asarray(b_A).tolist()}")
        return cls._from_unit_vector(b / norm, axis_index, fn)

    @classmethod
    def _from_unit_vector(cls, u, axis_index, fn):
        if axis_index not in (0, 1, 2) or isinstance(axis_index, bool):
            raise ValueError(f"{fn}: axis_index must be 0, 1 or 2, got {axis_index!r}")
        i = int(np.argmin(np.abs(u)))
        j, k = (i + 1) % 3, (i + 2) % 3
        mag = math.sqrt(1.0 - u[i] * u[i])           # |a × u|, in [sqrt(2/3), 1]
        r = 1.0 / mag
        s = -r * u[i]
        R = np.empty((3, 3))
        R[:, axis_index] = u
        v, w = R[:, (axis_index + 1) % 3], R[:, (axis_index + 2) % 3]
        v[i], v[j], v[k] = 0.0, -r * u[k], r * u[j]
        w[i], w[j], w[k] = mag, s * u[j], s * u[k]
        return cls._unchecked(R)

    @classmethod
    def project_to_rotation_matrix(cls, M):
        """Return the rotation nearest to `M` (Frobenius norm), shape (3, 3), via its SVD.

        Raises
        ------
        ValueError
            If `M` is not a finite (3, 3) matrix or its determinant is not positive.
        """
        M = np.asarray(M, dtype=np.float64)
        if M.shape != (3, 3) or not np.all(np.isfinite(M)):
            raise ValueError(
                "RotationMatrix.project_to_rotation_matrix: M must be a finite (3, 3) matrix, "
                f"got shape {M.shape}"
            )
        det = np.linalg.det(M)
        if det <= 0.0:
            raise ValueError(
                f"RotationMatrix.project_to_rotation_matrix: M has determinant {det:.6g}, "
                "expected a positive determinant"
            )
        U, _, Vt = np.linalg.svd(M)
        return cls._unchecked(U @ Vt)

    # ------------------------------------------------------------------ accessors
    def matrix(self):
        """Return a copy of the matrix, ndarray of shape (3, 3)."""
        return self._R.copy()

    def col(self, index):
        """Return column `index` (that unit vector of B expressed in A), shape (3,)."""
        return self._R[:, index].copy()

    def row(self, index):
        """Return row `index` (that unit vector of A expressed in B), shape (3,)."""
        return self._R[index, :].copy()

    def inverse(self):
        """Return R_BA = R_ABᵀ."""
        return RotationMatrix._unchecked(self._R.T.copy())

    transpose = inverse

    def to_quaternion(self):
        """Return the canonical unit quaternion (w >= 0) as a Quaternion (pydrake's
        ToQuaternion). It reads as the array [w, x, y, z] where numpy expects one
        (``q[0]``, ``np.asarray(q)``), as the (4,) array this returned before."""
        return Quaternion._raw(rotation_matrix_to_quaternion(self._R))

    def to_roll_pitch_yaw(self):
        """Return the RollPitchYaw with R = Rz(yaw) Ry(pitch) Rx(roll)."""
        return RollPitchYaw(self)

    def to_angle_axis(self):
        """The AngleAxis of this rotation (pydrake's ToAngleAxis): angle in [0, π] radians,
        axis a unit vector of shape (3,) ([0, 0, 1] for the identity). It is also the pair
        (angle, axis): ``angle, axis = R.to_angle_axis()``."""
        return AngleAxis(*angle_axis_of_quaternion(self.to_quaternion()))

    # ------------------------------------------------------------------ operators
    def __matmul__(self, other):
        """R_AB @ R_BC -> R_AC; R_AB @ v_B -> v_A for v of shape (3,) or (3, n)."""
        if isinstance(other, RotationMatrix):
            return RotationMatrix._unchecked(self._R @ other._R)
        if isinstance(other, (np.ndarray, list, tuple)):
            v = np.asarray(other, dtype=np.float64)
            if v.ndim not in (1, 2) or v.shape[0] != 3:
                raise ValueError(
                    "RotationMatrix @ v: v must have shape (3,) or (3, n), "
                    f"got shape {v.shape}"
                )
            return self._R @ v
        return NotImplemented

    def multiply(self, other):
        """Same as ``self @ other``."""
        result = self.__matmul__(other)
        if result is NotImplemented:
            raise TypeError(
                "RotationMatrix.multiply: expected a RotationMatrix or an array of shape "
                f"(3,) or (3, n), got {type(other).__name__}"
            )
        return result

    def invert_and_compose(self, other):
        """R_AB⁻¹ R_AC = R_BC for ``self`` R_AB and `other` R_AC (Drake's InvertAndCompose).

        Raises
        ------
        TypeError
            If `other` is not a RotationMatrix.
        """
        if not isinstance(other, RotationMatrix):
            raise TypeError("RotationMatrix.invert_and_compose: other must be a RotationMatrix, "
                            f"got {type(other).__name__}")
        return RotationMatrix._unchecked(self._R.T @ other._R)

    # ------------------------------------------------------------------ comparisons
    def is_valid(self):
        """True when the matrix is finite, orthonormal to within 128 machine epsilons
        (max |R Rᵀ - I|) and has determinant > 0 (Drake's IsValid); False only for one
        made by `make_unchecked`."""
        R = self._R
        return bool(np.all(np.isfinite(R))
                    and np.max(np.abs(R @ R.T - np.eye(3))) <= _ORTHONORMALITY_TOLERANCE
                    and np.linalg.det(R) > 0.0)

    def is_nearly_identity(self, tolerance=_ORTHONORMALITY_TOLERANCE):
        """True if max |R - I| <= `tolerance` (default 128 machine epsilons, Drake's
        IsNearlyIdentity)."""
        return self.is_identity_to_within_tolerance(tolerance)

    def is_exactly_identity(self):
        """Return True if the matrix is exactly the identity."""
        return bool(np.array_equal(self._R, np.eye(3)))

    def is_identity_to_within_tolerance(self, tolerance):
        """Return True if max |R - I| <= `tolerance`."""
        return bool(np.max(np.abs(self._R - np.eye(3))) <= tolerance)

    def is_nearly_equal_to(self, other, tolerance):
        """Return True if max |R_self - R_other| <= `tolerance` (elementwise)."""
        if not isinstance(other, RotationMatrix):
            raise TypeError(
                "RotationMatrix.is_nearly_equal_to: other must be a RotationMatrix, "
                f"got {type(other).__name__}"
            )
        return bool(np.max(np.abs(self._R - other._R)) <= tolerance)

    def __repr__(self):
        """pydrake's form: ``RotationMatrix([`` then a row per line."""
        rows = "".join(f"  {row!r},\n" for row in self._R.tolist())
        return f"RotationMatrix([\n{rows}])"

def _vector3(v, fn, arg):
    """`v` as a float (3,) array, or ValueError naming RollPitchYaw.fn and `arg`."""
    a = np.asarray(v, dtype=np.float64)
    if a.shape != (3,):
        raise ValueError(f"RollPitchYaw.{fn}: {arg} must have shape (3,), got {a.shape}")
    return a


def _matrix_from_rpy(roll, pitch, yaw):
    """Return Rz(yaw) Ry(pitch) Rx(roll), ndarray of shape (3, 3)."""
    cr, sr = np.cos(roll), np.sin(roll)
    cp, sp = np.cos(pitch), np.sin(pitch)
    cy, sy = np.cos(yaw), np.sin(yaw)
    return np.array(
        [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]
    )


def _rpy_from_matrix(R):
    """Return [roll, pitch, yaw] of a rotation matrix, robust at gimbal lock.

    Yaw comes from the first column (R10, R00) = cos(pitch) (sin yaw, cos yaw). Roll and
    pitch then come from M = Rz(yaw)ᵀ R = Ry(pitch) Rx(roll), whose entries
    M11 = cos roll, M12 = -sin roll, M00 = cos pitch, M20 = -sin pitch all have unit
    magnitude. Near gimbal lock yaw is ill-conditioned, but roll absorbs its error, so
    the angles still reproduce R to machine precision.
    """
    if R[0, 0] == 0.0 and R[1, 0] == 0.0:
        yaw = 0.0  # exact gimbal lock: choose yaw = 0 (avoids atan2's signed-zero branches)
    else:
        yaw = np.arctan2(R[1, 0], R[0, 0])
    cy, sy = np.cos(yaw), np.sin(yaw)
    # Rows 0, 1 of Rz(yaw)ᵀ R; row 2 is R's row 2.
    m00 = cy * R[0, 0] + sy * R[1, 0]
    m11 = -sy * R[0, 1] + cy * R[1, 1]
    m12 = -sy * R[0, 2] + cy * R[1, 2]
    pitch = np.arctan2(-R[2, 0], m00)
    roll = np.arctan2(-m12, m11)
    return np.array([roll, pitch, yaw])


class RollPitchYaw:
    """Immutable roll-pitch-yaw angles [r, p, y] (radians), R = Rz(y) Ry(p) Rx(r).

    Parameters
    ----------
    roll : float, array_like (3,), array_like (4,), array_like (3, 3), RotationMatrix,
        Quaternion or RollPitchYaw
        The roll angle (with `pitch` and `yaw` given), or the vector [r, p, y], or a
        quaternion [w, x, y, z], or a rotation (matrix) to convert. pydrake's keywords
        ``rpy=``, ``other=``, ``R=``, ``matrix=`` and ``quaternion=`` are accepted in its
        place.
    pitch, yaw : float, optional
        Given only with a scalar `roll`.

    Raises
    ------
    ValueError
        If the angles are not finite or the arguments have the wrong shape.
    """

    __slots__ = ("_rpy",)
    #: ``X.cast[float]()``: a copy (Drake's cast<U>(); float64 only).
    cast = ScalarCast()

    def __init__(self, roll=None, pitch=None, yaw=None, *, rpy=None, other=None, R=None,
                 matrix=None, quaternion=None):
        if pitch is None and yaw is None:
            roll = _one_keyword("RollPitchYaw", roll, {"rpy": rpy, "other": other, "R": R,
                                                       "matrix": matrix,
                                                       "quaternion": quaternion})
        if roll is None:
            raise TypeError("RollPitchYaw: expected roll, pitch, yaw or one of rpy=, other=, "
                            "R=, matrix=, quaternion=, got no argument")
        if pitch is not None or yaw is not None:
            if pitch is None or yaw is None:
                raise ValueError(
                    "RollPitchYaw: give all three angles (roll, pitch, yaw) or one vector, "
                    f"got roll={roll!r}, pitch={pitch!r}, yaw={yaw!r}"
                )
            rpy = np.array([roll, pitch, yaw], dtype=np.float64)
        elif isinstance(roll, RollPitchYaw):
            rpy = roll._rpy
        elif isinstance(roll, RotationMatrix):
            rpy = _rpy_from_matrix(roll._R)
        else:
            a = np.array(roll, dtype=np.float64)
            if a.shape in ((4,), (3, 3)):
                rpy = _rpy_from_matrix(RotationMatrix(a)._R)
            elif a.shape == (3,):
                rpy = a
            else:
                raise ValueError(
                    "RollPitchYaw: expected (roll, pitch, yaw), a vector of shape (3,), a "
                    f"quaternion of shape (4,) or a RotationMatrix, got shape {a.shape}"
                )
        if not np.all(np.isfinite(rpy)):
            raise ValueError(f"RollPitchYaw: angles must be finite, got {rpy.tolist()}")
        self._rpy = rpy
        self._rpy.flags.writeable = False

    def __reduce__(self):
        return (RollPitchYaw, (self._rpy.copy(),))

    def roll_angle(self):
        """Return the roll angle (radians), rotation about the x axis."""
        return float(self._rpy[0])

    def pitch_angle(self):
        """Return the pitch angle (radians), rotation about the y axis."""
        return float(self._rpy[1])

    def yaw_angle(self):
        """Return the yaw angle (radians), rotation about the z axis."""
        return float(self._rpy[2])

    def vector(self):
        """Return [roll, pitch, yaw], ndarray of shape (3,) (a copy)."""
        return self._rpy.copy()

    def to_rotation_matrix(self):
        """Return R = Rz(yaw) Ry(pitch) Rx(roll)."""
        return RotationMatrix._unchecked(_matrix_from_rpy(*self._rpy))

    def to_quaternion(self):
        """Return the canonical unit quaternion (w >= 0) as a Quaternion (reads as the
        array [w, x, y, z]; see `RotationMatrix.to_quaternion`)."""
        return Quaternion._raw(rotation_matrix_to_quaternion(_matrix_from_rpy(*self._rpy)))

    def calc_rotation_matrix_dt(self, rpyDt):
        """Return Ṙ_AD, shape (3, 3), the time derivative of R_AD for angle rates `rpyDt`
        (3,): Ṙ = [w_AD_A]× R_AD (Drake's CalcRotationMatrixDt)."""
        wx, wy, wz = self.calc_angular_velocity_in_parent_from_rpy_dt(rpyDt)
        skew = np.array([[0.0, -wz, wy], [wz, 0.0, -wx], [-wy, wx, 0.0]])
        return skew @ _matrix_from_rpy(*self._rpy)

    def calc_angular_velocity_in_child_from_rpy_dt(self, rpyDt):
        """Return w_AD_D = R_ADᵀ w_AD_A, shape (3,), for angle rates `rpyDt` (3,):
        [ṙ - sin(p) ẏ, cos(r) ṗ + sin(r) cos(p) ẏ, -sin(r) ṗ + cos(r) cos(p) ẏ]."""
        rd, pd, yd = _vector3(rpyDt, "calc_angular_velocity_in_child_from_rpy_dt", "rpyDt")
        r, p, _ = self._rpy
        cr, sr, cp, sp = np.cos(r), np.sin(r), np.cos(p), np.sin(p)
        return np.array([rd - sp * yd, cr * pd + sr * cp * yd, -sr * pd + cr * cp * yd])

    def _check_gimbal(self, fn):
        p = self._rpy[1]
        if abs(np.cos(p)) < 1e-8:
            raise ValueError(f"RollPitchYaw.{fn}: pitch = {p:.17g} is at gimbal lock "
                             f"(cos(pitch) = {np.cos(p):.3g}); angle rates are undefined")

    def calc_rpy_dt_from_angular_velocity_in_child(self, w_AD_D):
        """Return [ṙ, ṗ, ẏ], shape (3,), for the angular velocity `w_AD_D` (3,) expressed
        in the child frame D (the inverse of `calc_angular_velocity_in_child_from_rpy_dt`).

        Raises
        ------
        ValueError
            Near gimbal lock (cos(pitch) ≈ 0).
        """
        fn = "calc_rpy_dt_from_angular_velocity_in_child"
        wx, wy, wz = _vector3(w_AD_D, fn, "w_AD_D")
        self._check_gimbal(fn)
        r, p, _ = self._rpy
        cr, sr, cp, sp = np.cos(r), np.sin(r), np.cos(p), np.sin(p)
        yd = (sr * wy + cr * wz) / cp
        return np.array([wx + sp * yd, cr * wy - sr * wz, yd])

    def calc_rpy_d_dt_from_rpy_dt_and_angular_accel_in_parent(self, rpyDt, alpha_AD_A):
        """Return the second derivatives [r̈, p̈, ÿ], shape (3,), from the angle rates
        `rpyDt` (3,) and the angular acceleration `alpha_AD_A` (3,) expressed in A.

        With w_AD_A = M(r, p, y) ṙpy: alpha = M r̈py + Ṁ ṙpy, so r̈py = M⁻¹ (alpha - Ṁ ṙpy).

        Raises
        ------
        ValueError
            Near gimbal lock (cos(pitch) ≈ 0).
        """
        fn = "calc_rpy_d_dt_from_rpy_dt_and_angular_accel_in_parent"
        rd, pd, yd = _vector3(rpyDt, fn, "rpyDt")
        alpha = _vector3(alpha_AD_A, fn, "alpha_AD_A")
        self._check_gimbal(fn)
        _, p, y = self._rpy
        cp, sp, cy, sy = np.cos(p), np.sin(p), np.cos(y), np.sin(y)
        Mdot_rpyDt = np.array([(-sy * cp * yd - cy * sp * pd) * rd - cy * yd * pd,
                               (cy * cp * yd - sy * sp * pd) * rd - sy * yd * pd,
                               -cp * pd * rd])
        return self.calc_rpy_dt_from_angular_velocity_in_parent(alpha - Mdot_rpyDt)

    def calc_rpy_d_dt_from_angular_accel_in_child(self, rpyDt, alpha_AD_D):
        """Return [r̈, p̈, ÿ], shape (3,), from the angle rates `rpyDt` (3,) and the angular
        acceleration `alpha_AD_D` (3,) expressed in the child frame D.

        With w_AD_D = N(r, p) ṙpy: r̈py = N⁻¹ (alpha_D - Ṅ ṙpy).

        Raises
        ------
        ValueError
            Near gimbal lock (cos(pitch) ≈ 0).
        """
        fn = "calc_rpy_d_dt_from_angular_accel_in_child"
        rd, pd, yd = _vector3(rpyDt, fn, "rpyDt")
        alpha = _vector3(alpha_AD_D, fn, "alpha_AD_D")
        self._check_gimbal(fn)
        r, p, _ = self._rpy
        cr, sr, cp, sp = np.cos(r), np.sin(r), np.cos(p), np.sin(p)
        Ndot_rpyDt = np.array([-cp * pd * yd,
                               -sr * rd * pd + (cr * cp * rd - sr * sp * pd) * yd,
                               -cr * rd * pd + (-sr * cp * rd - cr * sp * pd) * yd])
        return self.calc_rpy_dt_from_angular_velocity_in_child(alpha - Ndot_rpyDt)

    def calc_angular_velocity_in_parent_from_rpy_dt(self, rpyDt):
        """Return w_AD_A, shape (3,), the angular velocity for angle rates `rpyDt` (3,).

        w = ẏ Az + ṗ (Rz(y) Ay) + ṙ (Rz(y) Ry(p) Ax), all expressed in A.
        """
        rd, pd, yd = np.asarray(rpyDt, dtype=np.float64)
        _, p, y = self._rpy
        cp, sp, cy, sy = np.cos(p), np.sin(p), np.cos(y), np.sin(y)
        return np.array([cy * cp * rd - sy * pd, sy * cp * rd + cy * pd, yd - sp * rd])

    def calc_rpy_dt_from_angular_velocity_in_parent(self, w_AD_A):
        """Return [ṙ, ṗ, ẏ], shape (3,), for the angular velocity `w_AD_A` (3,).

        Raises
        ------
        ValueError
            Near gimbal lock (cos(pitch) ≈ 0), where the angle rates are undefined.
        """
        wx, wy, wz = np.asarray(w_AD_A, dtype=np.float64)
        _, p, y = self._rpy
        cp, sp, cy, sy = np.cos(p), np.sin(p), np.cos(y), np.sin(y)
        if abs(cp) < 1e-8:
            raise ValueError(
                "RollPitchYaw.calc_rpy_dt_from_angular_velocity_in_parent: pitch = "
                f"{p:.17g} is at gimbal lock (cos(pitch) = {cp:.3g}); angle rates are undefined"
            )
        rd = (cy * wx + sy * wy) / cp
        pd = -sy * wx + cy * wy
        yd = wz + sp * rd
        return np.array([rd, pd, yd])

    def is_nearly_equal_to(self, other, tolerance):
        """Return True if the angle vectors differ by at most `tolerance` elementwise."""
        return bool(np.max(np.abs(self._rpy - RollPitchYaw(other)._rpy)) <= tolerance)

    def is_nearly_same_orientation(self, other, tolerance):
        """Return True if the two rotation matrices differ by at most `tolerance` elementwise."""
        return self.to_rotation_matrix().is_nearly_equal_to(
            RollPitchYaw(other).to_rotation_matrix(), tolerance
        )

    def __repr__(self):
        r, p, y = self._rpy.tolist()
        return f"RollPitchYaw(roll={r!r}, pitch={p!r}, yaw={y!r})"

