"""The discrete step of a plant with contact and constraints: one solver interface, four
solvers.

Every solver gets the same problem: the mass matrix M, the free-motion velocity
v* = v + h v̇(q, v, u) (all non-contact forces), the current velocity v₀ (initial guess),
the contact Jacobian J (3 nc rows in the contact frames) with the bilateral constraint
rows below it, the signed distances φ₀ and the combined contact parameters (k, d, τ, μ)
and the constraint values g. The SAP family and TAMSI assemble and solve it in one
compiled call (`multibody.contact.sap_step.sap_step`, `multibody.contact.tamsi.tamsi_step`)
on work arrays kept in the Context (`StepWork`); ``lcp`` takes it as a `DiscreteProblem`. The solvers
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

With contacts or constraints the free-motion acceleration is v̇ = M⁻¹ (τ - (C v - τ_g -
Σ Jᵀ F)) with M's sparse factor M = Lᵀ D L (`multibody.kernels.mass_factorization`) and
the bias by RNEA at v̇ = 0, τ and F the forces of the plant's forward dynamics (the
plant's compiled contact loop and `multibody.batched` compute it so, without ABA, and
give the same numbers); with locked joints or added mass it is the forward dynamics'
v̇. Without contact, constraint (a tendon constraint counts only where the state violates
a limit: Drake's SapDriver adds it then) or a joint limit within reach, v_{n+1} = v + h v̇ with
the forward dynamics' v̇ or, with the SAP family's implicit joint damping (Drake's:
M + h D is the dynamics matrix), ABA's v̇ on M + h D (the armature h D; the batched
step's numbers too).

With armed PD-controlled actuators, each solver call takes (M̂, v̂̇) in place of (M, v̇),
the implicit controller folded in, inside an active-set loop on the saturated actuators
(`multibody.plant.pd_controlled_actuators`).

Then q_{n+1} = q_n + h N(q_n) v_{n+1} (quaternions re-normalized,
`multibody.kernels.position_update`). A solver that does not
converge raises `ContactSolverError` naming the time, the solver, the residual and a
remedy; the context is not modified.
"""

import functools
import math

import numpy as np

from merganser.framework.compiled_form_changes import note_compiled_form_change
from merganser.multibody.contact.constraint_kernels import num_limit_rows, num_tendon_rows
from merganser.multibody.contact.constraints import ConstraintRows
from merganser.multibody.contact.contact_kernels import contact_jacobian, pose_pass
from merganser.multibody.contact.errors import ContactSolverError
from merganser.multibody.contact.lcp import lcp_solve
from merganser.multibody.contact.problem_kernels import generalized_impulse, near_rigid_factor
from merganser.multibody.contact.sap import sap_work
from merganser.multibody.contact.sap_step import CONSTRAINT_WORK_ROWS, CONTACT_WORK_ROWS, sap_step
from merganser.multibody.contact.tamsi import tamsi_step
from merganser.multibody.kernels.layout import make_workspace
from merganser.multibody.kernels.mass_factorization import solve_with_factor, velocity_parents
from merganser.multibody.kernels.position_update import next_state
from merganser.multibody.plant.discrete_update import DiscreteStepper
from merganser.multibody.plant.pd_controlled_actuators import implicit_pd_step
from merganser.multibody.plant.plant_element_parameters import locked_step_mass_matrix
from merganser.multibody.tree.constraints import TendonConstraintSpec
from merganser.multibody.tree.joints.joint import position_limits_generation
from merganser.multibody.tree.joints.prismatic import PrismaticJoint
from merganser.multibody.tree.joints.revolute import RevoluteJoint

__all__ = ["ContactStepper", "DiscreteProblem", "LcpStepper", "SapStepper", "StepResults",
           "StepWork", "TamsiStepper"]


#: Drake's factor of the joint-limit penalty period: kAlpha h, kAlpha = 20π
LIMIT_PENALTY_ALPHA = 20.0 * math.pi


def joint_limit_penalties(plant, h):
    """Drake's joint-limit penalty parameters (MultibodyPlant's, for TAMSI): per revolute or
    prismatic joint with a finite limit at finalize, a critically damped oscillator of
    period LIMIT_PENALTY_ALPHA h on the less stiff of its bodies' inertia about the joint
    axis (revolute) or mass (prismatic), the world's being infinite: k = I ω₀², d = 2 I ω₀,
    ω₀ = 2π / period.

    Returns
    -------
    (dof, lower, upper, k, d) : ndarrays of shape (n,)
        ``dof`` indexes the plant's one-dof joints in `get_joint_indices` order (as
        `ContactStepper.limit_qv`); the others are the limits and the parameters.
    """
    omega0 = 2.0 * math.pi / (LIMIT_PENALTY_ALPHA * h)
    world = plant.world_body()
    rows = []
    one_dof = [j for j in (plant.get_joint(i) for i in plant.get_joint_indices())
               if j.num_positions() == 1 and j.num_velocities() == 1]
    for i, joint in enumerate(one_dof):
        if not isinstance(joint, (RevoluteJoint, PrismaticJoint)):
            continue
        lower, upper = joint.position_lower_limits()[0], joint.position_upper_limits()[0]
        if not (np.isfinite(lower) or np.isfinite(upper)):
            continue
        inertias = []
        for body, frame in ((joint.parent_body(), joint.frame_on_parent()),
                            (joint.child_body(), joint.frame_on_child())):
            if body is world or body.index() == world.index():
                inertias.append(math.inf)
            elif isinstance(joint, PrismaticJoint):
                inertias.append(float(body.default_mass()))
            else:
                X_BJ = frame.get_fixed_pose_in_body_frame()
                M_BJo_J = body.default_spatial_inertia().shift(X_BJ.translation()).re_express(
                    X_BJ.rotation())
                I = M_BJo_J.calc_rotational_inertia().copy_to_full_matrix3()
                axis = np.asarray(joint.revolute_axis(), dtype=float)
                inertias.append(float(axis @ I @ axis))
        inertia = min(inertias)
        if not math.isfinite(inertia):
            continue
        rows.append((i, lower, upper, inertia * omega0 * omega0, 2.0 * inertia * omega0))
    if not rows:
        return (np.zeros(0, np.int64),) + tuple(np.zeros(0) for _ in range(4))
    dof, lower, upper, k, d = zip(*rows)
    return (np.array(dof, np.int64), np.array(lower), np.array(upper), np.array(k),
            np.array(d))


class StepWork:
    """Work arrays of one Context's discrete step (part of its `StepResults`).

    Attributes
    ----------
    ws : ndarray (nb, NWS)
        Kernel workspace (poses of the step's state after the contact Jacobian).
    J : ndarray (rows, nv)
        Contact and constraint Jacobian rows (grown on demand).
    w, contact_work, constraint_work, vstar : ndarray
        The SAP-family step's work arrays (`multibody.contact.sap_step`).
    solver : tuple
        The SAP solve's work arrays (`multibody.contact.sap.sap_work`, sized with J),
        made at first use, so a step without contact or constraints (which never reads
        them) compiles and loads no contact kernel.
    qdot : ndarray (nq,)
        Work array of the position update.
    L, vdot : ndarray (nv, nv), (nv,)
        The mass matrix's factor and the free-motion acceleration of a step with contact
        (`ContactStepper.contact_free_motion_acceleration`).
    M_damped : ndarray (nv, nv)
        M + h D of a solver that takes joint damping implicitly.
    lcp_warm : dict
        Warm start of the complementarity solver (this context's previous step).
    """

    def __init__(self, nb, nq, nv, m):
        self.ws = make_workspace(nb)
        self.J = np.zeros((8, nv))
        self.w = np.zeros(8)
        self.contact_work = np.zeros((CONTACT_WORK_ROWS, 4))
        self.constraint_work = np.zeros((CONSTRAINT_WORK_ROWS, max(m + 2 * nv, 1)))
        self.vstar = np.zeros(nv)
        self._solver = None
        self.qdot = np.zeros(nq)
        self.L = np.zeros((nv, nv))
        self.M_damped = np.zeros((nv, nv))
        self.vdot = np.zeros(nv)
        self.lcp_warm = {}

    def reserve(self, nc, rows):
        """Grow the arrays to nc contacts and `rows` Jacobian rows."""
        if self.J.shape[0] < rows or self.contact_work.shape[1] < nc:
            nv = self.J.shape[1]
            self.J = np.zeros((max(2 * rows, self.J.shape[0]), nv))
            self.w = np.zeros(self.J.shape[0])
            self.contact_work = np.zeros((CONTACT_WORK_ROWS,
                                          max(2 * nc, self.contact_work.shape[1])))
            self._solver = None                # remade at the new size at next use

    @property
    def solver(self):
        if self._solver is None:
            rows = self.J.shape[0]
            self._solver = sap_work(self.J.shape[1], rows, rows)   # blocks <= rows
        return self._solver


class StepResults:
    """Results of one discrete step (per Context cache value), with its work arrays.

    Attributes
    ----------
    v_next : ndarray (nv,)
    gamma : ndarray (3 nc + m,)
        Contact impulses in the contact frames (γt0, γt1, γn per contact), then the
        constraint impulses.
    vc : ndarray (3 nc + m,)
        Contact and constraint velocities at v_next.
    tau_contact : ndarray (nv,)
        Jᵀ γ / h, the generalized contact, constraint and joint-limit forces.
    nc, m : int
    nl : int
        The number of joint-limit rows (after the constraint rows in gamma and vc).
    limit_dof : ndarray (>= nl,), int64
        Each limit row's velocity index, negated minus one for an upper limit.
    nt : int
        The number of tendon rows (after the joint-limit rows in gamma and vc).
    iterations : int
    residual : float
    pd_u : ndarray (n,) or None
        The actuation of the armed PD-controlled actuators (`PdTerms` order), or None.
    work : StepWork
        This context's work arrays.
    """

    def __init__(self, nb, nq, nv, m):
        self.v_next = np.zeros(nv)
        self.tau_contact = np.zeros(nv)
        self.gamma = np.zeros(0)
        self.vc = np.zeros(0)
        self.nc = 0
        self.m = 0
        self.nl = 0
        self.nt = 0
        self.limit_dof = np.zeros(2 * nv, np.int64)
        self.iterations = 0
        self.residual = 0.0
        self.pd_u = None
        self.work = StepWork(nb, nq, nv, m)

    def reserve(self, nc, rows):
        """Size the work arrays for nc contacts and `rows` rows, and gamma and vc."""
        self.work.reserve(nc, rows)
        if self.gamma.shape[0] != rows:
            self.gamma = np.zeros(rows)
            self.vc = np.zeros(rows)


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
    """The contact/constraint step of one solver (subclasses: `SapStepper`,
    `TamsiStepper`, `LcpStepper`), chosen once at finalize by the plant's registry
    (`multibody.plant.discrete_solvers`).

    Parameters
    ----------
    core : PlantCore
    contacts : ContactManager
        The plant's contact manager (its point contacts).
    constraint_specs : list
        The tree's constraint specs.

    Notes
    -----
    The stepper declares the plant's ``discrete contact step`` cache entry; everything
    a step writes (results and work arrays) is that entry's per-Context `StepResults`,
    so the stepper itself is not modified by a step.
    """

    #: The approximation name (set by each subclass; used in messages).
    approximation = None
    #: The solver settings' defaults (Drake's SAP / TAMSI parameters); an instance's own
    #: values are set through the properties below.
    _SETTINGS = {"max_iterations": 100, "rel_tolerance": 1e-6, "abs_tolerance": 1e-14}

    def _setting(name):
        def get(self):
            return self.__dict__.get("_" + name, ContactStepper._SETTINGS[name])

        def set(self, value):
            # a compiled contact step (the plant's loop, a compiled diagram) reads the
            # settings as constants: tell it to re-read them
            self.__dict__["_" + name] = value
            note_compiled_form_change()

        return property(get, set, doc=f"The solver's {name.replace('_', ' ')}.")

    max_iterations = _setting("max_iterations")
    rel_tolerance = _setting("rel_tolerance")
    abs_tolerance = _setting("abs_tolerance")
    del _setting

    def __init__(self, core, contacts, constraint_specs):
        super().__init__(core)
        t = core.tables
        self.contacts = contacts
        self.constraints = ConstraintRows(core, constraint_specs)
        nb, nq, nv = t.nb, t.nq, t.nv
        m = self.constraints.m + self.constraints.tendon_max_rows    # (work arrays' rows)
        self._lam = np.zeros(nv, np.int64)               # velocity parents of M's factor
        self._by_factor = bool(velocity_parents(core.ip, self._lam)
                               and core.added_mass is None)
        self._zeros_nv = np.zeros(nv)
        self._quat_starts = np.asarray(t.quaternion_q_starts, dtype=np.int64).reshape(-1)
        self._velocity_equals_qdot = bool(t.velocity_equals_qdot)
        self._checked_mapping = not t.velocity_equals_qdot and core.dyn.rpy_nodes.size > 0
        plant = core.plant
        joints = [plant.get_joint(i) for i in plant.get_joint_indices()]
        self._limit_joints = [j for j in joints
                              if j.num_positions() == 1 and j.num_velocities() == 1]
        self.limit_qv = np.array([[j.position_start(), j.velocity_start()]
                                  for j in self._limit_joints], np.int64).reshape(-1, 2)
        damping = np.ascontiguousarray(t.damping, dtype=float)
        self._h_damping = core.time_step * damping
        #: Whether the step takes joint damping implicitly, (M + h D) (v - v₀)/h = k(x₀)
        #: with k's -D v₀, as Drake's SAP family: the dynamics matrix is M + h D
        self.damped = bool(self.implicit_damping and np.any(damping != 0.0))
        self.no_limits = self.limit_qv[:0].copy()
        self.limits_generation = None
        self.refresh_limits()
        cache = core.cache
        self.entry = core.plant.declare_cache_entry(
            "discrete contact step", functools.partial(StepResults, nb, nq, nv, m),
            self._calc_results_with_locks,
            [contacts.point_contacts_ticket(), cache.forward_dynamics.ticket(),
             cache.mass_matrix.ticket()] + core.constraint_status_tickets()
            + core.pd_control.tickets)

    #: Whether the solver models joint limits (Drake's SAP family does, as constraints).
    models_limits = False
    #: Whether the solver takes joint damping implicitly (Drake's SAP family does).
    implicit_damping = False
    #: Whether the step applies Drake's joint-limit penalty forces (TAMSI does).
    has_penalty_limits = False

    def penalty_forces(self, state):
        """Joint-limit penalty forces τ (nv,) of the step from `state`, or None."""
        return None

    def refresh_limits(self):
        """Re-read the one-dof joints' position limits (`limit_lower`, `limit_upper`,
        shape (n,), in `limit_qv` order, new arrays) when a joint's limits changed since
        the last read (`limits_generation`: the `position_limits_generation` read);
        `has_limits` tells whether the solver models limits and any is finite."""
        generation = position_limits_generation()
        if generation == self.limits_generation:
            return
        self.limits_generation = generation
        joints = self._limit_joints
        self.limit_lower = np.array([j.position_lower_limits()[0] for j in joints], float)
        self.limit_upper = np.array([j.position_upper_limits()[0] for j in joints], float)
        self.has_limits = bool(self.models_limits and (
            np.isfinite(self.limit_lower).any() or np.isfinite(self.limit_upper).any()))
        note_compiled_form_change()

    def limited_joints(self):
        """The one-dof joints with a finite position limit (list of Joint)."""
        return [j for j in self._limit_joints
                if np.isfinite(j.position_lower_limits()[0])
                or np.isfinite(j.position_upper_limits()[0])]

    def _limit_rows_due(self, state, vdot):
        """Whether a joint limit lies within reach of the free-motion step from `state`
        (`constraint_kernels.num_limit_rows`; the limits as last refreshed)."""
        if not self.has_limits:
            return False
        h = self.core.time_step
        vstar = state.v + h * vdot
        return num_limit_rows(state.q, state.v, vstar, h, self.limit_qv, self.limit_lower,
                              self.limit_upper) > 0

    def _tendon_rows_due(self, state, rows):
        """Whether an active tendon constraint (of `rows`) violates a limit at the state's
        positions, so that the step has tendon rows (`constraint_kernels.num_tendon_rows`;
        Drake's SapDriver adds a tendon constraint to a step that starts so)."""
        if not rows.tendon_max_rows:
            return False
        return num_tendon_rows(state.q, *rows.tendons) > 0

    def _rows(self, context):
        """The `ConstraintRows` of the constraints active in `context`."""
        core = self.core
        return self.constraints.with_distance_params(
            core.eval_distance_constraint_overrides(context)).active(
                core.eval_active_constraints(context))

    def calc_results(self, context, res):
        """Fill `res` (a `StepResults`) with the step of the state in `context`: the free
        motion without contacts and constraints, else the solver's `_solve`; with armed
        PD-controlled actuators, either inside the implicit controller step
        (`multibody.plant.pd_controlled_actuators`)."""
        core = self.core
        cache = core.cache
        self.refresh_limits()           # before sizing the work arrays for the limit rows
        state = cache.state.eval(context)
        pcs = self.contacts.eval_point_contacts(context)
        rows = self._rows(context)
        nc, m = pcs.nc, rows.m
        terms = core.eval_pd_terms(context)
        res.pd_u = None
        v0 = state.v
        penalty = self.penalty_forces(state)
        vdot = None                     # the free motion's v̇, when it is the step
        if nc + m == 0 and penalty is None:
            vdot = cache.forward_dynamics.eval(context).vdot
            if self.damped:
                vdot = (self._implicitly_damped_acceleration(context, state)
                        if terms is None else None)
            if vdot is not None and (self._limit_rows_due(state, vdot)
                                     or self._tendon_rows_due(state, rows)):
                vdot = None
        if vdot is not None:
            if terms is None:
                self._free_motion(v0, vdot, res)
                return

            def solve(M_hat, vdot_hat):
                self._free_motion(v0, vdot_hat, res)
                return res.v_next
        else:
            res.reserve(nc, 3 * nc + m + (2 * self.limit_qv.shape[0] if self.has_limits else 0)
                        + rows.tendon_max_rows)
            res.nc, res.m = nc, m
            vdot = self.contact_free_motion_acceleration(context, res, penalty)
            if terms is None and nc + m == 0 and penalty is not None:
                self._free_motion(v0, vdot, res)          # TAMSI, a joint beyond a limit
                return
            if terms is None:
                self._solve(context, res, state, self.step_mass_matrix(context, res), vdot,
                            pcs, nc, m)
                return

            def solve(M_hat, vdot_hat):
                self._solve(context, res, state, M_hat, vdot_hat, pcs, nc, m)
                return res.v_next
        _, res.pd_u = implicit_pd_step(terms, self.step_mass_matrix(context, res), vdot,
                                       state.q, v0, core.eval_actuation_input(context),
                                       core.time_step, solve, context.get_time())

    def _implicitly_damped_acceleration(self, context, state):
        """v̇ = (M + h D)⁻¹ (τ - (C v - τ_g - Σ Jᵀ F)) of the free motion with Drake's
        implicit joint damping (`damped`; τ holding -D v₀), by ABA with the armature h D
        (`multibody.kernels.aba.calc_forward_dynamics_armature`, the batched contact
        step's numbers); None where the forward dynamics is not ABA's (reflected
        inertia, added mass, locked joints: the factor of M + h D then)."""
        core = self.core
        cache = core.cache
        fd = cache.forward_dynamics.eval(context)
        if (fd.reflected is not None or core.added_mass is not None
                or core.eval_locked_velocities(context) is not None):
            return None
        F = fd.F_Bo_W if fd.has_F else None
        return core.dyn.forward_dynamics(state.q, state.v, fd.tau,
                                         cache.inertia.eval(context).I10, core.gravity, F,
                                         armature=self._h_damping)

    def _damped_mass_matrix(self, context, res):
        """M(q), plus h D on the diagonal when the solver takes joint damping implicitly
        (`damped`; into the context's work array ``res.work.M_damped``)."""
        M = self.core.cache.mass_matrix.eval(context).M
        if not self.damped:
            return M
        Md = res.work.M_damped
        np.copyto(Md, M)
        Md.flat[::Md.shape[0] + 1] += self._h_damping
        return Md

    def step_mass_matrix(self, context, res):
        """The dynamics matrix of the step: `_damped_mass_matrix`, with locked joints
        decoupled and very heavy (`PlantCore.eval_step_mass_matrix`'s rule)."""
        M = self._damped_mass_matrix(context, res)
        locked = self.core.eval_locked_velocities(context)
        return M if locked is None else locked_step_mass_matrix(M, locked)

    def _solve(self, context, res, state, M, vdot, pcs, nc, m):
        """The solver's step with mass matrix `M` and free-motion acceleration `vdot`
        (nc contacts, m constraint rows, work arrays reserved), into `res`."""
        raise NotImplementedError

    def eval_pd_actuation(self, context, terms):
        """The PD-controlled actuators' actuation (n,) of the step from `context`."""
        return self.entry.eval(context).pd_u

    def _calc_results_with_locks(self, context, res):
        """`calc_results`, then v_next = 0 on the locked velocities (the solvers saw them
        decoupled and very heavy, `PlantCore.eval_step_mass_matrix`, so they moved by
        round-off only)."""
        self.calc_results(context, res)
        locked = self.core.eval_locked_velocities(context)
        if locked is not None:
            res.v_next[locked] = 0.0

    def contact_free_motion_acceleration(self, context, res, penalty=None):
        """v̇ of a step with contact (module docstring): M⁻¹ (τ - (C v - τ_g - Σ Jᵀ F))
        by M's factor (M + h D when `damped`: Drake's implicit joint damping, τ holding
        -D v₀), in ``res.work.vdot``; the forward dynamics' v̇ with locked joints,
        added mass or a mass matrix the factor finds not positive definite."""
        core = self.core
        cache = core.cache
        fd = cache.forward_dynamics.eval(context)
        if not self._by_factor or core.eval_locked_velocities(context) is not None:
            if penalty is None:
                return fd.vdot
            M = self._damped_mass_matrix(context, res)
            return fd.vdot + np.linalg.solve(M, penalty)
        state = cache.state.eval(context)
        F = fd.F_Bo_W if fd.has_F else None
        bias = core.dyn.inverse_dynamics(state.q, state.v, self._zeros_nv,
                                         cache.inertia.eval(context).I10, core.gravity, F)
        w = res.work
        np.subtract(fd.tau, bias, out=w.vdot)
        if penalty is not None:
            w.vdot += penalty
        if not solve_with_factor(self._damped_mass_matrix(context, res), self._lam, w.L,
                                 w.vdot):
            return fd.vdot
        return w.vdot

    def _free_motion(self, v0, vdot, res):
        """Results without contacts or constraints: v_next = v* = v₀ + h v̇."""
        np.multiply(vdot, self.core.time_step, out=res.v_next)
        res.v_next += v0
        res.tau_contact[:] = 0.0
        res.nc, res.m, res.nl, res.nt = 0, 0, 0, 0
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
    def calc_next_state(self, context, x_next):
        res = self.entry.eval(context)
        core = self.core
        state = core.cache.state.eval(context)
        h = core.time_step
        if self._checked_mapping:
            # roll-pitch-yaw joints: the checked mapping (gimbal lock raises)
            core.dyn.next_state(state.q, res.v_next, h, x_next)
        elif next_state(core.ip, state.q, res.v_next, h, self._velocity_equals_qdot,
                        self._quat_starts, res.work.qdot, x_next):
            t = core.tables
            raise ValueError(f"ContactStepper.calc_next_state: q has size {state.q.size} and "
                             f"v_next size {res.v_next.size}, expected nq = {t.nq} and "
                             f"nv = {t.nv}")
        self.contacts.check_penetration(context, res, x_next)


class SapStepper(ContactStepper):
    """"sap", "similar" and "lagged": one compiled call (`multibody.contact.sap_step`)
    on the point contact arrays and the constraint tables; `model` is the SAP family
    member (`multibody.contact.sap.SAP`, ``SIMILAR``, ``LAGGED``)."""

    models_limits = True
    implicit_damping = True

    def __init__(self, core, contacts, constraint_specs, *, approximation, model):
        self.approximation = approximation
        self._sap_model = model
        super().__init__(core, contacts, constraint_specs)

    @property
    def sap_model(self):
        """The SAP family member this stepper solves (``SAP``, ``SIMILAR`` or ``LAGGED`` of
        `multibody.contact.sap`), as `sap_step` takes it."""
        return self._sap_model

    def _solve(self, context, res, state, M, vdot, pcs, nc, m):
        core = self.core
        h = core.time_step
        cr, w = self._rows(context), res.work
        limit_qv = self.limit_qv if self.has_limits else self.no_limits
        it, residual, nl, nt = sap_step(
            self._sap_model, state.q, state.v, vdot, M, h,
            core.plant.get_stiction_tolerance(),
            near_rigid_factor(core.plant.get_sap_near_rigid_threshold()),
            self.rel_tolerance, self.abs_tolerance,
            self.max_iterations, nc, m, pcs.node_a, pcs.node_b, pcs.p_WC, pcs.R_WC, pcs.phi0,
            pcs.k, pcs.d, pcs.tau, pcs.mu, res.v_next, res.gamma, res.vc, res.tau_contact,
            core.ip, core.fp, w.ws, cr.kinds, cr.int_params, cr.float_params, limit_qv,
            self.limit_lower, self.limit_upper, res.limit_dof, *cr.tendons, w.J, w.w,
            w.contact_work, w.constraint_work, w.vstar, w.solver, False)
        res.iterations, res.residual, res.nl, res.nt = it, residual, nl, nt
        if it < 0:
            self._raise_not_converged(context.get_time(), h, nc, m, residual)


class TamsiStepper(ContactStepper):
    """TAMSI (no constraints): one compiled call (`multibody.contact.tamsi.tamsi_step`)
    on the point contact arrays."""

    approximation = "tamsi"

    def __init__(self, core, contacts, constraint_specs):
        if constraint_specs:
            raise ValueError(
                f"MultibodyPlant.finalize: discrete_contact_approximation 'tamsi' does not "
                f"support constraints (the plant has {len(constraint_specs)}); use 'sap', "
                f"'similar', 'lagged' or 'lcp'")
        super().__init__(core, contacts, constraint_specs)
        self._penalty = joint_limit_penalties(core.plant, core.time_step)
        self.has_penalty_limits = bool(self._penalty[0].size)

    def penalty_forces(self, state):
        """Drake's joint-limit penalty forces of TAMSI's step (`joint_limit_penalties`):
        τ (nv,), or None when no joint is beyond a limit."""
        if not self.has_penalty_limits:
            return None
        dof, lower, upper, k, d = self._penalty
        q = state.q[self.limit_qv[dof, 0]]
        v = state.v[self.limit_qv[dof, 1]]
        above, below = q > upper, q < lower
        if not (above.any() or below.any()):
            return None
        f = np.zeros(dof.size)
        f[above] = np.minimum(-k[above] * (q[above] - upper[above]) - d[above] * v[above], 0.0)
        f[below] = np.maximum(-k[below] * (q[below] - lower[below]) - d[below] * v[below], 0.0)
        tau = np.zeros(state.v.size)
        tau[self.limit_qv[dof, 1]] = f
        return tau

    def _solve(self, context, res, state, M, vdot, pcs, nc, m):
        core = self.core
        h = core.time_step
        w = res.work
        it, residual = tamsi_step(
            core.ip, core.fp, w.ws, state.q, state.v, vdot, M, h, nc, pcs.node_a, pcs.node_b,
            pcs.p_WC, pcs.R_WC, pcs.phi0, pcs.mu, pcs.k, pcs.d,
            core.plant.get_stiction_tolerance(), self.rel_tolerance, self.abs_tolerance,
            self.max_iterations, w.J, res.v_next, res.gamma, res.vc, res.tau_contact)
        res.iterations, res.residual = it, residual
        if it < 0:                       # (also when v is not finite)
            self._raise_not_converged(context.get_time(), h, nc, 0, residual)


class LcpStepper(ContactStepper):
    """The complementarity solver (`multibody.contact.lcp`) on a `DiscreteProblem`."""

    approximation = "lcp"

    def __init__(self, core, contacts, constraint_specs):
        tendons = sum(isinstance(spec, TendonConstraintSpec) for spec in constraint_specs)
        if tendons:
            raise ValueError(
                f"MultibodyPlant.finalize: discrete_contact_approximation 'lcp' does not "
                f"support tendon constraints (the plant has {tendons}); expected 'sap', "
                f"'similar' or 'lagged' (Drake's SAP solver)")
        super().__init__(core, contacts, constraint_specs)

    def _solve(self, context, res, state, M, vdot, pcs, nc, m):
        rows = 3 * nc + m
        p = self._problem(context, state, M, vdot, pcs, res.work)
        v = res.v_next
        v[:] = p.v0
        warm = res.work.lcp_warm
        warm["new_key"] = (pcs.geom_a[:nc].tobytes(), pcs.geom_b[:nc].tobytes(), m)
        it, residual = lcp_solve(p, v, res.gamma, res.vc, self.core.plant.get_lcp_solver(),
                                 warm)
        res.iterations, res.residual = it, residual
        if it < 0 or not math.isfinite(v.sum()):
            self._raise_not_converged(p.time, p.h, nc, m, residual)
        generalized_impulse(p.J, res.gamma, rows, p.h, res.tau_contact)

    def _problem(self, context, state, M, vdot, pcs, work):
        """The `DiscreteProblem` of the state (work arrays reserved by the caller)."""
        core = self.core
        p = DiscreteProblem()
        p.h = h = core.time_step
        p.time = context.get_time()
        p.v0 = state.v
        p.v_star = state.v + h * vdot
        p.nc = nc = pcs.nc
        rows = self._rows(context)
        p.m = m = rows.m
        p.M = M
        J = work.J[:3 * nc + m]
        q = state.q
        if nc:
            contact_jacobian(core.ip, core.fp, work.ws, q, nc, pcs.node_a, pcs.node_b,
                             pcs.p_WC, pcs.R_WC, J)
        else:
            pose_pass(core.ip, core.fp, q, work.ws)
        p.J = J
        p.phi0, p.k, p.d, p.tau, p.mu = (pcs.phi0[:nc], pcs.k[:nc], pcs.d[:nc], pcs.tau[:nc],
                                         pcs.mu[:nc])
        p.vs = core.plant.get_stiction_tolerance()
        p.g = np.zeros(m)
        p.stiffness = np.zeros(m)
        p.damping = np.zeros(m)
        if m:
            rows.fill(q, work.ws, J[3 * nc:], p.g, p.stiffness, p.damping)
        return p
