"""Analysis of systems: linearization, controllability and observability."""

from .batch_eval import (Parallelism, batch_eval_time_derivatives,
                         batch_eval_unique_periodic_discrete_update)
from .controllability import (controllability_matrix, is_controllable, is_detectable,
                              is_observable, is_stabilizable, observability_matrix)
from .discrete_time_approximation import (DiscreteTimeApproximationSystem,
                                          discrete_time_approximation)
from .linearize import (InputPortSelection, OutputPortSelection,
                        first_order_taylor_approximation, linearize)

__all__ = [
    "InputPortSelection", "OutputPortSelection", "controllability_matrix",
    "DiscreteTimeApproximationSystem", "discrete_time_approximation", "Parallelism", "batch_eval_time_derivatives",
    "batch_eval_unique_periodic_discrete_update",
    "first_order_taylor_approximation", "is_controllable", "is_detectable", "is_observable",
    "is_stabilizable", "linearize", "observability_matrix",
]
