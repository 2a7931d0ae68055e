"""The discrete step of a plant with contact and constraints: one solver interface, four
solvers.

Every solver gets the same problem: the mass matrix M, the free-motion velocity
v* = v + h v̇(q, v, u) (all non-contact forces), the current velocity v₀ (initial guess),
the contact Jacobian J (3 nc rows in the contact frames) with the bilateral constraint
rows below it, the signed distances φ₀ and the combined contact parameters (k, d, τ, μ)
and the constraint values g. The SAP family and TAMSI assemble and solve it in one
compiled call (`multibody.contact.sap_step.sap_step`, `multibody.contact.tamsi.tamsi_step`)
on work arrays kept by the stepper; ``lcp`` takes it as a `DiscreteProblem`. The solvers
differ only in how they find the impulses γ and v_{n+1} = v* + M⁻¹ Jᵀ γ:

==============  ===========================================================================
``sap``         convex SAP (`multibody.contact.sap`), Kelvin-Voigt dissipation (τ)
``similar``     SAP's Newton on the "similar" Hunt & Crossley approximation (d)
``lagged``      SAP's Newton on the "lagged" Hunt & Crossley approximation (d)
``tamsi``       TAMSI Newton-Raphson (`multibody.contact.tamsi`), Hunt & Crossley (d);
                no constraints
``lcp``         Stewart-Trinkle / Anitescu-Potra complementarity with a polyhedral
                cone (`multibody.contact.lcp`), Lemke or Fischer-Burmeister
==============  ===========================================================================

Then q_{n+1} = q_n + h N(q_n) v_{n+1} (quaternions re-normalized). A solver that does not
converge raises `ContactSolverError` naming the time, the solver, the residual and a
remedy; the context is not modified.
"""

import math

import numpy as np

from merganser.multibody.contact.constraints import ConstraintRows
from merganser.multibody.contact.contact_kernels import contact_jacobian, pose_pass
from merganser.multibody.contact.errors import ContactSolverError
from merganser.multibody.contact.lcp import lcp_solve
from merganser.multibody.contact.position_update import next_state
from merganser.multibody.contact.problem_kernels import generalized_impulse
from merganser.multibody.contact.sap import LAGGED, SAP, SIMILAR
from merganser.multibody.contact.sap_step import CONSTRAINT_WORK_ROWS, CONTACT_WORK_ROWS, sap_step
from merganser.multibody.contact.tamsi import tamsi_step
from merganser.multibody.kernels.layout import make_workspace, pack_model
from merganser.multibody.plant.discrete_update import DiscreteStepper

__all__ = ["ContactStepper", "StepResults", "DiscreteProblem"]

_SAP_MODELS = {"sap": SAP, "similar": SIMILAR, "lagged": LAGGED}


class StepResults:
    """Results of one discrete step (per Context cache value).

    Attributes
    ----------
    v_next : ndarray (nv,)
    gamma : ndarray (3 nc + m,)
        Contact impulses in the contact frames (γt0, γt1, γn per contact), then the
        constraint impulses.
    vc : ndarray (3 nc + m,)
        Contact and constraint velocities at v_next.
    tau_contact : ndarray (nv,)
        Jᵀ γ / h, the generalized contact and constraint forces.
    nc, m : int
    iterations : int
    residual : float
    """

    def __init__(self, nv):
        self.v_next = np.zeros(nv)
        self.tau_contact = np.zeros(nv)
        self.gamma = np.zeros(0)
        self.vc = np.zeros(0)
        self.nc = 0
        self.m = 0
        self.iterations = 0
        self.residual = 0.0


class DiscreteProblem:
    """The data of one step as the ``lcp`` solver takes it (see the module docstring).

    Attributes
    ----------
    h, time : float
    M : ndarray (nv, nv)
    v0, v_star : ndarray (nv,)
    J : ndarray (3 nc + m, nv)
        Contact rows (contact frames), then the constraint rows (W).
    nc, m : int
    phi0, k, d, tau, mu : ndarray (nc,)
    vs : float
        Stiction tolerance.
    g, stiffness, damping : ndarray (m,)
        Constraint values and compliance (inf stiffness: rigid).
    """

    __slots__ = ("h", "M", "v0", "v_star", "J", "nc", "m", "phi0", "k", "d", "tau", "mu",
                 "vs", "g", "stiffness", "damping", "time")


class ContactStepper(DiscreteStepper):
    """Computes the contact/constraint step with the plant's chosen approximation.

    The SAP family and TAMSI run as one compiled call on preallocated work arrays
    (`multibody.contact.sap_step.sap_step`, `multibody.contact.tamsi.tamsi_step`); ``lcp``
    gets a `DiscreteProblem`.
    """

    def __init__(self, plant, approximation, constraint_specs):
        self.plant = plant
        self.approximation = approximation
        t = plant._tables
        self.ip, self.fp = pack_model(plant._model)
        self.ws = make_workspace(t.nb)
        self.constraints = ConstraintRows(plant, constraint_specs, self.ip, self.fp, self.ws)
        self.nv = t.nv
        self.h = t.time_step
        self._J = np.zeros((8, t.nv))
        self._w = np.zeros(8)
        self._contact_work = np.zeros((CONTACT_WORK_ROWS, 4))
        self._constraint_work = np.zeros((CONSTRAINT_WORK_ROWS, max(self.constraints.m, 1)))
        self._vstar = np.zeros(t.nv)
        self._sap_model = _SAP_MODELS.get(approximation, SAP)
        self._bind_work()
        self._entry = None
        self._lcp_warm = {}
        self.max_iterations = 100
        self.rel_tolerance = 1e-6
        self.abs_tolerance = 1e-14
        self._quat_starts = np.asarray(t.quaternion_q_starts, dtype=np.int64).reshape(-1)
        self._qdot = np.zeros(t.nq)
        self._velocity_equals_qdot = bool(t.velocity_equals_qdot)
        self._checked_mapping = not t.velocity_equals_qdot and plant._dyn._rpy_nodes.size > 0

    def set_cache_entry(self, entry):
        self._entry = entry

    def make_results(self):
        return StepResults(self.nv)

    def _reserve(self, nc, rows, res):
        """Grow the work arrays to nc contacts and `rows` rows; size res.gamma, res.vc."""
        if self._J.shape[0] < rows or self._contact_work.shape[1] < nc:
            self._J = np.zeros((max(2 * rows, self._J.shape[0]), self.nv))
            self._w = np.zeros(self._J.shape[0])
            self._contact_work = np.zeros((CONTACT_WORK_ROWS,
                                           max(2 * nc, self._contact_work.shape[1])))
            self._bind_work()
        if res.gamma.shape[0] != rows:
            res.gamma = np.zeros(rows)
            res.vc = np.zeros(rows)

    def _bind_work(self):
        """The trailing arguments of `sap_step`: packed model, constraint tables, work arrays."""
        cr = self.constraints
        self._sap_work_args = (self.ip, self.fp, self.ws, cr.kinds, cr.int_params,
                               cr.float_params, self._J, self._w, self._contact_work,
                               self._constraint_work, self._vstar)

    # ---- solve ---------------------------------------------------------------------------
    def calc_results(self, context, res):
        approximation = self.approximation
        if approximation == "tamsi":
            self._calc_tamsi(context, res)
        elif approximation == "lcp":
            self._calc_lcp(context, res)
        else:
            self._calc_sap(context, res)

    def _inputs(self, context, res):
        """(state, v̇, point contacts, nc, m) of the step with the work arrays reserved,
        or None after writing the free motion (no contact and no constraint)."""
        cache = self.plant._cache
        state = cache.state.eval(context)
        vdot = cache.forward_dynamics.eval(context).vdot
        pcs = self.plant._contact_manager.eval_point_contacts(context)
        nc, m = pcs.nc, self.constraints.m
        if nc + m == 0:
            self._free_motion(state.v, vdot, res)
            return None
        self._reserve(nc, 3 * nc + m, res)
        res.nc, res.m = nc, m
        return state, vdot, pcs, nc, m

    def _calc_sap(self, context, res):
        """`calc_results` of "sap", "similar" and "lagged": one compiled call
        (`multibody.contact.sap_step.sap_step`) on the point contact arrays and the
        constraint tables."""
        plant = self.plant
        cache = plant._cache
        inputs = self._inputs(context, res)
        if inputs is None:
            return
        state, vdot, pcs, nc, m = inputs
        h = self.h
        it, residual = sap_step(
            self._sap_model, state.q, state.v, vdot, cache.mass_matrix.eval(context).M, h,
            plant.get_stiction_tolerance(), self.rel_tolerance, self.abs_tolerance,
            self.max_iterations, nc, m, pcs.node_a, pcs.node_b, pcs.p_WC, pcs.R_WC, pcs.phi0,
            pcs.k, pcs.d, pcs.tau, pcs.mu, res.v_next, res.gamma, res.vc, res.tau_contact,
            *self._sap_work_args)
        res.iterations, res.residual = it, residual
        if it < 0:
            self._raise_not_converged(context.get_time(), h, nc, m, residual)

    def _calc_tamsi(self, context, res):
        """`calc_results` of TAMSI (no constraints): one compiled call
        (`multibody.contact.tamsi.tamsi_step`) on the point contact arrays."""
        plant = self.plant
        cache = plant._cache
        state = cache.state.eval(context)
        vdot = cache.forward_dynamics.eval(context).vdot
        pcs = plant._contact_manager.eval_point_contacts(context)
        nc = pcs.nc
        if nc == 0:
            self._free_motion(state.v, vdot, res)
            return
        self._reserve(nc, 3 * nc, res)
        res.nc, res.m = nc, 0
        h = self.h
        v = res.v_next
        it, residual = tamsi_step(
            self.ip, self.fp, self.ws, state.q, state.v, vdot, cache.mass_matrix.eval(context).M,
            h, nc, pcs.node_a, pcs.node_b, pcs.p_WC, pcs.R_WC, pcs.phi0, pcs.mu, pcs.k, pcs.d,
            plant.get_stiction_tolerance(), self.rel_tolerance, self.abs_tolerance,
            self.max_iterations, self._J, v, res.gamma, res.vc, res.tau_contact)
        res.iterations, res.residual = it, residual
        if it < 0:                       # (also when v is not finite)
            self._raise_not_converged(context.get_time(), h, nc, 0, residual)

    def _calc_lcp(self, context, res):
        """`calc_results` of the complementarity solver on a `DiscreteProblem`."""
        plant = self.plant
        inputs = self._inputs(context, res)
        if inputs is None:
            return
        state, vdot, pcs, nc, m = inputs
        rows = 3 * nc + m
        p = self._problem(context, state, vdot, pcs)
        v = res.v_next
        v[:] = p.v0
        self._lcp_warm["new_key"] = (pcs.geom_a[:nc].tobytes(), pcs.geom_b[:nc].tobytes(), m)
        it, residual = lcp_solve(p, v, res.gamma, res.vc, plant.get_lcp_solver(),
                                 self._lcp_warm)
        res.iterations, res.residual = it, residual
        if it < 0 or not math.isfinite(v.sum()):
            self._raise_not_converged(p.time, p.h, nc, m, residual)
        generalized_impulse(p.J, res.gamma, rows, p.h, res.tau_contact)

    def _problem(self, context, state, vdot, pcs):
        """The `DiscreteProblem` of the state (work arrays reserved by the caller)."""
        plant = self.plant
        p = DiscreteProblem()
        p.h = h = self.h
        p.time = context.get_time()
        p.v0 = state.v
        p.v_star = state.v + h * vdot
        p.nc = nc = pcs.nc
        p.m = m = self.constraints.m
        p.M = plant._cache.mass_matrix.eval(context).M
        J = self._J[:3 * nc + m]
        q = state.q
        if nc:
            contact_jacobian(self.ip, self.fp, self.ws, q, nc, pcs.node_a, pcs.node_b,
                             pcs.p_WC, pcs.R_WC, J)
        else:
            pose_pass(self.ip, self.fp, q, self.ws)
        p.J = J
        p.phi0, p.k, p.d, p.tau, p.mu = (pcs.phi0[:nc], pcs.k[:nc], pcs.d[:nc], pcs.tau[:nc],
                                         pcs.mu[:nc])
        p.vs = plant.get_stiction_tolerance()
        p.g = np.zeros(m)
        p.stiffness = np.zeros(m)
        p.damping = np.zeros(m)
        if m:
            self.constraints.fill(q, J[3 * nc:], p.g, p.stiffness, p.damping)
        return p

    def _free_motion(self, v0, vdot, res):
        """Results without contacts or constraints: v_next = v* = v₀ + h v̇."""
        np.multiply(vdot, self.h, out=res.v_next)
        res.v_next += v0
        res.tau_contact[:] = 0.0
        res.nc, res.m = 0, 0
        if res.gamma.shape[0]:
            res.gamma = np.zeros(0)
            res.vc = np.zeros(0)
        res.iterations, res.residual = 0, 0.0

    def _raise_not_converged(self, time, h, nc, m, residual):
        raise ContactSolverError(
            f"discrete contact step at t = {time:.6g} s: the '{self.approximation}' "
            f"solver did not converge (iteration limit {self.max_iterations}, relative residual "
            f"{residual:.3g}, {nc} contacts, {m} constraint rows); remedy: reduce the "
            f"time step (now {h} s), soften the contacts (a larger penetration "
            f"allowance or point_contact_stiffness) or use discrete_contact_approximation "
            f"'sap'")

    # ---- the discrete update -----------------------------------------------------------------
    def calc_next_state(self, plant, context, x_next):
        res = self._entry.eval(context)
        state = plant._cache.state.eval(context)
        h = self.h
        if self._checked_mapping:
            # roll-pitch-yaw joints: the checked mapping (gimbal lock raises)
            nq = self._qdot.shape[0]
            qdot = plant._dyn.map_velocity_to_qdot(state.q, res.v_next)
            x_next[nq:] = res.v_next
            q_next = x_next[:nq]
            np.multiply(qdot, h, out=q_next)
            q_next += state.q
            for qs in self._quat_starts:
                quat = q_next[qs:qs + 4]
                quat /= np.sqrt(quat @ quat)
            return
        if next_state(self.ip, state.q, res.v_next, h, self._velocity_equals_qdot,
                      self._quat_starts, self._qdot, x_next):
            t = plant._tables
            raise ValueError(f"ContactStepper.calc_next_state: q has size {state.q.size} and "
                             f"v_next size {res.v_next.size}, expected nq = {t.nq} and "
                             f"nv = {t.nv}")
