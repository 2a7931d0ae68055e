"""Force density fields (Drake's ForceDensityField and GravityForceField).

A force density field gives a force per unit volume f(p_WQ) [N/m³] at each point Q,
in the world frame. In Drake it is applied to deformable bodies through a plant's
DeformableModel. merganser has no deformable bodies yet, so no plant owns a field
(`has_parent_system` is False): the fields are values a user evaluates
(`evaluate_at`), clones and subclasses, with Drake's interface.

Subclass `ForceDensityField` and override ``do_evaluate_at(context, p_WQ)`` (and
``do_clone()``), as a pydrake user overrides ``DoEvaluateAt`` / ``DoClone``.
"""

from __future__ import annotations

import enum

import numpy as np

__all__ = ["ForceDensityType", "ForceDensityField", "GravityForceField"]


class ForceDensityType(enum.Enum):
    """Whether a field's density is per unit of current (deformed) volume or per unit of
    reference (undeformed) volume (Drake's enumeration)."""

    kPerCurrentVolume = "per_current_volume"
    kPerReferenceVolume = "per_reference_volume"


def _point(p_WQ, fn):
    p = np.array(p_WQ, dtype=np.float64)
    if p.shape != (3,):
        raise ValueError(f"{fn}: p_WQ must have shape (3,), got {p.shape}")
    return p


class ForceDensityField:
    """Base class of force density fields f(p_WQ) [N/m³] (Drake's ForceDensityField).

    Parameters
    ----------
    density_type : ForceDensityType, optional
        kPerCurrentVolume (the default, as Drake's) or kPerReferenceVolume.
    """

    def __init__(self, density_type=ForceDensityType.kPerCurrentVolume):
        if not isinstance(density_type, ForceDensityType):
            raise TypeError(f"ForceDensityField: density_type must be a ForceDensityType, "
                            f"got {density_type!r}")
        self._density_type = density_type

    def density_type(self) -> ForceDensityType:
        """Whether the density is per current or per reference volume."""
        return self._density_type

    def has_parent_system(self) -> bool:
        """Whether a plant owns this field: always False (no deformable bodies yet)."""
        return False

    def parent_system_or_throw(self):
        """Drake's ParentSystemOrThrow: raises, no plant owns a field (see the module)."""
        raise RuntimeError("ForceDensityField.parent_system_or_throw: the field is not owned "
                           "by any system (merganser has no deformable bodies yet)")

    def evaluate_at(self, context, p_WQ):
        """The force density at point Q, ndarray (3,) in W [N/m³] (`do_evaluate_at`).

        Parameters
        ----------
        context : Context
            The plant's Context (passed to `do_evaluate_at`).
        p_WQ : array_like, shape (3,)
            Q's position in the world frame (m).
        """
        p = _point(p_WQ, f"{type(self).__name__}.evaluate_at")
        f = np.array(self.do_evaluate_at(context, p), dtype=np.float64)
        if f.shape != (3,):
            raise ValueError(f"{type(self).__name__}.do_evaluate_at must return 3 values, "
                             f"got shape {f.shape}")
        return f

    def clone(self):
        """A copy made by `do_clone` (Drake's Clone)."""
        other = self.do_clone()
        if not isinstance(other, ForceDensityField):
            raise TypeError(f"{type(self).__name__}.do_clone must return a ForceDensityField, "
                            f"got {type(other).__name__}")
        return other

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def do_evaluate_at(self, context, p_WQ):
        """Override: the force density at p_WQ (3,), in W [N/m³]."""
        raise NotImplementedError(f"{type(self).__name__} must override do_evaluate_at")

    def do_clone(self):
        """Override: a copy of this field."""
        raise NotImplementedError(f"{type(self).__name__} must override do_clone")

    def do_declare_cache_entries(self, plant):
        """Override point called when an owning plant finalizes (none yet: no-op)."""

    def do_declare_input_ports(self, plant):
        """Override point called when an owning plant finalizes (none yet: no-op)."""


class GravityForceField(ForceDensityField):
    """The uniform gravity force density f = ρ g [N/m³] of an object of uniform mass
    density ρ [kg/m³] in its reference configuration (per reference volume).

    Parameters
    ----------
    gravity_vector : array_like, shape (3,)
        g in W (m/s²).
    mass_density : float
        ρ (kg/m³).
    """

    def __init__(self, gravity_vector, mass_density):
        super().__init__(ForceDensityType.kPerReferenceVolume)
        g = np.array(gravity_vector, dtype=np.float64)
        if g.shape != (3,) or not np.all(np.isfinite(g)):
            raise ValueError(f"GravityForceField: gravity_vector must be 3 finite values, got "
                             f"{gravity_vector!r}")
        if not np.isfinite(mass_density):
            raise ValueError(f"GravityForceField: mass_density must be finite, got "
                             f"{mass_density!r}")
        self._g, self._rho = g, float(mass_density)

    def do_evaluate_at(self, context, p_WQ):
        return self._rho * self._g

    def do_clone(self):
        return GravityForceField(self._g, self._rho)
