"""multibody.batched: many copies of one plant stepped together in compiled code.

- ``batched_plant``: `BatchedPlant`, N environments of a finalized plant as (N, nx)
  arrays (states, actuation, PD targets, per-env parameters);
- ``batched_step``: the parallel kernel that advances every environment (semi-explicit
  Euler or an explicit Runge-Kutta tableau), using the shared position update
  `multibody.kernels.position_update`.
"""

from merganser.multibody.batched.batched_plant import BATCHED_INTEGRATION_SCHEMES, BatchedPlant

__all__ = ["BATCHED_INTEGRATION_SCHEMES", "BatchedPlant"]
