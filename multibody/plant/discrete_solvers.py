"""The registry of discrete contact solvers, keyed by the approximation name (Drake's
``DiscreteUpdateManager`` factory).

`DISCRETE_SOLVERS` maps each ``discrete_contact_approximation`` name to the stepper
class that performs its step; its keys are the one list of valid names, used by
`MultibodyPlant.set_discrete_contact_approximation` and `MultibodyPlantConfig` through
`check_discrete_contact_approximation` (one message). At ``finalize()`` the plant calls
`make_discrete_stepper` once; every step then calls the chosen stepper directly.
"""

import functools

from merganser.multibody.contact.discrete_stepper import LcpStepper, SapStepper, TamsiStepper
from merganser.multibody.contact.sap import LAGGED, SAP, SIMILAR
from merganser.multibody.plant.discrete_update import SemiExplicitEulerStepper

__all__ = ["DISCRETE_SOLVERS", "check_discrete_contact_approximation",
           "make_discrete_stepper"]

#: approximation name -> stepper factory ``(core, contacts, constraint_specs) -> stepper``.
DISCRETE_SOLVERS = {
    "tamsi": TamsiStepper,
    "sap": functools.partial(SapStepper, approximation="sap", model=SAP),
    "similar": functools.partial(SapStepper, approximation="similar", model=SIMILAR),
    "lagged": functools.partial(SapStepper, approximation="lagged", model=LAGGED),
    "lcp": LcpStepper,
}


def check_discrete_contact_approximation(fn, value):
    """Return `value` if it names a registered solver, else raise ValueError (naming
    `fn`, the argument, the valid names and the value)."""
    if not isinstance(value, str) or value not in DISCRETE_SOLVERS:
        raise ValueError(
            f"{fn}: discrete_contact_approximation must be one of "
            f"{', '.join(repr(c) for c in DISCRETE_SOLVERS)}, got {value!r}")
    return value


def make_discrete_stepper(core, contacts, approximation, constraint_specs):
    """The plant's stepper: the registered solver when the plant has collision geometry
    or constraints, else the contact-free `SemiExplicitEulerStepper`.

    The solver's stepper is made (and its ``discrete contact step`` cache entry declared)
    in both cases, so that the plant's contact outputs exist; it is returned second.

    Returns
    -------
    (DiscreteStepper, ContactStepper)
    """
    solver = DISCRETE_SOLVERS[approximation](core, contacts, constraint_specs)
    if core.has_collision or constraint_specs:
        return solver, solver
    return SemiExplicitEulerStepper(core), solver
