"""MultibodyForces: a set of generalized forces and body spatial forces for one plant
(Drake's MultibodyForces)."""

import numpy as np

__all__ = ["MultibodyForces"]


class MultibodyForces:
    """Forces applied to a finalized plant: generalized forces τ (nv,) and, per body, a
    spatial force F_Bo_W applied at the body origin Bo, expressed in the world frame W.

    Parameters
    ----------
    plant : MultibodyPlant
        A finalized plant (or any object with ``num_velocities()`` and ``num_bodies()``).
    nb, nv : int
        Instead of `plant` (pydrake's standalone constructor ``MultibodyForces(nb=, nv=)``):
        the number of bodies (world included) and of generalized velocities.

    Notes
    -----
    The arrays returned by `generalized_forces` and `body_forces` are the object's own
    storage: write into them to apply forces. Body forces are in body-index order (row
    ``body.index()``, world included), spatial vectors [torque; force].

    ``plant.calc_force_elements_contribution(context, forces)`` may leave these forces
    *lazy* (when gravity is the only force element): they then hold a copy of the
    context's state and inertial parameters, and their values are computed from that copy
    when first read (any method here, a copy or a pickle), or by
    ``plant.calc_inverse_dynamics`` in its own kernel call. Either way they are the values
    the plant would have written at the time of the call, to the bit.
    """

    __slots__ = ("_tau", "_F_Bo_W", "_lazy", "_sized_for", "_snap_qv", "_snap_q", "_snap_v",
                 "_snap_I10", "_lazy_call")

    def __init__(self, plant=None, *, nb=None, nv=None):
        if plant is None:
            if nb is None or nv is None:
                raise TypeError("MultibodyForces: expected plant, or both nb= and nv=, got "
                                f"plant=None, nb={nb!r}, nv={nv!r}")
            nb, nv = int(nb), int(nv)
            if nb < 0 or nv < 0:
                raise ValueError(f"MultibodyForces: nb and nv must be >= 0, got nb={nb}, "
                                 f"nv={nv}")
        else:
            if nb is not None or nv is not None:
                raise TypeError("MultibodyForces: give plant or (nb=, nv=), not both")
            if hasattr(plant, "is_finalized") and not plant.is_finalized():
                raise RuntimeError("MultibodyForces: the plant must be finalized first; call "
                                   "plant.finalize()")
            nb, nv = int(plant.num_bodies()), int(plant.num_velocities())
        self._tau = np.zeros(nv)
        self._F_Bo_W = np.zeros((nb, 6))
        self._clear_lazy()

    # ---- the lazy contribution (see the class notes) -------------------------------------
    def _clear_lazy(self):
        # _lazy: None, or the plant's QueryTables whose ``materialize_forces`` computes the
        # values from the snapshot (_snap_*, made by the plant; _sized_for: the
        # QueryTables these arrays were checked against and the snapshot sized for;
        # _lazy_call: None, or (Context, QueryTables, its kernels bound to that Context and
        # to these arrays: query_tables.bind_lazy_forces)).
        self._lazy = None
        self._lazy_call = None
        self._sized_for = None
        self._snap_qv = self._snap_q = self._snap_v = self._snap_I10 = None

    def _materialize(self):
        tables = self._lazy
        self._lazy = None
        tables.materialize_forces(self)

    def __getstate__(self):
        if self._lazy is not None:
            self._materialize()
        return (self._tau, self._F_Bo_W)

    def __setstate__(self, state):
        self._tau, self._F_Bo_W = state
        self._clear_lazy()

    def num_velocities(self):
        """nv, the size of `generalized_forces`."""
        return self._tau.shape[0]

    def num_bodies(self):
        """nb, the number of rows of `body_forces` (world included)."""
        return self._F_Bo_W.shape[0]

    def generalized_forces(self):
        """Generalized forces τ, shape (nv,), mutable."""
        if self._lazy is not None:
            self._materialize()
        return self._tau

    mutable_generalized_forces = generalized_forces

    def body_forces(self):
        """Spatial forces F_Bo_W per body (body-index order), shape (nb, 6), mutable."""
        if self._lazy is not None:
            self._materialize()
        return self._F_Bo_W

    mutable_body_forces = body_forces

    def set_zero(self):
        """Zero every force; returns self."""
        self._lazy = None
        self._tau[:] = 0.0
        self._F_Bo_W[:] = 0.0
        return self

    def add_in_forces(self, addend):
        """Add the forces of `addend` (a MultibodyForces of the same plant) into these
        (Drake's AddInForces; ``add_in_force`` is the same method)."""
        if not isinstance(addend, MultibodyForces):
            raise TypeError(
                f"MultibodyForces.add_in_forces: addend must be a MultibodyForces, got "
                f"{type(addend).__name__}")
        if addend._tau.shape != self._tau.shape or addend._F_Bo_W.shape != self._F_Bo_W.shape:
            raise ValueError(
                f"MultibodyForces.add_in_forces: addend has nv = {addend.num_velocities()}, "
                f"nb = {addend.num_bodies()}, expected nv = {self.num_velocities()}, "
                f"nb = {self.num_bodies()}")
        if self._lazy is not None:
            self._materialize()
        if addend._lazy is not None:
            addend._materialize()
        self._tau += addend._tau
        self._F_Bo_W += addend._F_Bo_W

    add_in_force = add_in_forces

    def check_has_right_size_for_model(self, plant):
        """True if these forces have the sizes of `plant` (nv and number of bodies)."""
        return (self._tau.shape[0] == plant.num_velocities()
                and self._F_Bo_W.shape[0] == plant.num_bodies())

    def __repr__(self):
        return f"MultibodyForces(nv={self.num_velocities()}, nb={self.num_bodies()})"
