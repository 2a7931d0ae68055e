"""multibody.batched: many copies of one plant stepped together in compiled code.

- ``batched_plant``: `BatchedPlant`, N environments of a finalized plant as (N, nx)
  arrays (states, actuation, PD targets, per-env parameters);
- ``batched_step``: the kernel that advances a chunk of envs (semi-explicit Euler or an
  explicit Runge-Kutta tableau), using the shared position update
  `multibody.kernels.position_update`;
- ``batched_contact``: the plant's SAP-family point-contact step for one env, from the
  kernels the single plant calls;
- ``env_pool``: the threads that run the chunks (claimed one at a time; the kernels
  release the GIL).
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".batched_plant": ("BATCHED_INTEGRATION_SCHEMES", "BatchedPlant"),
})
