"""PlantCore: the read-only view of a finalized MultibodyPlant that its collaborators use.

At ``finalize()`` the plant builds one `PlantCore` and hands it to the contact manager,
the discrete steppers, the controllers' control model and `BatchedPlant` (Drake's
``internal::MultibodyTreeSystem`` seam); none of them reads the plant's private
attributes. It holds what the plant derived once:

==================  ======================================================================
``plant``           the MultibodyPlant itself (for its public API)
``tree``            the `MultibodyTree` (force elements, gravity field, constraint specs)
``model``           the `CompiledModel`
``ip``, ``fp``      the model packed once for the kernels (`kernels.layout.pack_model`)
``added_mass``      the added-mass spatial inertias (nb, 6, 6) or None
``tables``          the `PlantTables` (sizes, index sets, flags)
``time_step``       the discrete period h (0: continuous), the one copy after finalize
``cache``           the plant's CacheEntry objects (state, inertia, kinematics, ...)
``ports``           the plant's ports (a namespace)
``scene_graph``     the SceneGraph the plant registered with, or None
``geometry_body``   GeometryId -> body index of the plant's geometries
``has_collision``   whether some body has collision geometry
``gravity``         g (3,) as the kernels take it (zero when gravity is applied as forces)
``stepper``         the discrete stepper chosen at finalize (see ``discrete_solvers``)
``contact_manager`` the `ContactManager` (point contacts, contact results, penalty forces)
``pd_control``      the `PdControlledActuators` (desired-state ports, gains)
``one_call_forward_dynamics``  whether v̇ is one compiled ABA call on the actuation
==================  ======================================================================

``dyn`` is the kernel facade `TreeDynamics` of the calling thread: its scratch and output
arrays are per thread (the packed model is shared), so one plant can be evaluated on many
contexts from many threads at once. After ``finalize()`` the core is frozen: assigning an
attribute raises.
"""

import threading

import numpy as np

from merganser.multibody.plant.plant_element_parameters import locked_step_mass_matrix

__all__ = ["PlantCore", "get_plant_core"]


class _ThreadDynamics(threading.local):
    """One `TreeDynamics` per thread, forked from a prototype (shared packed model)."""

    def __init__(self, prototype):
        self.dyn = prototype.fork()

    def __reduce__(self):
        # A copy (pickling, deepcopy) starts from this thread's facade as prototype.
        return (_ThreadDynamics, (self.dyn,))


class PlantCore:
    """The read-only core of a finalized plant (see the module docstring)."""

    __slots__ = ("plant", "tree", "model", "ip", "fp", "added_mass", "tables", "time_step",
                 "cache", "ports", "scene_graph", "geometry_body", "has_collision", "gravity",
                 "stepper", "contact_manager", "one_call_forward_dynamics", "pd_control",
                 "_per_thread",
                 "_frozen")

    def __init__(self, plant, tree, model, tables, dynamics, cache, ports, gravity):
        s = object.__setattr__
        s(self, "_frozen", False)
        self.plant, self.tree, self.model, self.tables = plant, tree, model, tables
        self.ip, self.fp = dynamics.packed_model
        self.added_mass = dynamics.M_added
        self.time_step = tables.time_step
        self.cache, self.ports = cache, ports
        self.gravity = gravity
        self.scene_graph = None
        self.geometry_body = {}
        self.has_collision = False
        self.stepper = None
        self.contact_manager = None
        self.one_call_forward_dynamics = False
        self.pd_control = None
        self._per_thread = _ThreadDynamics(dynamics)

    def freeze(self):
        """Make the core read-only (called once at the end of ``finalize()``)."""
        object.__setattr__(self, "_frozen", True)

    def __getstate__(self):
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state):
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        if self._frozen:
            raise AttributeError(f"PlantCore is read-only after finalize(); cannot set {name!r}")
        object.__setattr__(self, name, value)

    @property
    def dyn(self):
        """The calling thread's `TreeDynamics` (returned arrays are overwritten by its
        next call of the same method: copy what must be kept)."""
        return self._per_thread.dyn

    # ---- per-context values (arrays owned by the Context's cache; not to be modified) -----
    def eval_state(self, context):
        """The `StateCopy` (x, q, v views) of the plant's own `context`."""
        return self.cache.state.eval(context)

    def eval_q_v(self, context):
        """(q, v) of the plant's own `context`."""
        s = self.cache.state.eval(context)
        return s.q, s.v

    def eval_I10(self, context):
        """Inertial parameters (nb, 10) of `context`, node order."""
        return self.cache.inertia.eval(context).I10

    def eval_X_WB(self, context):
        """Body poses (nb, 4, 4) of `context`, node order."""
        return self.cache.position.eval(context).X_WB

    def eval_V_WB(self, context):
        """Body spatial velocities (nb, 6) of `context`, node order."""
        return self.cache.velocity.eval(context).V_WB

    def eval_forward_dynamics(self, context):
        """The `ForwardDynamicsCache` (vdot, u, tau, F_Bo_W) of `context`."""
        return self.cache.forward_dynamics.eval(context)

    def eval_mass_matrix(self, context):
        """M(q) (nv, nv) of `context` (reflected inertia included)."""
        return self.cache.mass_matrix.eval(context).M

    def eval_active_constraints(self, context):
        """The constraints' active flags of `context` (bool (n,), one per constraint in id
        order, not to be modified), or None when the plant has no constraints."""
        return self.plant._active_constraints(context)

    def eval_locked_velocities(self, context):
        """The velocity indices (int64) of the joints locked in `context`, or None."""
        return self.plant._locked_velocities(context)

    def eval_pd_terms(self, context):
        """The `PdTerms` of the PD controllers armed in `context` (on joints not locked),
        or None (`multibody.plant.pd_controlled_actuators`)."""
        return self.pd_control.eval_terms(context, self.plant._locked_velocities(context))

    def eval_actuation_input(self, context):
        """The summed actuation inputs u_ff (nu,) of `context` (read-only)."""
        return self.plant._net_actuation(context, np.empty(self.tables.nu))

    def eval_step_mass_matrix(self, context):
        """M(q) as the discrete solvers take it: `eval_mass_matrix`, or, with joints
        locked, a copy with the locked velocities decoupled and very heavy."""
        M = self.cache.mass_matrix.eval(context).M
        locked = self.plant._locked_velocities(context)
        return M if locked is None else locked_step_mass_matrix(M, locked)

    def eval_distance_constraint_overrides(self, context):
        """``{position in the constraint specs: DistanceConstraintSpec}`` of the distance
        constraints whose parameters `context` changed (empty when none; not to be
        modified)."""
        return self.plant._distance_constraint_overrides(context)

    def constraint_status_tickets(self):
        """The tickets to depend on for the constraints' per-Context values (their active
        flags and distance parameters; [] without constraints)."""
        return self.plant._constraint_tickets()

    def default_positions(self):
        """The default q (nq,) as a float64 array."""
        return np.ascontiguousarray(self.plant.get_default_positions(), dtype=float)


def get_plant_core(plant):
    """The `PlantCore` of a finalized MultibodyPlant (Drake's ``GetInternalTree``).

    Raises
    ------
    TypeError
        If `plant` is not a MultibodyPlant.
    RuntimeError
        If the plant is not finalized.
    """
    core = getattr(plant, "_core", _MISSING)
    if core is _MISSING:
        raise TypeError(f"get_plant_core: plant must be a MultibodyPlant, got "
                        f"{type(plant).__name__}")
    if core is None:
        raise RuntimeError(f"get_plant_core: plant '{plant.get_name()}' is not finalized; "
                           f"call plant.finalize() first")
    return core


_MISSING = object()
