"""SpatialVector: the shared base of SpatialVelocity, SpatialAcceleration, SpatialForce
and SpatialMomentum.

A spatial vector stacks a rotational and a translational 3-vector, [rotational;
translational], both expressed in the same frame E. The concrete classes fix the physical
meaning (and hence the shift rule); this base gives construction, accessors, the linear
operations between vectors of the same kind, and re-expression ``R_AE @ V_E -> V_A``.
"""

import numbers

import numpy as np

from merganser.geometry.rotation_matrix import RotationMatrix

__all__ = ["SpatialVector"]


def _as_vector3(x, caller, arg):
    x = np.asarray(x, dtype=np.float64)
    if x.shape != (3,):
        raise ValueError(f"{caller}: {arg} must have shape (3,), got shape {x.shape}")
    return x


class SpatialVector:
    """Base class: a 6-vector [rotational (3,); translational (3,)].

    Subclasses set ``_ROTATIONAL`` and ``_TRANSLATIONAL`` (the argument names shown in
    error messages and in ``repr``) and define their own ``shift``.

    The coefficient array is never written in place (arrays handed out or shared between
    vectors stay valid); the in-place operators ``+=``, ``-=``, ``*=`` and `set_zero`
    rebind the object to a new array, so, as in Drake, ``V += W`` keeps ``V``'s identity.

    Parameters
    ----------
    rotational : array_like, shape (3,) or (6,), optional
        The rotational part, or the whole [rotational; translational] vector when
        `translational` is omitted. Omitting both gives a vector of NaN, as Drake's
        default constructor does (use `zero` for the zero vector).
    translational : array_like, shape (3,), optional
        The translational part.
    """

    __slots__ = ("_V",)
    # Make numpy defer `ndarray @ V`, `np.float64 * V` to this class's reflected operators.
    __array_ufunc__ = None
    _ROTATIONAL = "rotational"
    _TRANSLATIONAL = "translational"

    def __init__(self, rotational=None, translational=None):
        name = type(self).__name__
        if rotational is None and translational is None:
            V = np.full(6, np.nan)
        elif translational is None:
            V = np.array(rotational, dtype=np.float64)
            if V.shape != (6,):
                raise ValueError(
                    f"{name}: expected ({self._ROTATIONAL}, {self._TRANSLATIONAL}) of shape (3,) "
                    f"each or one vector of shape (6,), got shape {V.shape}"
                )
        else:
            V = np.empty(6)
            V[:3] = _as_vector3(rotational, name, self._ROTATIONAL)
            V[3:] = _as_vector3(translational, name, self._TRANSLATIONAL)
        self._V = V
        self._V.flags.writeable = False

    @classmethod
    def _unchecked(cls, V):
        """Wrap a float64 (6,) array without validation (it is made read-only)."""
        obj = object.__new__(cls)
        obj._V = V
        obj._V.flags.writeable = False
        return obj

    @classmethod
    def zero(cls):
        """Return the zero spatial vector."""
        return cls._unchecked(np.zeros(6))

    def _init_parts(self, rotational, translational, coeffs, coeffs_name):
        """Shared constructor body of the subclasses: (rotational, translational) or the
        whole 6-vector under its pydrake keyword (``V=``, ``A=``, ``F=``, ``L=``)."""
        if coeffs is not None:
            if rotational is not None or translational is not None:
                raise TypeError(
                    f"{type(self).__name__}: pass either ({self._ROTATIONAL}, {self._TRANSLATIONAL}) "
                    f"or {coeffs_name}, not both"
                )
            rotational = coeffs
        SpatialVector.__init__(self, rotational, translational)

    def set_zero(self):
        """Set all six coefficients to zero (Drake's SetZero); returns self."""
        self._V = np.zeros(6)
        self._V.flags.writeable = False
        return self

    def rotate(self, R_FE):
        """Return the vector re-expressed in frame F: R_FE (RotationMatrix) times both
        parts (Drake's Rotate; the same as ``R_FE @ V_E``)."""
        return self.__rmatmul__(R_FE)

    def __reduce__(self):
        return (type(self), (self._V.copy(),))

    # ------------------------------------------------------------------ accessors
    def rotational(self):
        """Return the rotational part, ndarray of shape (3,) (a copy)."""
        return self._V[:3].copy()

    def translational(self):
        """Return the translational part, ndarray of shape (3,) (a copy)."""
        return self._V[3:].copy()

    def get_coeffs(self):
        """Return [rotational; translational], ndarray of shape (6,) (a copy)."""
        return self._V.copy()

    # ------------------------------------------------------------------ linear algebra
    def _check_same_kind(self, other, op):
        if type(other) is not type(self):
            raise TypeError(
                f"{type(self).__name__} {op} {type(other).__name__}: both operands must be "
                f"{type(self).__name__}"
            )

    def __add__(self, other):
        self._check_same_kind(other, "+")
        return self._unchecked(self._V + other._V)

    def __sub__(self, other):
        self._check_same_kind(other, "-")
        return self._unchecked(self._V - other._V)

    def _rebind(self, V):
        V.flags.writeable = False
        self._V = V
        return self

    def __iadd__(self, other):
        self._check_same_kind(other, "+=")
        return self._rebind(self._V + other._V)

    def __isub__(self, other):
        self._check_same_kind(other, "-=")
        return self._rebind(self._V - other._V)

    def __imul__(self, scalar):
        if isinstance(scalar, numbers.Real):
            return self._rebind(float(scalar) * self._V)
        return NotImplemented

    def __neg__(self):
        return self._unchecked(-self._V)

    def __mul__(self, scalar):
        if isinstance(scalar, numbers.Real):
            return self._unchecked(float(scalar) * self._V)
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, scalar):
        if isinstance(scalar, numbers.Real):
            return self._unchecked(self._V / float(scalar))
        return NotImplemented

    def __rmatmul__(self, R_AE):
        """R_AE @ V_E -> V_A: re-express both parts in frame A."""
        if not isinstance(R_AE, RotationMatrix):
            raise TypeError(
                f"re-expressing a {type(self).__name__}: expected RotationMatrix @ "
                f"{type(self).__name__}, got {type(R_AE).__name__} on the left"
            )
        R = R_AE.matrix()
        return self._unchecked(np.concatenate([R @ self._V[:3], R @ self._V[3:]]))

    # ------------------------------------------------------------------ comparisons
    def is_approx(self, other, tolerance):
        """Return True if both are of the same kind and differ by <= `tolerance` elementwise."""
        self._check_same_kind(other, "is_approx")
        return bool(np.max(np.abs(self._V - other._V)) <= tolerance)

    def __repr__(self):
        # Drake's form, which eval() turns back into an equal vector.
        return (
            f"{type(self).__name__}(\n"
            f"  {self._ROTATIONAL}={self._V[:3].tolist()!r},\n"
            f"  {self._TRANSLATIONAL}={self._V[3:].tolist()!r},\n)"
        )

    def _dot(self, other, kinds, caller):
        """The power-like product of two spatial vectors of dual kinds (a float)."""
        if not isinstance(other, kinds):
            raise TypeError(
                f"{caller}: expected a {' or '.join(k.__name__ for k in kinds)}, "
                f"got {type(other).__name__}"
            )
        return float(self._V @ other._V)
