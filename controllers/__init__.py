"""controllers: PID, inverse dynamics, computed torque, joint stiffness and LQR controllers
built on the framework and the multibody plant (Drake's systems/controllers)."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".dynamic_programming": (
        "DynamicProgrammingOptions", "PeriodicBoundaryCondition", "fitted_value_iteration",
        "linear_programming_approximate_dynamic_programming",
    ),
    ".finite_horizon_lqr": (
        "FiniteHorizonLinearQuadraticRegulatorOptions",
        "FiniteHorizonLinearQuadraticRegulatorResult",
        "finite_horizon_linear_quadratic_regulator",
        "make_finite_horizon_linear_quadratic_regulator",
    ),
    ".finite_horizon_lqr_controller": ("FiniteHorizonLqrController",),
    ".inverse_dynamics": ("InverseDynamics",),
    ".inverse_dynamics_controller": ("InverseDynamicsController",),
    ".joint_stiffness_controller": ("JointStiffnessController",),
    ".lqr": ("discrete_time_linear_quadratic_regulator", "linear_quadratic_regulator"),
    ".pid_controlled_system": ("PidControlledSystem",),
    ".pid_controller": ("PidController",),
})

# The compiled forms register themselves with framework.compiled_diagram when the first
# diagram holding such a controller is compiled (not here: they would load the
# controllers and the compiled-diagram machinery with the package).
from merganser.framework.compiled_form_loaders import register_compiled_form_loader  # noqa: E402


def _load_inverse_dynamics_form():
    from merganser.controllers import inverse_dynamics_compiled_form  # noqa: F401


def _load_pid_form():
    from merganser.controllers import pid_compiled_form  # noqa: F401


register_compiled_form_loader(
    "merganser.controllers.inverse_dynamics_controller.InverseDynamicsController",
    _load_inverse_dynamics_form)
register_compiled_form_loader("merganser.controllers.pid_controller.PidController",
                              _load_pid_form)
