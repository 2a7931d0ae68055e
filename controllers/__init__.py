"""controllers: PID, inverse dynamics, computed torque, joint stiffness and LQR controllers
built on the framework and the multibody plant (Drake's systems/controllers)."""

from .dynamic_programming import (DynamicProgrammingOptions, PeriodicBoundaryCondition,
                                  fitted_value_iteration,
                                  linear_programming_approximate_dynamic_programming)
from .finite_horizon_lqr import (FiniteHorizonLinearQuadraticRegulatorOptions,
                                 FiniteHorizonLinearQuadraticRegulatorResult,
                                 finite_horizon_linear_quadratic_regulator,
                                 make_finite_horizon_linear_quadratic_regulator)
from .finite_horizon_lqr_controller import FiniteHorizonLqrController
from .inverse_dynamics import InverseDynamics
from .inverse_dynamics_controller import InverseDynamicsController
from . import inverse_dynamics_compiled_form  # noqa: F401,E402  (registers its compiled form)
from .joint_stiffness_controller import JointStiffnessController
from .lqr import discrete_time_linear_quadratic_regulator, linear_quadratic_regulator
from .pid_controlled_system import PidControlledSystem
from .pid_controller import PidController
from . import pid_compiled_form  # noqa: F401,E402  (registers PidController's compiled form)

__all__ = [
    "DynamicProgrammingOptions",
    "PeriodicBoundaryCondition",
    "linear_programming_approximate_dynamic_programming",
    "fitted_value_iteration",
    "FiniteHorizonLinearQuadraticRegulatorOptions",
    "FiniteHorizonLinearQuadraticRegulatorResult",
    "FiniteHorizonLqrController",
    "InverseDynamics",
    "InverseDynamicsController",
    "JointStiffnessController",
    "PidControlledSystem",
    "PidController",
    "discrete_time_linear_quadratic_regulator",
    "finite_horizon_linear_quadratic_regulator",
    "linear_quadratic_regulator",
    "make_finite_horizon_linear_quadratic_regulator",
]
