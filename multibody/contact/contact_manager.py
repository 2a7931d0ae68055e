"""ContactManager: the plant's contact computations (created by the plant at finalize).

It declares the plant's contact cache entries and outputs and computes:

- the point contacts of the current state (``point contacts`` cache entry): the
  SceneGraph query's contact rows turned into contact pairs between bodies with
  combined parameters (`multibody.contact.contact_kernels.build_contacts`);
- for a continuous plant, the penalty forces added to the forward dynamics;
- for a discrete plant, the contact/constraint step (``discrete step`` cache entry) by
  the solver chosen with ``discrete_contact_approximation``, installed as the plant's
  discrete stepper (`multibody.contact.discrete_stepper.ContactStepper`);
- the ``contact_results`` and ``<instance>_generalized_contact_forces`` outputs.
"""

import functools

import numpy as np

from merganser.multibody.contact.contact_kernels import build_contacts, penalty_forces
from merganser.multibody.contact.contact_parameters import (
    estimate_penalty_defaults, geometry_parameter_arrays,
)
from merganser.multibody.contact.contact_results_builder import (
    continuous_contact_results, discrete_contact_results,
)
from merganser.multibody.plant.contact_results import ContactResults

__all__ = ["ContactManager", "PointContactSet"]


class PointContactSet:
    """Point contacts of one state (arrays sized for `capacity`, first `nc` valid).

    Attributes
    ----------
    nc : int
    node_a, node_b : ndarray (cap,) int64
        Nodes of bodies A and B.
    geom_a, geom_b : ndarray (cap,) int64
        Proximity-table indices of the geometries; ``ids`` maps them to GeometryIds.
    p_WC : ndarray (cap, 3)
        Contact points in W.
    R_WC : ndarray (cap, 3, 3)
        Contact frames (z from A into B).
    phi0 : ndarray (cap,)
        Signed distances (< 0).
    k, d, tau, mu : ndarray (cap,)
        Combined stiffness (N/m), Hunt & Crossley dissipation (s/m), relaxation time (s)
        and dynamic friction.
    rows : ndarray (cap, 10)
        The query rows (witness points, normal, signed distance) of each contact.
    """

    def __init__(self, capacity=8):
        self.nc = 0
        self.ids = ()
        self._alloc(capacity)

    def _alloc(self, cap):
        self.node_a = np.zeros(cap, np.int64)
        self.node_b = np.zeros(cap, np.int64)
        self.geom_a = np.zeros(cap, np.int64)
        self.geom_b = np.zeros(cap, np.int64)
        self.p_WC = np.zeros((cap, 3))
        self.R_WC = np.zeros((cap, 3, 3))
        self.phi0 = np.zeros(cap)
        self.k = np.zeros(cap)
        self.d = np.zeros(cap)
        self.tau = np.zeros(cap)
        self.mu = np.zeros(cap)
        self.rows = np.zeros((cap, 10))

    def capacity(self):
        return self.phi0.shape[0]


class _GeometryTables:
    """Per proximity geometry (query table order): body node and contact parameters."""

    def __init__(self, ids, node, k, d, tau, mu):
        self.ids = ids
        self.node = node
        self.k, self.d, self.tau, self.mu = k, d, tau, mu


class ContactManager:
    """Contact computations of a finalized MultibodyPlant (see the module docstring)."""

    def __init__(self, plant, state_ticket, input_tickets):
        self.plant = plant
        t = plant._tables
        self.time_step = t.time_step
        tree = plant._tree
        g = np.linalg.norm(tree.gravity_field().gravity_vector())
        total_mass = sum(plant.get_body(b).default_mass() for b in range(1, plant.num_bodies()))
        self._defaults = estimate_penalty_defaults(total_mass, g,
                                                   plant.get_penetration_allowance())
        self.has_geometry = bool(plant._collision_geometries)
        self.continuous_active = t.continuous and self.has_geometry
        self._geometry_tables = None
        constraints = tree.get_constraint_specs()
        approximation = plant.get_discrete_contact_approximation()
        if constraints:
            if t.continuous:
                raise ValueError(
                    f"MultibodyPlant.finalize: the plant has {len(constraints)} constraint(s), "
                    f"which need a discrete plant (time_step > 0) with a SAP, similar, lagged or "
                    f"lcp discrete_contact_approximation")
            if approximation == "tamsi":
                raise ValueError(
                    f"MultibodyPlant.finalize: discrete_contact_approximation 'tamsi' does not "
                    f"support constraints (the plant has {len(constraints)}); use 'sap', "
                    f"'similar', 'lagged' or 'lcp'")
        query_ticket = plant.input_port_ticket(plant._ports.geometry_query)
        self._contacts = plant.declare_cache_entry(
            "point contacts", PointContactSet, self._calc_point_contacts,
            [state_ticket, query_ticket])
        self._hydro = None
        if self.has_geometry and plant.get_contact_model() != "point":
            from merganser.multibody.contact.hydroelastic_forces import HydroelasticContacts
            self._hydro = HydroelasticContacts(self, [state_ticket, query_ticket])
        self.step = None
        if not t.continuous:
            from merganser.multibody.contact.discrete_stepper import ContactStepper
            stepper = ContactStepper(plant, approximation, constraints)
            self.step = plant.declare_cache_entry(
                "discrete contact step", stepper.make_results, stepper.calc_results,
                [self._contacts.ticket(), plant._cache.forward_dynamics.ticket(),
                 plant._cache.mass_matrix.ticket()])
            stepper.set_cache_entry(self.step)
            self.stepper = stepper
            if self.has_geometry or constraints:
                plant._set_discrete_stepper(stepper)
        self._declare_generalized_contact_force_ports(state_ticket, input_tickets, query_ticket)

    def penalty_defaults(self):
        return self._defaults

    # ---- geometry tables -----------------------------------------------------------------
    def _tables_for(self, ids):
        gt = self._geometry_tables
        if gt is not None and gt.ids is ids:
            return gt
        plant = self.plant
        inspector = plant._scene_graph.model_inspector()
        node_of_body = plant._tables.node_of_body
        node = np.zeros(len(ids), np.int64)
        for i, g in enumerate(ids):
            b = plant._geometry_body.get(g)
            if b is None:
                # another source's geometry: fixed obstacle (world) unless on a plant body
                body = plant.get_body_from_frame_id(inspector.get_frame_id(g))
                b = 0 if body is None else body.index()
            node[i] = node_of_body[b]
        k, d, tau, mu = geometry_parameter_arrays(inspector, ids, self._defaults)
        self._geometry_tables = gt = _GeometryTables(ids, node, k, d, tau, mu)
        return gt

    # ---- point contacts ---------------------------------------------------------------------
    def _calc_point_contacts(self, context, pcs):
        pcs.nc = 0
        if not self.has_geometry:
            return
        port = self.plant._ports.geometry_query
        if context._inputs[port._index] is None:       # not connected nor fixed
            return
        query = port.eval(context)
        if query is None:
            return
        hydro = self._hydro is not None and self.plant._contact_model != "point"
        if hydro:
            self._hydro.eval(context)  # before the point query (shared work arrays)
        ids, rows, pairs = query._contact_point_arrays()
        if hydro:
            rows, pairs = self._hydro.filter_point_rows(context, rows, pairs)
        gt = self._geometry_tables
        if gt is None or gt.ids is not ids:
            gt = self._tables_for(ids)
        n = rows.shape[0]
        if pcs.node_a.shape[0] < n:
            pcs._alloc(2 * n)
        pcs.ids = ids
        pcs.nc = build_contacts(rows, pairs, gt.node, gt.k, gt.d, gt.tau, gt.mu, pcs.node_a,
                                pcs.node_b, pcs.p_WC, pcs.R_WC, pcs.phi0, pcs.k, pcs.d, pcs.tau,
                                pcs.mu, pcs.geom_a, pcs.geom_b, pcs.rows)
        if hydro and not self.plant._tables.continuous:
            from merganser.multibody.contact.hydroelastic_forces import append_point_contacts
            append_point_contacts(self._hydro, context, pcs, gt)

    def eval_point_contacts(self, context):
        return self._contacts.eval(context)

    # ---- continuous ------------------------------------------------------------------------
    def _penalty(self, context, F):
        plant = self.plant
        pcs = self._contacts.eval(context)
        nc = pcs.nc
        f = np.zeros((nc, 3))
        vc = np.zeros((nc, 3))
        if nc:
            penalty_forces(nc, pcs.node_a, pcs.node_b, pcs.p_WC, pcs.R_WC, pcs.phi0, pcs.k,
                           pcs.d, pcs.mu, plant.get_stiction_tolerance(),
                           plant._eval_X_WB(context), plant._eval_V_WB(context), F, f, vc)
        if self._hydro is not None and plant.get_contact_model() != "point":
            self._hydro.add_forces(context, F)
        return pcs, f, vc

    def add_penalty_forces(self, context, fd):
        """Add the penalty contact forces at the body origins to fd.F_Bo_W (node order)."""
        pcs = self._contacts.eval(context)
        if pcs.nc == 0 and (self._hydro is None or self.plant.get_contact_model() == "point"
                            or not self._hydro.has_surfaces(context)):
            return
        if not fd.has_F:
            fd.F_Bo_W[:] = 0.0
        self._penalty(context, fd.F_Bo_W)
        fd.has_F = True

    # ---- outputs ---------------------------------------------------------------------------
    def calc_contact_results(self, context):
        """ContactResults of the state in `context` (forces of the contact model)."""
        if not self.has_geometry:
            return ContactResults()
        if self.step is None:
            F = np.zeros((self.plant._tables.nb, 6))
            pcs, f, vc = self._penalty(context, F)
            results = continuous_contact_results(self.plant, pcs, f, vc)
            if self._hydro is not None and self.plant.get_contact_model() != "point":
                self._hydro.add_results(context, results)
            return results
        results = discrete_contact_results(self.plant, self._contacts.eval(context),
                                           self.step.eval(context))
        if self._hydro is not None and self.plant.get_contact_model() != "point":
            from merganser.multibody.contact.hydroelastic_forces import discrete_hydroelastic_results
            results = discrete_hydroelastic_results(self._hydro, context,
                                                    self._contacts.eval(context), results)
        return results

    def calc_generalized_contact_forces(self, context):
        """Generalized contact (and constraint) forces τ_c (nv,)."""
        plant = self.plant
        t = plant._tables
        if self.step is not None:
            if plant._stepper is not self.stepper:
                return np.zeros(t.nv)
            return self.step.eval(context).tau_contact
        if not self.continuous_active:
            return np.zeros(t.nv)
        F = np.zeros((t.nb, 6))
        self._penalty(context, F)
        q, _ = plant._eval_q_v(context)
        zeros = np.zeros(t.nv)
        return -plant._dyn.inverse_dynamics(q, zeros, zeros, plant._eval_I10(context),
                                            np.zeros(3), F).copy()

    def _declare_generalized_contact_force_ports(self, state_ticket, input_tickets,
                                                 query_ticket):
        plant = self.plant
        t = plant._tables
        tickets = [state_ticket, query_ticket] + list(input_tickets)
        ports = []
        for mi in range(plant.num_model_instances()):
            name = plant.get_model_instance_name(mi)
            ports.append(plant.declare_vector_output_port(
                f"{name}_generalized_contact_forces", len(t.v_indices[mi]),
                functools.partial(self._calc_instance_forces, mi), tickets))
        plant._ports.generalized_contact_forces = ports

    def _calc_instance_forces(self, model_instance, context, output):
        tau = self.calc_generalized_contact_forces(context)
        output.get_mutable_value()[:] = tau[self.plant._tables.v_indices[model_instance]]
