"""Batched (parallel) kernels agree with the single-state facade calls."""

import numpy as np
import pytest

from merganser.multibody.kernels import DynamicsArgumentError, TreeDynamics
from merganser.multibody.tree.random_tree import random_state, random_tree

G = np.array([0.0, 0.0, -9.81])
N = 37   # not a multiple of the number of chunks


@pytest.fixture(params=[False, True], ids=["fixed", "floating"])
def batch(request):
    model = random_tree(9, seed=4, floating_base=request.param)
    td = TreeDynamics(model)
    rng = np.random.default_rng(1)
    states = [random_state(model, rng) for _ in range(N)]
    Q = np.stack([s[0] for s in states])
    V = np.stack([s[1] for s in states])
    A = rng.normal(size=(N, model.nv))
    return model, td, Q, V, A


def test_rnea_batch_matches_single_calls(batch):
    model, td, Q, V, A = batch
    I10 = model.default_inertia
    TAU = td.rnea_batch(Q, V, A, I10, G)
    assert TAU.shape == (N, model.nv)
    for s in range(N):
        np.testing.assert_allclose(TAU[s], td.inverse_dynamics(Q[s], V[s], A[s], I10, G),
                                   rtol=0, atol=1e-12)


def test_aba_batch_inverts_rnea_batch(batch):
    model, td, Q, V, A = batch
    I10 = model.default_inertia
    TAU = td.rnea_batch(Q, V, A, I10, G)
    np.testing.assert_allclose(td.aba_batch(Q, V, TAU, I10, G), A, atol=1e-10)
    s = N // 2
    np.testing.assert_allclose(td.aba_batch(Q, V, TAU, I10, G)[s],
                               td.forward_dynamics(Q[s], V[s], TAU[s], I10, G), atol=1e-13)


def test_crba_batch_matches_single_calls(batch):
    model, td, Q, _, _ = batch
    M = td.crba_batch(Q, model.default_inertia)
    assert M.shape == (N, model.nv, model.nv)
    for s in (0, N - 1):
        np.testing.assert_allclose(M[s], td.mass_matrix(Q[s], model.default_inertia),
                                   atol=1e-13)


def test_fk_batch_matches_single_calls(batch):
    model, td, Q, _, _ = batch
    X = td.fk_batch(Q)
    assert X.shape == (N, model.nb, 4, 4)
    for s in (0, 5, N - 1):
        np.testing.assert_allclose(X[s], td.forward_kinematics(Q[s]), atol=1e-15)


def test_batch_accepts_one_inertia_set_per_state(batch):
    model, td, Q, V, A = batch
    scale = np.linspace(0.5, 2.0, N)[:, None, None]
    I10s = model.default_inertia[None] * scale
    TAU = td.rnea_batch(Q, V, A, I10s, G)
    M = td.crba_batch(Q, I10s)
    for s in (0, N - 1):
        np.testing.assert_allclose(TAU[s], td.inverse_dynamics(Q[s], V[s], A[s], I10s[s], G),
                                   atol=1e-12)
        expected = scale[s, 0, 0] * td.mass_matrix(Q[s], model.default_inertia)
        np.testing.assert_allclose(M[s], expected, atol=1e-12)
    np.testing.assert_allclose(td.aba_batch(Q, V, TAU, I10s, G), A, atol=1e-10)


def test_batch_rejects_mismatched_shapes(batch):
    model, td, Q, V, A = batch
    with pytest.raises(DynamicsArgumentError, match=r"rnea_batch: V has shape"):
        td.rnea_batch(Q, V[:-1], A, model.default_inertia, G)
    with pytest.raises(DynamicsArgumentError, match=r"fk_batch: Q has shape"):
        td.fk_batch(Q[:, :-1])
    with pytest.raises(DynamicsArgumentError, match=r"crba_batch: I10 has shape"):
        td.crba_batch(Q, np.zeros((2, model.nb, 10)))


def test_empty_batch_returns_empty_results(batch):
    model, td, Q, V, A = batch
    assert td.rnea_batch(Q[:0], V[:0], A[:0], model.default_inertia, G).shape == (0, model.nv)
