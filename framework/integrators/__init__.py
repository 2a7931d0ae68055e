"""Numerical integrators (Drake's IntegratorBase family) and the factory by scheme name.

Schemes (``INTEGRATION_SCHEMES``, the names accepted by ``SimulatorConfig``):

==========================  =====  ==============  =========================================
name                        order  error control   notes
==========================  =====  ==============  =========================================
explicit_euler              1      no              fixed step
semi_explicit_euler         1      no              symplectic for mechanical systems
runge_kutta2                2      no              Heun's method
runge_kutta3                3      yes (order 3)   default; Kutta's RK3 with embedded RK2
runge_kutta5                5      yes (order 5)   Dormand-Prince 5(4), FSAL
bogacki_shampine3           3      yes (order 3)   Bogacki-Shampine 3(2), FSAL
implicit_euler              1      yes (order 2)   stiff; L-stable
radau1                      1      yes (order 2)   = implicit Euler, trapezoid error estimate
radau3                      3      yes (order 3)   stiff; 2-stage Radau IIA
velocity_implicit_euler     1      yes (order 2)   stiff; implicit in v and z, q from v
==========================  =====  ==============  =========================================
"""

from .implicit import (ImplicitEulerIntegrator, ImplicitIntegrator, Radau1Integrator,
                       Radau3Integrator, VelocityImplicitEulerIntegrator)
from .integrator_base import IntegratorBase, StepResult
from .runge_kutta import (BogackiShampine3Integrator, ExplicitEulerIntegrator,
                          RungeKutta2Integrator, RungeKutta3Integrator, RungeKutta5Integrator,
                          RungeKuttaIntegrator)
from .semi_explicit_euler import SemiExplicitEulerIntegrator
from .step_size_control import StepSizeController, scaled_error_norm

#: Drake's name for the two-stage Radau IIA integrator.
RadauIntegrator = Radau3Integrator

_SCHEME_CLASSES = {
    cls.scheme_name: cls
    for cls in (ExplicitEulerIntegrator, SemiExplicitEulerIntegrator, RungeKutta2Integrator,
                RungeKutta3Integrator, RungeKutta5Integrator, BogackiShampine3Integrator,
                ImplicitEulerIntegrator, Radau1Integrator, Radau3Integrator,
                VelocityImplicitEulerIntegrator)
}

#: Names accepted by ``make_integrator`` and ``SimulatorConfig.integration_scheme``.
INTEGRATION_SCHEMES = tuple(_SCHEME_CLASSES)


def make_integrator(name, system, context, max_step_size):
    """A new integrator of scheme ``name`` for ``system`` and its root ``context``.

    Parameters
    ----------
    name : str
        One of ``INTEGRATION_SCHEMES``.
    system : System
        The system to integrate.
    context : Context or None
        Its root context.
    max_step_size : float
        Maximum step size (the step of the fixed-step schemes), s.

    Returns
    -------
    IntegratorBase
    """
    cls = _SCHEME_CLASSES.get(name)
    if cls is None:
        raise ValueError(
            f"make_integrator: unknown integration scheme {name!r}; valid schemes: "
            f"{', '.join(INTEGRATION_SCHEMES)}")
    return cls(system, max_step_size=max_step_size, context=context)


__all__ = [
    "BogackiShampine3Integrator", "ExplicitEulerIntegrator", "INTEGRATION_SCHEMES",
    "ImplicitEulerIntegrator", "ImplicitIntegrator", "IntegratorBase", "Radau1Integrator",
    "Radau3Integrator",
    "RadauIntegrator", "RungeKutta2Integrator", "RungeKutta3Integrator",
    "RungeKutta5Integrator", "RungeKuttaIntegrator", "SemiExplicitEulerIntegrator",
    "StepResult", "StepSizeController", "VelocityImplicitEulerIntegrator", "make_integrator",
    "scaled_error_norm",
]
