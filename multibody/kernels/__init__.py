"""Compiled rigid-body dynamics kernels (numba) and their Python facade.

The kernels read the packed arrays of a `multibody.tree.compiled_model.CompiledModel`
and take only arrays; `TreeDynamics` is the facade that owns the scratch buffers.
Modules, one concept each:

- ``layout``: packed model tables, workspace columns, the kernel decorators;
- ``spatial``, ``inertia``: 6D vector and spatial-inertia helpers;
- ``joints`` (jcalc), ``joint_velocity_maps`` (q̇ = N(q) v);
- ``kinematics``, ``rnea``, ``crba``, ``aba``, ``jacobians``, ``center_of_mass``,
  ``momentum_energy``: the algorithms;
- ``added_mass``: the added-mass (hydrodynamic) terms of RNEA, CRBA and ABA;
- ``position_update``: q_{n+1} = q_n + h N(q_n) v_{n+1} of every discrete step;
- ``batch`` (parallel over states), ``derivatives`` (exact derivatives);
- ``tree_dynamics`` (the facade `TreeDynamics`), with ``arguments``,
  ``tree_dynamics_batch`` and ``tree_dynamics_derivatives`` (its argument checks and
  method groups).
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".arguments": ("DynamicsArgumentError",),
    ".tree_dynamics": ("TreeDynamics",),
})
