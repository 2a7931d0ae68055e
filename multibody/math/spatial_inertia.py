"""SpatialInertia M_SP_E: the mass distribution of a body (or composite) S about a point P,
expressed in frame E, stored as Drake does: mass m, center of mass p_PScm_E and unit
inertia G_SP_E (so the rotational inertia about P is I_SP_E = m G_SP_E).

As a 6x6 matrix acting on spatial velocities [w; v] it is

    M = [[ I_SP    m [c]× ],
         [ -m [c]×  m 1   ]],     c = p_PScm_E,

so that L_SP = M V_SP gives the spatial momentum [angular about P; linear].
"""

import numpy as np

from merganser.framework.keyword_check import lists_valid_keywords
from merganser.geometry.rotation_matrix import RotationMatrix

from .rotational_inertia import RotationalInertia, point_mass_inertia_matrix
from .spatial_acceleration import SpatialAcceleration
from .spatial_force import SpatialForce
from .spatial_momentum import SpatialMomentum
from .spatial_velocity import SpatialVelocity
from .unit_inertia import UnitInertia
from .validity import find_inertia_violations, warn_inertia_validity

__all__ = ["SpatialInertia"]


def _skew(c):
    """Return [c]×, shape (3, 3), with [c]× v = c × v."""
    return np.array([[0.0, -c[2], c[1]], [c[2], 0.0, -c[0]], [-c[1], c[0], 0.0]])


def _check_mass(caller, mass):
    if not (np.isfinite(mass) and mass > 0.0):
        raise ValueError(f"{caller}: mass must be positive and finite, got {mass!r}")
    return float(mass)


def _density_mass(fn, density, volume):
    """density * volume, checking that the density is positive and finite."""
    if not (np.isfinite(density) and density > 0.0):
        raise ValueError(f"SpatialInertia.{fn}: density must be positive and finite, got "
                         f"{density!r}")
    return float(density) * float(volume)


class SpatialInertia:
    """Immutable spatial inertia M_SP_E of a body S about point P, expressed in E.

    Parameters
    ----------
    mass : float
        Mass of S (kg), non-negative.
    p_PScm_E : array_like, shape (3,)
        Position of S's center of mass Scm from P, expressed in E (m).
    G_SP_E : UnitInertia or array_like (3, 3)
        Unit inertia of S about P (not about Scm), expressed in E (m²).
    skip_validity_check : bool
        If True, skip the physical-validity checks (see `multibody.math.validity`).

    Raises
    ------
    ValueError
        If a value is not finite, the mass is negative, or the central rotational inertia
        is not positive semidefinite; the message names the condition and the values.
    TypeError
        If `G_SP_E` is a RotationalInertia that is not a UnitInertia (a common mix-up of
        I and G = I / m).

    Warns
    -----
    InertiaValidityWarning
        If the central inertia violates the triangle inequality (accepted nonetheless).
    """

    __slots__ = ("_mass", "_p", "_G")
    __array_ufunc__ = None

    @lists_valid_keywords
    def __init__(self, mass, p_PScm_E, G_SP_E, skip_validity_check=False):
        if isinstance(G_SP_E, UnitInertia):
            G = G_SP_E
        elif isinstance(G_SP_E, RotationalInertia):
            raise TypeError(
                "SpatialInertia: G_SP_E must be a UnitInertia (rotational inertia per unit "
                "mass, about P) or a (3, 3) array, got a RotationalInertia; use "
                "SpatialInertia.make_from_central_inertia(mass, p_PScm_E, I_SScm_E) or "
                "UnitInertia.from_rotational_inertia(I, mass)"
            )
        else:
            try:
                G = UnitInertia(G_SP_E)
            except ValueError as err:
                raise ValueError(f"SpatialInertia: invalid G_SP_E: {err}") from None
        p = np.array(p_PScm_E, dtype=np.float64)
        if p.shape != (3,):
            raise ValueError(f"SpatialInertia: p_PScm_E must have shape (3,), got shape {p.shape}")
        try:
            mass = float(mass)
        except (TypeError, ValueError):
            raise TypeError(f"SpatialInertia: mass must be a real number, got {mass!r}") from None
        if not skip_validity_check:
            errors, soft = find_inertia_violations(mass, p, G.copy_to_full_matrix3())
            if errors:
                raise ValueError("SpatialInertia: " + "; ".join(errors))
            for violation in soft:
                warn_inertia_validity(f"SpatialInertia: {violation}")
        self._mass = mass
        self._p = p
        self._p.flags.writeable = False
        self._G = G

    @classmethod
    def _unchecked(cls, mass, p, G_matrix):
        obj = object.__new__(cls)
        obj._mass = float(mass)
        obj._p = p
        obj._p.flags.writeable = False
        obj._G = UnitInertia._unchecked(G_matrix)
        return obj

    def __reduce__(self):
        return (SpatialInertia, (self._mass, self._p.copy(), self._G, True))

    # ------------------------------------------------------------------ named constructors
    @classmethod
    def zero(cls):
        """Return the spatial inertia of nothing (zero mass and inertia)."""
        return cls._unchecked(0.0, np.zeros(3), np.zeros((3, 3)))

    @classmethod
    def nan(cls):
        """Drake's ``NaN()`` in snake_case: the same as `NaN`."""
        return cls.NaN()

    @classmethod
    def NaN(cls):  # noqa: N802 (Drake's name)
        """Return a spatial inertia whose mass, center of mass and unit inertia are NaN
        (Drake's "not set")."""
        return cls._unchecked(np.nan, np.full(3, np.nan), np.full((3, 3), np.nan))

    def is_nan(self):
        """True if the mass, the center of mass or the unit inertia has a NaN."""
        return bool(np.isnan(self._mass) or np.isnan(self._p).any() or self._G.is_nan())

    def is_zero(self):
        """True if the mass, the center of mass and the unit inertia are all zero."""
        return self._mass == 0.0 and not self._p.any() and self._G.is_zero()

    @classmethod
    def make_from_central_inertia(cls, mass, p_PScm_E, I_SScm_E):
        """Return M_SP_E from the mass, the center of mass and the central inertia.

        Parameters
        ----------
        mass : float
            Mass (kg), non-negative.
        p_PScm_E : array_like, shape (3,)
            Position of Scm from P, expressed in E (m).
        I_SScm_E : RotationalInertia or array_like (3, 3)
            Rotational inertia of S about Scm, expressed in E (kg m²).
        """
        I = I_SScm_E if isinstance(I_SScm_E, RotationalInertia) else RotationalInertia(I_SScm_E)
        p = np.array(p_PScm_E, dtype=np.float64)
        if p.shape != (3,):
            raise ValueError(
                "SpatialInertia.make_from_central_inertia: p_PScm_E must have shape (3,), "
                f"got shape {p.shape}"
            )
        I_matrix = I.copy_to_full_matrix3()
        if mass == 0.0:
            if np.any(I_matrix):
                raise ValueError(
                    "SpatialInertia.make_from_central_inertia: mass is 0 but I_SScm_E is "
                    f"{I_matrix.tolist()}, expected zero inertia for a massless body"
                )
            G = np.zeros((3, 3))
        else:
            G = I_matrix / mass + point_mass_inertia_matrix(p)
        return cls(mass, p, UnitInertia._unchecked(G))

    @classmethod
    def _about_center_of_mass(cls, fn, mass, G_SScm):
        """M_SScm of a positive `mass` with the unit inertia `G_SScm` about its center."""
        return cls(_check_mass(f"SpatialInertia.{fn}", mass), np.zeros(3), G_SScm)

    @classmethod
    def point_mass(cls, mass, p_PQ_E):
        """Return the spatial inertia about P of a particle of `mass` at Q (position (3,))."""
        mass = _check_mass("SpatialInertia.point_mass", mass)
        return cls(mass, p_PQ_E, UnitInertia.point_mass(p_PQ_E))

    @classmethod
    def solid_box_with_mass(cls, mass, lx, ly, lz):
        """Return M_BBcm of a uniform solid box of `mass` and sides lx, ly, lz (m)."""
        return cls._about_center_of_mass(
            "solid_box_with_mass", mass, UnitInertia.solid_box(lx, ly, lz))

    @classmethod
    def solid_cube_with_mass(cls, mass, length):
        """Return M_BBcm of a uniform solid cube of `mass` and side `length` (m)."""
        return cls._about_center_of_mass(
            "solid_cube_with_mass", mass, UnitInertia.solid_cube(length))

    @classmethod
    def solid_sphere_with_mass(cls, mass, radius):
        """Return M_BBcm of a uniform solid sphere of `mass` and `radius` (m)."""
        return cls._about_center_of_mass(
            "solid_sphere_with_mass", mass, UnitInertia.solid_sphere(radius))

    @classmethod
    def solid_ellipsoid_with_mass(cls, mass, a, b, c):
        """Return M_BBcm of a uniform solid ellipsoid with semi-axes a, b, c (m)."""
        return cls._about_center_of_mass(
            "solid_ellipsoid_with_mass", mass, UnitInertia.solid_ellipsoid(a, b, c))

    @classmethod
    def solid_cylinder_with_mass(cls, mass, radius, length, unit_vector):
        """Return M_BBcm of a uniform solid cylinder along `unit_vector` (3,)."""
        return cls._about_center_of_mass(
            "solid_cylinder_with_mass", mass, UnitInertia.solid_cylinder(radius, length, unit_vector))

    @classmethod
    def solid_capsule_with_mass(cls, mass, radius, length, unit_vector):
        """Return M_BBcm of a uniform solid capsule (cylinder `length` plus two hemispheres)."""
        return cls._about_center_of_mass(
            "solid_capsule_with_mass", mass, UnitInertia.solid_capsule(radius, length, unit_vector))

    # Uniform-density solids: mass = density * volume, then the *_with_mass factory.
    @classmethod
    def solid_box_with_density(cls, density, lx, ly, lz):
        """M_BBcm of a solid box of `density` (kg/m³): mass = density lx ly lz."""
        return cls.solid_box_with_mass(_density_mass("solid_box_with_density", density,
                                                     lx * ly * lz), lx, ly, lz)

    @classmethod
    def solid_cube_with_density(cls, density, length):
        """M_BBcm of a solid cube of `density`: mass = density length³."""
        return cls.solid_cube_with_mass(_density_mass("solid_cube_with_density", density,
                                                      length ** 3), length)

    @classmethod
    def solid_sphere_with_density(cls, density, radius):
        """M_BBcm of a solid sphere of `density`: mass = density 4/3 π r³."""
        return cls.solid_sphere_with_mass(_density_mass(
            "solid_sphere_with_density", density, 4.0 / 3.0 * np.pi * radius ** 3), radius)

    @classmethod
    def solid_ellipsoid_with_density(cls, density, a, b, c):
        """M_BBcm of a solid ellipsoid of `density`: mass = density 4/3 π a b c."""
        return cls.solid_ellipsoid_with_mass(_density_mass(
            "solid_ellipsoid_with_density", density, 4.0 / 3.0 * np.pi * a * b * c), a, b, c)

    @classmethod
    def solid_cylinder_with_density(cls, density, radius, length, unit_vector):
        """M_BBcm of a solid cylinder of `density`: mass = density π r² length."""
        return cls.solid_cylinder_with_mass(_density_mass(
            "solid_cylinder_with_density", density, np.pi * radius ** 2 * length),
            radius, length, unit_vector)

    @classmethod
    def solid_capsule_with_density(cls, density, radius, length, unit_vector):
        """M_BBcm of a solid capsule of `density`: mass = density π r² (length + 4/3 r)."""
        return cls.solid_capsule_with_mass(_density_mass(
            "solid_capsule_with_density", density,
            np.pi * radius ** 2 * (length + 4.0 / 3.0 * radius)), radius, length, unit_vector)

    @classmethod
    def solid_cylinder_with_mass_about_end(cls, mass, radius, length, unit_vector):
        """M_BBp of a solid cylinder about the end point Bp of its axis: the center of mass
        is at p_BpBcm = length/2 · unit_vector."""
        return cls.solid_cylinder_with_mass(mass, radius, length, unit_vector).shift(
            -0.5 * length * np.asarray(unit_vector, dtype=np.float64))

    @classmethod
    def solid_cylinder_with_density_about_end(cls, density, radius, length, unit_vector):
        """As `solid_cylinder_with_mass_about_end`, mass = density π r² length."""
        return cls.solid_cylinder_with_density(density, radius, length, unit_vector).shift(
            -0.5 * length * np.asarray(unit_vector, dtype=np.float64))

    @classmethod
    def thin_rod_with_mass(cls, mass, length, unit_vector):
        """M_BBcm of a thin rod (no thickness) of `mass` and `length` along `unit_vector`:
        m L²/12 about any axis perpendicular to it, 0 about it."""
        return cls._about_center_of_mass(
            "thin_rod_with_mass", mass, UnitInertia.thin_rod(length, unit_vector))

    @classmethod
    def thin_rod_with_mass_about_end(cls, mass, length, unit_vector):
        """M_BBp of a thin rod about its end point Bp (center of mass at L/2 · unit_vector):
        m L²/3 perpendicular to the rod."""
        return cls.thin_rod_with_mass(mass, length, unit_vector).shift(
            -0.5 * length * np.asarray(unit_vector, dtype=np.float64))

    @classmethod
    def hollow_sphere_with_mass(cls, mass, radius):
        """M_BBcm of a thin spherical shell: 2/3 m r² about any axis."""
        return cls._about_center_of_mass(
            "hollow_sphere_with_mass", mass, UnitInertia.hollow_sphere(radius))

    @classmethod
    def hollow_sphere_with_density(cls, area_density, radius):
        """M_BBcm of a thin spherical shell of `area_density` (kg/m²): mass = 4 π r² ρ_A."""
        return cls.hollow_sphere_with_mass(_density_mass(
            "hollow_sphere_with_density", area_density, 4.0 * np.pi * radius ** 2), radius)

    def set_nan(self):
        """Make the mass, center of mass and unit inertia NaN (Drake's SetNaN)."""
        nan = SpatialInertia.NaN()
        self._mass, self._p, self._G = nan._mass, nan._p, nan._G

    def calc_principal_semi_diameters_and_pose_for_solid_ellipsoid(self):
        """The solid ellipsoid of uniform density with this mass and inertia: its
        semi-diameters (a, b, c), descending, and its pose X_EA (axes A, centered at the
        center of mass), as Drake's.

        For G = diag(b²+c², a²+c², a²+b²)/5 about the center of mass, a² = 5/2 (G_yy +
        G_zz - G_xx) and so on, in the principal axes of the central unit inertia.

        Returns
        -------
        (ndarray (3,), RigidTransform)
        """
        from merganser.geometry import RigidTransform

        G_cm = self._G.shift_to_center_of_mass(self._p)
        moments, R_EA = G_cm.calc_principal_moments_and_axes()     # ascending
        Gx, Gy, Gz = moments
        squares = 2.5 * np.array([Gy + Gz - Gx, Gx + Gz - Gy, Gx + Gy - Gz])
        semi = np.sqrt(np.maximum(squares, 0.0))       # descending, as the moments ascend
        return semi, RigidTransform(R_EA, self._p.copy())

    @classmethod
    def from_inertia_parameters(cls, params, skip_validity_check=False):
        """Return M_BBo_B from [m, m cx, m cy, m cz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (10,).

        The inertia entries are about the body origin Bo (see `to_inertia_parameters`).

        Raises
        ------
        ValueError
            If `params` does not have shape (10,), or the mass is zero while the first
            moment or inertia is not.
        """
        a = np.asarray(params, dtype=np.float64)
        if a.shape != (10,):
            raise ValueError(
                "SpatialInertia.from_inertia_parameters: params must have shape (10,), "
                f"got shape {a.shape}"
            )
        mass = a[0]
        Ixx, Iyy, Izz, Ixy, Ixz, Iyz = a[4:]
        I = np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])
        if mass == 0.0:
            if np.any(a[1:]):
                raise ValueError(
                    "SpatialInertia.from_inertia_parameters: mass is 0 but the first moment "
                    f"or inertia is not zero: {a.tolist()}"
                )
            return cls.zero()
        return cls(mass, a[1:4] / mass, I / mass, skip_validity_check)

    # ------------------------------------------------------------------ accessors
    def get_mass(self):
        """Return the mass (kg)."""
        return self._mass

    def get_com(self):
        """Return p_PScm_E, ndarray of shape (3,) (a copy)."""
        return self._p.copy()

    def calc_com_moment(self):
        """Return the first moment m p_PScm_E, ndarray of shape (3,)."""
        return self._mass * self._p

    def get_unit_inertia(self):
        """Return G_SP_E (a UnitInertia)."""
        return self._G

    def calc_rotational_inertia(self):
        """Return I_SP_E = m G_SP_E, the rotational inertia about P (a RotationalInertia)."""
        return self._G * self._mass

    def copy_to_full_matrix6(self):
        """Return the 6x6 matrix [[I_SP, m [c]×], [-m [c]×, m 1]], shape (6, 6)."""
        m = self._mass
        mc_x = m * _skew(self._p)
        M = np.empty((6, 6))
        M[:3, :3] = m * self._G.copy_to_full_matrix3()
        M[:3, 3:] = mc_x
        M[3:, :3] = -mc_x
        M[3:, 3:] = m * np.eye(3)
        return M

    def to_inertia_parameters(self):
        """Return [m, m cx, m cy, m cz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz], shape (10,), about P."""
        m = self._mass
        I = m * self._G.copy_to_full_matrix3()
        return np.array(
            [m, *(m * self._p), I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]]
        )

    def is_physically_valid(self):
        """Return True if no validity condition (including the triangle inequality) fails."""
        errors, soft = find_inertia_violations(
            self._mass, self._p, self._G.copy_to_full_matrix3()
        )
        return not errors and not soft

    # ------------------------------------------------------------------ transformations
    def shift(self, p_PQ_E):
        """Return M_SQ_E, the same body's inertia about point Q.

        Parameters
        ----------
        p_PQ_E : array_like, shape (3,)
            Position of Q from P, expressed in E (m).

        Returns
        -------
        SpatialInertia
            Mass unchanged, p_QScm = p_PScm - p_PQ and, by the parallel-axis theorem
            through the center of mass, G_SQ = G_SP - P(p_PScm) + P(p_QScm) with
            P(p) = |p|² 1 - p pᵀ.
        """
        p_PQ = np.asarray(p_PQ_E, dtype=np.float64)
        if p_PQ.shape != (3,):
            raise ValueError(f"SpatialInertia.shift: p_PQ_E must have shape (3,), got {p_PQ.shape}")
        p_QScm = self._p - p_PQ
        G = (
            self._G.copy_to_full_matrix3()
            - point_mass_inertia_matrix(self._p)
            + point_mass_inertia_matrix(p_QScm)
        )
        return SpatialInertia._unchecked(self._mass, p_QScm, G)

    def re_express(self, R_AE):
        """Return M_SP_A, the same inertia expressed in frame A (R_AE a RotationMatrix)."""
        if not isinstance(R_AE, RotationMatrix):
            raise TypeError(
                "SpatialInertia.re_express: R_AE must be a RotationMatrix, "
                f"got {type(R_AE).__name__}"
            )
        G = self._G.re_express(R_AE)
        return SpatialInertia._unchecked(
            self._mass, R_AE @ self._p, G.copy_to_full_matrix3()
        )

    def __add__(self, other):
        """Return the inertia of the union of two bodies, both about P, expressed in E."""
        if not isinstance(other, SpatialInertia):
            return NotImplemented
        mass = self._mass + other._mass
        if mass == 0.0:
            return SpatialInertia.zero()
        p = (self._mass * self._p + other._mass * other._p) / mass
        G = (
            self._mass * self._G.copy_to_full_matrix3()
            + other._mass * other._G.copy_to_full_matrix3()
        ) / mass
        return SpatialInertia._unchecked(mass, p, G)

    def __matmul__(self, other):
        """M @ V -> SpatialMomentum; M @ A -> SpatialForce (both about P, in E)."""
        if isinstance(other, SpatialVelocity):
            return SpatialMomentum(self.copy_to_full_matrix6() @ other.get_coeffs())
        if isinstance(other, SpatialAcceleration):
            return SpatialForce(self.copy_to_full_matrix6() @ other.get_coeffs())
        return NotImplemented

    #: Drake's spelling: ``M * V`` (SpatialMomentum) and ``M * A`` (SpatialForce).
    __mul__ = __matmul__

    def is_nearly_equal_to(self, other, tolerance):
        """Return True if the 6x6 matrices differ by at most `tolerance` elementwise."""
        diff = self.copy_to_full_matrix6() - other.copy_to_full_matrix6()
        return bool(np.max(np.abs(diff)) <= tolerance)

    def __repr__(self):
        if self.is_zero():
            return "SpatialInertia.zero()"
        return (
            f"SpatialInertia(mass={self._mass!r}, p_PScm_E={self._p.tolist()!r}, "
            f"G_SP_E={self._G.copy_to_full_matrix3().tolist()!r})"
        )
