"""Python facade over the compiled kernels: `TreeDynamics`.

`TreeDynamics(model)` packs a `CompiledModel` once and keeps preallocated scratch and
output arrays (Pinocchio's ``Data``). A method's fast path checks only that its
arguments are numpy arrays and calls one numba kernel, which checks the sizes and
returns a status; any mismatch goes to a slow path that converts the arguments and
raises `DynamicsArgumentError` with the method, the argument, the expected and the
received size.

An optional added-mass spatial inertia per node, ``M_added`` (nb, 6, 6) (e.g. hydrodynamic
added mass, see `multibody.kernels.added_mass`), is included by every method that
involves the inertia (mass matrix, inverse and forward dynamics, bias term, kinetic
energy, momentum, their batch and derivative versions): a default given at
construction, or per call with the ``M_added`` keyword. Without one, the kernels run
their rigid-body-only compiled path.

Returned arrays are owned by the `TreeDynamics` object and are overwritten by the next
call of the same method: copy a result to keep it (batch and derivative methods return
new arrays). One object must not be used from several threads at once: `fork` gives
another object of the same model (sharing the packed, read-only model tables) for
another thread. All arrays are
in node order (see ``docs/compiled_model.md``); spatial vectors are
[rotational; translational].
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.kernels.aba import (
    SINGULAR, calc_forward_dynamics, calc_forward_dynamics_armature,
    calc_forward_dynamics_with_added_mass,
)
from merganser.multibody.kernels.arguments import ArgumentChecker, DynamicsArgumentError
from merganser.multibody.kernels.center_of_mass import (
    calc_center_of_mass, calc_center_of_mass_jacobian,
)
from merganser.multibody.kernels.crba import calc_mass_matrix, calc_mass_matrix_with_added_mass
from merganser.multibody.kernels.tree_dynamics_batch import BatchDynamicsMixin
from merganser.multibody.kernels.tree_dynamics_derivatives import DerivativesMixin
from merganser.multibody.kernels.jacobians import (
    calc_bias_spatial_acceleration, calc_jacobian_spatial,
)
from merganser.multibody.kernels.joint_velocity_maps import (
    calc_n_matrix, map_qdot_to_velocity, map_velocity_to_qdot,
)
from merganser.multibody.kernels.kinematics import (
    calc_body_spatial_accelerations, calc_body_spatial_velocities, calc_forward_kinematics,
    calc_mobile_forward_kinematics,
)
from merganser.multibody.kernels.layout import (
    IP_MOBILE, IP_NMOBILE, WS_DINV, make_workspace, pack_model,
)
from merganser.multibody.kernels.position_update import next_state
from merganser.multibody.kernels.momentum_energy import (
    calc_kinetic_energy, calc_kinetic_energy_with_added_mass, calc_potential_energy,
    calc_spatial_momentum, calc_spatial_momentum_with_added_mass,
)
from merganser.multibody.kernels.rnea import calc_inverse_dynamics, calc_inverse_dynamics_with_added_mass
from merganser.multibody.kernels.singular_dynamics import singular_dynamics_error
from merganser.multibody.tree.compiled_model import CompiledModel, JointType

__all__ = ["TreeDynamics", "DynamicsArgumentError"]

_ND = np.ndarray


class TreeDynamics(ArgumentChecker, BatchDynamicsMixin, DerivativesMixin):
    """Kinematics and dynamics of a `CompiledModel` through the numba kernels.

    Parameters
    ----------
    model : CompiledModel
        The compiled tree (validated here).
    M_added : ndarray, shape (nb, 6, 6), optional
        Default added-mass spatial inertia of each node's body (``M_BBo_B``: about Bo,
        expressed in B, [rotational; translational]), symmetric positive semidefinite,
        constant in B; row 0 (the world) is not read. It adds to the rigid inertia in
        every method that involves the inertia whenever that method's ``M_added``
        argument is None; it has no weight (gravity acts on ``I10`` only). None (the
        default): rigid bodies only.
    merge_welded : bool
        Merge every welded body into its composite node for the dynamics kernels (the
        default; `multibody.kernels.layout.pack_model`): the results are the same as
        with every welded body a node of its own (False), to rounding, and cost less
        on trees with many welded bodies. Inputs and outputs stay per node either way.

    Raises
    ------
    DynamicsArgumentError
        If `M_added` has the wrong shape, is not finite, not symmetric or not positive
        semidefinite.

    Notes
    -----
    Conventions: x = [q; v]; a quaternion floating joint has q = [qw qx qy qz x y z]
    and v = [w_FM_F; v_FMo_F]; ``M vd + C v = tau_g + tau + sum_k J_k^T F_ext_k``.
    ``I10`` (nb, 10) holds each node body's ``[m, m cx, m cy, m cz, Ixx, Iyy, Izz, Ixy,
    Ixz, Iyz]`` about its origin Bo, expressed in B; gravity ``g`` (3,) is expressed in
    W; ``F_ext_W`` (nb, 6) is the spatial force on each node's body at Bo, expressed in
    W. Joint damping is not applied by these methods.
    """

    def __init__(self, model: CompiledModel, M_added=None, merge_welded=True):
        if not isinstance(model, CompiledModel):
            raise DynamicsArgumentError(
                f"TreeDynamics: model must be a CompiledModel, got {type(model).__name__}")
        model.validate()
        self.model = model
        self.nb, self.nq, self.nv = model.nb, model.nq, model.nv
        self._M_added = None if M_added is None else self._check_added_mass(M_added)
        self.merge_welded = bool(merge_welded)
        self._ip, self._fp = pack_model(model, self.merge_welded)
        mobile = self._ip[:self._ip[0, IP_NMOBILE], IP_MOBILE].copy()
        mobile.setflags(write=False)
        self._mobile_nodes = mobile
        rpy = np.flatnonzero(np.isin(model.jtype, (JointType.BALL_RPY, JointType.RPY_FLOATING)))
        self._rpy_nodes = rpy
        self._rpy_pitch = model.q_start[rpy] + 1
        self._quat_starts = np.ascontiguousarray(
            model.q_start[model.jtype == JointType.QUATERNION_FLOATING], dtype=np.int64)
        self._identity_n = bool(np.all(model.nq_j == model.nv_j) and rpy.size == 0)
        #: Name of each node's inboard joint, for error messages (set by the plant).
        self.node_joint_names = ()
        #: Per node, (body, inboard joint) file:line or None, for error messages (plant).
        self.node_source_locations = ()
        self._allocate_scratch()

    def fork(self):
        """A `TreeDynamics` of the same model sharing the packed model tables (never written)
        and added mass, with its own scratch and output arrays (one per thread)."""
        other = object.__new__(type(self))
        for name in ("model", "nb", "nq", "nv", "merge_welded", "_M_added", "_ip", "_fp",
                     "_mobile_nodes",
                     "_rpy_nodes", "_rpy_pitch", "_quat_starts", "_identity_n",
                     "node_joint_names", "node_source_locations"):
            setattr(other, name, getattr(self, name))
        other._allocate_scratch()
        return other

    @property
    def packed_model(self):
        """The packed model tables ``(ip, fp)`` the kernels read (shared, not to be
        written; see `multibody.kernels.layout.pack_model`)."""
        return self._ip, self._fp

    @property
    def workspace(self):
        """This object's kernel workspace (nb, NWS) (overwritten by every call)."""
        return self._ws

    @property
    def mobile_nodes(self):
        """The mobile nodes, ascending, int64 (n_mobile,) (read-only): the world (0) and
        every node with a joint; every node when ``merge_welded`` is False. Row i of
        `mobile_forward_kinematics` is node ``mobile_nodes[i]``."""
        return self._mobile_nodes

    @property
    def rpy_nodes(self):
        """Nodes of roll-pitch-yaw joints (ball rpy, rpy floating), int64 (k,)."""
        return self._rpy_nodes

    def _allocate_scratch(self):
        nb, nq, nv = self.nb, self.nq, self.nv
        self._ws = make_workspace(nb)
        self._no_fext = np.zeros((nb, 6))
        self._zeros_nv = np.zeros(nv)
        self._zero_g = np.zeros(3)
        # outputs
        self._X_WB = np.zeros((nb, 4, 4))
        self._X_WM = np.zeros((self._mobile_nodes.size, 4, 4))
        self._V_WB = np.zeros((nb, 6))
        self._A_WB = np.zeros((nb, 6))
        self._M = np.zeros((nv, nv))
        self._tau = np.zeros(nv)
        self._Cv = np.zeros(nv)
        self._tau_g = np.zeros(nv)
        self._vd = np.zeros(nv)
        self._J = np.zeros((6, nv))
        self._bias = np.zeros(6)
        self._com = np.zeros(3)
        self._Jcom = np.zeros((3, nv))
        self._L = np.zeros(6)
        self._qdot = np.zeros(nq)
        self._v_out = np.zeros(nv)
        self._N = np.zeros((nq, nv))
        self._Nplus = np.zeros((nv, nq))
        # derivative scratch
        self._wsc = make_workspace(nb, np.complex128)
        self._qc = np.zeros(nq, np.complex128)
        self._vc = np.zeros(nv, np.complex128)
        self._vdc = np.zeros(nv, np.complex128)
        self._tauc = np.zeros(nv, np.complex128)
        self._E = np.zeros((nb, 10))

    @property
    def M_added(self):
        """The default added-mass spatial inertia (nb, 6, 6) (read-only), or None."""
        return self._M_added

    def _check_added_mass(self, M_added):
        """Return `M_added` as a read-only (nb, 6, 6) copy, or raise (see the class)."""
        fn = "TreeDynamics"
        E, = self._coerce(fn, M_added=M_added)
        E = E.copy()
        if not np.all(np.isfinite(E)):
            nodes = np.unique(np.argwhere(~np.isfinite(E))[:, 0]).tolist()
            raise DynamicsArgumentError(
                f"{fn}: M_added must be finite, got non-finite entries at nodes {nodes}")
        for k in range(1, self.nb):
            Ek = E[k]
            scale = float(np.max(np.abs(Ek)))
            if scale == 0.0:
                continue
            name = self.model.node_name(k)
            if not np.allclose(Ek, Ek.T, rtol=0.0, atol=1e-12 * scale):
                raise DynamicsArgumentError(
                    f"{fn}: M_added[{k}] ({name}) must be symmetric, got {Ek.tolist()}")
            smallest = float(np.linalg.eigvalsh(0.5 * (Ek + Ek.T))[0])
            if smallest < -1e-12 * scale:
                raise DynamicsArgumentError(
                    f"{fn}: M_added[{k}] ({name}) must be positive semidefinite, but its "
                    f"smallest eigenvalue is {smallest:.6g}")
            E[k] = 0.5 * (Ek + Ek.T)
        E.setflags(write=False)
        return E

    # ---------------------------------------------------------------- kinematics
    def forward_kinematics(self, q):
        """Poses of all node bodies in world.

        Parameters
        ----------
        q : ndarray, shape (nq,)
            Generalized positions.

        Returns
        -------
        X_WB : ndarray, shape (nb, 4, 4)
            Homogeneous pose of each node's body frame B in world W.
        """
        try:
            if type(q) is _ND and not calc_forward_kinematics(self._ip, self._fp, self._ws,
                                                              q, self._X_WB):
                return self._X_WB
        except Exception:
            pass
        q, = self._coerce("forward_kinematics", q=q)
        calc_forward_kinematics(self._ip, self._fp, self._ws, q, self._X_WB)
        return self._X_WB

    def mobile_forward_kinematics(self, q):
        """Poses in world of the mobile nodes' bodies only (see `mobile_nodes`).

        The welded bodies' poses, fixed in their composite bodies (``X_WB = X_WC X_CB``,
        `CompiledModel.X_CB`), are not computed: this is the counterpart of Pinocchio's
        ``forwardKinematics`` (joint placements), `forward_kinematics` that of its
        ``framesForwardKinematics`` (every frame).

        Parameters
        ----------
        q : ndarray, shape (nq,)
            Generalized positions.

        Returns
        -------
        X_WM : ndarray, shape (n_mobile, 4, 4)
            Row i: the pose of node ``mobile_nodes[i]``'s body in world, bitwise the
            same as ``forward_kinematics(q)[mobile_nodes[i]]``.
        """
        try:
            if type(q) is _ND and not calc_mobile_forward_kinematics(
                    self._ip, self._fp, self._ws, q, self._X_WM):
                return self._X_WM
        except Exception:
            pass
        q, = self._coerce("mobile_forward_kinematics", q=q)
        calc_mobile_forward_kinematics(self._ip, self._fp, self._ws, q, self._X_WM)
        return self._X_WM

    def body_spatial_velocities(self, q, v):
        """Spatial velocities ``V_WB_W = [w_WB_W; v_WBo_W]`` of all node bodies, (nb, 6)."""
        try:
            if _ND is type(q) is type(v) and not calc_body_spatial_velocities(
                    self._ip, self._fp, self._ws, q, v, self._V_WB):
                return self._V_WB
        except Exception:
            pass
        q, v = self._coerce("body_spatial_velocities", q=q, v=v)
        calc_body_spatial_velocities(self._ip, self._fp, self._ws, q, v, self._V_WB)
        return self._V_WB

    def body_spatial_accelerations(self, q, v, vdot):
        """Spatial accelerations ``A_WB_W = [alpha_WB_W; a_WBo_W]`` of all node bodies.

        ``a_WBo_W`` is the classical acceleration of the body origin (Drake's
        convention); gravity plays no role. Shape (nb, 6).
        """
        try:
            if _ND is type(q) is type(v) is type(vdot) and not calc_body_spatial_accelerations(
                    self._ip, self._fp, self._ws, q, v, vdot, self._A_WB):
                return self._A_WB
        except Exception:
            pass
        q, v, vdot = self._coerce("body_spatial_accelerations", q=q, v=v, vdot=vdot)
        calc_body_spatial_accelerations(self._ip, self._fp, self._ws, q, v, vdot, self._A_WB)
        return self._A_WB

    # ---------------------------------------------------------------- dynamics
    def mass_matrix(self, q, I10, M_added=None):
        """Joint-space mass matrix M(q) by CRBA, shape (nv, nv).

        `M_added` (nb, 6, 6), optional: added-mass spatial inertia per node (None: the
        object's default, see the class), added to the rigid inertias.
        """
        E = self._M_added if M_added is None else M_added
        try:
            if _ND is type(q) is type(I10) and not (
                    calc_mass_matrix(self._ip, self._fp, self._ws, q, I10, self._M)
                    if E is None else type(E) is not _ND or calc_mass_matrix_with_added_mass(
                        self._ip, self._fp, self._ws, q, I10, self._M, E)):
                return self._M
        except Exception:
            pass
        q, I10 = self._coerce("mass_matrix", q=q, I10=I10)
        E = self._added_mass_arg("mass_matrix", M_added)
        if E is None:
            calc_mass_matrix(self._ip, self._fp, self._ws, q, I10, self._M)
        else:
            calc_mass_matrix_with_added_mass(self._ip, self._fp, self._ws, q, I10, self._M, E)
        return self._M

    def inverse_dynamics(self, q, v, vdot, I10, g, F_ext_W=None, M_added=None):
        """Generalized forces ``tau = M vdot + C v - tau_g - sum_k J_k^T F_ext_k`` (RNEA).

        Parameters
        ----------
        q : ndarray, shape (nq,)
        v, vdot : ndarray, shape (nv,)
        I10 : ndarray, shape (nb, 10)
        g : ndarray, shape (3,)
            Gravity, expressed in W.
        F_ext_W : ndarray, shape (nb, 6), optional
            Spatial force on each node's body at Bo, expressed in W.
        M_added : ndarray, shape (nb, 6, 6), optional
            added-mass spatial inertia per node (None: the object's default), included in M
            and C (weightless: not in tau_g).

        Returns
        -------
        tau : ndarray, shape (nv,)
        """
        F, use = (self._no_fext, False) if F_ext_W is None else (F_ext_W, True)
        E = self._M_added if M_added is None else M_added
        try:
            if _ND is type(q) is type(v) is type(vdot) is type(I10) is type(g) is type(F) \
                    and not (calc_inverse_dynamics(self._ip, self._fp, self._ws, q, v, vdot,
                                                   I10, g, F, use, self._tau)
                             if E is None else type(E) is not _ND
                             or calc_inverse_dynamics_with_added_mass(
                                 self._ip, self._fp, self._ws, q, v, vdot, I10, g, F, use,
                                 self._tau, E)):
                return self._tau
        except Exception:
            pass
        fn = "inverse_dynamics"
        q, v, vdot, I10, g = self._coerce(fn, q=q, v=v, vdot=vdot, I10=I10, g=g)
        F, use = self._forces(fn, F_ext_W)
        E = self._added_mass_arg(fn, M_added)
        if E is None:
            calc_inverse_dynamics(self._ip, self._fp, self._ws, q, v, vdot, I10, g, F, use,
                                  self._tau)
        else:
            calc_inverse_dynamics_with_added_mass(self._ip, self._fp, self._ws, q, v, vdot, I10, g,
                                             F, use, self._tau, E)
        return self._tau

    def forward_dynamics(self, q, v, tau, I10, g, F_ext_W=None, M_added=None, fn_name=None,
                         armature=None):
        """Generalized accelerations ``vdot = M^-1 (tau + tau_g - C v + sum J^T F_ext)``
        by the O(n) articulated body algorithm.

        Parameters
        ----------
        q : ndarray, shape (nq,)
        v, tau : ndarray, shape (nv,)
        I10 : ndarray, shape (nb, 10)
        g : ndarray, shape (3,)
        F_ext_W : ndarray, shape (nb, 6), optional
        M_added : ndarray, shape (nb, 6, 6), optional
            added-mass spatial inertia per node (None: the object's default), included in M
            and C.
        fn_name : str, optional
            The operation named by a `SingularDynamicsError` (default
            "calc_forward_dynamics", the plant's).
        armature : ndarray, shape (nv,), optional
            A diagonal added to M: ``(M + diag(armature)) vdot = ...``
            (`multibody.kernels.aba.calc_forward_dynamics_armature`); not with added mass.

        Returns
        -------
        vdot : ndarray, shape (nv,)

        Raises
        ------
        SingularDynamicsError
            If a joint's articulated inertia is singular (see `multibody.kernels.aba`).
        """
        F, use = (self._no_fext, False) if F_ext_W is None else (F_ext_W, True)
        E = self._M_added if M_added is None else M_added
        try:
            if _ND is type(q) is type(v) is type(tau) is type(I10) is type(g) is type(F) \
                    and (E is None or type(E) is _ND) \
                    and (armature is None or (E is None and type(armature) is _ND)) \
                    and not (calc_forward_dynamics(self._ip, self._fp, self._ws, q, v, tau,
                                                   I10, g, F, use, self._vd)
                             if E is None and armature is None else
                             self._forward_status(q, v, tau, I10, g, F, use, E, armature)):
                return self._vd
        except Exception:
            pass
        fn = "forward_dynamics"
        q, v, tau, I10, g = self._coerce(fn, q=q, v=v, tau=tau, I10=I10, g=g)
        F, use = self._forces(fn, F_ext_W)
        E = self._added_mass_arg(fn, M_added)
        if armature is not None:
            if E is not None:
                raise DynamicsArgumentError(f"{fn}: armature with added mass is not "
                                            f"supported; give one of them")
            armature, = self._coerce(fn, armature=armature)
        status = self._forward_status(q, v, tau, I10, g, F, use, E, armature)
        if status == SINGULAR:
            raise singular_dynamics_error("calc_forward_dynamics" if fn_name is None else fn_name,
                                          self.model, self._ws[0, WS_DINV],
                                          self.node_joint_names, self.node_source_locations)
        return self._vd

    def _forward_status(self, q, v, tau, I10, g, F, use, E, armature):
        """The status of the forward-dynamics kernel for added mass E or an armature
        (at most one of them), into ``self._vd``."""
        if E is not None:
            return calc_forward_dynamics_with_added_mass(self._ip, self._fp, self._ws, q, v,
                                                         tau, I10, g, F, use, self._vd, E)
        if armature is not None:
            return calc_forward_dynamics_armature(self._ip, self._fp, self._ws, q, v, tau,
                                                  armature, I10, g, F, use, self._vd)
        return calc_forward_dynamics(self._ip, self._fp, self._ws, q, v, tau, I10, g, F, use,
                                     self._vd)

    def bias_term(self, q, v, I10, M_added=None):
        """Coriolis, centrifugal and gyroscopic terms ``C(q, v) v`` (no gravity), (nv,).

        `M_added` (nb, 6, 6), optional: added-mass spatial inertia per node (None: the
        object's default), whose gyroscopic terms are included.
        """
        E = self._M_added if M_added is None else M_added
        try:
            if _ND is type(q) is type(v) is type(I10) and not (
                    calc_inverse_dynamics(self._ip, self._fp, self._ws, q, v, self._zeros_nv,
                                          I10, self._zero_g, self._no_fext, False, self._Cv)
                    if E is None else type(E) is not _ND or calc_inverse_dynamics_with_added_mass(
                        self._ip, self._fp, self._ws, q, v, self._zeros_nv, I10, self._zero_g,
                        self._no_fext, False, self._Cv, E)):
                return self._Cv
        except Exception:
            pass
        q, v, I10 = self._coerce("bias_term", q=q, v=v, I10=I10)
        E = self._added_mass_arg("bias_term", M_added)
        if E is None:
            calc_inverse_dynamics(self._ip, self._fp, self._ws, q, v, self._zeros_nv, I10,
                                  self._zero_g, self._no_fext, False, self._Cv)
        else:
            calc_inverse_dynamics_with_added_mass(self._ip, self._fp, self._ws, q, v,
                                             self._zeros_nv, I10, self._zero_g, self._no_fext,
                                             False, self._Cv, E)
        return self._Cv

    def gravity_generalized_forces(self, q, I10, g):
        """Generalized gravity forces ``tau_g`` (right-hand side: M vd + C v = tau_g + tau).

        Any added mass (``M_added``) is weightless and does not contribute.
        """
        try:
            ok = _ND is type(q) is type(I10) is type(g) and not calc_inverse_dynamics(
                self._ip, self._fp, self._ws, q, self._zeros_nv, self._zeros_nv, I10, g,
                self._no_fext, False, self._tau_g)
        except Exception:
            ok = False
        if not ok:
            q, I10, g = self._coerce("gravity_generalized_forces", q=q, I10=I10, g=g)
            calc_inverse_dynamics(self._ip, self._fp, self._ws, q, self._zeros_nv,
                                  self._zeros_nv, I10, g, self._no_fext, False, self._tau_g)
        np.negative(self._tau_g, out=self._tau_g)
        return self._tau_g

    # ---------------------------------------------------------------- jacobians
    def jacobian_spatial(self, q, node, p_BoBp_B, wrt_qdot=False):
        """Spatial Jacobian of point Bp fixed on `node`'s body, measured and expressed in W.

        Parameters
        ----------
        q : ndarray, shape (nq,)
        node : int
            Node of the body B.
        p_BoBp_B : ndarray, shape (3,)
            Position of Bp from Bo, expressed in B.
        wrt_qdot : bool
            If True, return the Jacobian with respect to q̇ (``J_v N⁺(q)``, shape (6, nq),
            Drake's ``JacobianWrtVariable.kQDot``; a new array) instead of v (6, nv).

        Returns
        -------
        J : ndarray, shape (6, nv) or (6, nq)
            ``V_WBp_W = [w_WB_W; v_WBp_W] = J v``.
        """
        try:
            ok = _ND is type(q) is type(p_BoBp_B) and type(node) is int and not \
                calc_jacobian_spatial(self._ip, self._fp, self._ws, q, node, p_BoBp_B, self._J)
        except Exception:
            ok = False
        if not ok:
            fn = "jacobian_spatial"
            q, p_BoBp_B = self._coerce(fn, q=q, p_BoBp_B=p_BoBp_B)
            node = self._node(fn, node)
            calc_jacobian_spatial(self._ip, self._fp, self._ws, q, node, p_BoBp_B, self._J)
        if wrt_qdot:
            calc_n_matrix(self._ip, q, self._N, self._Nplus)
            return self._J @ self._Nplus
        return self._J

    def bias_spatial_acceleration(self, q, v, node, p_BoBp_B):
        """Bias ``J̇ v`` of the spatial acceleration of point Bp fixed on `node`'s body.

        Returns ``[alpha_WB_W; a_WBp_W]`` at vd = 0 (classical acceleration, in W), (6,).
        """
        try:
            if _ND is type(q) is type(v) is type(p_BoBp_B) and type(node) is int and not \
                    calc_bias_spatial_acceleration(self._ip, self._fp, self._ws, q, v,
                                                   self._zeros_nv, node, p_BoBp_B, self._bias):
                return self._bias
        except Exception:
            pass
        fn = "bias_spatial_acceleration"
        q, v, p_BoBp_B = self._coerce(fn, q=q, v=v, p_BoBp_B=p_BoBp_B)
        node = self._node(fn, node)
        calc_bias_spatial_acceleration(self._ip, self._fp, self._ws, q, v, self._zeros_nv,
                                       node, p_BoBp_B, self._bias)
        return self._bias

    # ---------------------------------------------------------------- mass properties
    def center_of_mass(self, q, I10):
        """Center of mass of all bodies ``p_WoScm_W``, shape (3,).

        Raises
        ------
        DynamicsArgumentError
            If the total mass is zero.
        """
        try:
            if _ND is type(q) is type(I10) and calc_center_of_mass(
                    self._ip, self._fp, self._ws, q, I10, self._com) > 0.0:
                return self._com
        except Exception:
            pass
        q, I10 = self._coerce("center_of_mass", q=q, I10=I10)
        if calc_center_of_mass(self._ip, self._fp, self._ws, q, I10, self._com) == 0.0:
            raise DynamicsArgumentError(
                "center_of_mass: the total mass is zero, the center of mass is undefined")
        return self._com

    def center_of_mass_jacobian(self, q, I10):
        """Jacobian of the center of mass, ``v_WScm_W = J v``, shape (3, nv)."""
        try:
            if _ND is type(q) is type(I10) and calc_center_of_mass_jacobian(
                    self._ip, self._fp, self._ws, q, I10, self._Jcom) > 0.0:
                return self._Jcom
        except Exception:
            pass
        q, I10 = self._coerce("center_of_mass_jacobian", q=q, I10=I10)
        if calc_center_of_mass_jacobian(self._ip, self._fp, self._ws, q, I10, self._Jcom) == 0:
            raise DynamicsArgumentError("center_of_mass_jacobian: the total mass is zero, "
                                        "the center of mass is undefined")
        return self._Jcom

    def spatial_momentum(self, q, v, I10, p_WoP_W, M_added=None):
        """Spatial momentum of all bodies about point P, expressed in W, shape (6,).

        `M_added` (nb, 6, 6), optional: added-mass spatial inertia per node (None: the
        object's default); each body's momentum about Bo is (I + M_added) V_B.
        """
        E = self._M_added if M_added is None else M_added
        try:
            if _ND is type(q) is type(v) is type(I10) is type(p_WoP_W) and not (
                    calc_spatial_momentum(self._ip, self._fp, self._ws, q, v, I10, p_WoP_W,
                                          self._L)
                    if E is None else type(E) is not _ND or calc_spatial_momentum_with_added_mass(
                        self._ip, self._fp, self._ws, q, v, I10, p_WoP_W, self._L, E)):
                return self._L
        except Exception:
            pass
        q, v, I10, p_WoP_W = self._coerce("spatial_momentum", q=q, v=v, I10=I10,
                                          p_WoP_W=p_WoP_W)
        E = self._added_mass_arg("spatial_momentum", M_added)
        if E is None:
            calc_spatial_momentum(self._ip, self._fp, self._ws, q, v, I10, p_WoP_W, self._L)
        else:
            calc_spatial_momentum_with_added_mass(self._ip, self._fp, self._ws, q, v, I10, p_WoP_W,
                                             self._L, E)
        return self._L

    def kinetic_energy(self, q, v, I10, M_added=None):
        """Kinetic energy ``½ vᵀ M(q) v`` (float), M including `M_added` (nb, 6, 6) when
        given (None: the object's default)."""
        E = self._M_added if M_added is None else M_added
        try:
            if _ND is type(q) is type(v) is type(I10):
                if E is None:
                    e = calc_kinetic_energy(self._ip, self._fp, self._ws, q, v, I10)
                elif type(E) is _ND:
                    e = calc_kinetic_energy_with_added_mass(self._ip, self._fp, self._ws, q, v, I10, E)
                else:
                    e = np.nan
                if e == e:
                    return float(e)
        except Exception:
            pass
        q, v, I10 = self._coerce("kinetic_energy", q=q, v=v, I10=I10)
        E = self._added_mass_arg("kinetic_energy", M_added)
        if E is None:
            return float(calc_kinetic_energy(self._ip, self._fp, self._ws, q, v, I10))
        return float(calc_kinetic_energy_with_added_mass(self._ip, self._fp, self._ws, q, v, I10, E))

    def potential_energy(self, q, I10, g):
        """Gravitational potential energy ``-g . m p_WoScm_W`` (zero at Wo) (float)."""
        try:
            if _ND is type(q) is type(I10) is type(g):
                e = calc_potential_energy(self._ip, self._fp, self._ws, q, I10, g)
                if e == e:
                    return float(e)
        except Exception:
            pass
        q, I10, g = self._coerce("potential_energy", q=q, I10=I10, g=g)
        return float(calc_potential_energy(self._ip, self._fp, self._ws, q, I10, g))

    # ---------------------------------------------------------------- q̇ = N(q) v
    def map_velocity_to_qdot(self, q, v):
        """Return ``q̇ = N(q) v``, shape (nq,).

        Raises
        ------
        DynamicsArgumentError
            If a roll-pitch-yaw joint is at gimbal lock (``cos(pitch) = 0``).
        """
        if self._rpy_nodes.size:
            self._check_gimbal_lock("map_velocity_to_qdot", q)
        try:
            if _ND is type(q) is type(v) and not map_velocity_to_qdot(self._ip, q, v,
                                                                      self._qdot):
                return self._qdot
        except Exception:
            pass
        q, v = self._coerce("map_velocity_to_qdot", q=q, v=v)
        map_velocity_to_qdot(self._ip, q, v, self._qdot)
        return self._qdot

    def next_state(self, q, v_next, h, x_next):
        """Write the discrete step's x_next = [q + h N(q) v_next; v_next] (nq + nv,),
        every quaternion re-normalized (`multibody.kernels.position_update`).

        `x_next[nq:]` may be `v_next` itself. Raises DynamicsArgumentError for wrong
        sizes or a roll-pitch-yaw joint at gimbal lock.
        """
        if self._rpy_nodes.size:
            self._check_gimbal_lock("next_state", q)
        try:
            if _ND is type(q) is type(v_next) and not next_state(
                    self._ip, q, v_next, h, self._identity_n, self._quat_starts, self._qdot,
                    x_next):
                return x_next
        except Exception:
            pass
        q, v_next = self._coerce("next_state", q=q, v=v_next)
        if next_state(self._ip, q, v_next, float(h), self._identity_n, self._quat_starts,
                      self._qdot, x_next):
            raise DynamicsArgumentError(
                f"next_state: x_next has shape {getattr(x_next, 'shape', None)}, expected "
                f"(nq + nv,) = ({self.nq + self.nv},)")
        return x_next

    def map_qdot_to_velocity(self, q, qdot):
        """Return ``v = N⁺(q) q̇``, shape (nv,) (``N⁺ N = 1``)."""
        try:
            if _ND is type(q) is type(qdot) and not map_qdot_to_velocity(self._ip, q, qdot,
                                                                         self._v_out):
                return self._v_out
        except Exception:
            pass
        q, qdot = self._coerce("map_qdot_to_velocity", q=q, qdot=qdot)
        map_qdot_to_velocity(self._ip, q, qdot, self._v_out)
        return self._v_out

    def N_matrix(self, q):
        """Return N(q), shape (nq, nv), with ``q̇ = N(q) v``."""
        q, = self._coerce("N_matrix", q=q)
        if self._rpy_nodes.size:
            self._check_gimbal_lock("N_matrix", q)
        calc_n_matrix(self._ip, q, self._N, self._Nplus)
        return self._N

    def N_plus_matrix(self, q):
        """Return N⁺(q), shape (nv, nq), with ``v = N⁺(q) q̇``."""
        q, = self._coerce("N_plus_matrix", q=q)
        calc_n_matrix(self._ip, q, self._N, self._Nplus)
        return self._Nplus

    def _check_gimbal_lock(self, fn, q):
        """Raise if an rpy joint's pitch makes the rpy rates undefined (cos p ~ 0)."""
        q, = self._coerce(fn, q=q)
        c = np.abs(np.cos(q[self._rpy_pitch]))
        if np.any(c < 1e-10):
            i = int(np.argmin(c))
            raise DynamicsArgumentError(
                f"{fn}: the roll-pitch-yaw joint of "
                f"{self.model.node_name(int(self._rpy_nodes[i]))} is at gimbal lock "
                f"(pitch = {q[self._rpy_pitch[i]]}); the rpy rates are undefined")
