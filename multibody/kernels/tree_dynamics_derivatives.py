"""Derivative methods of the `TreeDynamics` facade (state and inertial parameters).

Position derivatives default to the tangent space: the derivative along
``δq = N(q) δv``, an (nv x nv) matrix. For a quaternion joint that is the rotation by a
small angle vector expressed in the joint's parent frame F, ``q ← exp(δw/2) ⊗ q``,
because the joint's angular velocity is expressed in F (Pinocchio uses the same
construction with its local-frame velocity). This is the Jacobian that linearizing
``x' = [N(q) v; vdot]`` needs. ``q_derivative="coordinates"`` gives the (nv x nq)
derivative with respect to q itself instead.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.kernels import derivatives as _der
from merganser.multibody.kernels.arguments import DynamicsArgumentError
from merganser.multibody.kernels.joint_velocity_maps import calc_n_matrix

__all__ = ["DerivativesMixin"]


class DerivativesMixin:
    """Mixin of `TreeDynamics`: exact derivatives (complex step, linear parameters).

    All methods return new arrays.
    """

    def _q_directions(self, fn, q, q_derivative):
        if q_derivative == "tangent":
            calc_n_matrix(self._ip, q, self._N, self._Nplus)
            return self._N
        if q_derivative == "coordinates":
            return np.eye(self.nq)
        raise DynamicsArgumentError(
            f"{fn}: q_derivative is {q_derivative!r}, expected 'tangent' or 'coordinates'")

    def inverse_dynamics_derivatives(self, q, v, vdot, I10, g, F_ext_W=None,
                                     q_derivative="tangent", M_added=None):
        """Exact partial derivatives of inverse dynamics (complex step through RNEA).

        Parameters
        ----------
        q, v, vdot, I10, g, F_ext_W, M_added
            As in `inverse_dynamics`.
        q_derivative : {"tangent", "coordinates"}
            See the module docstring.

        Returns
        -------
        dtau_dq : ndarray, shape (nv, nv) (tangent) or (nv, nq) (coordinates)
        dtau_dv : ndarray, shape (nv, nv)
        dtau_dvdot : ndarray, shape (nv, nv)
            The mass matrix M(q).
        """
        fn = "inverse_dynamics_derivatives"
        q, v, vdot, I10, g = self._coerce(fn, q=q, v=v, vdot=vdot, I10=I10, g=g)
        F, use = self._forces(fn, F_ext_W)
        E = self._added_mass_arg(fn, M_added)
        Dq = self._q_directions(fn, q, q_derivative)
        dq = np.empty((self.nv, Dq.shape[1]))
        dv = np.empty((self.nv, self.nv))
        _der.inverse_dynamics_state_derivatives(
            self._ip, self._fp, self._wsc, q, v, vdot, I10, g, F, use, Dq, self._qc,
            self._vc, self._vdc, self._tauc, dq, dv, E)
        return dq, dv, self.mass_matrix(q, I10, E).copy()

    def forward_dynamics_derivatives(self, q, v, tau, I10, g, F_ext_W=None,
                                     q_derivative="tangent", M_added=None):
        """Exact partial derivatives of forward dynamics.

        ``d vdot = -M^-1 d(ID)`` evaluated at ``vdot = ABA(q, v, tau)`` (Carpentier &
        Mansard 2018), with the inverse-dynamics derivatives by complex step.

        Parameters
        ----------
        q, v, tau, I10, g, F_ext_W, M_added
            As in `forward_dynamics`.
        q_derivative : {"tangent", "coordinates"}
            See the module docstring; the default gives an (nv, nv) matrix.

        Returns
        -------
        dvdot_dq : ndarray, shape (nv, nv) (tangent) or (nv, nq) (coordinates)
        dvdot_dv : ndarray, shape (nv, nv)
        dvdot_dtau : ndarray, shape (nv, nv)
            ``M^-1``.
        """
        fn = "forward_dynamics_derivatives"
        q, v, tau, I10, g = self._coerce(fn, q=q, v=v, tau=tau, I10=I10, g=g)
        E = self._added_mass_arg(fn, M_added)
        vdot = self.forward_dynamics(q, v, tau, I10, g, F_ext_W, E).copy()
        dq, dv, M = self.inverse_dynamics_derivatives(q, v, vdot, I10, g, F_ext_W,
                                                      q_derivative, E)
        Minv = np.linalg.inv(M)
        Minv = 0.5 * (Minv + Minv.T)
        return -Minv @ dq, -Minv @ dv, Minv

    def mass_matrix_parameter_derivative(self, q, I10, node, param_index):
        """``dM/dθ`` for θ = ``I10[node, param_index]``, shape (nv, nv).

        M is linear in the inertial parameters, so the result does not depend on I10
        (accepted for a uniform signature and checked for size only).
        """
        fn = "mass_matrix_parameter_derivative"
        q, I10 = self._coerce(fn, q=q, I10=I10)
        node = self._node(fn, node)
        if not (isinstance(param_index, (int, np.integer)) and 0 <= param_index < 10):
            raise DynamicsArgumentError(
                f"{fn}: param_index is {param_index!r}, expected an integer in [0, 10)")
        dM = np.empty((self.nv, self.nv))
        _der.mass_matrix_parameter_derivative(self._ip, self._fp, self._ws, q, node,
                                              int(param_index), self._E, dM)
        return dM

    def inverse_dynamics_regressor(self, q, v, vdot, g):
        """Regressor ``Y`` (nv, nb, 10): ``tau = Y.reshape(nv, -1) @ I10.ravel()``.

        Includes gravity, not external forces nor any added mass ``M_added`` (they
        do not depend on the parameters: with one, ``tau = Y θ + tau_extra``).
        """
        fn = "inverse_dynamics_regressor"
        q, v, vdot, g = self._coerce(fn, q=q, v=v, vdot=vdot, g=g)
        Y = np.empty((self.nv, self.nb, 10))
        _der.inverse_dynamics_regressor(self._ip, self._fp, self._ws, q, v, vdot, g, self._E,
                                        self._no_fext, np.empty(self.nv), Y)
        return Y

    def forward_dynamics_parameter_derivatives(self, q, v, tau, I10, g, F_ext_W=None,
                                               M_added=None):
        """``d vdot / d I10``, shape (nv, nb, 10): ``-M^-1 Y(q, v, vdot)`` (M and vdot
        include `M_added`, None: the object's default)."""
        fn = "forward_dynamics_parameter_derivatives"
        q, v, tau, I10, g = self._coerce(fn, q=q, v=v, tau=tau, I10=I10, g=g)
        E = self._added_mass_arg(fn, M_added)
        vdot = self.forward_dynamics(q, v, tau, I10, g, F_ext_W, E).copy()
        Y = self.inverse_dynamics_regressor(q, v, vdot, g)
        M = self.mass_matrix(q, I10, E)
        return -np.linalg.solve(M, Y.reshape(self.nv, -1)).reshape(self.nv, self.nb, 10)
