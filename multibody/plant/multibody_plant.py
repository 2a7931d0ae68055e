"""MultibodyPlant: the LeafSystem that owns a multibody tree and its compiled dynamics.

The plant is a facade: construction and lookups are forwarded to its
`multibody.tree.MultibodyTree` (``plant_construction``); at ``finalize()`` the tree is
compiled into a `CompiledModel`, a `TreeDynamics` (the numba kernels) is made for it, the
plant declares its state, body parameters, cache entries, ports and (discrete plant)
periodic update, and builds its `PlantCore` (``plant_core``), the one read-only object its
collaborators (contact manager, discrete steppers, controllers, BatchedPlant) use. The
method groups live in mixin modules:

==========================  ==========================================================
``plant_construction``      adding elements, names, indices, limits (the tree's)
``plant_settings``          contact model and solver settings
``plant_state``             q, v, free-body poses in a Context; the StateAccessor
``plant_parameters``        body mass, center of mass and unit inertia parameters
``plant_cache``             cache entries (kinematics, mass matrix, forward dynamics)
``plant_forces``            τ assembly, forward/inverse dynamics, time derivatives
``plant_queries``           poses, velocities, Jacobians, bias accelerations, N(q)
``plant_mass_properties``   center of mass, momentum, energy, power
``plant_ports``             input and output ports
``plant_linearization``     exact linearization of the continuous plant
``plant_geometry``          SceneGraph registration, collision filters, LCP solver choice
``plant_core``              `PlantCore`: the read-only core handed to the collaborators
``discrete_update``         the discrete step (the contact solvers' seam)
``discrete_solvers``        the registry of discrete solvers, by approximation name
``plant_kinematics_parity`` point velocities, CoM acceleration, gravity, inspector
``plant_selectors``         state/actuator selector matrices, kinematically affected bodies
``enums``                   ContactModel, DiscreteContactApproximation, BaseBodyJointType
==========================  ==========================================================
"""

import math
import numbers

import numpy as np

from merganser.framework import LeafSystem
from merganser.framework.keyword_check import lists_valid_keywords
from merganser.multibody.contact.contact_manager import ContactManager
from merganser.multibody.kernels import TreeDynamics
from merganser.multibody.plant.discrete_solvers import make_discrete_stepper
from merganser.multibody.plant.pd_controlled_actuators import PdControlledActuators
from merganser.multibody.plant.plant_core import PlantCore
from merganser.multibody.plant.plant_geometry import PlantGeometryMixin
from merganser.multibody.plant.plant_cache import PlantCacheMixin
from merganser.multibody.plant.plant_construction import PlantConstructionMixin
from merganser.multibody.plant.plant_added_mass import collect_added_mass_inertias
from merganser.multibody.plant.plant_element_parameters import PlantElementParametersMixin
from merganser.multibody.plant.plant_forces import PlantForcesMixin
from merganser.multibody.plant.plant_kinematics_parity import PlantKinematicsParityMixin
from merganser.multibody.plant.plant_linearization import PlantLinearizationMixin
from merganser.multibody.plant.plant_mass_properties import PlantMassPropertiesMixin
from merganser.multibody.plant.plant_parameters import PlantParametersMixin
from merganser.multibody.plant.plant_ports import PlantPortsMixin
from merganser.multibody.plant.plant_queries import PlantQueriesMixin
from merganser.multibody.plant.plant_selectors import PlantFloatingBaseMixin, PlantSelectorsMixin
from merganser.multibody.plant.plant_settings import PlantSettingsMixin
from merganser.multibody.plant.plant_state import PlantStateAccessor, PlantStateMixin
from merganser.multibody.plant.plant_tables import make_plant_tables
from merganser.multibody.tree import MultibodyTree, TreeLifecycleError

__all__ = ["MultibodyPlant"]


class _CacheEntries:
    """The plant's CacheEntry objects (set at finalize)."""

    __slots__ = ("state", "inertia", "position", "velocity", "mass_matrix", "forward_dynamics",
                 "acceleration")


class MultibodyPlant(PlantConstructionMixin, PlantSettingsMixin, PlantStateMixin,
                     PlantParametersMixin, PlantCacheMixin, PlantForcesMixin, PlantQueriesMixin,
                     PlantMassPropertiesMixin, PlantGeometryMixin, PlantPortsMixin,
                     PlantLinearizationMixin, PlantKinematicsParityMixin, PlantSelectorsMixin,
                     PlantFloatingBaseMixin, PlantElementParametersMixin, LeafSystem):
    """A multibody system: rigid bodies connected by joints, with forces and actuators.

    ::

                                   ┌──────────────────┐
        geometry_query ───────────>│                  │──> state, <instance>_state
        actuation ────────────────>│                  │──> body_poses
        <instance>_actuation ─────>│  MultibodyPlant  │──> body_spatial_velocities
        applied_generalized_force >│                  │──> body_spatial_accelerations
        applied_spatial_force ────>│                  │──> generalized_acceleration, ...
                                   │                  │──> net_actuation
                                   │                  │──> reaction_forces
                                   └──────────────────┘──> contact_results

    Every input is optional (unconnected applies nothing). All ports except
    ``geometry_query`` are declared by `finalize` (see `multibody.plant.plant_ports`).

    Parameters
    ----------
    time_step : float
        0 (default) for a continuous plant (state x = [q; v] integrated by the
        simulator); h > 0 for a discrete plant updated every h seconds.
    strict_inertia : bool, keyword-only
        Reject spatial inertias that violate the triangle inequality (instead of
        warning with InertiaValidityWarning).

    Notes
    -----
    Lifecycle: add model instances, bodies, frames, joints, actuators and force elements,
    then call `finalize`; afterwards the structure is fixed and every number (state, body
    mass properties) lives in a Context. The state is x = [q; v] with Drake's ordering;
    a free body has q = [qw qx qy qz x y z] and v = [w_WB_W; v_WBo_W]. The gravity field
    (``gravity_field()``) defaults to [0, 0, -9.81] m/s².
    """

    @lists_valid_keywords
    def __init__(self, time_step=0.0, *, strict_inertia=False):
        super().__init__()
        if isinstance(time_step, (bool, np.bool_)) or not isinstance(time_step, numbers.Real):
            raise TypeError(f"MultibodyPlant: time_step must be a real number (seconds; 0 for a "
                            f"continuous plant), got {type(time_step).__name__} {time_step!r}")
        h = float(time_step)
        if not (math.isfinite(h) and h >= 0.0):
            raise ValueError(f"MultibodyPlant: time_step must be finite and >= 0, got "
                             f"{time_step!r}")
        self._time_step = h
        self._tree = MultibodyTree(strict_inertia=strict_inertia)
        self._tree.set_state_accessor(PlantStateAccessor(self))
        self._init_settings()
        self._tables = None
        self._model = None
        self._core = None
        self._cache = _CacheEntries()
        self._stepper = None
        self._discrete_loop = None
        self._declare_geometry_ports()
        self._init_geometry()

    # ---- lifecycle ---------------------------------------------------------------------
    def time_step(self):
        """The discrete period h (s); 0 for a continuous plant."""
        return self._time_step

    def is_discrete(self):
        """True when time_step() > 0."""
        return self._time_step > 0.0

    def finalize(self):
        """Compile the tree and declare state, parameters, caches, ports and events.

        Raises
        ------
        TreeLifecycleError
            If called twice.
        TopologyError
            For loops or reversed joints (see ``MultibodyTree.finalize``). Massless
            bodies are accepted as in Drake; if they make M(q) singular, the dynamics
            raise `SingularDynamicsError`.
        """
        pd_controlled = [a.name() for a in self._tree._actuators if a.has_controller()]
        if pd_controlled and self._time_step == 0.0:
            raise RuntimeError(
                f"MultibodyPlant.finalize: actuators {pd_controlled} have PD controller "
                f"gains; PD-controlled actuators are only supported by discrete plants "
                f"(time_step > 0), got time_step=0")
        self._model = self._tree.finalize()
        self._tables = t = make_plant_tables(self._tree, self._time_step)
        self._pd_controlled_actuators = pd_controlled
        dyn = TreeDynamics(self._model, collect_added_mass_inertias(self._tree, self._model))
        dyn.node_joint_names = ("",) + tuple(
            self._tree.get_joint(self._tree._joint_of_node[k].index()).name()
            for k in range(1, self._model.nb))
        dyn.node_source_locations = ((None, None),) + tuple(
            (self._tree.get_body(int(self._model.body_index[k])).source_location(),
             self._tree._joint_of_node[k].source_location()) for k in range(1, self._model.nb))
        gravity = (np.array(self._tree.gravity_field().gravity_vector(), dtype=float)
                   if t.gravity_in_kernel else np.zeros(3))
        self._core = core = PlantCore(self, self._tree, self._model, t, dyn, self._cache,
                                      self._ports, gravity)
        if t.continuous:
            self.declare_continuous_state(t.nq, t.nv, 0)
            state_ticket = self.xc_ticket()
        else:
            self.declare_discrete_state(t.nq + t.nv)
            self.declare_periodic_discrete_update_event(t.time_step, 0.0,
                                                        self._discrete_update)
            state_ticket = self.xd_ticket()
        self._declare_body_parameters()
        self._declare_element_parameters()
        actuation_tickets, force_tickets = self._declare_input_ports()
        self._pd = core.pd_control = PdControlledActuators(
            self, self._tree, t, self._ports.instance_desired_state)
        query_ticket = [self.input_port_ticket(self._ports.geometry_query)]
        self._declare_cache_entries(state_ticket, actuation_tickets + force_tickets + query_ticket)
        # with PD-controlled actuators the net actuation is the step's (state, desired
        # state and contact dependent)
        self._declare_output_ports(state_ticket, [self.all_sources_ticket()]
                                   if self._pd.num_controlled else actuation_tickets)
        self._finalize_geometry(core)
        manager = ContactManager(core, state_ticket, actuation_tickets + force_tickets)
        self._contact_manager = core.contact_manager = manager
        self._ports.generalized_contact_forces = manager.generalized_contact_force_ports
        if not t.continuous:
            stepper, solver = make_discrete_stepper(core, manager,
                                                    self._discrete_contact_approximation,
                                                    self._tree.get_constraint_specs())
            manager.attach_stepper(solver, active=stepper is solver)
            self._stepper = core.stepper = stepper
        self._init_forward_dynamics_path()
        if not t.continuous:
            # loaded with the first discrete plant (its contact kernels' modules and the
            # SceneGraph's config models cost a continuous plant 0.15-0.2 s of import)
            from merganser.multibody.batched.plant_loop import PlantLoop

            self._discrete_loop = PlantLoop(core)
        core.freeze()

    def _make_context_tree(self):
        if not self._tree.is_finalized():
            raise TreeLifecycleError(
                "create_default_context() requires finalize(); call plant.finalize() before "
                "creating a context (or building a diagram's context)")
        return super()._make_context_tree()

    def _throw_if_finalized(self, fn):
        if self._tree.is_finalized():
            raise TreeLifecycleError(
                f"{fn}() after finalize() is not allowed; call it before finalize()")

    @property
    def _dyn(self):
        """The calling thread's kernel facade (see `PlantCore.dyn`)."""
        return self._core.dyn

    # ---- discrete update ---------------------------------------------------------------
    def _discrete_update(self, context, discrete_state):
        self._stepper.calc_next_state(context, discrete_state.get_mutable_value(0))

    def _repeat_discrete_update(self, context, event, groups, num_updates):
        # the Simulator's plain discrete loop: several steps in one compiled call
        # (`multibody.batched.plant_loop`), or none (the Simulator then steps)
        if (self._discrete_loop is None or event.callback != self._discrete_update
                or self._pd_controlled_actuators
                or self._context_element_overrides(context) is not None):
            return 0           # (the loop has no PD control, the model's damping and rotors)
        return self._discrete_loop.advance(context, groups[0], num_updates)

    def __repr__(self):
        state = "finalized" if self._tree.is_finalized() else "not finalized"
        return (f"<MultibodyPlant '{self.get_name()}' time_step={self._time_step} "
                f"({state}, {self._tree.num_bodies()} bodies)>")
