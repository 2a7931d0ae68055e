"""Contact settings of MultibodyPlant (contact model, discrete approximation, penetration
allowance, stiction tolerance).

The plant only stores and validates them; the contact models read them. The choices are
Drake's enumerations (`multibody.plant.enums`): the setters take a member or its string
(as in `MultibodyPlantConfig`), the getters return the member, which compares equal to
its string.
"""

import math

from merganser.framework.compiled_form_changes import note_compiled_form_change
from merganser.geometry import HydroelasticContactRepresentation
from merganser.multibody.plant.enums import (
    ContactModel, DiscreteContactApproximation, DiscreteContactSolver,
)

__all__ = ["CONTACT_MODELS", "DISCRETE_CONTACT_APPROXIMATIONS", "PlantSettingsMixin"]

#: Valid values of ``contact_model``.
CONTACT_MODELS = ContactModel.names()
#: Valid values of ``discrete_contact_approximation``.
DISCRETE_CONTACT_APPROXIMATIONS = DiscreteContactApproximation.names()


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
        self._contact_model = ContactModel.kHydroelasticWithFallback
        self._discrete_contact_approximation = DiscreteContactApproximation.kSap
        self._penetration_allowance = 1e-3
        self._stiction_tolerance = 1e-4
        self._contact_surface_representation = \
            self.get_default_contact_surface_representation(self.time_step())
        self._adjacent_bodies_collision_filters = True
        self._sap_near_rigid_threshold = 1.0

    def set_contact_model(self, model):
        """Choose the `ContactModel` (before finalize): a member or its string,
        ``"point"``, ``"hydroelastic"`` or ``"hydroelastic_with_fallback"``."""
        self._throw_if_finalized("set_contact_model")
        self._contact_model = ContactModel.coerce("set_contact_model", "model", model)

    def get_contact_model(self):
        """The `ContactModel` (equal to its string, e.g. ``"point"``)."""
        return self._contact_model

    def set_discrete_contact_approximation(self, approximation):
        """Choose the discrete contact solver, a `DiscreteContactApproximation` or its
        string: ``"tamsi"``, ``"sap"``, ``"similar"``, ``"lagged"`` or ``"lcp"`` (before
        finalize)."""
        self._throw_if_finalized("set_discrete_contact_approximation")
        self._discrete_contact_approximation = DiscreteContactApproximation.coerce(
            "set_discrete_contact_approximation", "approximation", approximation)

    def get_discrete_contact_approximation(self):
        """The `DiscreteContactApproximation` (equal to its string, e.g. ``"sap"``)."""
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
        note_compiled_form_change()     # a compiled contact step reads it as a constant

    def get_stiction_tolerance(self):
        """The stiction tolerance (m/s)."""
        return self._stiction_tolerance

    stiction_tolerance = get_stiction_tolerance

    @staticmethod
    def get_default_contact_surface_representation(time_step):
        """Drake's default representation of hydroelastic contact surfaces: kPolygon for
        a discrete plant (`time_step` > 0), kTriangle for a continuous one."""
        return (HydroelasticContactRepresentation.kPolygon if time_step > 0
                else HydroelasticContactRepresentation.kTriangle)

    def set_contact_surface_representation(self, surface_representation):
        """How the hydroelastic contact surfaces of the contact results are represented:
        a `HydroelasticContactRepresentation` (before finalize). The forces do not depend
        on it (the pressure is linear on each polygon)."""
        self._throw_if_finalized("set_contact_surface_representation")
        if not isinstance(surface_representation, HydroelasticContactRepresentation):
            raise TypeError(f"set_contact_surface_representation: surface_representation "
                            f"must be a HydroelasticContactRepresentation, got "
                            f"{surface_representation!r}")
        self._contact_surface_representation = surface_representation

    def get_contact_surface_representation(self):
        """The `HydroelasticContactRepresentation` of the reported contact surfaces."""
        return self._contact_surface_representation

    def set_sap_near_rigid_threshold(self, near_rigid_threshold=1.0):
        """β of SAP's near-rigid regime (default 1, Drake's; before finalize): a contact's
        normal regularization is at least β²/(4π²) times its Delassus estimate, which
        keeps very stiff contacts well conditioned; 0 turns the bound off. Used by the
        "sap", "similar" and "lagged" approximations."""
        self._throw_if_finalized("set_sap_near_rigid_threshold")
        beta = float(near_rigid_threshold)
        if not (math.isfinite(beta) and beta >= 0.0):
            raise ValueError(f"set_sap_near_rigid_threshold: near_rigid_threshold must be "
                             f"finite and >= 0, got {near_rigid_threshold!r}")
        self._sap_near_rigid_threshold = beta

    def get_sap_near_rigid_threshold(self):
        """β (see `set_sap_near_rigid_threshold`)."""
        return self._sap_near_rigid_threshold

    def get_discrete_contact_solver(self):
        """The solver family of the discrete contact approximation (Drake's
        DiscreteContactSolver): kTamsi for "tamsi", kSap for "sap", "similar" and "lagged",
        kLcp for merganser's "lcp"."""
        approximation = self._discrete_contact_approximation.value
        return DiscreteContactSolver.coerce("get_discrete_contact_solver", "approximation",
                                            approximation if approximation in ("tamsi", "lcp")
                                            else "sap")

    def set_use_sampled_output_ports(self, use_sampled_output_ports):
        """Drake's choice for a discrete plant's output ports: values sampled at the last
        discrete update (True) or computed from the current state (False). merganser's
        outputs are always computed from the current state, so only False is accepted for
        a discrete plant (a continuous plant has no sampled ports; any value is ignored,
        as in Drake)."""
        self._throw_if_finalized("set_use_sampled_output_ports")
        if use_sampled_output_ports and self.time_step() > 0:
            raise ValueError("set_use_sampled_output_ports: use_sampled_output_ports=True is "
                             "not supported: merganser computes a discrete plant's outputs "
                             "from the current state (Drake's False)")

    def has_sampled_output_ports(self):
        """False: the output ports are computed from the current state (see
        `set_use_sampled_output_ports`)."""
        return False

    def set_adjacent_bodies_collision_filters(self, value):
        """Whether finalize filters collisions between the bodies a (non-floating) joint
        connects (default True; before finalize). Welded bodies are always filtered."""
        self._throw_if_finalized("set_adjacent_bodies_collision_filters")
        self._adjacent_bodies_collision_filters = bool(value)

    def get_adjacent_bodies_collision_filters(self):
        """See `set_adjacent_bodies_collision_filters`."""
        return self._adjacent_bodies_collision_filters
