"""Mass properties, momentum, energy and power of MultibodyPlant.

Center of mass and spatial momentum of the whole plant (world excluded) or of a list of
model instances, the center-of-mass Jacobian, and Drake's energy accounting: kinetic
energy, potential energy (gravity and force elements), conservative power -dV/dt and
non-conservative power (actuation, applied forces, joint damping and dampers), so that
d(KE + PE)/dt = non-conservative power.
"""

import numpy as np

from merganser.multibody.math import SpatialInertia, SpatialMomentum
from merganser.multibody.plant.jacobian_wrt_variable import JacobianWrtVariable
from merganser.multibody.plant.plant_added_mass import calc_added_mass_momentum

__all__ = ["com_query_arguments", "PlantMassPropertiesMixin"]


def _instances_and_last(fn, args, model_instances, last, expected):
    """(model_instances, last) from ``(*args)`` = ``([model_instances,] last)`` with either
    also allowed as a keyword."""
    given = list(args)
    if last is None:
        if not given:
            raise TypeError(f"{fn}: expected {expected}, got no {expected.split()[-1][:-1]}")
        last = given.pop()
    if given:
        if model_instances is not None or len(given) > 1:
            raise TypeError(f"{fn}: expected {expected}, got {len(args) + 1} positional "
                            f"arguments")
        model_instances = given[0]
    return model_instances, last


def com_query_arguments(fn, args, model_instances, with_respect_to, frame_A, frame_E):
    """``(model_instances, with_respect_to, frame_A, frame_E)`` of a center-of-mass query
    called as ``(context, [model_instances,] with_respect_to, frame_A, frame_E)``, each
    argument after `context` positional or by pydrake's keyword."""
    given = list(args)
    if given and not isinstance(given[0], JacobianWrtVariable):
        if model_instances is not None:
            raise TypeError(f"{fn}: model_instances given twice")
        model_instances = given.pop(0)
    named = [with_respect_to, frame_A, frame_E]
    for i, value in enumerate(given):
        if i >= 3 or named[i] is not None:
            raise TypeError(f"{fn}: expected (context, [model_instances,] with_respect_to, "
                            f"frame_A, frame_E); an argument is given twice or too many")
        named[i] = value
    if any(value is None for value in named):
        raise TypeError(f"{fn}: expected (context, [model_instances,] with_respect_to, "
                        f"frame_A, frame_E)")
    return (model_instances, *named)


class PlantMassPropertiesMixin:
    """Mass properties and energy (see the module docstring)."""

    def _nodes_of_instances(self, model_instances, fn):
        """Nodes of the bodies of `model_instances` (None: every body but the world)."""
        if model_instances is None:
            return np.arange(1, self._tables.nb)
        if isinstance(model_instances, (int, np.integer)):
            model_instances = [model_instances]
        bodies = []
        for mi in model_instances:
            bodies += self._tree.get_body_indices(self._instance(mi, fn))
        return np.array(sorted(self._tables.node_of_body[b] for b in set(bodies) if b != 0),
                        dtype=np.int64)

    def _com_terms(self, ctx, nodes, fn):
        """Per node in `nodes`: m (n,), p_WBcm (n, 3), and the total mass (> 0)."""
        I10 = self._eval_I10(ctx)[nodes]
        X = self._eval_X_WB(ctx)[nodes]
        m = I10[:, 0]
        total = float(m.sum())
        if not total > 0.0:
            raise ValueError(f"{fn}: the total mass of the selected bodies is {total}, it must "
                             f"be > 0 for the center of mass to be defined")
        c = np.where(m[:, None] > 0.0, I10[:, 1:4] / np.where(m > 0.0, m, 1.0)[:, None], 0.0)
        p_WBcm = X[:, :3, 3] + np.einsum("nij,nj->ni", X[:, :3, :3], c)
        return m, p_WBcm, c, total

    def calc_total_mass(self, context, model_instances=None):
        """Total mass (kg) of all bodies (or of the bodies of `model_instances`)."""
        fn = "calc_total_mass"
        ctx = self._ctx(context, fn)
        return float(self._eval_I10(ctx)[self._nodes_of_instances(model_instances, fn), 0].sum())

    def calc_center_of_mass_position_in_world(self, context, model_instances=None):
        """p_WoScm_W (3,), the center of mass of all bodies (or of `model_instances`)."""
        fn = "calc_center_of_mass_position_in_world"
        ctx = self._ctx(context, fn)
        m, p_WBcm, _, total = self._com_terms(ctx, self._nodes_of_instances(model_instances, fn),
                                              fn)
        return m @ p_WBcm / total

    def calc_jacobian_center_of_mass_translational_velocity(self, context, *args,
                                                            model_instances=None,
                                                            with_respect_to=None, frame_A=None,
                                                            frame_E=None):
        """Jacobian (3, nv) or (3, nq) of v_AScm_E, the velocity of the center of mass
        measured in frame_A and expressed in frame_E (for a frame A other than the world,
        minus the Jacobian of the point of A at the center of mass).

        Call as ``(context, with_respect_to, frame_A, frame_E)`` for all bodies or, as
        Drake's overload, ``(context, model_instances, with_respect_to, frame_A, frame_E)``;
        every argument after `context` may be given by pydrake's keyword.
        """
        fn = "calc_jacobian_center_of_mass_translational_velocity"
        ctx = self._ctx(context, fn)
        model_instances, with_respect_to, frame_A, frame_E = com_query_arguments(
            fn, args, model_instances, with_respect_to, frame_A, frame_E)
        wrt_qdot = self._wrt(with_respect_to, fn)
        self._frame_node(frame_A, fn, "frame_A")
        X_WE, _ = self._X_WF(ctx, frame_E, fn, "frame_E")
        nodes = self._nodes_of_instances(model_instances, fn)
        m, _, c, total = self._com_terms(ctx, nodes, fn)
        q, _ = self._eval_q_v(ctx)
        J = np.zeros((3, self._tables.nv))
        for k, node in enumerate(nodes):
            if m[k] != 0.0:
                J += m[k] * self._jacobian_in_W(q, int(node), c[k])[3:]
        J = X_WE[:3, :3].T @ (J / total)
        if not frame_A.is_world_frame():
            # v_AScm = v_WScm - v_W(A_Scm): subtract the Jacobian of A's point at Scm.
            p_WScm = self.calc_center_of_mass_position_in_world(ctx, model_instances)
            p_AScm_A = self.calc_points_positions(ctx, self.world_frame(),
                                                  p_WScm.reshape(3, 1), frame_A)
            J = J - self.calc_jacobian_translational_velocity(
                ctx, JacobianWrtVariable.kV, frame_A, p_AScm_A, self.world_frame(), frame_E)
        return J @ self._dyn.N_plus_matrix(q) if wrt_qdot else J

    def calc_center_of_mass_translational_velocity_in_world(self, context,
                                                            model_instances=None):
        """v_WScm_W (3,), the velocity of the center of mass in world."""
        fn = "calc_center_of_mass_translational_velocity_in_world"
        ctx = self._ctx(context, fn)
        nodes = self._nodes_of_instances(model_instances, fn)
        m, _, c, total = self._com_terms(ctx, nodes, fn)
        X = self._eval_X_WB(ctx)[nodes]
        V = self._eval_V_WB(ctx)[nodes]
        c_W = np.einsum("nij,nj->ni", X[:, :3, :3], c)
        v_cm = V[:, 3:] + np.cross(V[:, :3], c_W)
        return m @ v_cm / total

    def calc_spatial_momentum_in_world_about_point(self, context, *args, model_instances=None,
                                                   p_WoP_W=None):
        """L_WS_P_W (SpatialMomentum) of all bodies (or those of `model_instances`) about
        point P, at p_WoP_W (3,) in world: ``(context, p_WoP_W)`` or
        ``(context, model_instances, p_WoP_W)``, positionally or by pydrake's keywords."""
        fn = "calc_spatial_momentum_in_world_about_point"
        ctx = self._ctx(context, fn)
        model_instances, p = _instances_and_last(fn, args, model_instances, p_WoP_W,
                                                 "(context, [model_instances,] p_WoP_W)")
        p_WoP_W = self._vector_arg(fn, "p_WoP_W", p, 3, "3")
        if model_instances is None:
            q, v = self._eval_q_v(ctx)
            return SpatialMomentum(self._dyn.spatial_momentum(q, v, self._eval_I10(ctx),
                                                              p_WoP_W).copy())
        nodes = self._nodes_of_instances(model_instances, fn)
        I10 = self._eval_I10(ctx)[nodes]
        X = self._eval_X_WB(ctx)[nodes]
        V = self._eval_V_WB(ctx)[nodes]
        R = X[:, :3, :3]
        w, v_o = V[:, :3], V[:, 3:]
        m = I10[:, 0]
        mc_W = np.einsum("nij,nj->ni", R, I10[:, 1:4])
        Ixx, Iyy, Izz, Ixy, Ixz, Iyz = I10[:, 4:].T
        I_B = np.stack([np.stack([Ixx, Ixy, Ixz], -1), np.stack([Ixy, Iyy, Iyz], -1),
                        np.stack([Ixz, Iyz, Izz], -1)], -2)
        I_W = R @ I_B @ R.transpose(0, 2, 1)
        l_W = m[:, None] * v_o + np.cross(w, mc_W)
        h_Bo = np.einsum("nij,nj->ni", I_W, w) + np.cross(mc_W, v_o)
        h_P = h_Bo + np.cross(X[:, :3, 3] - p_WoP_W, l_W)
        h, l = h_P.sum(axis=0), l_W.sum(axis=0)
        if self._dyn.M_added is not None:  # added mass and the like
            h_added, l_added = calc_added_mass_momentum(self._dyn.M_added[nodes], X, V, p_WoP_W)
            h, l = h + h_added, l + l_added
        return SpatialMomentum(h, l)

    # ---- energy and power ----------------------------------------------------------------
    def calc_spatial_inertia(self, context, frame_F, body_indexes):
        """M_SFo_F: the spatial inertia of the bodies `body_indexes` (a set S) about the
        origin Fo of `frame_F`, expressed in F, with the masses and inertias of `context`.

        Each body's M_BBo_B is re-expressed in F and shifted from Bo to Fo, then summed;
        the world body adds nothing (as Drake).

        Raises
        ------
        ValueError
            If a body index repeats or is not a body of the plant.
        """
        fn = "calc_spatial_inertia"
        ctx = self._ctx(context, fn)
        indexes = [int(b) for b in body_indexes]
        if len(set(indexes)) != len(indexes):
            raise ValueError(f"{fn}: body_indexes has repeated entries: {indexes}")
        M = SpatialInertia.zero()
        for b in indexes:
            if b == 0:
                continue                                    # the world adds nothing
            if not 0 < b < self.num_bodies():
                raise ValueError(f"{fn}: body index {b} is not a body of the plant (it has "
                                 f"{self.num_bodies()} bodies)")
            body = self.get_body(b)
            X_FB = self.calc_relative_transform(ctx, frame_F, body.body_frame())
            M_BBo_B = body.calc_spatial_inertia_in_body_frame(ctx)
            M = M + M_BBo_B.re_express(X_FB.rotation()).shift(-X_FB.translation())
        return M

    def _kinematics_for_elements(self, ctx):
        q, v = self._eval_q_v(ctx)
        return self._eval_X_WB(ctx), self._eval_V_WB(ctx), q, v

    def calc_kinetic_energy(self, context):
        """Kinetic energy ½ vᵀ M(q) v (J) (reflected inertia of actuators included)."""
        ctx = self._ctx(context, "calc_kinetic_energy")
        q, v = self._eval_q_v(ctx)
        ke = self._dyn.kinetic_energy(q, v, self._eval_I10(ctx))
        reflected, has_reflected = self._reflected_inertia(ctx)
        if has_reflected:
            ke += 0.5 * float(reflected @ (v * v))
        return ke

    def calc_potential_energy(self, context):
        """Potential energy of gravity and the force elements (J)."""
        ctx = self._ctx(context, "calc_potential_energy")
        return self._tree.calc_potential_energy(
            *self._kinematics_for_elements(ctx), include_gravity=True,
            inertia_params=self._eval_I10(ctx),
            element_parameters=self._force_element_parameters(ctx))

    def calc_conservative_power(self, context):
        """Power of the conservative forces (gravity, springs), -dPE/dt (W)."""
        ctx = self._ctx(context, "calc_conservative_power")
        return self._tree.calc_conservative_power(
            *self._kinematics_for_elements(ctx), include_gravity=True,
            inertia_params=self._eval_I10(ctx),
            element_parameters=self._force_element_parameters(ctx))

    def calc_non_conservative_power(self, context):
        """Power (W) of actuation, applied generalized and spatial forces, joint damping and
        the force elements' dissipation."""
        ctx = self._ctx(context, "calc_non_conservative_power")
        t = self._tables
        X_WB, V_WB, q, v = self._kinematics_for_elements(ctx)
        power = self._tree.calc_non_conservative_power(
            X_WB, V_WB, q, v, include_gravity=True, inertia_params=self._eval_I10(ctx),
            element_parameters=self._force_element_parameters(ctx))
        D = self._damping(ctx)
        if D is not t.damping or t.has_damping:
            power -= float(D @ (v * v))
        if t.nu:
            u = self._net_actuation(ctx, np.zeros(t.nu))
            power += float(v[t.actuator_v] @ u)
        port = self._ports.applied_generalized_force
        if port.has_value(ctx):
            power += float(v @ port.eval(ctx))
        F = np.zeros((t.nb, 6))
        if self._add_applied_spatial_forces(ctx, F):
            power += float(np.sum(F * V_WB))
        return float(power)
