"""The discrete step of a plant with contact and constraints: one solver interface, four
solvers.

Every solver gets the same problem (`DiscreteProblem`): the mass matrix M, the
free-motion velocity v* = v + h v̇(q, v, u) (all non-contact forces), the current
velocity v₀ (initial guess), the contact Jacobian J (3 nc rows in the contact frames) with
the bilateral constraint rows below it, the signed distances φ₀ and the combined contact
parameters (k, d, τ, μ) and the constraint values g. The solvers differ only in how
they find the impulses γ and v_{n+1} = v* + M⁻¹ Jᵀ γ:

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

from multibody.contact.constraints import ConstraintRows
from multibody.contact.contact_kernels import contact_jacobian, pose_pass
from multibody.contact.errors import ContactSolverError
from multibody.contact.lcp import lcp_solve
from multibody.contact.position_update import next_state
from multibody.contact.problem_kernels import (
    delassus_estimate, generalized_impulse, sap_parameters,
)
from multibody.contact.sap import LAGGED, SAP, SIMILAR, sap_solve
from multibody.contact.tamsi import tamsi_solve, tamsi_step
from multibody.kernels.layout import make_workspace, pack_model
from multibody.plant.discrete_update import DiscreteStepper

__all__ = ["ContactStepper", "StepResults", "DiscreteProblem"]

_SAP_MODELS = {"sap": SAP, "similar": SIMILAR, "lagged": LAGGED}
SIGMA_BILATERAL = 1.0e-6            # regularization of rigid bilateral rows (× w)


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
    """The solver-independent data of one step (see the module docstring)."""

    __slots__ = ("h", "M", "v0", "v_star", "J", "nc", "m", "phi0", "k", "d", "tau", "mu",
                 "vs", "g", "stiffness", "damping", "w", "time")


class ContactStepper(DiscreteStepper):
    """Computes the contact/constraint step with the plant's chosen approximation."""

    def __init__(self, plant, approximation, constraint_specs):
        self.plant = plant
        self.approximation = approximation
        t = plant._tables
        self.ip, self.fp = pack_model(plant._model)
        self.ws = make_workspace(t.nb)
        self.constraints = ConstraintRows(plant, constraint_specs, self.ip, self.fp, self.ws)
        self.nv = t.nv
        self._J = np.zeros((8, t.nv))
        self._entry = None
        self._lcp_warm = {}
        self._w = np.zeros(8)
        self._sap_work = np.zeros((7, 4))
        self.max_iterations = 100
        self.rel_tolerance = 1e-6
        self.abs_tolerance = 1e-14
        self._quat_starts = np.asarray(t.quaternion_q_starts, dtype=np.int64).reshape(-1)
        self._qdot = np.zeros(t.nq)

    def set_cache_entry(self, entry):
        self._entry = entry

    def make_results(self):
        return StepResults(self.nv)

    # ---- problem -------------------------------------------------------------------------
    def _problem(self, context):
        plant = self.plant
        t = plant._tables
        cache = plant._cache
        state = cache.state.eval(context)
        vdot = cache.forward_dynamics.eval(context).vdot
        pcs = plant._contact_manager.eval_point_contacts(context)
        p = DiscreteProblem()
        p.h = h = t.time_step
        p.time = context.get_time()
        p.v0 = state.v
        p.v_star = state.v + h * vdot
        p.nc = nc = pcs.nc
        p.m = m = self.constraints.m
        if nc + m == 0:
            return p, pcs
        p.M = cache.mass_matrix.eval(context).M
        rows = 3 * nc + m
        if self._J.shape[0] < rows:
            self._J = np.zeros((2 * rows, t.nv))
        J = self._J[:rows]
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
        if self._w.shape[0] < rows:
            self._w = np.zeros(2 * rows)
        p.w = self._w[:rows]
        delassus_estimate(J, p.M, rows, p.w)
        return p, pcs

    # ---- solve ---------------------------------------------------------------------------
    def calc_results(self, context, res):
        if self.constraints.m == 0:
            if self.approximation == "tamsi":
                self._calc_tamsi(context, res)
                return
            if self.plant._contact_manager.eval_point_contacts(context).nc == 0:
                cache = self.plant._cache
                self._free_motion(cache.state.eval(context).v,
                                  cache.forward_dynamics.eval(context).vdot, res)
                return
        p, pcs = self._problem(context)
        nc, m = p.nc, p.m
        res.nc, res.m = nc, m
        if nc + m == 0:
            res.v_next[:] = p.v_star
            res.tau_contact[:] = 0.0
            res.gamma = np.zeros(0)
            res.vc = np.zeros(0)
            res.iterations, res.residual = 0, 0.0
            return
        rows = 3 * nc + m
        if res.gamma.shape[0] != rows:
            res.gamma = np.zeros(rows)
            res.vc = np.zeros(rows)
        v = res.v_next
        v[:] = p.v0
        if self.approximation == "tamsi":
            it, residual = tamsi_solve(p.M, p.v_star, v, p.J, nc, p.mu, p.h, p.k, p.d,
                                       -p.phi0, p.vs, self.rel_tolerance, self.abs_tolerance,
                                       self.max_iterations, res.gamma, res.vc)
        elif self.approximation == "lcp":
            self._lcp_warm["new_key"] = (pcs.geom_a[:nc].tobytes(), pcs.geom_b[:nc].tobytes(),
                                         m)
            it, residual = lcp_solve(p, v, res.gamma, res.vc, self.plant.get_lcp_solver(),
                                     self._lcp_warm)
        else:
            it, residual = self._sap(p, v, res)
        res.iterations, res.residual = it, residual
        if it < 0 or not math.isfinite(v.sum()):
            self._raise_not_converged(p.time, p.h, nc, m, residual)
        generalized_impulse(p.J, res.gamma, rows, p.h, res.tau_contact)

    def _calc_tamsi(self, context, res):
        """`calc_results` of TAMSI without constraints: one compiled call
        (`multibody.contact.tamsi.tamsi_step`) on the point contact arrays."""
        plant = self.plant
        cache = plant._cache
        state = cache.state.eval(context)
        vdot = cache.forward_dynamics.eval(context).vdot
        pcs = plant._contact_manager.eval_point_contacts(context)
        h = plant._tables.time_step
        nc = pcs.nc
        res.nc, res.m = nc, 0
        if nc == 0:
            self._free_motion(state.v, vdot, res)
            return
        rows = 3 * nc
        if self._J.shape[0] < rows:
            self._J = np.zeros((2 * rows, self.nv))
        if res.gamma.shape[0] != rows:
            res.gamma = np.zeros(rows)
            res.vc = np.zeros(rows)
        v = res.v_next
        it, residual = tamsi_step(
            self.ip, self.fp, self.ws, state.q, state.v, vdot, cache.mass_matrix.eval(context).M,
            h, nc, pcs.node_a, pcs.node_b, pcs.p_WC, pcs.R_WC, pcs.phi0, pcs.mu, pcs.k, pcs.d,
            plant.get_stiction_tolerance(), self.rel_tolerance, self.abs_tolerance,
            self.max_iterations, self._J, v, res.gamma, res.vc, res.tau_contact)
        res.iterations, res.residual = it, residual
        if it < 0 or not math.isfinite(v.sum()):
            self._raise_not_converged(context.get_time(), h, nc, 0, residual)

    def _free_motion(self, v0, vdot, res):
        """Results without contacts or constraints: v_next = v* = v₀ + h v̇."""
        np.multiply(vdot, self.plant._tables.time_step, out=res.v_next)
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

    def _sap(self, p, v, res):
        nc, m, h = p.nc, p.m, p.h
        if self._sap_work.shape[1] < nc:
            self._sap_work = np.zeros((7, 2 * nc))
        Rt, Rn, vhat, fe0, n0, eps, _ = self._sap_work[:, :nc]
        sap_parameters(nc, p.w, p.phi0, p.k, p.d, p.tau, p.mu, p.J, p.v0, h, p.vs, Rt, Rn, vhat,
                       fe0, n0, eps)
        Rh, vhath = self._bilateral(p)
        model = _SAP_MODELS[self.approximation]
        return sap_solve(model, p.M, p.v_star, v, p.J, nc, m, p.mu, Rt, Rn, vhat, h, p.k, p.d,
                         fe0, n0, eps, Rh, vhath, self.rel_tolerance, self.abs_tolerance,
                         self.max_iterations, res.gamma, res.vc)

    @staticmethod
    def _bilateral(p):
        """Regularization R and bias v̂ of the bilateral rows: compliant rows (finite k)
        R = 1/(h k (h + τ)), τ = c/k, v̂ = -g/(h + τ); rigid rows a tiny R and v̂ = -g/h."""
        m, h, nc = p.m, p.h, p.nc
        if m == 0:
            return np.ones(1), np.zeros(1)
        w = np.maximum(p.w[3 * nc:], 1e-12)
        k = p.stiffness
        rigid = ~np.isfinite(k)
        tau = np.where(rigid, 0.0, p.damping / np.where(rigid, 1.0, k))
        R = np.where(rigid, SIGMA_BILATERAL * w,
                     1.0 / (h * np.where(rigid, 1.0, k) * (h + tau)))
        return R, -p.g / (h + tau)

    # ---- the discrete update -----------------------------------------------------------------
    def calc_next_state(self, plant, context, x_next):
        res = self._entry.eval(context)
        t = plant._tables
        state = plant._cache.state.eval(context)
        dyn = plant._dyn
        if not t.velocity_equals_qdot and dyn._rpy_nodes.size:
            # roll-pitch-yaw joints: the checked mapping (gimbal lock raises)
            nq = t.nq
            qdot = dyn.map_velocity_to_qdot(state.q, res.v_next)
            x_next[nq:] = res.v_next
            q_next = x_next[:nq]
            np.multiply(qdot, t.time_step, out=q_next)
            q_next += state.q
            for qs in t.quaternion_q_starts:
                quat = q_next[qs:qs + 4]
                quat /= np.sqrt(quat @ quat)
            return
        if next_state(dyn._ip, state.q, res.v_next, t.time_step, t.velocity_equals_qdot,
                      self._quat_starts, self._qdot, x_next):
            raise ValueError(f"ContactStepper.calc_next_state: q has size {state.q.size} and "
                             f"v_next size {res.v_next.size}, expected nq = {t.nq} and "
                             f"nv = {t.nv}")
