"""The registry of discrete contact solvers, keyed by the approximation name (Drake's
``DiscreteUpdateManager`` factory).

`DISCRETE_SOLVERS` maps each `DiscreteContactApproximation` (``multibody.plant.enums``,
the one list of valid names that `MultibodyPlant.set_discrete_contact_approximation` and
`MultibodyPlantConfig` validate with, one message) to the stepper that performs its step;
an import-time check keeps the two in step. At ``finalize()`` the plant calls
`make_discrete_stepper` once; every step then calls the chosen stepper directly.
"""

import functools
import warnings

from merganser.multibody.contact.discrete_stepper import LcpStepper, SapStepper, TamsiStepper
from merganser.multibody.contact.sap import LAGGED, SAP, SIMILAR
from merganser.multibody.plant.discrete_update import SemiExplicitEulerStepper
from merganser.multibody.plant.enums import DiscreteContactApproximation

__all__ = ["DISCRETE_SOLVERS", "JointLimitsWarning", "make_discrete_stepper"]


class JointLimitsWarning(UserWarning):
    """The plant's discrete solver does not enforce the joint position limits it has."""

#: approximation name -> stepper factory ``(core, contacts, constraint_specs) -> stepper``.
DISCRETE_SOLVERS = {
    "tamsi": TamsiStepper,
    "sap": functools.partial(SapStepper, approximation="sap", model=SAP),
    "similar": functools.partial(SapStepper, approximation="similar", model=SIMILAR),
    "lagged": functools.partial(SapStepper, approximation="lagged", model=LAGGED),
    "lcp": LcpStepper,
}


if tuple(DISCRETE_SOLVERS) != tuple(DiscreteContactApproximation.names()):
    raise ImportError(f"multibody.plant.discrete_solvers: the registry's names "
                      f"{tuple(DISCRETE_SOLVERS)} differ from DiscreteContactApproximation's "
                      f"{tuple(DiscreteContactApproximation.names())}")


def make_discrete_stepper(core, contacts, approximation, constraint_specs):
    """The plant's stepper: the registered solver when the plant has collision geometry
    or constraints, or joint limits or joint damping the solver models (the SAP family,
    as Drake's SapDriver: limit constraints, damping implicit in the dynamics matrix
    M + h D; TAMSI: Drake's joint-limit penalty forces), else the contact-free
    `SemiExplicitEulerStepper`.

    The solver's stepper is made (and its ``discrete contact step`` cache entry declared)
    in both cases, so that the plant's contact outputs exist; it is returned second.

    Returns
    -------
    (DiscreteStepper, ContactStepper)
    """
    solver = DISCRETE_SOLVERS[str(DiscreteContactApproximation(approximation).value)](
        core, contacts, constraint_specs)
    if not (solver.models_limits or solver.has_penalty_limits):
        limited = [j.name() for j in solver.limited_joints()]
        if limited:
            warnings.warn(JointLimitsWarning(
                f"MultibodyPlant.finalize: plant '{core.plant.get_name()}' uses the "
                f"discrete contact approximation '{solver.approximation}', whose step does "
                f"not enforce joint position limits; the limits of "
                f"{', '.join(repr(n) for n in limited)} are ignored in simulation. Use "
                f"'sap', 'similar' or 'lagged' (limit constraints, as Drake's SAP) or "
                f"'tamsi' (Drake's penalty forces)"), stacklevel=4)
    if (core.has_collision or constraint_specs or solver.has_limits or solver.damped
            or solver.has_penalty_limits):
        return solver, solver
    return SemiExplicitEulerStepper(core), solver
