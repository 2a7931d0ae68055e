"""Cache entries of MultibodyPlant and the storage objects they fill.

Every per-context value the plant computes lives in a cache entry of the Context
(declared at ``finalize()``), stored in one of the small holder objects below so that
the kernels always get writable, C-contiguous float64 arrays. Dependencies::

    xc (or xd) ──> state ──┬──> position kinematics X_WB
                           ├──> velocity kinematics V_WB
    parameters ──> inertia ┼──> mass matrix
                           └──> forward dynamics <── actuation, applied forces inputs
                                  └──> acceleration kinematics A_WB

For a continuous plant the position kinematics and the mass matrix depend on q alone
and the velocity kinematics on q and v (the framework's q and v tickets, as in Drake), so
a change of v alone keeps X_WB and M; a discrete plant's state is one group (a step
changes q and v together). All arrays are in node order (see ``docs/compiled_model.md``).
"""

import numpy as np

from merganser.multibody.plant.query_tables import state_views

__all__ = [
    "AccelerationKinematics", "ForwardDynamicsCache", "InertiaCache", "MassMatrixCache",
    "PlantCacheMixin", "PositionKinematics", "StateCopy", "VelocityKinematics",
]


class StateCopy:
    """Writable copy of x = [q; v]; ``q`` (nq,) and ``v`` (nv,) are views into ``x``."""

    __slots__ = ("x", "q", "v")

    def __init__(self, nq, nv, x=None):
        self.x = np.zeros(nq + nv) if x is None else x
        self.q = self.x[:nq]
        self.v = self.x[nq:]

    def __reduce__(self):
        # Copies (Context.clone, pickling) must keep q and v views of the new x.
        return (StateCopy, (self.q.shape[0], self.v.shape[0], self.x.copy()))


class InertiaCache:
    """Inertial parameters I10 (nb, 10) in node order, from the body parameters."""

    __slots__ = ("I10",)

    def __init__(self, nb):
        self.I10 = np.zeros((nb, 10))


class PositionKinematics:
    """Body poses X_WB (nb, 4, 4) in node order."""

    __slots__ = ("X_WB",)

    def __init__(self, nb):
        self.X_WB = np.zeros((nb, 4, 4))


class VelocityKinematics:
    """Body spatial velocities V_WB_W (nb, 6) = [w_WB_W; v_WBo_W] in node order."""

    __slots__ = ("V_WB",)

    def __init__(self, nb):
        self.V_WB = np.zeros((nb, 6))


class MassMatrixCache:
    """Mass matrix M(q) (nv, nv), reflected inertia included."""

    __slots__ = ("M",)

    def __init__(self, nv):
        self.M = np.zeros((nv, nv))


class ForwardDynamicsCache:
    """Forward dynamics: vdot (nv,) and the forces it was computed with.

    Attributes
    ----------
    vdot : ndarray, shape (nv,)
        Generalized accelerations.
    u : ndarray, shape (nu,)
        Net actuation (sum of the actuation input ports).
    tau : ndarray, shape (nv,)
        Applied generalized forces: B u, applied generalized forces, joint damping and
        force elements' generalized forces (not gravity).
    F_Bo_W : ndarray, shape (nb, 6)
        Applied spatial forces at each node's body origin, in W (force elements,
        applied spatial forces and, when gravity is not in the kernels, gravity).
    has_F : bool
        Whether F_Bo_W holds forces (it is stale when False).
    scratch : ndarray, shape (nv,)
        Work array (the damping forces).
    reflected : ndarray, shape (nv,), or None
        The reflected inertia in the mass matrix that vdot was computed with (None: none,
        vdot is ABA's).
    """

    __slots__ = ("vdot", "u", "tau", "F_Bo_W", "has_F", "scratch", "reflected")

    def __init__(self, nv, nu, nb):
        self.vdot = np.zeros(nv)
        self.u = np.zeros(nu)
        self.tau = np.zeros(nv)
        self.F_Bo_W = np.zeros((nb, 6))
        self.has_F = False
        self.scratch = np.zeros(nv)
        self.reflected = None


class AccelerationKinematics:
    """Body spatial accelerations A_WB_W (nb, 6) = [alpha_WB_W; a_WBo_W], node order."""

    __slots__ = ("A_WB",)

    def __init__(self, nb):
        self.A_WB = np.zeros((nb, 6))


class _Alloc:
    """Picklable allocator: ``_Alloc(cls, *sizes)()`` makes a new holder."""

    def __init__(self, cls, *sizes):
        self.cls = cls
        self.sizes = sizes

    def __call__(self):
        return self.cls(*self.sizes)


class PlantCacheMixin:
    """Declaration and calculation of the plant's cache entries (see module docstring)."""

    def _declare_cache_entries(self, state_ticket, force_input_tickets):
        t = self._tables
        nb, nq, nv, nu = t.nb, t.nq, t.nv, t.nu
        entry = self.declare_cache_entry
        c = self._cache
        c.state = entry("multibody state copy", _Alloc(StateCopy, nq, nv),
                        self._calc_state_copy, [state_ticket])
        c.inertia = entry("inertial parameters I10", _Alloc(InertiaCache, nb),
                          self._calc_inertia_cache, [self.all_parameters_ticket()])
        if t.continuous:
            q_tickets, qv_tickets = [self.q_ticket()], [self.q_ticket(), self.v_ticket()]
        else:
            q_tickets = qv_tickets = [c.state.ticket()]
        c.position = entry("position kinematics", _Alloc(PositionKinematics, nb),
                           self._calc_position_kinematics, q_tickets)
        c.velocity = entry("velocity kinematics", _Alloc(VelocityKinematics, nb),
                           self._calc_velocity_kinematics, qv_tickets)
        c.mass_matrix = entry("mass matrix", _Alloc(MassMatrixCache, nv),
                              self._calc_mass_matrix_cache, q_tickets + [c.inertia.ticket()])
        c.forward_dynamics = entry(
            "forward dynamics", _Alloc(ForwardDynamicsCache, nv, nu, nb),
            self._calc_forward_dynamics_cache,
            [c.state.ticket(), c.inertia.ticket()] + list(force_input_tickets))
        c.acceleration = entry("acceleration kinematics", _Alloc(AccelerationKinematics, nb),
                               self._calc_acceleration_kinematics,
                               [c.forward_dynamics.ticket()])

    # ---- calcs -------------------------------------------------------------------------
    def _calc_state_copy(self, context, s):
        if self._tables.continuous:
            s.x[:] = context.get_continuous_state_vector()
        else:
            s.x[:] = context.get_discrete_state(0)

    def _calc_inertia_cache(self, context, cache):
        self._body_parameters_to_I10(context, cache.I10)

    def _calc_position_kinematics(self, context, kin):
        qt = self._qt or self._query_tables()
        views = state_views(context, qt.continuous, qt.nq)
        q = self._cache.state.eval(context).q if views is None else views[3]
        kin.X_WB[:] = self._dyn.forward_kinematics(q)     # q read in place

    def _calc_velocity_kinematics(self, context, kin):
        s = self._cache.state.eval(context)
        kin.V_WB[:] = self._dyn.body_spatial_velocities(s.q, s.v)

    def _calc_mass_matrix_cache(self, context, mm):
        s = self._cache.state.eval(context)
        inertia = self._cache.inertia.eval(context)
        t = self._tables
        mm.M[:] = self._dyn.mass_matrix(s.q, inertia.I10)
        reflected, has_reflected = self._reflected_inertia(context)
        if has_reflected:
            mm.M[t.diag_nv] += reflected

    def _calc_acceleration_kinematics(self, context, acc):
        s = self._cache.state.eval(context)
        vdot = self._cache.forward_dynamics.eval(context).vdot
        acc.A_WB[:] = self._dyn.body_spatial_accelerations(s.q, s.v, vdot)

    # ---- helpers used by the queries ------------------------------------------------------
    def _eval_q_v(self, context):
        """(q, v) of `context` (the plant's own context) as writable arrays not to modify."""
        s = self._cache.state.eval(context)
        return s.q, s.v

    def _eval_I10(self, context):
        """Inertial parameters (nb, 10) of `context`, node order (not to be modified)."""
        return self._cache.inertia.eval(context).I10

    def _eval_X_WB(self, context):
        """Body poses (nb, 4, 4) of `context`, node order (not to be modified)."""
        return self._cache.position.eval(context).X_WB

    def _eval_V_WB(self, context):
        """Body spatial velocities (nb, 6) of `context`, node order (not to be modified)."""
        return self._cache.velocity.eval(context).V_WB
