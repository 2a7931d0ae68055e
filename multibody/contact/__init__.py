"""multibody.contact: the plant's contact and constraint pipeline.

- ``contact_manager``: the contact cache entries and outputs of a finalized plant;
- ``contact_parameters``: per-geometry parameters, defaults and combination rules;
- ``contact_kernels``: contact pairs, contact Jacobians and penalty forces (numba);
- ``discrete_stepper``: the discrete step and its solver interface, with the solvers
  ``sap`` (also "similar" and "lagged"), ``tamsi`` and ``lcp`` (Lemke and
  Fischer-Burmeister), ``sap_step`` (the SAP-family step in one compiled call),
  ``constraints`` and ``constraint_kernels`` (coupler, distance, ball, weld rows and
  their regularization) and ``linalg`` (dense kernels);
- ``contact_results_builder``: ContactResults from the pipeline's arrays.
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".errors": ("ContactSolverError",),
})
