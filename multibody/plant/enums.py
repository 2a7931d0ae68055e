"""Drake's enumerations of MultibodyPlant settings: `ContactModel`,
`DiscreteContactApproximation` and (re-exported from the tree) `BaseBodyJointType`.

Each is a `ChoiceEnum`: a member equals its configuration string, so
``MultibodyPlantConfig(discrete_contact_approximation="sap")`` and
``plant.set_discrete_contact_approximation(DiscreteContactApproximation.kSap)`` mean the
same; the plant's getters return the member. The lists of valid strings derive from
these enums (``DiscreteContactApproximation.names()``).
"""

from merganser.multibody.tree.choice_enum import ChoiceEnum
from merganser.multibody.tree.model_instance import BaseBodyJointType

__all__ = ["BaseBodyJointType", "ContactModel", "DiscreteContactApproximation",
           "DiscreteContactSolver"]


class ContactModel(ChoiceEnum):
    """How contact forces are computed (Drake's ContactModel).

    Attributes
    ----------
    kPoint : "point"
        Point contact (penetration as a point pair) for every geometry pair.
    kHydroelastic : "hydroelastic"
        Hydroelastic contact only; a pair that cannot be hydroelastic raises.
    kHydroelasticWithFallback : "hydroelastic_with_fallback"
        Hydroelastic where both geometries allow it, point contact otherwise (default).
    """

    kPoint = "point"
    kHydroelastic = "hydroelastic"
    kHydroelasticWithFallback = "hydroelastic_with_fallback"
    #: Drake's older names of kHydroelastic and kPoint (aliases: the same members).
    kHydroelasticsOnly = "hydroelastic"
    kPointContactOnly = "point"


class DiscreteContactApproximation(ChoiceEnum):
    """The contact solver of a discrete plant (Drake's DiscreteContactApproximation).

    Attributes
    ----------
    kTamsi : "tamsi"
        TAMSI, Hunt & Crossley dissipation.
    kSap : "sap"
        Convex SAP, Kelvin-Voigt dissipation (default).
    kSimilar : "similar"
        SAP's solver on the "similar" Hunt & Crossley approximation.
    kLagged : "lagged"
        SAP's solver on the "lagged" Hunt & Crossley approximation.
    kLcp : "lcp"
        merganser's complementarity (Stewart-Trinkle / Anitescu-Potra) step; not in Drake.
    """

    kTamsi = "tamsi"
    kSap = "sap"
    kSimilar = "similar"
    kLagged = "lagged"
    kLcp = "lcp"


class DiscreteContactSolver(ChoiceEnum):
    """The solver family a discrete contact approximation uses (Drake's
    DiscreteContactSolver; `MultibodyPlant.get_discrete_contact_solver`).

    Attributes
    ----------
    kTamsi : "tamsi"
    kSap : "sap"
        SAP's convex solver ("sap", "similar", "lagged").
    kLcp : "lcp"
        merganser's complementarity step; not in Drake.
    """

    kTamsi = "tamsi"
    kSap = "sap"
    kLcp = "lcp"

