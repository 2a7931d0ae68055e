"""RotationalInertia I_BP_E: the rotational inertia of a body (or set of particles) B about
a point P, expressed in frame E, a symmetric 3x3 matrix

    [[Ixx, Ixy, Ixz],
     [Ixy, Iyy, Iyz],
     [Ixz, Iyz, Izz]]

with products of inertia as they appear in the matrix (Ixy = -∫ x y dm), as in Drake.
"""

import numbers

import numpy as np

from merganser.framework.keyword_check import lists_valid_keywords
from merganser.geometry.rotation_matrix import RotationMatrix

__all__ = ["RotationalInertia", "point_mass_inertia_matrix"]

# Relative tolerance for the symmetry of a user-supplied matrix.
_SYMMETRY_TOLERANCE = 1e-10
# Relative tolerance (times the largest possible moment) for "non-negative" and the
# triangle inequality, as for Drake's physical-validity checks.
_VALIDITY_TOLERANCE = 16 * np.finfo(np.float64).eps


def point_mass_inertia_matrix(p):
    """Return |p|² 1 - p pᵀ, shape (3, 3): the inertia about Q of a unit mass at p_QP."""
    p = np.asarray(p, dtype=np.float64)
    return (p @ p) * np.eye(3) - np.outer(p, p)


def _check_vector3(x, caller, arg):
    x = np.asarray(x, dtype=np.float64)
    if x.shape != (3,) or not np.all(np.isfinite(x)):
        raise ValueError(f"{caller}: {arg} must be a finite vector of shape (3,), got {x.tolist()}")
    return x


class RotationalInertia:
    """Immutable rotational inertia, a symmetric (3, 3) float64 matrix (kg m²).

    Parameters
    ----------
    Ixx : float or array_like (3, 3)
        The xx moment, or the whole symmetric matrix when no other argument is given.
        With no argument at all the inertia is NaN, as Drake's default constructor.
    Iyy, Izz : float
        The other two moments.
    Ixy, Ixz, Iyz : float, optional
        Products of inertia (matrix entries), zero by default.
    mass, p_PQ_E : float and array_like (3,), keyword
        Drake's point-mass constructor: a particle of `mass` at Q, about P, expressed in
        E (also accepted positionally, ``RotationalInertia(mass, p_PQ_E)``).

    Raises
    ------
    ValueError
        If a value is not finite or the matrix is not symmetric (relative tolerance 1e-10).

    Notes
    -----
    Construction checks only finiteness and symmetry; a rotational inertia may legitimately
    be a difference of inertias. Use `could_be_physically_valid` to check physics.
    """

    __slots__ = ("_I",)
    __array_ufunc__ = None

    @lists_valid_keywords
    def __init__(self, Ixx=None, Iyy=None, Izz=None, Ixy=0.0, Ixz=0.0, Iyz=0.0, *, mass=None,
                 p_PQ_E=None):
        name = type(self).__name__
        if mass is not None or p_PQ_E is not None:
            if mass is None or p_PQ_E is None or Ixx is not None or Iyy is not None:
                raise TypeError(f"{name}: give mass= and p_PQ_E= together (a point mass), "
                                f"without moments")
            self._I = RotationalInertia.point_mass(mass, p_PQ_E)._I
            return
        if Ixx is None and Iyy is None and Izz is None:
            self._I = np.full((3, 3), np.nan)       # Drake's default: NaN until set
            self._I.flags.writeable = False
            return
        if Iyy is not None and Izz is None and np.ndim(Iyy) == 1:
            # Drake's (mass, p_PQ_E) positional overload
            self._I = RotationalInertia.point_mass(Ixx, Iyy)._I
            return
        if Iyy is None and Izz is None:
            I = np.array(Ixx, dtype=np.float64)
            if I.shape != (3, 3):
                raise ValueError(
                    f"{name}: expected a (3, 3) matrix or moments (Ixx, Iyy, Izz[, Ixy, Ixz, "
                    f"Iyz]), got an array of shape {I.shape}"
                )
        elif Iyy is None or Izz is None:
            raise ValueError(f"{name}: give all three moments Ixx, Iyy, Izz")
        else:
            I = np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]], dtype=np.float64)
        if not np.all(np.isfinite(I)):
            raise ValueError(f"{name}: entries must be finite, got {I.tolist()}")
        asymmetry = np.max(np.abs(I - I.T))
        if asymmetry > _SYMMETRY_TOLERANCE * max(1.0, np.max(np.abs(I))):
            raise ValueError(
                f"{name}: matrix must be symmetric, got max |I - Iᵀ| = {asymmetry:.3g} "
                f"for {I.tolist()}"
            )
        self._I = 0.5 * (I + I.T)
        self._I.flags.writeable = False

    @classmethod
    def _unchecked(cls, I):
        """Wrap a symmetric float64 (3, 3) array without validation."""
        obj = object.__new__(cls)
        obj._I = I
        obj._I.flags.writeable = False
        return obj

    def __reduce__(self):
        return (type(self), (self._I.copy(),))

    @classmethod
    def triaxially_symmetric(cls, I_triaxial):
        """Return I_triaxial · 1 (same moment about every axis, no products)."""
        if not (np.isfinite(I_triaxial) and I_triaxial >= 0.0):
            raise ValueError(f"{cls.__name__}.triaxially_symmetric: I_triaxial must be finite "
                             f"and non-negative, got {I_triaxial!r}")
        return cls._unchecked(float(I_triaxial) * np.eye(3))

    @classmethod
    def point_mass(cls, mass, p_PQ_E):
        """Return I_QP_E for a particle of `mass` at Q, about P: mass (|p|² 1 - p pᵀ)."""
        p = _check_vector3(p_PQ_E, "RotationalInertia.point_mass", "p_PQ_E")
        return RotationalInertia._unchecked(float(mass) * point_mass_inertia_matrix(p))

    # ------------------------------------------------------------------ accessors
    def get_moments(self):
        """Return the moments [Ixx, Iyy, Izz], ndarray of shape (3,)."""
        return np.diag(self._I).copy()

    def get_products(self):
        """Return the products [Ixy, Ixz, Iyz] (matrix entries), ndarray of shape (3,)."""
        I = self._I
        return np.array([I[0, 1], I[0, 2], I[1, 2]])

    def get_trace(self):
        """Return Ixx + Iyy + Izz."""
        return float(np.trace(self._I))

    trace = get_trace

    @staticmethod
    def rows():
        """3 (the matrix's rows, as Drake's)."""
        return 3

    @staticmethod
    def cols():
        """3 (the matrix's columns, as Drake's)."""
        return 3

    def __getitem__(self, index):
        """The entry ``I[i, j]`` (two integer indices only, as Drake's)."""
        if not (isinstance(index, tuple) and len(index) == 2
                and all(isinstance(i, numbers.Integral) for i in index)):
            raise TypeError(f"{type(self).__name__}[...]: incompatible function arguments: "
                            f"expected two integer indices (i, j), got {index!r}")
        return float(self._I[index])

    def calc_maximum_possible_moment_of_inertia(self):
        """An upper bound on the moment about any axis through the point, in any frame:
        |trace| / 2 (a valid inertia's largest moment Imax has trace/3 <= Imax <= trace/2),
        as Drake's."""
        return 0.5 * abs(self.get_trace())

    def set_to_nan(self):
        """Make every entry NaN (Drake's SetToNaN)."""
        self._I = np.full((3, 3), np.nan)
        self._I.flags.writeable = False

    def set_zero(self):
        """Make every entry zero (Drake's SetZero)."""
        self._I = np.zeros((3, 3))
        self._I.flags.writeable = False

    @classmethod
    def nan(cls):
        """Drake's ``NaN()`` in snake_case: the same as `NaN`."""
        return cls.NaN()

    @classmethod
    def NaN(cls):  # noqa: N802 (Drake's name)
        """Return an inertia whose entries are all NaN (Drake's "not set")."""
        return cls._unchecked(np.full((3, 3), np.nan))

    def is_nan(self):
        """True if any entry is NaN."""
        return bool(np.isnan(self._I).any())

    def is_zero(self):
        """True if every entry is exactly zero."""
        return not bool(self._I.any())

    def copy_to_full_matrix3(self):
        """Return the symmetric matrix, ndarray of shape (3, 3) (a copy)."""
        return self._I.copy()

    def calc_principal_moments(self):
        """Return the principal moments (eigenvalues) in ascending order, shape (3,)."""
        return np.linalg.eigvalsh(self._I)

    def calc_principal_moments_and_axes(self):
        """Return (moments (3,) ascending, R_EA): column i of R_EA is the axis of moment i."""
        moments, axes = np.linalg.eigh(self._I)
        if np.linalg.det(axes) < 0.0:
            axes[:, 2] = -axes[:, 2]
        return moments, RotationMatrix.project_to_rotation_matrix(axes)

    #: Drake's names.
    calc_principal_moments_of_inertia = calc_principal_moments
    calc_principal_moments_and_axes_of_inertia = calc_principal_moments_and_axes

    # ------------------------------------------------------------------ physical validity
    def _tolerance(self):
        return _VALIDITY_TOLERANCE * max(np.max(np.abs(self._I)), np.finfo(np.float64).tiny)

    def triangle_inequality_holds(self):
        """Return True if the principal moments satisfy the triangle inequality.

        Each principal moment must be at most the sum of the other two (to a relative
        tolerance). This implies the same inequality for the moments Ixx, Iyy, Izz in any
        frame; it fails for no real mass distribution about its center of mass.
        """
        a, b, c = self.calc_principal_moments()  # ascending: c is the largest
        return bool(c <= a + b + self._tolerance())

    def could_be_physically_valid(self):
        """Return True if finite, positive semidefinite and satisfying the triangle inequality."""
        moments = self.calc_principal_moments()
        return bool(moments[0] >= -self._tolerance() and self.triangle_inequality_holds())

    # ------------------------------------------------------------------ transformations
    def re_express(self, R_AE):
        """Return I_BP_A = R_AE I_BP_E R_AEᵀ (same type as self)."""
        if not isinstance(R_AE, RotationMatrix):
            raise TypeError(
                f"{type(self).__name__}.re_express: R_AE must be a RotationMatrix, "
                f"got {type(R_AE).__name__}"
            )
        R = R_AE.matrix()
        I = R @ self._I @ R.T
        return self._unchecked(0.5 * (I + I.T))

    re_express_in = re_express

    def shift_from_center_of_mass(self, mass, p_BcmQ_E):
        """Return I_BQ_E from I_BBcm_E (self) by the parallel-axis theorem.

        Parameters
        ----------
        mass : float
            Mass of B (kg).
        p_BcmQ_E : array_like, shape (3,)
            Position of Q from B's center of mass Bcm, expressed in E.
        """
        p = _check_vector3(p_BcmQ_E, "RotationalInertia.shift_from_center_of_mass", "p_BcmQ_E")
        return RotationalInertia._unchecked(self._I + float(mass) * point_mass_inertia_matrix(p))

    def shift_to_center_of_mass(self, mass, p_QBcm_E):
        """Return I_BBcm_E from I_BQ_E (self) by the parallel-axis theorem.

        Parameters
        ----------
        mass : float
            Mass of B (kg).
        p_QBcm_E : array_like, shape (3,)
            Position of Bcm from Q, expressed in E.
        """
        p = _check_vector3(p_QBcm_E, "RotationalInertia.shift_to_center_of_mass", "p_QBcm_E")
        return RotationalInertia._unchecked(self._I - float(mass) * point_mass_inertia_matrix(p))

    def shift_to_then_away_from_center_of_mass(self, mass, p_PBcm_E, p_QBcm_E):
        """Return I_BQ_E from I_BP_E (self): shift to the center of mass Bcm, then away to Q.

        Parameters
        ----------
        mass : float
            Mass of B (kg).
        p_PBcm_E, p_QBcm_E : array_like, shape (3,)
            Positions of Bcm from P and from Q, expressed in E.
        """
        fn = "RotationalInertia.shift_to_then_away_from_center_of_mass"
        p = _check_vector3(p_PBcm_E, fn, "p_PBcm_E")
        q = _check_vector3(p_QBcm_E, fn, "p_QBcm_E")
        m = float(mass)
        return RotationalInertia._unchecked(
            self._I - m * point_mass_inertia_matrix(p) + m * point_mass_inertia_matrix(q))

    # ------------------------------------------------------------------ arithmetic
    def __add__(self, other):
        """Sum of two inertias about the same point, expressed in the same frame."""
        if not isinstance(other, RotationalInertia):
            return NotImplemented
        cls = type(self) if type(self) is type(other) else RotationalInertia
        return cls._unchecked(self._I + other._I)

    def __sub__(self, other):
        if not isinstance(other, RotationalInertia):
            return NotImplemented
        cls = type(self) if type(self) is type(other) else RotationalInertia
        return cls._unchecked(self._I - other._I)

    def __mul__(self, scalar):
        """Scale by a real number (the result is a RotationalInertia, m G = I), or apply to
        a vector w of shape (3,): I w, an ndarray (3,)."""
        if isinstance(scalar, numbers.Real):
            return RotationalInertia._unchecked(float(scalar) * self._I)
        w = np.asarray(scalar, dtype=np.float64) if isinstance(scalar, (list, tuple, np.ndarray)) \
            else None
        if w is not None and w.shape == (3,):
            return self._I @ w
        return NotImplemented

    def __rmul__(self, scalar):
        if isinstance(scalar, numbers.Real):
            return RotationalInertia._unchecked(float(scalar) * self._I)
        return NotImplemented

    def __truediv__(self, scalar):
        if isinstance(scalar, numbers.Real):
            return RotationalInertia._unchecked(self._I / float(scalar))
        return NotImplemented

    def is_nearly_equal_to(self, other, precision):
        """Return True if max |I - I_other| <= precision * (largest |entry| of either)."""
        if not isinstance(other, RotationalInertia):
            raise TypeError(
                f"{type(self).__name__}.is_nearly_equal_to: other must be a RotationalInertia, "
                f"got {type(other).__name__}"
            )
        scale = max(np.max(np.abs(self._I)), np.max(np.abs(other._I)))
        return bool(np.max(np.abs(self._I - other._I)) <= precision * scale)

    def __repr__(self):
        I = self._I
        return (
            f"{type(self).__name__}(Ixx={I[0, 0]!r}, Iyy={I[1, 1]!r}, Izz={I[2, 2]!r}, "
            f"Ixy={I[0, 1]!r}, Ixz={I[0, 2]!r}, Iyz={I[1, 2]!r})"
        )
