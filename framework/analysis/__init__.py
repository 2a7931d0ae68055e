"""Analysis of systems: linearization, controllability and observability."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".batch_eval": (
        "Parallelism", "batch_eval_time_derivatives",
        "batch_eval_unique_periodic_discrete_update",
    ),
    ".controllability": (
        "controllability_matrix", "is_controllable", "is_detectable", "is_observable",
        "is_stabilizable", "observability_matrix",
    ),
    ".discrete_time_approximation": (
        "DiscreteTimeApproximationSystem", "discrete_time_approximation",
    ),
    ".linearize": (
        "InputPortSelection", "OutputPortSelection", "first_order_taylor_approximation",
        "linearize",
    ),
})
