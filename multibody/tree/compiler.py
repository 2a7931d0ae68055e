"""Compile a finalized tree's elements into a `CompiledModel` and index tables.

Called by ``MultibodyTree.finalize()`` once the node order is known (see
`multibody.tree.topology`). Coordinates are assigned in node order: node k's joint owns
``q[q_start[k] : q_start[k] + nq_j[k]]`` and likewise for v. For node k with inboard
joint J (frame F on parent body P, frame M on child body B):

- ``X_PF[k] = X_PF_J @ X_FM_weld``: F's pose in P (fixed-offset frame chains are already
  composed into ``F.pose_in_body_matrix()``), times the fixed X_FM of a weld joint;
- ``X_MB[k] = inverse(X_BM)``, with X_BM the pose of M in B.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from merganser.multibody.tree.compiled_model import CompiledModel, JointType
from merganser.multibody.tree.topology import Topology

__all__ = ["TreeIndexTables", "compile_model"]


def _inverse_pose(X: np.ndarray) -> np.ndarray:
    R, p = X[:3, :3], X[:3, 3]
    Xi = np.eye(4)
    Xi[:3, :3] = R.T
    Xi[:3, 3] = -(R.T @ p)
    return Xi


def _frozen_int(values) -> np.ndarray:
    a = np.array(values, dtype=np.int64)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class TreeIndexTables:
    """Index tables that the plant needs besides the `CompiledModel`.

    Attributes
    ----------
    q_indices, v_indices : tuple of ndarray of int64
        Per model instance, the indices in q (in v) of its joints' coordinates,
        ascending (node order).
    actuator_inputs : tuple of ndarray of int64
        Per model instance, the indices in u of its actuators, in actuator-index order.
    actuation_matrix : ndarray, shape (nv, nu)
        B with B[joint.velocity_start(), actuator.input_start()] = 1 (read-only).
    """

    q_indices: tuple
    v_indices: tuple
    actuator_inputs: tuple
    actuation_matrix: np.ndarray


def compile_model(
    topology: Topology, joints, bodies, actuators, num_model_instances: int
) -> tuple[CompiledModel, TreeIndexTables]:
    """Assign coordinates and build the `CompiledModel` and the index tables.

    Sets each joint's ``_q_start``/``_v_start`` and each floating base body's
    floating starts as a side effect.

    Parameters
    ----------
    topology : Topology
        Node order from `multibody.tree.topology.order_nodes`.
    joints : sequence of Joint
        The live joints, in index order (``topology.joint_of_node`` indexes this
        sequence).
    bodies : sequence of RigidBody
        All bodies, by body index.
    actuators : sequence of JointActuator
        The live actuators, in index order; the position of each is its input index
        (set as its ``_input_start``).
    num_model_instances : int
        Number of model instances.

    Returns
    -------
    (CompiledModel, TreeIndexTables)
    """
    nb = len(topology.body_of_node)
    jtype = np.zeros(nb, dtype=np.int64)
    nq_j = np.zeros(nb, dtype=np.int64)
    nv_j = np.zeros(nb, dtype=np.int64)
    X_PF = np.tile(np.eye(4), (nb, 1, 1))
    X_MB = np.tile(np.eye(4), (nb, 1, 1))
    axis = np.zeros((nb, 3))
    screw_pitch = np.zeros(nb)
    default_inertia = np.zeros((nb, 10))
    for k in range(1, nb):
        joint = joints[topology.joint_of_node[k]]
        jtype[k] = JointType[joint._type_code_name]
        nq_j[k], nv_j[k] = joint.num_positions(), joint.num_velocities()
        X_PF[k] = joint.frame_on_parent().pose_in_body_matrix() @ joint._compiled_X_FM()
        X_MB[k] = _inverse_pose(joint.frame_on_child().pose_in_body_matrix())
        axis[k] = joint._compiled_axis()
        screw_pitch[k] = joint._compiled_screw_pitch()
        default_inertia[k] = bodies[topology.body_of_node[k]].default_inertia_parameters()
    q_start = np.concatenate(([0], np.cumsum(nq_j)[:-1])).astype(np.int64)
    v_start = np.concatenate(([0], np.cumsum(nv_j)[:-1])).astype(np.int64)
    nq, nv = int(nq_j.sum()), int(nv_j.sum())

    damping = np.zeros(nv)
    q_lower, q_upper = np.full(nq, -np.inf), np.full(nq, np.inf)
    q_indices = [[] for _ in range(num_model_instances)]
    v_indices = [[] for _ in range(num_model_instances)]
    for k in range(1, nb):
        joint = joints[topology.joint_of_node[k]]
        qs, vs = int(q_start[k]), int(v_start[k])
        joint._q_start, joint._v_start = qs, vs
        damping[vs : vs + nv_j[k]] = joint._damping
        q_lower[qs : qs + nq_j[k]] = joint._q_lower
        q_upper[qs : qs + nq_j[k]] = joint._q_upper
        q_indices[joint.model_instance()].extend(range(qs, qs + int(nq_j[k])))
        v_indices[joint.model_instance()].extend(range(vs, vs + int(nv_j[k])))
        body = bodies[topology.body_of_node[k]]
        body._is_floating_base = joint.is_ephemeral() and joint.num_velocities() == 6
        body._has_quaternion_dofs = jtype[k] in (JointType.QUATERNION_FLOATING,
                                                 JointType.BALL_QUATERNION)
        body._floating_q_start = qs if body._is_floating_base else -1
        body._floating_v_start = vs if body._is_floating_base else -1

    model = CompiledModel(
        nb=nb,
        nq=nq,
        nv=nv,
        parent=topology.parent_node,
        body_index=topology.body_of_node,
        node_of_body=topology.node_of_body,
        jtype=jtype,
        X_PF=X_PF,
        X_MB=X_MB,
        axis=axis,
        screw_pitch=screw_pitch,
        q_start=q_start,
        nq_j=nq_j,
        v_start=v_start,
        nv_j=nv_j,
        default_inertia=default_inertia,
        damping=damping,
        q_lower=q_lower,
        q_upper=q_upper,
        node_names=tuple(bodies[b].name() for b in topology.body_of_node),
    ).validate()

    B = np.zeros((nv, len(actuators)))
    actuator_inputs = [[] for _ in range(num_model_instances)]
    for u, actuator in enumerate(actuators):
        actuator._input_start = u
        B[actuator.joint()._v_start, u] = 1.0
        actuator_inputs[actuator.model_instance()].append(u)
    B.flags.writeable = False
    tables = TreeIndexTables(
        q_indices=tuple(_frozen_int(sorted(ix)) for ix in q_indices),
        v_indices=tuple(_frozen_int(sorted(ix)) for ix in v_indices),
        actuator_inputs=tuple(_frozen_int(ix) for ix in actuator_inputs),
        actuation_matrix=B,
    )
    return model, tables
