"""Contact settings of MultibodyPlant (contact model, discrete approximation, penetration
allowance, stiction tolerance).

The plant only stores and validates them; the contact models read them. The choices are
Drake's, spelled as in `MultibodyPlantConfig`.
"""

import math

from merganser.multibody.plant.discrete_solvers import (
    DISCRETE_SOLVERS, check_discrete_contact_approximation,
)

__all__ = ["CONTACT_MODELS", "DISCRETE_CONTACT_APPROXIMATIONS", "PlantSettingsMixin"]

#: Valid values of ``contact_model``.
CONTACT_MODELS = ("point", "hydroelastic", "hydroelastic_with_fallback")
#: Valid values of ``discrete_contact_approximation``: the solver registry's names.
DISCRETE_CONTACT_APPROXIMATIONS = tuple(DISCRETE_SOLVERS)


def check_choice(fn, arg, value, choices):
    """Return `value` if it is one of `choices`, else raise ValueError naming them."""
    if value not in choices:
        raise ValueError(
            f"{fn}: {arg} must be one of {', '.join(repr(c) for c in choices)}, got {value!r}")
    return value


def check_positive(fn, arg, value):
    """Return float(`value`) if it is finite and > 0, else raise ValueError."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {arg} must be a number, got {type(value).__name__}") from None
    if not (math.isfinite(x) and x > 0.0):
        raise ValueError(f"{fn}: {arg} must be finite and > 0, got {value!r}")
    return x


class PlantSettingsMixin:
    """Contact settings; the defaults are set by ``MultibodyPlant.__init__``."""

    def _init_settings(self):
        self._contact_model = "hydroelastic_with_fallback"
        self._discrete_contact_approximation = "sap"
        self._penetration_allowance = 1e-3
        self._stiction_tolerance = 1e-4

    def set_contact_model(self, model):
        """Choose ``"point"``, ``"hydroelastic"`` or ``"hydroelastic_with_fallback"``
        (before finalize)."""
        self._throw_if_finalized("set_contact_model")
        self._contact_model = check_choice("set_contact_model", "model", model, CONTACT_MODELS)

    def get_contact_model(self):
        """The contact model name."""
        return self._contact_model

    def set_discrete_contact_approximation(self, approximation):
        """Choose the discrete contact solver: ``"tamsi"``, ``"sap"``, ``"similar"``,
        ``"lagged"`` or ``"lcp"`` (before finalize)."""
        self._throw_if_finalized("set_discrete_contact_approximation")
        self._discrete_contact_approximation = check_discrete_contact_approximation(
            "set_discrete_contact_approximation", approximation)

    def get_discrete_contact_approximation(self):
        """The discrete contact approximation name."""
        return self._discrete_contact_approximation

    def set_penetration_allowance(self, penetration_allowance=1e-3):
        """Set the penetration allowance (m, > 0) that sets the default point stiffness."""
        self._penetration_allowance = check_positive(
            "set_penetration_allowance", "penetration_allowance", penetration_allowance)

    def get_penetration_allowance(self):
        """The penetration allowance (m)."""
        return self._penetration_allowance

    def set_stiction_tolerance(self, v_stiction=1e-4):
        """Set the stiction tolerance (m/s, > 0) of the regularized friction."""
        self._stiction_tolerance = check_positive(
            "set_stiction_tolerance", "v_stiction", v_stiction)

    def get_stiction_tolerance(self):
        """The stiction tolerance (m/s)."""
        return self._stiction_tolerance

    stiction_tolerance = get_stiction_tolerance
