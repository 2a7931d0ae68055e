"""Exact linearization of the continuous MultibodyPlant (the framework's
``do_calc_linearization`` protocol, see ``framework.analysis.linearize``).

With x = [q; v] and the vector inputs u (actuation, per-instance actuation, applied
generalized force),

    q̇ = N(q) v:   ∂q̇/∂q = ∂(N(q) v)/∂q,   ∂q̇/∂v = N(q)
    v̇ = ABA(q, v, τ):   ∂v̇/∂q, ∂v̇/∂v from the kernels' forward-dynamics derivatives
                        (with respect to the coordinates q), ∂v̇/∂τ = M⁻¹,
                        plus -M⁻¹ D for the joint damping τ = -D v.

N(q) v is linear in each quaternion and constant for the other joints without
roll-pitch-yaw angles, so ∂(N v)/∂q is exact from differences with unit steps.
Outputs: ``state`` rows are the identity, ``generalized_acceleration`` rows are the v̇
rows (its D block is the direct feedthrough of the force inputs).

No exact linearization is returned (None, so the framework falls back to finite
differences) for discrete plants, roll-pitch-yaw joints, force elements other than
gravity, gravity disabled for some model instance, actuators with reflected inertia, and
a non-empty ``applied_spatial_force`` input.
"""

import numpy as np

__all__ = ["PlantLinearizationMixin"]


class PlantLinearizationMixin:
    """``do_calc_linearization`` (see the module docstring)."""

    def _exactly_linearizable(self, context):
        t = self._tables
        if (not t.continuous or t.has_rpy or t.has_force_elements or not t.gravity_in_kernel
                or self._reflected_inertia(context)[1]):
            return False
        port = self._ports.applied_spatial_force
        return not (port.has_value(context) and port.eval(context))

    def _qdot_jacobian_q(self, q, v):
        """∂(N(q) v)/∂q, shape (nq, nq) (nonzero only for quaternion blocks)."""
        t = self._tables
        out = np.zeros((t.nq, t.nq))
        if t.velocity_equals_qdot:
            return out
        base = self._dyn.map_velocity_to_qdot(q, v).copy()
        for qs in t.quaternion_q_starts:
            for j in range(qs, qs + 4):
                qp = q.copy()
                qp[j] += 1.0
                out[:, j] = self._dyn.map_velocity_to_qdot(qp, v) - base
        return out

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """(A, B, C, D) of the continuous plant at `context`, or None (module docstring)."""
        ctx = self._ctx(context, "do_calc_linearization")
        if not self._exactly_linearizable(ctx):
            return None
        t, p = self._tables, self._ports
        nq, n = t.nq, t.nq + t.nv
        q, v = self._eval_q_v(ctx)
        I10 = self._eval_I10(ctx)
        tau = self._cache.forward_dynamics.eval(ctx).tau.copy()
        dq, dv, Minv = self._dyn.forward_dynamics_derivatives(
            q, v, tau, I10, self._kernel_gravity(), None, q_derivative="coordinates")
        D = self._damping(ctx)
        if D is not t.damping or t.has_damping:
            dv = dv - Minv * D[None, :]
        A = np.zeros((n, n))
        A[:nq, :nq] = self._qdot_jacobian_q(q, v)
        A[:nq, nq:] = self._dyn.N_matrix(q)
        A[nq:, :nq] = dq
        A[nq:, nq:] = dv
        MinvB = Minv @ t.actuation_matrix
        in_cols = {id(p.actuation): MinvB, id(p.applied_generalized_force): Minv}
        for mi, port in enumerate(p.instance_actuation):
            in_cols[id(port)] = MinvB[:, t.u_indices[mi]]
        inputs = self._selected(self._input_ports, input_port_index, "input")
        offsets, m = {}, 0
        for port in inputs:
            offsets[id(port)] = slice(m, m + port.size())
            m += port.size()
        B = np.zeros((n, m))
        for port in inputs:
            if id(port) in in_cols:
                B[nq:, offsets[id(port)]] = in_cols[id(port)]
        rows_C, rows_D = [], []
        for port in self._selected(self._output_ports, output_port_index, "output"):
            Cp, Dp = self._output_jacobian(port, A[nq:], B[nq:], offsets)
            rows_C.append(Cp)
            rows_D.append(Dp)
        C = np.vstack(rows_C) if rows_C else np.zeros((0, n))
        D = np.vstack(rows_D) if rows_D else np.zeros((0, m))
        return A, B, C, D

    def _selected(self, ports, index, which):
        ports = [port for port in ports if port.get_data_type() == "vector"]
        if index is None:
            return ports
        getter = self.get_input_port if which == "input" else self.get_output_port
        return [getter(index)]

    def _output_jacobian(self, port, vdot_x, vdot_u, offsets):
        """(C, D) rows of output `port`; `offsets` maps id(input port) to its B columns."""
        t, p = self._tables, self._ports
        size = port.size()
        Cp = np.zeros((size, vdot_x.shape[1]))
        Dp = np.zeros((size, vdot_u.shape[1]))
        if port is p.state:
            Cp[:] = np.eye(size)
        elif port in p.instance_state:
            Cp[np.arange(size), t.x_indices[p.instance_state.index(port)]] = 1.0
        elif port is p.generalized_acceleration:
            Cp[:], Dp[:] = vdot_x, vdot_u
        elif port in p.instance_generalized_acceleration:
            rows = t.v_indices[p.instance_generalized_acceleration.index(port)]
            Cp[:], Dp[:] = vdot_x[rows], vdot_u[rows]
        elif port is p.net_actuation:
            Dp[:] = self._net_actuation_jacobian(vdot_u.shape[1], offsets)
        elif port in p.instance_net_actuation:
            rows = t.u_indices[p.instance_net_actuation.index(port)]
            Dp[:] = self._net_actuation_jacobian(vdot_u.shape[1], offsets)[rows]
        return Cp, Dp

    def _net_actuation_jacobian(self, m, offsets):
        """∂u/∂(inputs) (nu, m): the net actuation's dependence on the actuation ports."""
        t, p = self._tables, self._ports
        D = np.zeros((t.nu, m))
        if id(p.actuation) in offsets:
            D[:, offsets[id(p.actuation)]] = np.eye(t.nu)
        for mi, inport in enumerate(p.instance_actuation):
            if id(inport) in offsets and inport.size():
                D[t.u_indices[mi], offsets[id(inport)]] = np.eye(inport.size())
        return D
