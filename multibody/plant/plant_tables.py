"""PlantTables: the constants a finalized MultibodyPlant derives once from its tree.

Index arrays and flags used on every evaluation (sizes, per-model-instance index sets,
actuator velocity indices, damping, reflected inertia, which force paths are needed),
so that the hot paths do no Python-level searching.
"""

from dataclasses import dataclass

import numpy as np

from merganser.multibody.tree import JointType

__all__ = ["PlantTables", "make_plant_tables"]

_QDOT_IS_V = (JointType.WELD, JointType.REVOLUTE, JointType.PRISMATIC, JointType.UNIVERSAL,
              JointType.PLANAR, JointType.SCREW)


@dataclass(frozen=True, eq=False)
class PlantTables:
    """Constants of a finalized plant (all index arrays int64, read-only by convention).

    Attributes
    ----------
    nb, nq, nv, nu : int
        Bodies (world included), positions, velocities, actuators.
    continuous : bool
        True for time_step == 0.
    time_step : float
        The discrete period (0 for a continuous plant).
    node_of_body, body_of_node : ndarray (nb,)
        Body index <-> node index maps.
    parameter_of_body : ndarray (nb,)
        Numeric parameter group of each body (-1 for the world).
    actuator_v : ndarray (nu,)
        Velocity index driven by each actuator (the joint's velocity_start()).
    actuator_v_unique : bool
        No two actuators drive the same velocity (then ``tau[actuator_v] = u`` is B u).
    actuation_is_identity : bool
        B is the identity (actuator i drives velocity i, nu = nv).
    actuation_matrix : ndarray (nv, nu)
        B.
    q_indices, v_indices, u_indices, x_indices : tuple of ndarray
        Per model instance: indices in q, v, u and in x = [q; v].
    instance_actuator_v : tuple of ndarray
        Per model instance: the velocity index of each of its actuators.
    damping : ndarray (nv,)
        Joint viscous damping per velocity.
    has_damping : bool
    reflected_inertia : ndarray (nv,)
        Actuators' reflected inertia ρ² Iᵣ per velocity.
    has_reflected_inertia : bool
    diag_nv : tuple
        ``np.diag_indices(nv)``.
    has_force_elements : bool
        The tree has force elements other than gravity.
    gravity_in_kernel : bool
        Gravity acts on every body, so the kernels apply it through g.
    quaternion_q_starts : ndarray
        q index of the first (w) component of every quaternion joint.
    velocity_equals_qdot : bool
        N(q) is the identity (no quaternion or roll-pitch-yaw joint).
    has_rpy : bool
        Some joint uses roll-pitch-yaw angles.
    joint_node : ndarray (num_joints,)
        Node whose inboard joint each joint is.
    joint_X_BM : ndarray (num_joints, 4, 4)
        Pose of each joint's child frame M (Jc) in its child body B.
    """

    nb: int
    nq: int
    nv: int
    nu: int
    continuous: bool
    time_step: float
    node_of_body: np.ndarray
    body_of_node: np.ndarray
    parameter_of_body: np.ndarray
    actuator_v: np.ndarray
    actuator_v_unique: bool
    actuation_is_identity: bool
    actuation_matrix: np.ndarray
    q_indices: tuple
    v_indices: tuple
    u_indices: tuple
    x_indices: tuple
    instance_actuator_v: tuple
    damping: np.ndarray
    has_damping: bool
    reflected_inertia: np.ndarray
    has_reflected_inertia: bool
    diag_nv: tuple
    has_force_elements: bool
    gravity_in_kernel: bool
    quaternion_q_starts: np.ndarray
    velocity_equals_qdot: bool
    has_rpy: bool
    joint_node: np.ndarray
    joint_X_BM: np.ndarray


def make_plant_tables(tree, time_step):
    """Build the `PlantTables` of a finalized `MultibodyTree`.

    Parameters
    ----------
    tree : MultibodyTree
        A finalized tree.
    time_step : float
        The plant's time step (0 for continuous).

    Returns
    -------
    PlantTables
    """
    model = tree.compiled_model()
    tables = tree.index_tables()
    nb, nq, nv = model.nb, model.nq, model.nv
    nu = tree.num_actuators()
    parameter_of_body = np.full(nb, -1, dtype=np.int64)
    parameter_of_body[1:] = np.arange(nb - 1)
    actuator_v = np.array([tree.get_joint_actuator(a).joint().velocity_start()
                           for a in tree.get_joint_actuator_indices()], dtype=np.int64)
    num_instances = tree.num_model_instances()
    x_indices = tuple(np.concatenate([tables.q_indices[mi], nq + tables.v_indices[mi]])
                      .astype(np.int64) for mi in range(num_instances))
    instance_actuator_v = tuple(actuator_v[tables.actuator_inputs[mi]]
                                for mi in range(num_instances))
    reflected = tree.default_reflected_inertia()
    gravity = tree.gravity_field()
    num_joints = tree.num_joints()
    joint_node = np.zeros(num_joints, dtype=np.int64)      # by joint ordinal (as Drake's
    joint_X_BM = np.zeros((num_joints, 4, 4))              # reaction forces output)
    for j, index in enumerate(tree.get_joint_indices()):
        joint = tree.get_joint(index)
        joint_node[j] = model.node_of_body[joint.child_body().index()]
        joint_X_BM[j] = joint.frame_on_child().pose_in_body_matrix()
    jtype = model.jtype
    return PlantTables(
        nb=nb, nq=nq, nv=nv, nu=nu,
        continuous=time_step == 0.0,
        time_step=float(time_step),
        node_of_body=np.asarray(model.node_of_body, dtype=np.int64),
        body_of_node=np.asarray(model.body_index, dtype=np.int64),
        parameter_of_body=parameter_of_body,
        actuator_v=actuator_v,
        actuator_v_unique=len(set(actuator_v.tolist())) == nu,
        actuation_is_identity=nu == nv and bool(np.all(actuator_v == np.arange(nv))),
        actuation_matrix=tree.make_actuation_matrix(),
        q_indices=tuple(tables.q_indices),
        v_indices=tuple(tables.v_indices),
        u_indices=tuple(tables.actuator_inputs),
        x_indices=x_indices,
        instance_actuator_v=instance_actuator_v,
        damping=np.array(model.damping, dtype=float),
        has_damping=bool(np.any(model.damping != 0.0)),
        reflected_inertia=reflected,
        has_reflected_inertia=bool(np.any(reflected != 0.0)),
        diag_nv=np.diag_indices(nv),
        has_force_elements=tree.num_force_elements() > 1,
        gravity_in_kernel=bool(np.all(gravity.enabled_node_mask() == 1.0)),
        quaternion_q_starts=np.asarray(
            model.q_start[np.isin(jtype, (JointType.QUATERNION_FLOATING,
                                          JointType.BALL_QUATERNION))], dtype=np.int64),
        velocity_equals_qdot=bool(np.all(np.isin(jtype, _QDOT_IS_V))),
        has_rpy=bool(np.any(np.isin(jtype, (JointType.BALL_RPY, JointType.RPY_FLOATING)))),
        joint_node=joint_node,
        joint_X_BM=joint_X_BM,
    )
