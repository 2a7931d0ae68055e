"""Point contact inside the batched kernel: the discrete SAP-family step of one env.

`contact_step` advances one env by one step of the plant's own discrete contact step,
built from the kernels the single plant calls, in its order (one copy of each formula):

1. the body poses X_WB (one `pose_pass` for them, M(q), the bias forces and the contact
   Jacobian), the geometry poses X_WG = X_WB X_BG (`geometry_poses`), the broad and
   narrow phase (`geometry.proximity.scene.contact_point_query`) and the contact pairs
   with combined parameters (`multibody.contact.contact_kernels.build_contacts`);
2. without contact and constraints (a tendon constraint counts where the state violates
   one of its limits, as the plant's stepper), the free motion v_{n+1} = v + h v̇ with
   v̇ = ABA(q, v, τ), τ = B u - D v (`multibody.batched.batched_step.env_accelerations`,
   the plant's forward dynamics); with joint damping in the SAP family (implicit, as
   Drake's) ABA on M + h D (the armature h D, `multibody.kernels.aba`), as the plant's
   stepper; a joint limit within reach of v_{n+1} takes step 3 instead;
3. with contact, M(q) once (CRBA, `mass_matrix_at_poses`), its sparse factor
   M = Lᵀ D L (`multibody.kernels.mass_factorization`) and the bias
   C(q, v) v - τ_g(q) by RNEA at v̇ = 0 (`bias_forces_at_poses`), so that the
   free-motion acceleration is v̇ = M⁻¹ (τ - C v + τ_g) without ABA
   (`free_motion_acceleration`; the plant's step computes it so too,
   `multibody.contact.discrete_stepper`); then the SAP-family solve on M
   (`multibody.contact.sap_step.sap_step`) or, for the plant's own compiled loop
   (`multibody.batched.plant_loop`), the TAMSI solve (`multibody.contact.tamsi.tamsi_step`);
4. q_{n+1} = q + h N(q) v_{n+1}, quaternions re-normalized (`advance_positions`).

`BatchedContactScene` holds the tables this needs, taken from the plant (its proximity
geometries, collision filter, contact parameters, solver settings) and the per-chunk
work arrays' sizes.
"""

from __future__ import annotations

import math

import numpy as np

from merganser.framework.compilation import kernel
from merganser.geometry.properties import HYDROELASTIC
from merganser.geometry.proximity.broad_phase import geometry_poses
from merganser.geometry.proximity.scene import contact_point_query
from merganser.multibody.batched.batched_step import (
    env_accelerations, env_generalized_forces, env_inputs, env_scratch, load_state,
    store_state,
)
from merganser.multibody.contact.contact_kernels import build_contacts
from merganser.multibody.contact.discrete_stepper import SapStepper, TamsiStepper
from merganser.multibody.contact.problem_kernels import near_rigid_factor
from merganser.multibody.contact.sap import sap_work
from merganser.multibody.contact.constraint_kernels import (
    ROWS_OF_KIND, num_limit_rows, num_tendon_rows,
)
from merganser.multibody.contact.sap_step import CONSTRAINT_WORK_ROWS, CONTACT_WORK_ROWS, sap_step
from merganser.multibody.contact.tamsi import tamsi_step
from merganser.multibody.contact.contact_kernels import pose_pass
from merganser.multibody.kernels.crba import mass_matrix_at_poses
from merganser.multibody.kernels.mass_factorization import solve_with_factor, velocity_parents
from merganser.multibody.kernels.rnea import bias_forces_at_poses
from merganser.multibody.kernels.layout import WS_PW, WS_RW
from merganser.multibody.kernels.position_update import advance_positions

__all__ = ["BatchedContactScene", "CONTACT_CAPACITY_EXCEEDED", "SINGULAR_MASS_MATRIX",
           "TAMSI_CODE", "contact_step", "contact_work", "free_motion_acceleration",
           "free_motion_step",
           "step_envs_contact"]

#: `contact_step`'s return value when the query found more contact rows than the work
#: arrays hold (cannot happen with `contact_work`'s sizes; reported, not ignored).
CONTACT_CAPACITY_EXCEEDED = -(1 << 40)
#: The solver code of TAMSI in `BatchedContactScene.solver` (the SAP family's are
#: `multibody.contact.sap`'s ``SAP``, ``SIMILAR``, ``LAGGED``, all >= 0).
TAMSI_CODE = -1
#: `contact_step`'s return value when M(q) is not positive definite (a massless body
#: on a free joint; the plant's forward dynamics raises SingularDynamicsError then).
SINGULAR_MASS_MATRIX = -(1 << 41)


_EMPTY_QUERY = []


def empty_query():
    """The query of an empty SceneGraph (no geometry): the contact tables of a plant that
    was never registered with a SceneGraph (made once)."""
    if not _EMPTY_QUERY:
        from merganser.geometry import SceneGraph   # its config models load on first use

        empty = SceneGraph()
        _EMPTY_QUERY.append(empty.get_query_output_port().eval(empty.create_default_context()))
    return _EMPTY_QUERY[0]


class BatchedContactScene:
    """The contact tables of a plant for the batched kernel.

    Parameters
    ----------
    plant : MultibodyPlant
        Finalized, discrete, with collision geometry registered in its SceneGraph, the
        ``"sap"``, ``"similar"`` or ``"lagged"`` discrete contact approximation and
        point contact (``contact_model`` ``"point"``, or ``"hydroelastic_with_fallback"``
        with no geometry given hydroelastic properties).
    core : PlantCore
        The plant's core.
    query : QueryObject, optional
        The query whose proximity tables (model and collision filter) the scene takes;
        by default that of a default context of the plant's SceneGraph (`empty_query`'s
        for a plant never registered with one: no geometry).
    allow_tamsi : bool
        Accept the ``"tamsi"`` approximation too (the plant's own compiled loop,
        `multibody.batched.plant_loop`; `BatchedPlant` solves the SAP family only).

    Attributes
    ----------
    scene : tuple
        ``(gtype, pstart, params, geom_node, X_FG, allowed, k, d, tau, mu)`` over the
        proximity geometries (query-table order): type codes, shape parameters, the node
        of each geometry's body (0: world), pose in the body frame, the allowed-pair
        table and the per-geometry contact parameters.
    solver : tuple
        ``(solver_code, stiction_tolerance, near_rigid, rel_tol, abs_tol, max_iter, kinds,
        int_params, float_params, limit_qv, limit_lower, limit_upper, tendon_start,
        tendon_qv, tendon_a, tendon_params)`` (``solver_code`` the SAP family member or
        `TAMSI_CODE`, ``near_rigid`` the factor of the plant's SAP near-rigid threshold, as
        the plant's stepper passes it; the constraint and tendon tables are the plant's,
        all active; the joint-limit tables are the stepper's, as they were when the scene
        was made, empty when the solver models no limits).
    max_pairs, max_rows : int
        Sizes of the broad-phase pair and contact-row work arrays.
    constraint_rows : int
        The rows of the plant's constraints: the bilateral ones (couplers, distance, ball,
        weld) and the most its tendon constraints give in a step.
    tables : ProximityTables
        The proximity tables the scene was taken from.
    """

    def __init__(self, plant, core, query=None, allow_tamsi=False):
        fn = "BatchedPlant"
        manager = core.contact_manager
        stepper = manager.stepper
        tamsi = allow_tamsi and isinstance(stepper, TamsiStepper)
        if not (tamsi or isinstance(stepper, SapStepper)):
            raise ValueError(
                f"{fn}: plant '{plant.get_name()}' uses the discrete contact approximation "
                f"'{stepper.approximation}'; the batched kernel solves contact with the SAP "
                f"family only: set discrete_contact_approximation to 'sap', 'similar' or "
                f"'lagged'")
        sg = core.scene_graph
        if query is None:
            query = (empty_query() if sg is None else
                     sg.get_query_output_port().eval(sg.create_default_context()))
        tables = query._proximity_tables()
        inspector = query.inspector()
        ids = tables.ids
        model = plant.get_contact_model()
        if model == "hydroelastic":
            raise ValueError(f"{fn}: plant '{plant.get_name()}' uses the contact model "
                             f"'hydroelastic'; the batched kernel models point contact only "
                             f"(contact_model 'point' or 'hydroelastic_with_fallback' without "
                             f"hydroelastic properties)")
        for g in ids:
            props = inspector.get_proximity_properties(g)
            if model != "point" and props is not None and props.has_property(
                    HYDROELASTIC, "compliance_type"):
                raise ValueError(
                    f"{fn}: geometry '{inspector.get_name(g)}' of plant '{plant.get_name()}' "
                    f"has hydroelastic properties and the contact model is '{model}'; the "
                    f"batched kernel models point contact only (contact_model 'point')")
            frame = inspector.get_frame_id(g)
            if frame != sg.world_frame_id() and plant.get_body_from_frame_id(frame) is None:
                raise ValueError(
                    f"{fn}: geometry '{inspector.get_name(g)}' is posed by another "
                    f"SceneGraph source (not a body of plant '{plant.get_name()}' nor the "
                    f"world); the batched kernel poses the plant's geometries only")
        gt = manager.geometry_tables(ids)
        node = np.ascontiguousarray(gt.node, dtype=np.int64)
        self.scene = (tables.gtype, tables.pstart, tables.params, node,
                      np.ascontiguousarray(tables.X_FG), tables.allowed, gt.k, gt.d, gt.tau,
                      gt.mu)
        cr = stepper.constraints
        stepper.refresh_limits()
        self.tables = tables
        self.solver = (TAMSI_CODE if tamsi else int(stepper.sap_model), float(plant.get_stiction_tolerance()),
                       float(near_rigid_factor(plant.get_sap_near_rigid_threshold())),
                       float(stepper.rel_tolerance), float(stepper.abs_tolerance),
                       int(stepper.max_iterations), cr.kinds, cr.int_params, cr.float_params,
                       stepper.limit_qv if stepper.has_limits else stepper.no_limits,
                       stepper.limit_lower, stepper.limit_upper) + cr.tendons
        self.approximation = stepper.approximation
        self.num_geometries = len(ids)
        if not velocity_parents(core.ip, np.zeros(max(plant.num_velocities(), 1), np.int64)):
            raise ValueError(f"{fn}: plant '{plant.get_name()}' numbers a velocity before its "
                             f"parent's; the batched contact step's mass-matrix factorization "
                             f"needs parents first")
        # every allowed pair can be a candidate; a pair gives at most 16 contact rows
        self.max_pairs = max(int(np.count_nonzero(tables.allowed)), 1)
        self.max_rows = 16 * self.max_pairs + 16
        self.constraint_rows = int(cr.m + cr.tendon_max_rows)


@kernel(allocates=True, inline=False)
def contact_work(ip, nb, nv, ng, max_pairs, max_rows, m):
    """The work arrays of `contact_step` for one parallel task (see its docstring);
    ip is the packed model (for the velocity parents of the mass-matrix factor)."""
    X_WB = np.zeros((nb, 4, 4))
    X_WG = np.zeros((max(ng, 1), 4, 4))
    aabb = np.zeros((max(ng, 1), 6))
    order = np.arange(ng)
    pairs = np.zeros((max_pairs, 2), np.int64)
    rows = np.zeros((max_rows, 10))
    out_pairs = np.zeros((max_rows, 2), np.int64)
    nodes = np.zeros((4, max_rows), np.int64)          # node_a, node_b, geom_a, geom_b
    p_WC = np.zeros((max_rows, 3))
    R_WC = np.zeros((max_rows, 3, 3))
    params = np.zeros((5, max_rows))                   # phi0, k, d, tau, mu
    rows_c = np.zeros((max_rows, 10))
    M = np.zeros((nv, nv))
    extra = m + 2 * nv                                 # constraint and joint-limit rows
    J = np.zeros((3 * max_rows + extra, nv))           # contact rows, then those
    w = np.zeros(3 * max_rows + extra)
    cwork = np.zeros((CONTACT_WORK_ROWS, max_rows))
    hwork = np.zeros((CONSTRAINT_WORK_ROWS, extra + 1))    # constraint and limit rows
    vecs = np.zeros((3, nv))                           # v*, τ_c, v_{n+1}
    impulses = np.zeros((2, 3 * max_rows + extra))     # γ, vc
    solver = sap_work(nv, 3 * max_rows + extra, max_rows + extra)
    limit_dof = np.zeros(2 * nv + 1, np.int64)
    L = np.zeros((nv, nv))                             # the factor M = Lᵀ D L
    lam = np.zeros(nv, np.int64)                       # velocity parents
    velocity_parents(ip, lam)
    dyn = np.zeros((3, nv))                            # zeros (v̇ = 0), C v - τ_g, h D
    return (X_WB, X_WG, aabb, order, pairs, rows, out_pairs, nodes, p_WC, R_WC, params,
            rows_c, M, J, w, cwork, hwork, vecs, impulses, solver, L, lam, dyn, limit_dof)


@kernel
def world_poses(ws, X_WB):
    """X_WB (nb, 4, 4) from the world poses of the workspace (`pose_pass`; the same
    numbers as `multibody.kernels.kinematics.calc_forward_kinematics`)."""
    for k in range(X_WB.shape[0]):
        for i in range(3):
            for j in range(3):
                X_WB[k, i, j] = ws[k, WS_RW + 3 * i + j]
            X_WB[k, i, 3] = ws[k, WS_PW + i]
            X_WB[k, 3, i] = 0.0
        X_WB[k, 3, 3] = 1.0


@kernel
def free_motion_acceleration(model, drive, scratch, q, v, M, L, lam, dyn):
    """scratch's vd = M⁻¹ (τ - (C(q, v) v - τ_g(q))) with M (nv, nv) = M(q) given and
    the joint poses of q in scratch's ws (`pose_pass`); τ = B u - D v as
    `multibody.batched.batched_step.env_accelerations`. L (nv, nv) receives the factor
    M = Lᵀ D L (`multibody.kernels.mass_factorization`, velocity parents `lam`); dyn
    (2, nv) is work (row 0 zeros). Returns False if M is not positive definite."""
    ip, fp, g, inertia = model
    ws, tau, vd = scratch[0], scratch[2], scratch[3]
    zeros, bias = dyn[0], dyn[1]
    env_generalized_forces(drive, q, v, tau)
    bias_forces_at_poses(ip, fp, ws, q, v, zeros, inertia, g, bias)
    for i in range(M.shape[0]):
        vd[i] = tau[i] - bias[i]
    return solve_with_factor(M, lam, L, vd)


@kernel
def free_motion_step(model, drive, scratch, solver, q, v, h, qdot_is_v, quat_starts, armature,
                     v_next):
    """The step of an env without contact and constraint rows, in place on q and v:
    v_{n+1} = v + h v̇ with v̇ = ABA(q, v, τ), on M + h D when the SAP family takes
    joint damping implicitly (`armature` (nv,) receives h D), and q advanced, as the
    plant's stepper; returns False, q and v untouched, when a tendon starts violated or a
    joint limit lies within reach of v_{n+1} (the solver's step is needed then;
    `contact_step`). `solver` is `BatchedContactScene.solver`, v_next (nv,) work."""
    ip = model[0]
    vd, qdot = scratch[3], scratch[4]
    code, limit_qv, limit_lower, limit_upper = solver[0], solver[9], solver[10], solver[11]
    tendon_start, tendon_qv, tendon_a, tendon_params = solver[12], solver[13], solver[14], \
        solver[15]
    if tendon_params.shape[0] > 0 and num_tendon_rows(q, tendon_start, tendon_qv, tendon_a,
                                                      tendon_params) > 0:
        return False
    damping = drive[2]
    n = 0                                # M, or M + h D by ABA with the armature h D
    if code != TAMSI_CODE:
        for i in range(damping.shape[0]):
            if damping[i] != 0.0:
                n = damping.shape[0]
    arm = armature[:n]
    for i in range(n):
        arm[i] = h * damping[i]
    env_accelerations(model, drive, scratch, q, v, arm)
    for i in range(v.shape[0]):
        v_next[i] = v[i] + h * vd[i]              # v* (the limits' window), as numpy's
    if code != TAMSI_CODE and limit_qv.shape[0] > 0 and num_limit_rows(
            q, v, v_next, h, limit_qv, limit_lower, limit_upper) > 0:
        return False
    for i in range(v.shape[0]):
        v_next[i] = vd[i] * h + v[i]
    advance_positions(ip, q, v_next, h, qdot_is_v, quat_starts, qdot, q)
    for i in range(v.shape[0]):
        v[i] = v_next[i]
    return True


@kernel(allocates=True, inline=False)
def contact_step(model, drive, scratch, scene, solver, work, q, v, h,
                 qdot_is_v, quat_starts):
    """One discrete contact step of one env, in place on q and v (module docstring).

    Parameters
    ----------
    model, drive, scratch
        As `multibody.batched.batched_step.env_accelerations` (``model[3]`` is the env's
        I10).
    scene, solver : tuple
        `BatchedContactScene.scene` and ``.solver``.
    work : tuple
        `contact_work`'s arrays.
    q, v : ndarray, shapes (nq,), (nv,)
        The env's state, overwritten by x_{n+1}.
    h : float
    qdot_is_v : bool
    quat_starts : ndarray of int64

    Returns
    -------
    int
        The number of contacts (>= 0); a negative value is the solver's non-convergence
        (``-iterations``, the state is untouched), `CONTACT_CAPACITY_EXCEEDED` or
        `SINGULAR_MASS_MATRIX`.
    """
    ip, fp, g, inertia = model
    ws, vd, qdot = scratch[0], scratch[3], scratch[4]
    gtype, pstart, params_g, geom_node, X_FG, allowed, k_g, d_g, tau_g, mu_g = scene
    (code, vs, near_rigid, rel_tol, abs_tol, max_iter, kinds, int_params, float_params,
     limit_qv, limit_lower, limit_upper, tendon_start, tendon_qv, tendon_a,
     tendon_params) = solver
    (X_WB, X_WG, aabb, order, pairs, rows, out_pairs, nodes, p_WC, R_WC, cparams, rows_c, M,
     J, w, cwork, hwork, vecs, impulses, solver_work, L, lam, dyn, limit_dof) = work
    nc = 0
    posed = gtype.shape[0] > 0           # no geometry: no query, the poses when needed
    if posed:
        pose_pass(ip, fp, q, ws)         # once: for X_WB, M(q), C v and the contact Jacobian
        world_poses(ws, X_WB)
        geometry_poses(geom_node, X_FG, X_WB, X_WG)
        _, nrows = contact_point_query(gtype, pstart, params_g, X_WG, aabb, allowed, order,
                                       pairs, rows, out_pairs)
        if nrows < 0:
            return CONTACT_CAPACITY_EXCEEDED
        nc = build_contacts(rows[:nrows], out_pairs[:nrows], geom_node, k_g, d_g, tau_g, mu_g,
                            nodes[0], nodes[1], p_WC, R_WC, cparams[0], cparams[1], cparams[2],
                            cparams[3], cparams[4], nodes[2], nodes[3], rows_c)
    v_next = vecs[2]
    damping = drive[2]
    damped = False                       # the SAP family takes damping implicitly: M + h D
    if code != TAMSI_CODE:
        for i in range(damping.shape[0]):
            if damping[i] != 0.0:
                damped = True
    m = 0                                # the constraints' rows (all active)
    for i in range(kinds.shape[0]):
        m += ROWS_OF_KIND[kinds[i]]
    mt = 0                               # the most rows the tendons give
    for i in range(tendon_params.shape[0]):
        mt += int(math.isfinite(tendon_params[i, 1])) + int(math.isfinite(tendon_params[i, 2]))
    if nc == 0 and m == 0 and free_motion_step(model, drive, scratch, solver, q, v, h,
                                               qdot_is_v, quat_starts, dyn[2], v_next):
        return 0                         # free motion, as the plant's stepper
    if not posed:
        pose_pass(ip, fp, q, ws)
    mass_matrix_at_poses(ip, fp, ws, inertia, M)
    if damped:
        for i in range(damping.shape[0]):
            M[i, i] += h * damping[i]
    if not free_motion_acceleration(model, drive, scratch, q, v, M, L, lam, dyn):
        return SINGULAR_MASS_MATRIX
    r3 = 3 * nc                          # the work arrays cut to this step's contacts
    if code == TAMSI_CODE:
        it, _ = tamsi_step(ip, fp, ws, q, v, vd, M, h, nc, nodes[0], nodes[1], p_WC, R_WC,
                           cparams[0], cparams[4], cparams[1], cparams[2], vs, rel_tol,
                           abs_tol, max_iter, J[:r3], v_next, impulses[0, :r3],
                           impulses[1, :r3], vecs[1])
    else:
        rl = r3 + m + 2 * limit_qv.shape[0] + mt   # and the constraint, limit, tendon rows
        it, _, _, _ = sap_step(code, q, v, vd, M, h, vs, near_rigid, rel_tol, abs_tol,
                               max_iter, nc, m, nodes[0], nodes[1], p_WC, R_WC, cparams[0],
                               cparams[1], cparams[2], cparams[3], cparams[4], v_next,
                               impulses[0, :rl], impulses[1, :rl], vecs[1], ip, fp, ws,
                               kinds, int_params, float_params, limit_qv, limit_lower,
                               limit_upper, limit_dof, tendon_start, tendon_qv, tendon_a,
                               tendon_params, J[:rl], w[:rl], cwork[:, :nc], hwork,
                               vecs[0], solver_work, True)
    if it < 0:
        return min(it, -1)
    advance_positions(ip, q, v_next, h, qdot_is_v, quat_starts, qdot, q)
    for i in range(v.shape[0]):
        v[i] = v_next[i]
    return nc


@kernel(allocates=True, inline=False)
def step_envs_contact(lo, hi, ip, fp, X, U, I10, g, h, num_steps, actuators, damping,
                      quat_starts, qdot_is_v, KP, KD, XD, use_pd, scene, solver, sizes,
                      status):
    """`multibody.batched.batched_step.step_envs`'s semi-explicit Euler with contact:
    `contact_step` for every env lo..hi-1 and step, in place on X (N, nq + nv).

    `scene`, `solver` are `BatchedContactScene`'s tuples, `sizes` the arguments of
    `contact_work`; status (N, 2) int64 receives per env the contact count of its last
    step and, when a step failed (then the env holds the state before it and takes no
    further step), ``[step number (1-based), contact_step's negative value]``; it is
    ``[nc, 0]`` otherwise. The other arguments are `step_envs`'s.
    """
    nx, nv = X.shape[1], damping.shape[0]
    nq = nx - nv
    nb, _, ng, max_pairs, max_rows, m = sizes
    scratch = env_scratch(ip.shape[0], nq, nv)
    work = contact_work(ip, nb, nv, ng, max_pairs, max_rows, m)
    fast = ng == 0 and m == 0
    armature, v_next = work[22][2], work[17][2]
    q, v = np.empty(nq), np.empty(nv)
    for e in range(lo, hi):
        load_state(X, e, q, v)
        model, drive = env_inputs(e, ip, fp, g, I10, U, actuators, damping, KP, KD, XD,
                                  use_pd)
        status[e, 1] = 0
        for s in range(num_steps):
            # no geometry and no constraint rows: the free motion without the call of
            # contact_step (its many arguments) unless a limit or tendon needs the solver
            if fast and free_motion_step(model, drive, scratch, solver, q, v, h, qdot_is_v,
                                         quat_starts, armature, v_next):
                status[e, 0] = 0
                continue
            r = contact_step(model, drive, scratch, scene, solver, work, q, v, h, qdot_is_v,
                             quat_starts)
            if r < 0:
                status[e, 0] = s + 1
                status[e, 1] = r
                break
            status[e, 0] = r
        store_state(X, e, q, v)
