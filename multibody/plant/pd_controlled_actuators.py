"""PD-controlled actuators of a discrete MultibodyPlant (Drake's "Using PD controlled
actuators"), treated implicitly in the discrete step.

An actuator given gains with ``JointActuator.set_controller_gains(PdControllerGains(p,
d))`` applies, on its joint's position q and velocity v,

    ũ = -Kp (q̃ - q_d) - Kd (v - v_d) + u_ff,      u = max(-e, min(e, ũ)),

with q̃ = q₀ + h v the next position (the step is implicit in the controller, which is
what keeps stiff gains stable), q_d, v_d the entries of the model instance's
``<instance>_desired_state`` input ([q_d; v_d], the instance's actuators in actuator
order), u_ff the actuator's entry of the actuation inputs, and e its effort limit.
A model instance whose desired-state input is neither connected nor fixed is *disarmed*:
its actuators act as if they had no controller (u = u_ff). Controllers on locked joints
are ignored.

The step without the controllers solves M (v - v₀) = h τ + Jᵀ γ for v (τ holds u_ff).
With them, on the set F of controlled actuators that do not saturate, the controller
force is linear in v, and the step is the same problem with

    M̂ = M + h Σ_{i∈F} D̂ᵢ e_j eⱼᵀ,   D̂ᵢ = h Kpᵢ + Kdᵢ  (j the actuator's velocity index),
    v̂̇ = M̂⁻¹ (M v̇ + Σᵢ cᵢ e_j - Σ_{i∈F} D̂ᵢ v₀ⱼ e_j),

cᵢ = aᵢ - u_ffᵢ for i ∈ F (aᵢ = u_ffᵢ - Kpᵢ (q₀ⱼ - q_dᵢ) + Kdᵢ v_dᵢ, so ũᵢ = aᵢ - D̂ᵢ vⱼ)
and cᵢ = ±eᵢ - u_ffᵢ for a saturated one: every discrete solver (the contact-free step,
SAP, TAMSI, LCP) takes (M̂, v̂̇) in place of (M, v̇) and returns the exact solution of the
implicit controller (its cost is quadratic in v on F). The saturated set is found by an
active-set iteration: solve, recompute ũ at the new v, repeat until no actuator changes
side (one solve when nothing saturates).
"""

import numpy as np

from merganser.multibody.contact.errors import ContactSolverError

__all__ = ["PdControlledActuators", "PdTerms", "implicit_pd_step"]


class PdTerms:
    """The armed controllers of one step (the actuators' order).

    Attributes
    ----------
    u, q, v : ndarray (n,) int
        Actuation index, joint position index and joint velocity index.
    kp, kd, e : ndarray (n,)
        Gains and effort limits.
    qd, vd : ndarray (n,)
        Desired position and velocity.
    """

    __slots__ = ("u", "q", "v", "kp", "kd", "e", "qd", "vd")


class PdControlledActuators:
    """The PD-controlled actuators of a finalized discrete plant and their desired-state
    input ports (see the module docstring).

    Parameters
    ----------
    plant : MultibodyPlant
        The plant being finalized.
    tree : MultibodyTree
    tables : PlantTables
    ports : list of InputPort
        The ``<instance>_desired_state`` input of each model instance (by index).
    """

    #: active-set iterations before the step gives up (each adds or removes a saturation)
    MAX_ITERATIONS = 100

    def __init__(self, plant, tree, tables, ports):
        self.ports = list(ports)
        self.tickets = [plant.input_port_ticket(port) for port in self.ports]
        rows = []
        for actuator in tree._actuators:
            if not actuator.has_controller():
                continue
            joint = actuator.joint()
            if joint.num_positions() != 1 or joint.num_velocities() != 1:
                raise ValueError(
                    f"MultibodyPlant.finalize: actuator {actuator.name()!r} has PD gains "
                    f"but its joint {joint.name()!r} has {joint.num_positions()} positions "
                    f"and {joint.num_velocities()} velocities; PD control needs a 1-dof "
                    f"joint")
            mi = actuator.model_instance()
            u = actuator.input_start()
            slot = list(tables.u_indices[mi]).index(u)
            gains = actuator.get_controller_gains()
            rows.append((mi, slot, u, joint.position_start(), joint.velocity_start(),
                         gains.p, gains.d, actuator.effort_limit()))
        self.num_controlled = len(rows)
        # per model instance: (rows of the instance's controllers, their slots)
        self._by_instance = []
        for mi in range(tree.num_model_instances()):
            mine = [k for k, r in enumerate(rows) if r[0] == mi]
            if mine:
                self._by_instance.append(
                    (mi, np.array(mine, dtype=np.int64),
                     np.array([rows[k][1] for k in mine], dtype=np.int64),
                     len(tables.u_indices[mi])))
        cols = list(zip(*rows)) if rows else [()] * 8
        self._u = np.array(cols[2], dtype=np.int64)
        self._q = np.array(cols[3], dtype=np.int64)
        self._v = np.array(cols[4], dtype=np.int64)
        self._kp = np.array(cols[5], dtype=float)
        self._kd = np.array(cols[6], dtype=float)
        self._e = np.array(cols[7], dtype=float)

    def eval_terms(self, context, locked=None):
        """The `PdTerms` of the armed controllers in `context` (its desired-state inputs
        connected or fixed, joints not locked), or None when none is armed.

        Parameters
        ----------
        context : Context
            The plant's own context.
        locked : ndarray of int, optional
            The locked velocity indices (their controllers are ignored).
        """
        if not self.num_controlled:
            return None
        inputs = context._inputs
        picked, qd, vd = [], [], []
        for mi, rows, slots, n in self._by_instance:
            port = self.ports[mi]
            if inputs[port._index] is None:
                continue                                  # disarmed
            x_d = np.asarray(port.eval(context), dtype=float)
            if not np.all(np.isfinite(x_d)):
                raise ValueError(
                    f"MultibodyPlant: input port {port.get_name()!r} holds a non-finite "
                    f"desired state {x_d!r}")
            picked.append(rows)
            qd.append(x_d[slots])
            vd.append(x_d[n + slots])
        if not picked:
            return None
        rows = np.concatenate(picked)
        qd, vd = np.concatenate(qd), np.concatenate(vd)
        if locked is not None and len(locked):
            keep = ~np.isin(self._v[rows], locked)
            rows, qd, vd = rows[keep], qd[keep], vd[keep]
            if not rows.size:
                return None
        terms = PdTerms()
        terms.u, terms.q, terms.v = self._u[rows], self._q[rows], self._v[rows]
        terms.kp, terms.kd, terms.e = self._kp[rows], self._kd[rows], self._e[rows]
        terms.qd, terms.vd = qd, vd
        return terms


def implicit_pd_step(terms, M, vdot, q0, v0, u_ff, h, solve, time=0.0):
    """The discrete step with the armed controllers `terms` (see the module docstring).

    Parameters
    ----------
    terms : PdTerms
    M : ndarray (nv, nv)
        The mass matrix the solver takes.
    vdot : ndarray (nv,)
        The free-motion acceleration without the controllers (u_ff in it).
    q0, v0 : ndarray (nq,), (nv,)
        The state at the start of the step.
    u_ff : ndarray (nu,)
        The actuation inputs (feed-forward).
    h : float
        The time step.
    solve : callable
        ``solve(M_hat, vdot_hat) -> v_next`` (nv,): the solver's step on the modified
        problem.
    time : float
        The context time (for messages).

    Returns
    -------
    v_next : ndarray (nv,)
    u_pd : ndarray (n,)
        The controlled actuators' actuation u (effort-limited, feed-forward included).
    """
    j = terms.v
    uff = np.asarray(u_ff, dtype=float)[terms.u]
    Dh = h * terms.kp + terms.kd
    a = uff - terms.kp * (q0[terms.q] - terms.qd) + terms.kd * terms.vd
    Mvdot = M @ vdot
    side = np.zeros(j.size)                  # 0 linear, +1 / -1 at the upper / lower limit
    for _ in range(PdControlledActuators.MAX_ITERATIONS):
        free = side == 0.0
        limit = np.copysign(terms.e, side)       # the saturated value (unused where free)
        jf = j[free]
        M_hat = M.copy()
        np.add.at(M_hat, (jf, jf), h * Dh[free])
        rhs = Mvdot.copy()
        np.add.at(rhs, j, np.where(free, a, limit) - uff)
        np.add.at(rhs, jf, -Dh[free] * v0[jf])
        vdot_hat = np.linalg.solve(M_hat, rhs)
        v_next = solve(M_hat, vdot_hat)
        u_tilde = a - Dh * v_next[j]
        new_side = np.where(u_tilde > terms.e, 1.0, np.where(u_tilde < -terms.e, -1.0, 0.0))
        if np.array_equal(new_side, side):
            return v_next, np.where(free, u_tilde, limit)
        side = new_side
    raise ContactSolverError(
        f"discrete step at t = {time:.6g} s: the PD-controlled actuators' saturation set "
        f"did not settle in {PdControlledActuators.MAX_ITERATIONS} iterations; remedy: "
        f"reduce the time step (now {h} s) or the gains")
