"""Drake's kinematic and dynamic queries of MultibodyPlant that are built on the plant's
public queries (a mixin of MultibodyPlant): the mutable gravity field, point velocities,
the center-of-mass acceleration, the scene graph inspector and the size of the (empty)
miscellaneous continuous state.
"""

import numpy as np

from merganser.multibody.plant.plant_mass_properties import com_query_arguments
from merganser.multibody.plant.plant_queries import _points

__all__ = ["PlantKinematicsParityMixin"]


class PlantKinematicsParityMixin:
    """Queries composed from the plant's own (see the module docstring)."""

    def mutable_gravity_field(self):
        """The plant's UniformGravityFieldElement, to change g_W before finalize (as
        ``gravity_field()``, Drake's mutable spelling)."""
        return self._tree.gravity_field()

    def num_misc_continuous_states(self):
        """nz, the size of the miscellaneous continuous state: 0 (the state is [q; v])."""
        return 0

    def calc_points_velocities(self, context, frame_B, p_BQi, frame_A, frame_E):
        """v_AQi_E (3, n): velocities, measured in frame A and expressed in frame E, of
        points Qi fixed on frame B at positions p_BQi (3, n) in B.

        ``v_AQ = v_WQ − v_WAo − w_WA × p_AoQ`` (the derivative in A of p_AoQ), with all
        vectors in W before the change to E.
        """
        fn = "calc_points_velocities"
        ctx = self._ctx(context, fn)
        p = _points(fn, "p_BQi", p_BQi)
        X_WB, node_B = self._X_WF(ctx, frame_B, fn, "frame_B")
        X_WA, node_A = self._X_WF(ctx, frame_A, fn, "frame_A")
        X_WE, _ = self._X_WF(ctx, frame_E, fn, "frame_E")
        V = self._eval_V_WB(ctx)
        X = self._eval_X_WB(ctx)
        p_WQ = X_WB[:3, :3] @ p + X_WB[:3, 3:4]

        def point_velocity(node, p_W):
            w, v_Bo = V[node, :3], V[node, 3:]
            return v_Bo[:, None] + np.cross(w, (p_W - X[node, :3, 3:4]).T).T

        v_AQ_W = (point_velocity(node_B, p_WQ) - point_velocity(node_A, p_WQ))
        return X_WE[:3, :3].T @ v_AQ_W

    def calc_bias_center_of_mass_translational_acceleration(self, context, *args,
                                                            model_instances=None,
                                                            with_respect_to=None, frame_A=None,
                                                            frame_E=None):
        """aBias_AScm_E (3,): the part of the center of mass's acceleration that does not
        depend on v̇ (Drake's bias term), Σ m_i aBias_ABcm_i_E / Σ m_i over the bodies (of
        `model_instances`, if given; the world excluded); frame_A must be the world frame
        and with_respect_to kV (as `calc_bias_translational_acceleration`).

        Call as ``(context, with_respect_to, frame_A, frame_E)`` or, as Drake's overload,
        ``(context, model_instances, with_respect_to, frame_A, frame_E)``; a ValueError
        says when the selected bodies have no mass.
        """
        fn = "calc_bias_center_of_mass_translational_acceleration"
        ctx = self._ctx(context, fn)
        model_instances, with_respect_to, frame_A, frame_E = com_query_arguments(
            fn, args, model_instances, with_respect_to, frame_A, frame_E)
        if model_instances is None:
            bodies = range(1, self.num_bodies())
        else:
            bodies = [int(b) for mi in model_instances for b in self.get_body_indices(mi)
                      if int(b) != 0]
        total, acc = 0.0, np.zeros(3)
        for b in bodies:
            body = self.get_body(b)
            M = body.calc_spatial_inertia_in_body_frame(ctx)
            if M.get_mass() == 0.0:
                continue
            a = self.calc_bias_translational_acceleration(
                ctx, with_respect_to, body.body_frame(), M.get_com(), frame_A, frame_E)
            acc += M.get_mass() * a[:, 0]
            total += M.get_mass()
        if not total > 0.0:
            raise ValueError(f"{fn}: the selected bodies have zero total mass, so their center "
                             f"of mass is undefined")
        return acc / total

    def calc_center_of_mass_translational_acceleration_in_world(self, context,
                                                               model_instances=None):
        """a_WScm_W (3,): the acceleration in world of the center of mass of all bodies
        (or of those of `model_instances`), from the forward dynamics of `context`.

        ``a_WScm = Σ m_i a_WBcm_i / Σ m_i`` with
        ``a_WBcm = a_WBo + α_WB × p_BoBcm + ω_WB × (ω_WB × p_BoBcm)``.

        Raises
        ------
        ValueError
            If the selected bodies have zero total mass.
        """
        fn = "calc_center_of_mass_translational_acceleration_in_world"
        ctx = self._ctx(context, fn)
        nodes = self._nodes_of_instances(model_instances, fn)
        m, _, c, total = self._com_terms(ctx, nodes, fn)
        X = self._eval_X_WB(ctx)[nodes]
        V = self._eval_V_WB(ctx)[nodes]
        A = self._cache.acceleration.eval(ctx).A_WB[nodes]
        r = np.einsum("nij,nj->ni", X[:, :3, :3], c)
        w = V[:, :3]
        a_cm = A[:, 3:] + np.cross(A[:, :3], r) + np.cross(w, np.cross(w, r))
        return m @ a_cm / total

    def eval_scene_graph_inspector(self, context):
        """The SceneGraphInspector of the SceneGraph connected to ``geometry_query``.

        Raises
        ------
        RuntimeError
            If ``geometry_query`` is not connected (no SceneGraph to inspect).
        """
        fn = "eval_scene_graph_inspector"
        ctx = self._ctx(context, fn)
        port = self.get_geometry_query_input_port()
        if not port.has_value(ctx):
            raise RuntimeError(
                f"{fn}: the geometry_query input port of MultibodyPlant '{self.get_name()}' "
                f"is not connected; connect it to a SceneGraph's query output "
                f"(add_multibody_plant_scene_graph does)")
        return port.eval(ctx).inspector()
