"""Forces and dynamics of MultibodyPlant: the applied generalized forces τ, forward and
inverse dynamics, force elements, and the continuous time derivatives.

The equations of motion are, in Drake's sign convention,

    M(q) v̇ + C(q, v) v = τ_g(q) + τ + Σ_B J_Bᵀ F_Bo_W,        q̇ = N(q) v,

with τ = B u (net actuation: the ``actuation`` input plus the per-model-instance
``<name>_actuation`` inputs; not clamped to the effort limits, as in Drake's continuous
plant) + the ``applied_generalized_force`` input - D v (joint damping) + the force
elements' generalized forces, and F_Bo_W the force elements' and the
``applied_spatial_force`` input's spatial forces at each body origin, expressed in W.
Gravity τ_g goes through the kernels' g (or, when it is disabled for some model
instance, through F_Bo_W). The articulated body algorithm solves for v̇ in one kernel
call; actuators with reflected inertia switch to a solve with the mass matrix, because
the kernels have no armature term.

With the plant's own context, `calc_forward_dynamics` (when it is one ABA call, see
`_one_call_fd`), `calc_inverse_dynamics`, `calc_mass_matrix` and
`calc_force_elements_contribution` (when gravity is the only force element) are each one
fused kernel call reading the state where the Context stores it and writing the result
directly (`multibody.kernels.queries`). `calc_force_elements_contribution` then leaves
the MultibodyForces lazy: it copies q, v and I10 into the forces' snapshot, from which the
forces are computed when read (the eager bits), or by `calc_inverse_dynamics` in its one
kernel call (`multibody.kernels.lazy_forces`).
"""

import numpy as np

from merganser.multibody.kernels.aba import calc_forward_dynamics_damped
from merganser.multibody.kernels.lazy_forces import LAZY_KEPT, LAZY_WRITTEN
from merganser.multibody.plant.singular_mass_matrix import solve_with_mass_matrix
from merganser.multibody.plant.externally_applied_spatial_force import ExternallyAppliedSpatialForce
from merganser.multibody.plant.multibody_forces import MultibodyForces
from merganser.multibody.plant.plant_cache import ForwardDynamicsCache
from merganser.multibody.plant.plant_element_parameters import apply_joint_locks
from merganser.multibody.plant.query_tables import bind_lazy_forces, own_state_views

__all__ = ["PlantForcesMixin"]

_ZERO3 = np.zeros(3)
_ND = np.ndarray
_F64 = np.dtype(np.float64)
_empty = np.empty


class PlantForcesMixin:
    """Force assembly and dynamics (see the module docstring)."""

    # ---- gravity ---------------------------------------------------------------------------
    def _kernel_gravity(self):
        """g (3,) for the kernels: the gravity vector, or zero when gravity is applied as
        body forces (disabled for some model instance); fixed at finalize."""
        return self._core.gravity

    # ---- applied forces --------------------------------------------------------------------
    def _net_actuation(self, context, u):
        """The net actuation (nu,): the full input plus the per-instance inputs.

        Returns the ``actuation`` input's (read-only) value itself when no per-instance
        input is connected or fixed; otherwise the sum, written into `u`.
        """
        ports = self._ports
        value = ports.actuation.eval(context)
        inputs = context._inputs
        summed = False
        for indices, port in ports.instance_actuation_active:
            if inputs[port._index] is not None:
                if not summed:
                    u[:] = value
                    value, summed = u, True
                u[indices] += port.eval(context)
        return value

    def _add_applied_spatial_forces(self, context, F_Bo_W, zero_first=False):
        """Add the ``applied_spatial_force`` input (if any) to F_Bo_W (nb, 6), node order.

        With `zero_first`, F_Bo_W is zeroed before the first force is added. Returns True
        if some force was added.
        """
        port = self._ports.applied_spatial_force
        if context._inputs[port._index] is None:
            return False
        forces = port.eval(context)
        if not forces:
            return False
        if zero_first:
            F_Bo_W[:] = 0.0
        t = self._tables
        X_WB = self._eval_X_WB(context)
        for i, force in enumerate(forces):
            if not isinstance(force, ExternallyAppliedSpatialForce):
                raise TypeError(
                    f"MultibodyPlant: input port 'applied_spatial_force' element {i} must be an "
                    f"ExternallyAppliedSpatialForce, got {type(force).__name__}")
            b = force.body_index
            if not isinstance(b, (int, np.integer)) or not 0 <= b < t.nb:
                raise ValueError(
                    f"MultibodyPlant: input port 'applied_spatial_force' element {i} has "
                    f"body_index {b!r}, expected an integer in 0..{t.nb - 1}")
            node = t.node_of_body[b]
            F = force.F_Bq_W.get_coeffs()
            p_BoBq_W = X_WB[node, :3, :3] @ np.asarray(force.p_BoBq_B, dtype=float).reshape(3)
            F_Bo_W[node, :3] += F[:3] + np.cross(p_BoBq_W, F[3:])
            F_Bo_W[node, 3:] += F[3:]
        return True

    def _assemble_applied_forces(self, context, state, fd):
        """Fill fd.u, fd.tau, fd.F_Bo_W and fd.has_F for `context` (see module docstring).

        F_Bo_W is written (zeroed first) only when has_F is True.
        """
        t = self._tables
        tau = fd.tau
        port = self._ports.applied_generalized_force
        has_tau_input = context._inputs[port._index] is not None
        damped = False
        D = self._context_damping(context)
        has_damping = t.has_damping if D is None else bool(D.any())
        if D is None:
            D = t.damping
        if t.nu:
            u = self._net_actuation(context, fd.u)
            if t.actuation_is_identity:
                if has_damping and not has_tau_input:
                    # τ = u − D v in one pass: the numbers of τ = u, then τ -= D v below.
                    np.multiply(D, state.v, out=fd.scratch)
                    np.subtract(u, fd.scratch, out=tau)
                    damped = True
                else:
                    tau[:] = u
            elif t.actuator_v_unique:
                self._scattered_actuation(u, tau)
            else:
                np.dot(t.actuation_matrix, u, out=tau)
        else:
            tau[:] = 0.0
        if has_tau_input:
            tau += port.eval(context)
        if has_damping and not damped:
            np.multiply(D, state.v, out=fd.scratch)
            tau -= fd.scratch
        F = fd.F_Bo_W
        has_F = self._add_applied_spatial_forces(context, F, zero_first=True)
        if t.has_force_elements or not t.gravity_in_kernel:
            if not has_F:
                F[:] = 0.0
            X_WB, V_WB = self._eval_X_WB(context), self._eval_V_WB(context)
            I10 = self._eval_I10(context)
            if t.has_force_elements:
                self._tree.calc_force_elements_contribution(
                    X_WB, V_WB, state.q, state.v, tau, F, include_gravity=False,
                    inertia_params=I10,
                    element_parameters=self._force_element_parameters(context))
            if not t.gravity_in_kernel:
                self._tree.gravity_field().calc_and_add_forces(
                    X_WB, V_WB, state.q, state.v, tau, F, inertia_params=I10)
            has_F = True
        fd.has_F = has_F

    # ---- forward dynamics --------------------------------------------------------------------
    def _init_forward_dynamics_path(self):
        """Decide once (at finalize) whether v̇ is one kernel call on the actuation for
        every context: identity actuation (or none; actuators on distinct velocities take it
        in the facade, with u scattered), gravity the only force element (in
        the kernels), no reflected inertia, no added mass, no continuous contact. The
        inputs that could add forces (applied forces, per-instance actuation) are checked
        per evaluation."""
        t = self._tables
        core = self._core
        one_call = bool(
            t.gravity_in_kernel and not t.has_force_elements and not t.has_reflected_inertia
            and core.added_mass is None and not core.contact_manager.continuous_active)
        self._one_call_fd = core.one_call_forward_dynamics = bool(
            one_call and (t.nu == 0 or t.actuation_is_identity))
        # Actuators on distinct velocities (a humanoid's unactuated floating base):
        # the facade's v̇ is still one call, on u scattered into (nv,) (τ[actuator_v] = u,
        # the numbers of the general path). The compiled forms keep the identity rule.
        self._scatter_fd = bool(one_call and t.nu and not t.actuation_is_identity
                                and t.actuator_v_unique)
        self._facade_one_call_fd = self._one_call_fd or self._scatter_fd
        self._zero_actuation = np.zeros(t.nv)      # u when there are no actuators

    def _scattered_actuation(self, u, out):
        """`out` (nv,) = B u for actuators on distinct velocities: zero, then
        out[actuator_v] = u."""
        out[:] = 0.0
        out[self._tables.actuator_v] = u
        return out

    def _calc_forward_dynamics_cache(self, context, fd):
        self._calc_unlocked_forward_dynamics(context, fd)
        locked = self._locked_velocities(context)
        if locked is not None:
            apply_joint_locks(self._cache.mass_matrix.eval(context).M, fd.vdot, locked)

    def _calc_unlocked_forward_dynamics(self, context, fd):
        state = self._cache.state.eval(context)
        I10 = self._cache.inertia.eval(context).I10
        if self._facade_one_call_fd and not (self._context_rotors_ever_set and
                                             self._context_reflected_inertia(context) is not None):
            inputs = context._inputs
            ports = self._ports
            if (inputs[ports.applied_generalized_force._index] is None
                    and inputs[ports.applied_spatial_force._index] is None):
                core = self._core
                fd.has_F = False
                fd.reflected = None
                u = (self._net_actuation(context, fd.u) if fd.u.shape[0]
                     else self._zero_actuation)
                if self._scatter_fd:
                    u = self._scattered_actuation(u, fd.scratch)
                if not calc_forward_dynamics_damped(
                        core.ip, core.fp, core.dyn.workspace, state.q, state.v,
                        u, self._damping(context) if self._context_damping_ever_set
                        else self._tables.damping, I10,
                        self._kernel_gravity(), fd.F_Bo_W, False, fd.tau, fd.vdot):
                    return
        self._assemble_applied_forces(context, state, fd)
        self._add_contact_forces(context, fd)
        g = self._kernel_gravity()
        F = fd.F_Bo_W if fd.has_F else None
        reflected, has_reflected = self._reflected_inertia(context)
        fd.reflected = reflected if has_reflected else None
        if has_reflected:
            M = self._cache.mass_matrix.eval(context).M
            tau0 = self._dyn.inverse_dynamics(state.q, state.v, np.zeros(self._tables.nv), I10,
                                              g, F)
            fd.vdot[:] = solve_with_mass_matrix(self, M, fd.tau - tau0)
        else:
            fd.vdot[:] = self._dyn.forward_dynamics(state.q, state.v, fd.tau, I10, g, F)

    def calc_forward_dynamics(self, context):
        """Generalized accelerations v̇ (nv,) for the state and inputs in `context`.

        Includes actuation, applied generalized and spatial forces, gravity, force
        elements and joint damping (see the module docstring).
        """
        context, qt, views = self._fast_context(context, "calc_forward_dynamics")
        if views is not None:
            vdot = self._fused_forward_dynamics(context, qt, views)
            if vdot is not None:
                return vdot
        ctx = context
        t = self._tables
        fd = ForwardDynamicsCache(t.nv, t.nu, t.nb)
        self._calc_forward_dynamics_cache(ctx, fd)
        return fd.vdot

    def _fast_context(self, context, fn):
        """``(ctx, qt, views)``: the plant's own context from `context` (checked by
        `_ctx` unless it is the plant's own), the `QueryTables` and the context's
        `own_state_views`, or None for the views when the fused kernels do not apply
        (extra spatial inertia, or a state layout they cannot read)."""
        try:                    # the plant's own context, with its remembered state views
            views = context._plant_state_views
            qt = self._qt
            if context._system is self and views is not None and qt.rigid:
                return context, qt, views
        except AttributeError:                  # no views or QueryTables yet; not a Context
            pass
        context = self._ctx(context, fn)
        qt = self._qt or self._query_tables()
        if not qt.rigid:
            return context, qt, None
        return context, qt, own_state_views(qt, context)

    def _fast_I10(self, qt, ctx):
        """I10 (nb, 10) of `ctx` (the inertia cache entry, evaluated when out of date)."""
        entry = ctx.cache_entries[qt.inertia_index]
        return entry.value.I10 if entry.valid else qt.inertia_entry.eval(ctx).I10

    def _fused_forward_dynamics(self, ctx, qt, views):
        """v̇ (a new (nv,) array) in one kernel call, or None (general path)."""
        if (not self._facade_one_call_fd or self._locked_velocities(ctx) is not None
                or (self._context_damping_ever_set and self._context_damping(ctx) is not None)
                or (self._context_rotors_ever_set
                    and self._context_reflected_inertia(ctx) is not None)):
            return None                # (its kernel has the default damping compiled in)
        inputs = ctx._inputs
        ports = self._ports
        if (inputs[ports.applied_generalized_force._index] is not None
                or inputs[ports.applied_spatial_force._index] is not None):
            return None
        nu = self._tables.nu
        u = self._zero_actuation
        if nu:
            u = self._net_actuation(ctx, np.empty(nu))
            if self._scatter_fd:
                u = self._scattered_actuation(u, np.empty(qt.nv))
            elif (u.__class__ is not _ND or u.dtype is not _F64 or u.shape != qt.shape_v
                    or not u.flags.c_contiguous):
                u = np.ascontiguousarray(u, dtype=np.float64).reshape(qt.shape_v)
        tau, vdot = np.empty(qt.nv), np.empty(qt.nv)
        if qt.k_forward(qt.ip, qt.fp, qt.local.ws, views[3], views[4], u,
                        self._fast_I10(qt, ctx), qt.constants, tau, vdot):
            return None
        return vdot

    def do_calc_time_derivatives(self, context, derivatives):
        """ẋ = [N(q) v; v̇] of the continuous plant."""
        t = self._tables
        if not t.continuous:
            return
        state = self._cache.state.eval(context)
        vdot = self._cache.forward_dynamics.eval(context).vdot
        xdot = derivatives.get_mutable_value()
        nq = t.nq
        if t.velocity_equals_qdot:
            xdot[:nq] = state.v
        else:
            xdot[:nq] = self._dyn.map_velocity_to_qdot(state.q, state.v)
        xdot[nq:] = vdot

    # ---- inverse dynamics and forces -----------------------------------------------------------
    def _check_forces(self, forces, fn):
        qt = self._qt
        if (forces.__class__ is MultibodyForces and qt is not None
                and forces._tau.shape == qt.shape_v and forces._F_Bo_W.shape[0] == qt.nb):
            if forces._sized_for is not qt:     # checked once: the arrays are never replaced
                qt.size_forces(forces)
            return
        if not isinstance(forces, MultibodyForces):
            raise TypeError(f"{fn}: forces must be a MultibodyForces, got "
                            f"{type(forces).__name__}")
        if not forces.check_has_right_size_for_model(self):
            raise ValueError(
                f"{fn}: forces has nv = {forces.num_velocities()}, nb = {forces.num_bodies()}, "
                f"expected nv = {self._tables.nv}, nb = {self._tables.nb} (make it with "
                f"MultibodyForces(plant) of this plant)")

    def _node_forces(self, forces):
        """forces.body_forces() (body order) as a node-ordered (nb, 6) array."""
        return np.ascontiguousarray(forces.body_forces()[self._tables.body_of_node])

    def calc_inverse_dynamics(self, context, known_vdot, external_forces):
        """Generalized forces τ = M v̇ + C v - τ_app - Σ J_Bᵀ F_app_Bo_W (nv,).

        Only the given forces are applied: gravity and force elements are not included
        (add them with `calc_force_elements_contribution`), as in Drake.

        Parameters
        ----------
        context : Context
        known_vdot : array_like, shape (nv,)
            Generalized accelerations v̇.
        external_forces : MultibodyForces
            Applied generalized forces τ_app (nv,) and body spatial forces F_app_Bo_W.

        Returns
        -------
        ndarray, shape (nv,)
        """
        forces = external_forces
        try:            # forces left lazy at this Context's state, their kernel bound to both
            lazy = forces._lazy_call
            if (lazy is not None and lazy[0] is context and forces._lazy is lazy[1]
                    and known_vdot.__class__ is _ND and known_vdot.dtype is _F64
                    and known_vdot.shape == lazy[1].shape_v and known_vdot.flags.c_contiguous
                    and not self._context_rotors_ever_set):
                qt = lazy[1]
                entry = context.cache_entries[qt.inertia_index]
                tau = _empty(qt.nv)
                status = lazy[3](entry.value.I10 if entry.valid
                                 else qt.inertia_entry.eval(context).I10, known_vdot, tau)
                if status == LAZY_KEPT:
                    return tau
                forces._lazy = None
                if status == LAZY_WRITTEN:
                    return tau
        except AttributeError:                  # not a MultibodyForces or not an array
            pass
        fn = "calc_inverse_dynamics"
        try:                    # the plant's own context, with its remembered state views
            views = context._plant_state_views
            qt = self._qt
            if context._system is not self or views is None or not qt.rigid:
                raise AttributeError
        except AttributeError:
            context, qt, views = self._fast_context(context, fn)
        vdot = known_vdot
        if (vdot.__class__ is not _ND or vdot.dtype is not _F64 or vdot.shape != qt.shape_v
                or not vdot.flags.c_contiguous):
            vdot = self._vector_arg(fn, "known_vdot", known_vdot, qt.nv, "nv")
        if forces.__class__ is not MultibodyForces or forces._sized_for is not qt:
            self._check_forces(forces, fn)
        if views is not None and not (self._context_rotors_ever_set and
                                      self._context_reflected_inertia(context) is not None):
            entry = context.cache_entries[qt.inertia_index]
            I10 = entry.value.I10 if entry.valid else qt.inertia_entry.eval(context).I10
            tau = _empty(qt.nv)
            if forces._lazy is not None:        # at another Context's state, or another plant's
                forces._materialize()
            if not qt.k_inverse(qt.ip, qt.fp, qt.local.ws, views[3], views[4], vdot, I10,
                                qt.constants, forces._F_Bo_W, forces._tau, tau):
                return tau
        ctx = context
        q, v = self._eval_q_v(ctx)
        tau = self._dyn.inverse_dynamics(q, v, vdot, self._eval_I10(ctx), _ZERO3,
                                         self._node_forces(external_forces)).copy()
        tau -= external_forces.generalized_forces()
        reflected, has_reflected = self._reflected_inertia(ctx)
        if has_reflected:
            tau += reflected * vdot
        return tau

    def calc_generalized_forces_for_acceleration(self, context, x, known_vdot, out=None):
        """Computed torque: τ (nv,) that gives v̇ = known_vdot at the state x = [q; v].

        τ = M(q) v̇ + C(q, v) v − τ_g(q) − τ_app(q, v), with τ_app the force elements other
        than gravity and the joint damping −D v: the same value as
        ``calc_inverse_dynamics(c, known_vdot, f)`` after
        ``calc_force_elements_contribution(c, f)`` on a context c at x, without writing a
        context. For controllers evaluated many times per step: when gravity is the only
        force element and no actuator has reflected inertia it is one compiled RNEA call.

        Parameters
        ----------
        context : Context
            Supplies the inertial parameters only (its state is not used).
        x : ndarray, shape (nq + nv,)
            The state [q; v] (float64).
        known_vdot : ndarray, shape (nv,)
            Generalized accelerations v̇ (float64).
        out : ndarray, shape (nv,), optional
            Written with τ and returned (a new array when None).

        Returns
        -------
        ndarray, shape (nv,)

        Raises
        ------
        TypeError
            If context is not a Context, or x or known_vdot is not an array of numbers.
        ValueError
            If x, known_vdot or out have the wrong size.
        """
        fn = "calc_generalized_forces_for_acceleration"
        ctx = self._ctx(context, fn)
        t = self._tables
        nq, nv = t.nq, t.nv
        # Cheap checks first: float64 ndarrays of the right size pass without a copy.
        if x.__class__ is not _ND or x.ndim != 1 or x.shape[0] != nq + nv \
                or x.dtype is not _F64:
            x = self._vector_arg(fn, "x", x, nq + nv, "nq + nv")
        if known_vdot.__class__ is not _ND or known_vdot.ndim != 1 or known_vdot.shape[0] != nv \
                or known_vdot.dtype is not _F64 or not known_vdot.flags.c_contiguous:
            known_vdot = self._vector_arg(fn, "known_vdot", known_vdot, nv, "nv")
        if out is None:
            out = np.empty(nv)
        elif out.__class__ is not _ND or out.shape != (nv,):
            raise ValueError(f"{fn}: out must be an ndarray of shape ({nv},), got "
                             f"{getattr(out, 'shape', type(out).__name__)}")
        q, v = x[:nq], x[nq:]
        I10 = self._eval_I10(ctx)
        if t.gravity_in_kernel and not t.has_force_elements:
            tau = self._dyn.inverse_dynamics(q, v, known_vdot, I10, self._kernel_gravity())
            D = self._damping(ctx)
            if D is not t.damping or t.has_damping:
                np.multiply(D, v, out=out)
                np.add(tau, out, out=out)
            else:
                out[:] = tau
        else:
            q, v = np.ascontiguousarray(q), np.ascontiguousarray(v)
            tau_app = np.zeros(nv)
            F_node = np.zeros((t.nb, 6))
            self._tree.calc_force_elements_contribution(
                self._dyn.forward_kinematics(q).copy(),
                self._dyn.body_spatial_velocities(q, v).copy(), q, v, tau_app, F_node,
                include_gravity=True, inertia_params=I10,
                element_parameters=self._force_element_parameters(ctx))
            D = self._damping(ctx)
            if D is not t.damping or t.has_damping:
                tau_app -= D * v
            np.subtract(self._dyn.inverse_dynamics(q, v, known_vdot, I10, _ZERO3, F_node),
                        tau_app, out=out)
        reflected, has_reflected = self._reflected_inertia(ctx)
        if has_reflected:
            out += reflected * known_vdot
        return out

    def calc_generalized_forces(self, context, forces):
        """The generalized forces τ_app + Σ J_Bᵀ F_Bo_W (nv,) equivalent to `forces`."""
        fn = "calc_generalized_forces"
        ctx = self._ctx(context, fn)
        self._check_forces(forces, fn)
        q, _ = self._eval_q_v(ctx)
        zeros = np.zeros(self._tables.nv)
        tau = -self._dyn.inverse_dynamics(q, zeros, zeros, self._eval_I10(ctx), _ZERO3,
                                          self._node_forces(forces))
        return tau + forces.generalized_forces()

    def calc_force_elements_contribution(self, context, forces):
        """Overwrite `forces` with the force elements' forces (gravity included) and the
        joint damping forces -D v, as Drake's CalcForceElementsContribution."""
        try:            # the kernels of lazy forces already bound to this Context
            lazy = forces._lazy_call
            if (lazy is not None and lazy[0] is context and lazy[1] is self._qt
                    and not self._context_damping_ever_set):
                qt = lazy[1]
                entry = context.cache_entries[qt.inertia_index]
                lazy[2](entry.value.I10 if entry.valid else qt.inertia_entry.eval(context).I10)
                forces._lazy = qt
                return
        except AttributeError:                  # not a MultibodyForces
            pass
        fn = "calc_force_elements_contribution"
        try:                    # the plant's own context, with its remembered state views
            views = context._plant_state_views
            qt = self._qt
            if context._system is not self or views is None or not qt.lazy_forces:
                raise AttributeError
        except AttributeError:
            context, qt, views = self._fast_context(context, fn)
        if forces.__class__ is not MultibodyForces or forces._sized_for is not qt:
            self._check_forces(forces, fn)
        if (views is not None and qt.lazy_forces and forces._sized_for is qt
                and self._context_damping(context) is None):
            # lazy: record the state and the inertial parameters; the values are computed
            # from them when read, or by calc_inverse_dynamics (MultibodyForces' notes)
            entry = context.cache_entries[qt.inertia_index]
            I10 = entry.value.I10 if entry.valid else qt.inertia_entry.eval(context).I10
            lazy = forces._lazy_call
            if lazy is None or lazy[0] is not context or lazy[1] is not qt:
                forces._lazy_call = lazy = (context, qt) + bind_lazy_forces(qt, views, forces,
                                                                            I10)
            lazy[2](I10)
            forces._lazy = qt
            return
        ctx = context
        t = self._tables
        q, v = self._eval_q_v(ctx)
        tau = np.zeros(t.nv)
        F_node = np.zeros((t.nb, 6))
        self._tree.calc_force_elements_contribution(
            self._eval_X_WB(ctx), self._eval_V_WB(ctx), q, v, tau, F_node,
            include_gravity=True, inertia_params=self._eval_I10(ctx),
            element_parameters=self._force_element_parameters(ctx))
        D = self._damping(ctx)
        if D is not t.damping or t.has_damping:
            tau -= D * v
        forces.set_zero()
        forces.generalized_forces()[:] = tau
        forces.body_forces()[t.body_of_node] = F_node

    def calc_gravity_generalized_forces(self, context):
        """τ_g(q) (nv,), gravity on the right-hand side: M v̇ + C v = τ_g + τ."""
        fn = "calc_gravity_generalized_forces"
        ctx = self._ctx(context, fn)
        q, v = self._eval_q_v(ctx)
        I10 = self._eval_I10(ctx)
        if self._tables.gravity_in_kernel:
            return self._dyn.gravity_generalized_forces(
                q, I10, self._tree.gravity_field().gravity_vector()).copy()
        F = np.zeros((self._tables.nb, 6))
        self._tree.gravity_field().calc_and_add_forces(
            self._eval_X_WB(ctx), self._eval_V_WB(ctx), q, v, np.zeros(self._tables.nv), F,
            inertia_params=I10)
        zeros = np.zeros(self._tables.nv)
        return -self._dyn.inverse_dynamics(q, zeros, zeros, I10, _ZERO3, F)

    def calc_bias_term(self, context):
        """C(q, v) v (nv,): Coriolis, centripetal and gyroscopic terms (no gravity)."""
        ctx = self._ctx(context, "calc_bias_term")
        q, v = self._eval_q_v(ctx)
        return self._dyn.bias_term(q, v, self._eval_I10(ctx)).copy()

    def calc_mass_matrix(self, context):
        """Mass matrix M(q) (nv, nv) by the composite rigid body algorithm (actuators'
        reflected inertia on the diagonal)."""
        context, qt, views = self._fast_context(context, "calc_mass_matrix")
        if views is not None and not (self._context_rotors_ever_set and
                                      self._context_reflected_inertia(context) is not None):
            entry = context.cache_entries[qt.inertia_index]
            M = _empty(qt.shape_vv)
            if not qt.k_mass(qt.ip, qt.fp, qt.local.ws, views[3],
                             entry.value.I10 if entry.valid else qt.inertia_entry.eval(context).I10,
                             qt.constants, M):
                return M
        ctx = context
        q, _ = self._eval_q_v(ctx)
        M = self._dyn.mass_matrix(q, self._eval_I10(ctx)).copy()
        reflected, has_reflected = self._reflected_inertia(ctx)
        if has_reflected:
            M[self._tables.diag_nv] += reflected
        return M

    def calc_mass_matrix_via_inverse_dynamics(self, context):
        """M(q) (nv, nv) column by column from inverse dynamics (O(n²); for checks)."""
        ctx = self._ctx(context, "calc_mass_matrix_via_inverse_dynamics")
        t = self._tables
        q, _ = self._eval_q_v(ctx)
        I10 = self._eval_I10(ctx)
        zeros = np.zeros(t.nv)
        M = np.empty((t.nv, t.nv))
        e = np.zeros(t.nv)
        for j in range(t.nv):
            e[:] = 0.0
            e[j] = 1.0
            M[:, j] = self._dyn.inverse_dynamics(q, zeros, e, I10, _ZERO3)
        reflected, has_reflected = self._reflected_inertia(ctx)
        if has_reflected:
            M[t.diag_nv] += reflected
        return M

    @staticmethod
    def _vector_arg(fn, arg, value, size, name):
        try:
            a = np.array(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{fn}: {arg} must be an array of numbers, got "
                            f"{type(value).__name__}") from None
        if a.ndim == 2 and a.size == size and 1 in a.shape:
            a = a.reshape(size)
        if a.shape != (size,):
            got = f"size {a.size}" if a.ndim == 1 else f"shape {a.shape}"
            raise ValueError(f"{fn}: {arg} has {got}, expected {name} = {size}")
        return a
