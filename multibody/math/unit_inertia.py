"""UnitInertia G_BP_E: a rotational inertia per unit mass (m²), G = I / m, with named
constructors for uniform-density solids.

The closed forms (per unit mass, about the solid's center, which is its center of mass):
box lx×ly×lz: diag(ly²+lz², lx²+lz², lx²+ly²)/12; sphere of radius r: 2r²/5 · 1;
ellipsoid with semi-axes a, b, c: diag(b²+c², a²+c², a²+b²)/5; cylinder of radius r and
length L about axis b: r²/2 about b and (3r² + L²)/12 about any perpendicular axis.
"""

import numpy as np

from .rotational_inertia import RotationalInertia, _check_vector3, point_mass_inertia_matrix

__all__ = ["UnitInertia", "UnitInertiaMassError"]

_UNIT_VECTOR_TOLERANCE = 1e-10


def _check_dimensions(caller, **dims):
    for name, value in dims.items():
        if not (np.isfinite(value) and value >= 0.0):
            raise ValueError(f"{caller}: {name} must be finite and non-negative, got {value!r}")


def _check_unit_vector(caller, unit_vector):
    b = np.asarray(unit_vector, dtype=np.float64)
    norm = np.linalg.norm(b) if b.shape == (3,) else np.nan
    if not abs(norm - 1.0) <= _UNIT_VECTOR_TOLERANCE:
        raise ValueError(
            f"{caller}: unit_vector must be a unit vector of shape (3,), got "
            f"{np.asarray(unit_vector).tolist()} (norm {norm:.6g})"
        )
    return b


class UnitInertiaMassError(RuntimeError, ValueError):
    """A unit inertia asked of a mass that is not strictly positive."""


class UnitInertia(RotationalInertia):
    """Immutable unit inertia (rotational inertia per unit mass), symmetric (3, 3), m².

    Construct it like a RotationalInertia (moments and products, or a (3, 3) matrix) or
    with a named constructor. Shifts use no mass; ``m * G`` is a RotationalInertia.
    """

    __slots__ = ()

    def __init__(self, Ixx=None, Iyy=None, Izz=None, Ixy=0.0, Ixz=0.0, Iyz=0.0, *, I=None):
        if I is not None:
            if not isinstance(I, RotationalInertia) or Ixx is not None:
                raise TypeError(f"UnitInertia: I must be a RotationalInertia (taken as a unit "
                                f"inertia, as Drake's UnitInertia(I)), given alone; got "
                                f"{type(I).__name__}")
            Ixx = I.copy_to_full_matrix3()
        super().__init__(Ixx, Iyy, Izz, Ixy, Ixz, Iyz)

    @classmethod
    def from_rotational_inertia(cls, I, mass):
        """Return G = I / mass for a RotationalInertia `I` and a positive `mass`."""
        if not isinstance(I, RotationalInertia):
            raise TypeError(
                "UnitInertia.from_rotational_inertia: I must be a RotationalInertia, "
                f"got {type(I).__name__}"
            )
        if not (np.isfinite(mass) and mass > 0.0):
            raise ValueError(
                f"UnitInertia.from_rotational_inertia: mass must be positive, got {mass!r}"
            )
        return cls._unchecked(I.copy_to_full_matrix3() / float(mass))

    def set_from_rotational_inertia(self, I, mass):
        """Set this unit inertia to I / mass in place and return it (Drake's
        SetFromRotationalInertia; `from_rotational_inertia` makes a new one).

        Raises
        ------
        ValueError
            A `UnitInertiaMassError` (also a RuntimeError, as Drake's) if `mass` is not
            strictly positive and finite; TypeError if `I` is not a RotationalInertia.
        """
        if not isinstance(I, RotationalInertia):
            raise TypeError(f"UnitInertia.set_from_rotational_inertia: I must be a "
                            f"RotationalInertia, got {type(I).__name__}")
        if not (np.isfinite(mass) and mass > 0.0):
            raise UnitInertiaMassError(f"UnitInertia.set_from_rotational_inertia: mass must "
                                       f"be strictly positive, got {mass!r}")
        G = I.copy_to_full_matrix3() / float(mass)
        G.flags.writeable = False
        self._I = G
        return self

    # ------------------------------------------------------------------ named solids
    @classmethod
    def point_mass(cls, p_FQ):
        """Return G_QF of a unit mass at Q about F: |p|² 1 - p pᵀ (p = p_FQ, Drake's
        keyword)."""
        p = _check_vector3(p_FQ, "UnitInertia.point_mass", "p_FQ")
        return cls._unchecked(point_mass_inertia_matrix(p))

    @classmethod
    def axially_symmetric(cls, moment_parallel, moment_perpendicular, unit_vector):
        """Return J b bᵀ + K (1 - b bᵀ): moment J about the unit axis b, K across it."""
        caller = "UnitInertia.axially_symmetric"
        _check_dimensions(caller, moment_parallel=moment_parallel,
                          moment_perpendicular=moment_perpendicular)
        b = _check_unit_vector(caller, unit_vector)
        bbT = np.outer(b, b)
        G = moment_parallel * bbT + moment_perpendicular * (np.eye(3) - bbT)
        return cls._unchecked(0.5 * (G + G.T))

    @classmethod
    def solid_box(cls, Lx, Ly, Lz):
        """Return G_BBcm of a solid box with side lengths Lx, Ly, Lz along x, y, z (m)."""
        _check_dimensions("UnitInertia.solid_box", Lx=Lx, Ly=Ly, Lz=Lz)
        x2, y2, z2 = Lx * Lx, Ly * Ly, Lz * Lz
        return cls._unchecked(np.diag([y2 + z2, x2 + z2, x2 + y2]) / 12.0)

    @classmethod
    def solid_cube(cls, L):
        """Return G_BBcm of a solid cube with side `L` (m): L²/6 · 1."""
        _check_dimensions("UnitInertia.solid_cube", L=L)
        return cls._unchecked(np.eye(3) * (L * L / 6.0))

    @classmethod
    def solid_sphere(cls, r):
        """Return G_BBcm of a solid sphere of radius `r`: 2 r²/5 · 1."""
        _check_dimensions("UnitInertia.solid_sphere", r=r)
        return cls._unchecked(np.eye(3) * (0.4 * r * r))

    @classmethod
    def hollow_sphere(cls, r):
        """Return G_BBcm of a thin spherical shell of radius `r`: 2 r²/3 · 1."""
        _check_dimensions("UnitInertia.hollow_sphere", r=r)
        return cls._unchecked(np.eye(3) * (2.0 * r * r / 3.0))

    @classmethod
    def solid_ellipsoid(cls, a, b, c):
        """Return G_BBcm of a solid ellipsoid with semi-axes a, b, c along x, y, z (m)."""
        _check_dimensions("UnitInertia.solid_ellipsoid", a=a, b=b, c=c)
        a2, b2, c2 = a * a, b * b, c * c
        return cls._unchecked(np.diag([b2 + c2, a2 + c2, a2 + b2]) / 5.0)

    @classmethod
    def solid_cylinder(cls, radius, length, unit_vector):
        """Return G_BBcm of a solid cylinder whose axis is the unit vector `unit_vector` (3,).

        r²/2 about the axis and (3 r² + L²)/12 about any perpendicular axis through Bcm.
        """
        caller = "UnitInertia.solid_cylinder"
        _check_dimensions(caller, radius=radius, length=length)
        r2, L2 = radius * radius, length * length
        return cls.axially_symmetric(
            0.5 * r2, (3.0 * r2 + L2) / 12.0, _check_unit_vector(caller, unit_vector)
        )

    @classmethod
    def solid_cylinder_about_end(cls, radius, length, unit_vector):
        """Return G_BBp of a solid cylinder about the center Bp of one of its end faces
        (axis along the unit vector `unit_vector` (3,)): r²/2 about the axis and
        (3 r² + 4 L²)/12 across it."""
        caller = "UnitInertia.solid_cylinder_about_end"
        _check_dimensions(caller, radius=radius, length=length)
        r2, L2 = radius * radius, length * length
        return cls.axially_symmetric(
            0.5 * r2, (3.0 * r2 + 4.0 * L2) / 12.0, _check_unit_vector(caller, unit_vector)
        )

    @classmethod
    def straight_line(cls, moment_perpendicular, unit_vector):
        """Return the unit inertia of a body whose mass lies on a straight line through the
        about-point along `unit_vector` (3,): 0 about the line, `moment_perpendicular`
        (m², > 0) about any axis perpendicular to it."""
        caller = "UnitInertia.straight_line"
        _check_dimensions(caller, moment_perpendicular=moment_perpendicular)
        return cls.axially_symmetric(0.0, moment_perpendicular,
                                     _check_unit_vector(caller, unit_vector))

    @classmethod
    def thin_rod(cls, length, unit_vector):
        """Return G_BBcm of a thin rod along `unit_vector` (3,): 0 about it, L²/12 across."""
        caller = "UnitInertia.thin_rod"
        _check_dimensions(caller, length=length)
        return cls.axially_symmetric(
            0.0, length * length / 12.0, _check_unit_vector(caller, unit_vector)
        )

    @classmethod
    def solid_capsule(cls, radius, length, unit_vector):
        """Return G_BBcm of a uniform solid capsule: a cylinder of `radius` and `length`
        capped by two hemispheres, with its axis along `unit_vector` (3,).

        With mass fractions mc (cylinder) and mh (both hemispheres) by volume, the moment
        about the axis is mc r²/2 + mh 2r²/5 and about a perpendicular axis through the
        center mc (3r² + L²)/12 + mh (2r²/5 + L²/4 + 3 L r/8).
        """
        caller = "UnitInertia.solid_capsule"
        _check_dimensions(caller, radius=radius, length=length)
        b = _check_unit_vector(caller, unit_vector)
        r, L = float(radius), float(length)
        v_cylinder = np.pi * r * r * L
        v_spheres = 4.0 / 3.0 * np.pi * r**3
        if v_cylinder + v_spheres == 0.0:
            return cls._unchecked(np.zeros((3, 3)))
        mc = v_cylinder / (v_cylinder + v_spheres)
        mh = 1.0 - mc
        J = mc * 0.5 * r * r + mh * 0.4 * r * r
        K = mc * (3.0 * r * r + L * L) / 12.0 + mh * (0.4 * r * r + 0.25 * L * L + 0.375 * L * r)
        return cls.axially_symmetric(J, K, b)

    # ------------------------------------------------------------------ shifts (no mass)
    def shift_from_center_of_mass(self, p_BcmQ_E):
        """Return G_BQ_E from G_BBcm_E (self): G + |p|² 1 - p pᵀ.

        Parameters
        ----------
        p_BcmQ_E : array_like, shape (3,)
            Position of Q from Bcm, expressed in E.
        """
        p = _check_vector3(p_BcmQ_E, "UnitInertia.shift_from_center_of_mass", "p_BcmQ_E")
        return UnitInertia._unchecked(self._I + point_mass_inertia_matrix(p))

    def shift_to_center_of_mass(self, p_QBcm_E):
        """Return G_BBcm_E from G_BQ_E (self): G - (|p|² 1 - p pᵀ).

        Parameters
        ----------
        p_QBcm_E : array_like, shape (3,)
            Position of Bcm from Q, expressed in E.
        """
        p = _check_vector3(p_QBcm_E, "UnitInertia.shift_to_center_of_mass", "p_QBcm_E")
        return UnitInertia._unchecked(self._I - point_mass_inertia_matrix(p))
