"""multibody.batched: many copies of one plant stepped together in compiled code.

- ``batched_plant``: `BatchedPlant`, N environments of a finalized plant as (N, nx)
  arrays (states, actuation, PD targets, per-env parameters);
- ``batched_step``: the parallel kernel that advances every environment (semi-explicit
  Euler or an explicit Runge-Kutta tableau), using the shared position update
  `multibody.kernels.position_update`.
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".batched_plant": ("BATCHED_INTEGRATION_SCHEMES", "BatchedPlant"),
})
