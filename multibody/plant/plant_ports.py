"""Input and output ports of MultibodyPlant (Drake's names).

Inputs (all optional; an unconnected input applies nothing):

Drake's order: ``geometry_query``, ``actuation``, ``applied_generalized_force``,
``applied_spatial_force``, then ``<instance>_actuation`` and ``<instance>_desired_state``
for each model instance.

- ``geometry_query`` (abstract, declared at construction): SceneGraph's query object.
- ``actuation`` (nu): actuation u of every actuator, in actuator-index order.
- ``<instance>_actuation`` (nu of the instance): added to the entries of ``actuation``
  that belong to the instance (Drake sums the two).
- ``applied_generalized_force`` (nv): generalized forces added to the dynamics.
- ``applied_spatial_force`` (abstract): list of ExternallyAppliedSpatialForce.
- ``<instance>_desired_state`` (2 nu of the instance): [q_d; v_d] of the instance's
  PD-controlled actuators; unconnected, they are disarmed
  (`multibody.plant.pd_controlled_actuators`).

Outputs:

- ``state`` (nq + nv) and ``<instance>_state``: x = [q; v] (never direct feedthrough).
- ``body_poses``, ``body_spatial_velocities``, ``body_spatial_accelerations`` (abstract):
  lists of RigidTransform X_WB, SpatialVelocity V_WB_W and SpatialAcceleration A_WB_W,
  indexed by body index.
- ``generalized_acceleration`` (nv) and ``<instance>_generalized_acceleration``: v̇ (direct
  feedthrough from the force inputs, as in Drake's continuous plant).
- ``net_actuation`` (nu): the summed actuation u, the armed PD-controlled actuators'
  entries replaced by their controllers' actuation; ``<instance>_net_actuation`` its
  part for one model instance.
- ``reaction_forces`` (abstract): per joint index, the SpatialForce F_CJc_Jc on the child
  body C at the joint's child frame origin Jc, expressed in Jc (see
  `multibody.plant.plant_reaction_forces`).
- ``contact_results`` (abstract): ContactResults (empty until contact is modelled).
- ``geometry_pose`` (abstract, declared at construction as in Drake): FramePoseVector of
  the frames of the bodies with registered geometry (empty before registration).
"""

import functools
from types import SimpleNamespace

import numpy as np

from merganser.multibody.math import SpatialAcceleration, SpatialVelocity
from merganser.multibody.plant.contact_results import ContactResults
from merganser.multibody.plant.plant_queries import rigid_transform
from merganser.multibody.plant.plant_reaction_forces import calc_reaction_forces

__all__ = ["PlantPortsMixin"]


def _empty_list():
    return []


class PlantPortsMixin:
    """Port declaration, calculation and getters (see the module docstring)."""

    def _declare_geometry_ports(self):
        """The two SceneGraph ports exist from construction, as in Drake: the
        ``geometry_pose`` output holds no frames until the plant registers geometry."""
        self._ports = SimpleNamespace()
        self._ports.geometry_query = self.declare_abstract_input_port(
            "geometry_query", None, required=False)
        self._pose_nodes = np.zeros(0, dtype=np.int64)
        state = self.xc_ticket() if self._time_step == 0.0 else self.xd_ticket()
        self._ports.geometry_pose = self.declare_abstract_output_port(
            "geometry_pose", self._alloc_geometry_pose, self._calc_geometry_pose, [state])

    def _declare_input_ports(self):
        t, p, tree = self._tables, self._ports, self._tree
        zeros = np.zeros
        p.actuation = self.declare_vector_input_port("actuation", t.nu, required=False,
                                                     default_value=zeros(t.nu))
        p.applied_generalized_force = self.declare_vector_input_port(
            "applied_generalized_force", t.nv, required=False, default_value=zeros(t.nv))
        p.applied_spatial_force = self.declare_abstract_input_port(
            "applied_spatial_force", [], required=False)
        p.instance_actuation = []
        p.instance_actuation_active = []
        p.instance_desired_state = []
        for mi in range(tree.num_model_instances()):
            n = len(t.u_indices[mi])
            name = tree.get_model_instance_name(mi)
            port = self.declare_vector_input_port(f"{name}_actuation", n, required=False,
                                                  default_value=zeros(n))
            p.instance_actuation.append(port)
            if n:
                p.instance_actuation_active.append((t.u_indices[mi], port))
            p.instance_desired_state.append(self.declare_vector_input_port(
                f"{name}_desired_state", 2 * n, required=False, default_value=zeros(2 * n)))
        actuation = [self.input_port_ticket(p.actuation)] + [
            self.input_port_ticket(port) for _, port in p.instance_actuation_active]
        forces = [self.input_port_ticket(p.applied_generalized_force),
                  self.input_port_ticket(p.applied_spatial_force)]
        return actuation, forces

    def _declare_output_ports(self, state_ticket, actuation_tickets):
        t, p, c, tree = self._tables, self._ports, self._cache, self._tree
        p.state = self.declare_vector_output_port("state", t.nq + t.nv, self._calc_state_output,
                                                  [state_ticket])
        p.instance_state = []
        p.instance_generalized_acceleration = []
        for mi in range(tree.num_model_instances()):
            name = tree.get_model_instance_name(mi)
            p.instance_state.append(self.declare_vector_output_port(
                f"{name}_state", len(t.x_indices[mi]),
                functools.partial(self._calc_instance_state_output, mi), [state_ticket]))
        p.body_poses = self.declare_abstract_output_port(
            "body_poses", _empty_list, self._calc_body_poses, [c.position.ticket()])
        p.body_spatial_velocities = self.declare_abstract_output_port(
            "body_spatial_velocities", _empty_list, self._calc_body_spatial_velocities,
            [c.velocity.ticket()])
        p.body_spatial_accelerations = self.declare_abstract_output_port(
            "body_spatial_accelerations", _empty_list, self._calc_body_spatial_accelerations,
            [c.acceleration.ticket()])
        p.generalized_acceleration = self.declare_vector_output_port(
            "generalized_acceleration", t.nv, self._calc_generalized_acceleration,
            [c.forward_dynamics.ticket()])
        for mi in range(tree.num_model_instances()):
            name = tree.get_model_instance_name(mi)
            p.instance_generalized_acceleration.append(self.declare_vector_output_port(
                f"{name}_generalized_acceleration", len(t.v_indices[mi]),
                functools.partial(self._calc_instance_generalized_acceleration, mi),
                [c.forward_dynamics.ticket()]))
        p.net_actuation = self.declare_vector_output_port(
            "net_actuation", t.nu, self._calc_net_actuation, actuation_tickets)
        p.instance_net_actuation = [self.declare_vector_output_port(
            f"{tree.get_model_instance_name(mi)}_net_actuation", len(t.u_indices[mi]),
            functools.partial(self._calc_instance_net_actuation, mi), actuation_tickets)
            for mi in range(tree.num_model_instances())]
        p.reaction_forces = self.declare_abstract_output_port(
            "reaction_forces", _empty_list, self._calc_reaction_forces,
            [c.forward_dynamics.ticket(), c.acceleration.ticket()])
        p.contact_results = self.declare_abstract_output_port(
            "contact_results", ContactResults, self._calc_contact_results,
            self._contact_results_tickets(state_ticket))

    # ---- calcs -------------------------------------------------------------------------
    def _calc_state_output(self, context, output):
        output.get_mutable_value()[:] = self._x(context)

    def _calc_instance_state_output(self, model_instance, context, output):
        output.get_mutable_value()[:] = self._x(context)[self._tables.x_indices[model_instance]]

    def _calc_body_poses(self, context, value):
        X = self._eval_X_WB(context)
        value.set_value([rigid_transform(X[node]) for node in self._tables.node_of_body])

    def _calc_body_spatial_velocities(self, context, value):
        V = self._eval_V_WB(context)
        value.set_value([SpatialVelocity(V[node].copy()) for node in self._tables.node_of_body])

    def _calc_body_spatial_accelerations(self, context, value):
        A = self._cache.acceleration.eval(context).A_WB
        value.set_value([SpatialAcceleration(A[node].copy())
                         for node in self._tables.node_of_body])

    def _calc_generalized_acceleration(self, context, output):
        output.get_mutable_value()[:] = self._cache.forward_dynamics.eval(context).vdot

    def _calc_instance_generalized_acceleration(self, model_instance, context, output):
        vdot = self._cache.forward_dynamics.eval(context).vdot
        output.get_mutable_value()[:] = vdot[self._tables.v_indices[model_instance]]

    def _applied_actuation(self, context, out):
        """The net actuation u (nu,) applied in `context`'s step: the summed actuation
        inputs, with the armed PD-controlled actuators' entries replaced by the actuation
        of their controllers (effort-limited, as Drake's net actuation). Returns `out` or
        the (read-only) input value."""
        u = self._net_actuation(context, out)
        if self._pd.num_controlled:
            terms = self._core.eval_pd_terms(context)
            if terms is not None:
                if u is not out:
                    out[:] = u
                    u = out
                u[terms.u] = self._stepper.eval_pd_actuation(context, terms)
        return u

    def _calc_net_actuation(self, context, output):
        if self._tables.nu:
            out = output.get_mutable_value()
            u = self._applied_actuation(context, out)
            if u is not out:
                out[:] = u

    def _calc_instance_net_actuation(self, model_instance, context, output):
        if len(self._tables.u_indices[model_instance]):
            u = self._applied_actuation(context, np.zeros(self._tables.nu))
            output.get_mutable_value()[:] = u[self._tables.u_indices[model_instance]]

    def _calc_reaction_forces(self, context, value):
        value.set_value(calc_reaction_forces(self, context))

    def _calc_contact_results(self, context, value):
        value.set_value(ContactResults(plant=self))

    # ---- getters -----------------------------------------------------------------------
    def _plant_port(self, name, fn, model_instance=None, per_instance=None):
        self._tree._throw_if_not_finalized(fn)
        if model_instance is None:
            return getattr(self._ports, name)
        mi = self._instance(model_instance, fn)
        return getattr(self._ports, per_instance)[mi]

    def get_state_output_port(self, model_instance=None):
        """``state`` (nq + nv), or ``<instance>_state`` for `model_instance`."""
        return self._plant_port("state", "get_state_output_port", model_instance,
                                "instance_state")

    def get_actuation_input_port(self, model_instance=None):
        """``actuation`` (nu), or ``<instance>_actuation`` for `model_instance`."""
        return self._plant_port("actuation", "get_actuation_input_port", model_instance,
                                "instance_actuation")

    def get_desired_state_input_port(self, model_instance):
        """``<instance>_desired_state`` (2 n, n the instance's actuators): [q_d; v_d] of
        the instance's PD-controlled actuators, in actuator order (entries of actuators
        without gains are ignored). Neither connected nor fixed, the instance's
        controllers are disarmed (see `multibody.plant.pd_controlled_actuators`)."""
        self._tree._throw_if_not_finalized("get_desired_state_input_port")
        return self._pd.ports[self._instance(model_instance, "get_desired_state_input_port")]

    def get_applied_generalized_force_input_port(self):
        """``applied_generalized_force`` (nv)."""
        return self._plant_port("applied_generalized_force",
                                "get_applied_generalized_force_input_port")

    def get_applied_spatial_force_input_port(self):
        """``applied_spatial_force`` (abstract list of ExternallyAppliedSpatialForce)."""
        return self._plant_port("applied_spatial_force", "get_applied_spatial_force_input_port")

    def get_body_poses_output_port(self):
        """``body_poses`` (list of RigidTransform X_WB, by body index)."""
        return self._plant_port("body_poses", "get_body_poses_output_port")

    def get_body_spatial_velocities_output_port(self):
        """``body_spatial_velocities`` (list of SpatialVelocity V_WB_W, by body index)."""
        return self._plant_port("body_spatial_velocities",
                                "get_body_spatial_velocities_output_port")

    def get_body_spatial_accelerations_output_port(self):
        """``body_spatial_accelerations`` (list of SpatialAcceleration A_WB_W)."""
        return self._plant_port("body_spatial_accelerations",
                                "get_body_spatial_accelerations_output_port")

    def get_generalized_acceleration_output_port(self, model_instance=None):
        """``generalized_acceleration`` (nv) or ``<instance>_generalized_acceleration``."""
        return self._plant_port("generalized_acceleration",
                                "get_generalized_acceleration_output_port", model_instance,
                                "instance_generalized_acceleration")

    def get_net_actuation_output_port(self, model_instance=None):
        """``net_actuation`` (nu), or ``<instance>_net_actuation`` (the instance's
        actuators, in actuator order) when `model_instance` is given."""
        return self._plant_port("net_actuation", "get_net_actuation_output_port",
                                model_instance, "instance_net_actuation")

    def get_reaction_forces_output_port(self):
        """``reaction_forces`` (list of SpatialForce F_CJc_Jc, by joint index)."""
        return self._plant_port("reaction_forces", "get_reaction_forces_output_port")

    def get_contact_results_output_port(self):
        """``contact_results`` (ContactResults)."""
        return self._plant_port("contact_results", "get_contact_results_output_port")

    def get_geometry_query_input_port(self):
        """``geometry_query`` (abstract; connect SceneGraph's query output)."""
        return self._ports.geometry_query

