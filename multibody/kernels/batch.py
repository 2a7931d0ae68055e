"""Batched kinematics and dynamics over N states, parallel over cores (numba prange).

The N states are split into `nchunks` contiguous chunks; each chunk (one parallel task)
owns a workspace and runs the single-state kernel over its states, so the result does
not depend on the number of threads. Inertial parameters are given as an array of shape
(NI, nb, 10) with NI = 1 (shared) or NI = N (one set per state); the optional added mass
spatial inertia ``M_added`` (nb, 6, 6) (see `multibody.kernels.added_mass`) is shared
by all states.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.kernels.aba import calc_forward_dynamics_with_added_mass
from merganser.framework.compilation import kernel, prange
from merganser.multibody.kernels.crba import calc_mass_matrix_with_added_mass
from merganser.multibody.kernels.kinematics import calc_forward_kinematics
from merganser.multibody.kernels.layout import NWS
from merganser.multibody.kernels.rnea import calc_inverse_dynamics_with_added_mass

__all__ = ["fk_batch", "rnea_batch", "crba_batch", "aba_batch"]


@kernel
def _chunk(c, nchunks, n):
    return (c * n) // nchunks, ((c + 1) * n) // nchunks


@kernel(parallel=True)
def fk_batch(ip, fp, Q, X_WB, nchunks):
    """Poses of all bodies for each state: Q (N, nq) -> X_WB (N, nb, 4, 4)."""
    nb = ip.shape[0]
    for c in prange(nchunks):
        ws = np.zeros((nb, NWS))
        lo, hi = _chunk(c, nchunks, Q.shape[0])
        for s in range(lo, hi):
            calc_forward_kinematics(ip, fp, ws, Q[s], X_WB[s])


@kernel(parallel=True)
def rnea_batch(ip, fp, Q, V, VD, I10, g, TAU, nchunks, M_added=None):
    """Inverse dynamics for each state: (N, nq), (N, nv), (N, nv) -> TAU (N, nv)."""
    nb = ip.shape[0]
    fext = np.zeros((nb, 6))
    for c in prange(nchunks):
        ws = np.zeros((nb, NWS))
        lo, hi = _chunk(c, nchunks, Q.shape[0])
        for s in range(lo, hi):
            i = s if I10.shape[0] > 1 else 0
            calc_inverse_dynamics_with_added_mass(ip, fp, ws, Q[s], V[s], VD[s], I10[i], g, fext,
                                             False, TAU[s], M_added)


@kernel(parallel=True)
def crba_batch(ip, fp, Q, I10, M, nchunks, M_added=None):
    """Mass matrix for each state: Q (N, nq) -> M (N, nv, nv)."""
    nb = ip.shape[0]
    for c in prange(nchunks):
        ws = np.zeros((nb, NWS))
        lo, hi = _chunk(c, nchunks, Q.shape[0])
        for s in range(lo, hi):
            i = s if I10.shape[0] > 1 else 0
            calc_mass_matrix_with_added_mass(ip, fp, ws, Q[s], I10[i], M[s], M_added)


@kernel(parallel=True)
def aba_batch(ip, fp, Q, V, TAU, I10, g, VD, nchunks, M_added=None):
    """Forward dynamics for each state: (N, nq), (N, nv), (N, nv) -> VD (N, nv)."""
    nb = ip.shape[0]
    fext = np.zeros((nb, 6))
    for c in prange(nchunks):
        ws = np.zeros((nb, NWS))
        lo, hi = _chunk(c, nchunks, Q.shape[0])
        for s in range(lo, hi):
            i = s if I10.shape[0] > 1 else 0
            calc_forward_dynamics_with_added_mass(ip, fp, ws, Q[s], V[s], TAU[s], I10[i], g, fext,
                                             False, VD[s], M_added)
