"""ContactManager: the plant's contact computations (created by the plant at finalize).

It declares the plant's contact cache entries and outputs and computes:

- the point contacts of the current state (``point contacts`` cache entry): the
  SceneGraph query's contact rows turned into contact pairs between bodies with
  combined parameters (`multibody.contact.contact_kernels.build_contacts`);
- for a continuous plant, the penalty forces added to the forward dynamics;
- for a discrete plant, the contact/constraint step (``discrete contact step`` cache
  entry) of the solver the plant chose from its registry
  (`multibody.plant.discrete_solvers`), attached with `ContactManager.attach_stepper`;
- the ``contact_results`` and ``<instance>_generalized_contact_forces`` outputs;
- a once-per-plant `PenetrationWarning` when a contact of a discrete step is deeper than
  its geometry's own size (the time step is too large: bodies pass through each other).
"""

import functools
import math
import os
import sys
import warnings

import numpy as np

from merganser.geometry import Box, Capsule, Convex, Cylinder, Ellipsoid, Mesh, Sphere

from merganser.multibody.contact.contact_kernels import build_contacts, penalty_forces, point_velocity
from merganser.multibody.contact.contact_parameters import (
    estimate_penalty_defaults, geometry_parameter_arrays,
)
from merganser.multibody.contact.contact_results_builder import (
    continuous_contact_results, discrete_contact_results,
)
from merganser.multibody.plant.contact_results import ContactResults

__all__ = ["ContactManager", "PenetrationWarning", "PointContactSet", "geometry_size"]


class PointContactSet:
    """Point contacts of one state (arrays sized for `capacity`, first `nc` valid).

    Attributes
    ----------
    nc : int
    n_point : int
        The first n_point contacts are point-pair contacts (the rest, if any, are the
        quadrature points of hydroelastic surfaces).
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
        self.n_point = 0
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


_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PACKAGE_DIRS = tuple(os.path.join(_ROOT, d) + os.sep
                      for d in ("framework", "geometry", "multibody", "controllers", "merganser"))


def _user_stacklevel():
    """Stack level of the first caller outside the merganser packages (for warnings)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIRS):
        frame, level = frame.f_back, level + 1
    return level


def geometry_size(shape):
    """The smallest extent (m) of a shape: a penetration deeper than this in one step
    means a body went (partly) through another (inf for a half space and for a
    zero-radius sphere, a contact point)."""
    if isinstance(shape, Box):
        return float(min(shape.size()))
    if isinstance(shape, Sphere):
        # a zero radius is a contact point: no thickness a body could pass through
        return 2.0 * shape.radius() if shape.radius() > 0.0 else math.inf
    if isinstance(shape, Cylinder):
        return min(2.0 * shape.radius(), shape.length())
    if isinstance(shape, Capsule):
        return 2.0 * shape.radius()
    if isinstance(shape, Ellipsoid):
        return 2.0 * min(shape.a(), shape.b(), shape.c())
    if isinstance(shape, (Mesh, Convex)):
        v = shape.convex_hull_vertices()
        return float(np.min(v.max(axis=0) - v.min(axis=0))) if v.size else math.inf
    return math.inf


class PenetrationWarning(RuntimeWarning):
    """A contact penetrated deeper than its geometry's own size in one step."""


class _GeometryTables:
    """Per proximity geometry (query table order): body node, contact parameters and
    size (`geometry_size`)."""

    def __init__(self, ids, node, k, d, tau, mu, size):
        self.ids = ids
        self.node = node
        self.k, self.d, self.tau, self.mu = k, d, tau, mu
        self.size = size
        self.min_size = float(size.min()) if size.size else math.inf


class ContactManager:
    """Contact computations of a finalized MultibodyPlant (see the module docstring).

    Parameters
    ----------
    core : PlantCore
        The plant's core (`multibody.plant.plant_core`).
    state_ticket : DependencyTicket
    input_tickets : list
        The actuation and applied-force inputs' tickets.
    """

    def __init__(self, core, state_ticket, input_tickets):
        self.core = core
        plant = self.plant = core.plant
        t = core.tables
        g = np.linalg.norm(core.tree.gravity_field().gravity_vector())
        total_mass = sum(plant.get_body(b).default_mass() for b in range(1, plant.num_bodies()))
        self._defaults = estimate_penalty_defaults(total_mass, g,
                                                   plant.get_penetration_allowance())
        self.has_geometry = core.has_collision
        self.continuous_active = t.continuous and self.has_geometry
        self._geometry_tables = None
        self._hydroelastic_model = plant.get_contact_model() != "point"
        self._warn_token = [True]       # popped by the one penetration warning (atomic)
        constraints = core.tree.get_constraint_specs()
        if constraints and t.continuous:
            raise ValueError(
                f"MultibodyPlant.finalize: the plant has {len(constraints)} constraint(s), "
                f"which need a discrete plant (time_step > 0) with a SAP, similar, lagged or "
                f"lcp discrete_contact_approximation; got a continuous plant (time_step 0)")
        query_ticket = plant.input_port_ticket(core.ports.geometry_query)
        self._contacts = plant.declare_cache_entry(
            "point contacts", PointContactSet, self._calc_point_contacts,
            [state_ticket, query_ticket])
        self._hydro = None
        if self.has_geometry and self._hydroelastic_model:
            from merganser.multibody.contact.hydroelastic_forces import HydroelasticContacts
            self._hydro = HydroelasticContacts(self, [state_ticket, query_ticket])
        self.step = None
        self.stepper = None
        self.step_active = False
        self._declare_generalized_contact_force_ports(state_ticket, input_tickets, query_ticket)

    def attach_stepper(self, stepper, active):
        """Called once by the plant's finalize: the discrete solver's stepper, and whether
        the plant steps with it (collision geometry or constraints)."""
        self.stepper = stepper
        self.step = stepper.entry
        self.step_active = bool(active)

    def point_contacts_ticket(self):
        """The ``point contacts`` cache entry's ticket."""
        return self._contacts.ticket()

    def penalty_defaults(self):
        return self._defaults

    # ---- geometry tables -----------------------------------------------------------------
    def geometry_tables(self, ids):
        """The `_GeometryTables` of the proximity geometries `ids` (a query's table order)."""
        gt = self._geometry_tables
        if gt is not None and gt.ids is ids:
            return gt
        plant, core = self.plant, self.core
        # (no geometry: the tables are empty, and a plant without a SceneGraph has none)
        inspector = core.scene_graph.model_inspector() if len(ids) else None
        node_of_body = core.tables.node_of_body
        node = np.zeros(len(ids), np.int64)
        size = np.zeros(len(ids))
        for i, g in enumerate(ids):
            b = core.geometry_body.get(g)
            if b is None:
                # another source's geometry: fixed obstacle (world) unless on a plant body
                body = plant.get_body_from_frame_id(inspector.get_frame_id(g))
                b = 0 if body is None else body.index()
            node[i] = node_of_body[b]
            size[i] = geometry_size(inspector.get_shape(g))
        k, d, tau, mu = geometry_parameter_arrays(inspector, ids, self._defaults)
        gt = _GeometryTables(ids, node, k, d, tau, mu, size)
        self._geometry_tables = gt      # a memo of immutable tables (any thread's is right)
        return gt

    # ---- point contacts ---------------------------------------------------------------------
    def _calc_point_contacts(self, context, pcs):
        pcs.nc = pcs.n_point = 0
        if not self.has_geometry:
            return
        port = self.core.ports.geometry_query
        if not port.has_value(context):       # not connected nor fixed
            return
        query = port.eval(context)
        if query is None:
            return
        hydro = self._hydro is not None
        if hydro:
            st = self._hydro.eval(context)  # before the point query (shared work arrays)
        ids, rows, pairs = query._contact_point_arrays()
        if hydro:
            rows, pairs = self._hydro.filter_point_rows(st, rows, pairs)
        gt = self._geometry_tables
        if gt is None or gt.ids is not ids:
            gt = self.geometry_tables(ids)
        n = rows.shape[0]
        if pcs.node_a.shape[0] < n:
            pcs._alloc(2 * n)
        pcs.ids = ids
        pcs.nc = pcs.n_point = build_contacts(
            rows, pairs, gt.node, gt.k, gt.d, gt.tau, gt.mu, pcs.node_a, pcs.node_b, pcs.p_WC,
            pcs.R_WC, pcs.phi0, pcs.k, pcs.d, pcs.tau, pcs.mu, pcs.geom_a, pcs.geom_b,
            pcs.rows)
        if hydro and not self.core.tables.continuous:
            from merganser.multibody.contact.hydroelastic_forces import append_point_contacts
            append_point_contacts(st, pcs, gt)

    def eval_point_contacts(self, context):
        return self._contacts.eval(context)

    # ---- penetration check -----------------------------------------------------------------
    def penetration_check_depth(self, ids):
        """The depth above which `check_penetration` looks further at a step's contacts
        (the smallest size of the proximity geometries `ids`, a query's table order), or
        inf once the warning was given (the check is then skipped)."""
        return self.geometry_tables(ids).min_size if self._warn_token else math.inf

    def check_penetration(self, context, res, x_next):
        """Warn once (`PenetrationWarning`) when a point contact of the step's state is
        deeper than the smaller of its two geometries while the bodies approach each
        other by more than that size in one step (a body went through another within
        one time step; a deep initial penetration at rest does not warn)."""
        if not self._warn_token or res.nc == 0:
            return
        pcs = self._contacts.eval(context)
        n = pcs.n_point
        if n == 0:
            return
        gt = self.geometry_tables(pcs.ids)
        if -pcs.phi0[:n].min() <= gt.min_size:      # the common case: one compare
            return
        depth = -pcs.phi0[:n]
        limit = np.minimum(gt.size[pcs.geom_a[:n]], gt.size[pcs.geom_b[:n]])
        deep = np.flatnonzero(depth > limit)
        if not deep.size:
            return
        V = self.core.eval_V_WB(context)
        X = self.core.eval_X_WB(context)
        h = self.core.time_step
        fast = []
        for i in deep:
            px, py, pz = pcs.p_WC[i]
            va = point_velocity(X, V, pcs.node_a[i], px, py, pz)
            vb = point_velocity(X, V, pcs.node_b[i], px, py, pz)
            n = pcs.R_WC[i, :, 2]
            approach = abs(sum((vb[c] - va[c]) * n[c] for c in range(3))) * h
            if approach > limit[i]:
                fast.append(int(i))
        if not fast:
            return
        try:
            self._warn_token.pop()
        except IndexError:              # another thread warned first
            return
        i = max(fast, key=lambda j: depth[j] / limit[j])
        inspector = self.core.scene_graph.model_inspector()
        ga, gb = pcs.ids[pcs.geom_a[i]], pcs.ids[pcs.geom_b[i]]
        body_of_node = self.core.tables.body_of_node
        ba = self.plant.get_body(int(body_of_node[pcs.node_a[i]])).name()
        bb = self.plant.get_body(int(body_of_node[pcs.node_b[i]])).name()
        warnings.warn(
            f"MultibodyPlant '{self.plant.get_name()}' at t = {context.get_time():.6g} s: the "
            f"contact between geometry '{inspector.get_name(ga)}' (body '{ba}') and geometry "
            f"'{inspector.get_name(gb)}' (body '{bb}') penetrates {depth[i]:.6g} m, deeper than "
            f"the geometry's own size {limit[i]:.6g} m, within one time step of "
            f"{self.core.time_step} s ('{self.stepper.approximation}'); the bodies pass through "
            f"each other. Remedy: reduce the time step (to well below the time a body takes to "
            f"cross its own size) or use discrete_contact_approximation 'sap' or 'tamsi'. "
            f"(warned once per plant)", PenetrationWarning, stacklevel=_user_stacklevel())

    # ---- continuous ------------------------------------------------------------------------
    def _penalty(self, context, F):
        core = self.core
        pcs = self._contacts.eval(context)
        nc = pcs.nc
        f = np.zeros((nc, 3))
        vc = np.zeros((nc, 3))
        if nc:
            penalty_forces(nc, pcs.node_a, pcs.node_b, pcs.p_WC, pcs.R_WC, pcs.phi0, pcs.k,
                           pcs.d, pcs.mu, self.plant.get_stiction_tolerance(),
                           core.eval_X_WB(context), core.eval_V_WB(context), F, f, vc)
        if self._hydro is not None:
            self._hydro.add_forces(context, F)
        return pcs, f, vc

    def add_penalty_forces(self, context, fd):
        """Add the penalty contact forces at the body origins to fd.F_Bo_W (node order)."""
        pcs = self._contacts.eval(context)
        if pcs.nc == 0 and (self._hydro is None or not self._hydro.has_surfaces(context)):
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
            F = np.zeros((self.core.tables.nb, 6))
            pcs, f, vc = self._penalty(context, F)
            results = continuous_contact_results(self.core, pcs, f, vc)
            if self._hydro is not None:
                self._hydro.add_results(context, results)
            return results
        results = discrete_contact_results(self.core, self._contacts.eval(context),
                                           self.step.eval(context))
        if self._hydro is not None:
            from merganser.multibody.contact.hydroelastic_forces import discrete_hydroelastic_results
            results = discrete_hydroelastic_results(self._hydro, context,
                                                    self._contacts.eval(context), results)
        return results

    def calc_generalized_contact_forces(self, context):
        """Generalized contact (and constraint) forces τ_c (nv,)."""
        core = self.core
        t = core.tables
        if self.step is not None:
            if not self.step_active:
                return np.zeros(t.nv)
            return self.step.eval(context).tau_contact
        if not self.continuous_active:
            return np.zeros(t.nv)
        F = np.zeros((t.nb, 6))
        self._penalty(context, F)
        q, _ = core.eval_q_v(context)
        zeros = np.zeros(t.nv)
        return -core.dyn.inverse_dynamics(q, zeros, zeros, core.eval_I10(context),
                                          np.zeros(3), F).copy()

    def _declare_generalized_contact_force_ports(self, state_ticket, input_tickets,
                                                 query_ticket):
        plant = self.plant
        t = self.core.tables
        tickets = [state_ticket, query_ticket] + list(input_tickets)
        self.generalized_contact_force_ports = tuple(
            plant.declare_vector_output_port(
                f"{plant.get_model_instance_name(mi)}_generalized_contact_forces",
                len(t.v_indices[mi]), functools.partial(self._calc_instance_forces, mi),
                tickets)
            for mi in range(plant.num_model_instances()))

    def _calc_instance_forces(self, model_instance, context, output):
        tau = self.calc_generalized_contact_forces(context)
        output.get_mutable_value()[:] = tau[self.core.tables.v_indices[model_instance]]
