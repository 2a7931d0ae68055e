"""Batched methods of the `TreeDynamics` facade (N states at once, parallel over cores)."""

from __future__ import annotations

import numpy as np

from merganser.framework.compilation import get_num_threads, parallel_chunksize
from merganser.multibody.kernels.batch import aba_batch, crba_batch, fk_batch, rnea_batch

__all__ = ["BatchDynamicsMixin"]


class BatchDynamicsMixin:
    """Mixin of `TreeDynamics`: batch kinematics and dynamics.

    Each method returns a new array. Inertial parameters are (nb, 10) (shared by all
    states) or (N, nb, 10) (one set per state); the optional added-mass spatial inertia
    ``M_added`` (nb, 6, 6) is shared by all states (None: the object's default). The states are split into chunks of
    contiguous states, 16 per numba thread, handed out dynamically (a thread that
    finishes early takes the next chunk); the result does not depend on the number of
    threads.
    """

    def _chunks(self):
        return 16 * get_num_threads()

    def fk_batch(self, Q):
        """Poses of all bodies for N states: Q (N, nq) -> X_WB (N, nb, 4, 4)."""
        Q, = self._batch("fk_batch", Q=Q)
        X = np.empty((Q.shape[0], self.nb, 4, 4))
        with parallel_chunksize(1):
            fk_batch(self._ip, self._fp, Q, X, self._chunks())
        return X

    def rnea_batch(self, Q, V, VD, I10, g, M_added=None):
        """Inverse dynamics for N states: (N, nq), (N, nv), (N, nv) -> TAU (N, nv)."""
        Q, V, VD = self._batch("rnea_batch", Q=Q, V=V, VD=VD)
        I10 = self._batch_inertia("rnea_batch", I10, Q.shape[0])
        g, = self._coerce("rnea_batch", g=g)
        E = self._added_mass_arg("rnea_batch", M_added)
        TAU = np.empty((Q.shape[0], self.nv))
        with parallel_chunksize(1):
            rnea_batch(self._ip, self._fp, Q, V, VD, I10, g, TAU, self._chunks(), E)
        return TAU

    def aba_batch(self, Q, V, TAU, I10, g, M_added=None):
        """Forward dynamics for N states: (N, nq), (N, nv), (N, nv) -> VD (N, nv)."""
        Q, V, TAU = self._batch("aba_batch", Q=Q, V=V, TAU=TAU)
        I10 = self._batch_inertia("aba_batch", I10, Q.shape[0])
        g, = self._coerce("aba_batch", g=g)
        E = self._added_mass_arg("aba_batch", M_added)
        VD = np.empty((Q.shape[0], self.nv))
        with parallel_chunksize(1):
            aba_batch(self._ip, self._fp, Q, V, TAU, I10, g, VD, self._chunks(), E)
        return VD

    def crba_batch(self, Q, I10, M_added=None):
        """Mass matrices for N states: Q (N, nq) -> M (N, nv, nv)."""
        Q, = self._batch("crba_batch", Q=Q)
        I10 = self._batch_inertia("crba_batch", I10, Q.shape[0])
        E = self._added_mass_arg("crba_batch", M_added)
        M = np.empty((Q.shape[0], self.nv, self.nv))
        with parallel_chunksize(1):
            crba_batch(self._ip, self._fp, Q, I10, M, self._chunks(), E)
        return M
