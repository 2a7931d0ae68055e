"""Solver kernels on small problems with known answers: the complementarity solvers
(Lemke, Fischer-Burmeister), the LCP assembly against its dense definition, and the SAP
cone projection's regimes."""

import numpy as np
import pytest

from merganser.multibody.contact.lcp import ND, _directions, assemble_lcp, fischer_burmeister, lemke
from merganser.multibody.contact.sap import _sap_contact


def random_lcp(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n))
    return X @ X.T + 0.1 * np.eye(n), rng.normal(size=n)


@pytest.mark.parametrize("seed", range(5))
def test_lemke_and_fischer_burmeister_solve_the_same_lcp(seed):
    A, q = random_lcp(12, seed)
    z1, z2 = np.zeros(12), np.zeros(12)
    assert lemke(A, q, z1, 1000) >= 0
    assert fischer_burmeister(A, q, z2, 100, 1e-12) >= 0
    for z in (z1, z2):
        w = A @ z + q
        assert z.min() >= -1e-10 and w.min() >= -1e-10
        assert np.abs(z * w).max() < 1e-10
    np.testing.assert_allclose(z1, z2, atol=1e-8)      # unique solution (A is PD)


def test_lemke_returns_zero_for_a_feasible_origin():
    A, q = random_lcp(4, 0)
    z = np.ones(4)
    assert lemke(A, np.abs(q), z, 100) == 0 and not z.any()


def test_lcp_assembly_matches_the_dense_definition():
    rng = np.random.default_rng(3)
    nc = 3
    X = rng.normal(size=(3 * nc, 8))
    W, b = X @ X.T, rng.normal(size=3 * nc)
    dirs = _directions(rng.normal(size=(nc, 2)), 1e-4)
    Rn, Rt = rng.uniform(0.1, 1, nc), rng.uniform(0.01, 0.1, nc)
    vhat, mu = rng.uniform(0, 1, nc), rng.uniform(0.2, 1, nc)
    n = nc * (2 + ND)
    A, q = np.empty((n, n)), np.empty(n)
    assemble_lcp(W, b, dirs, Rn, Rt, vhat, mu, 1e-6, A, q)
    nz = nc * (1 + ND)
    P = np.zeros((3 * nc, nz))                  # (λ, β) -> γ
    for i in range(nc):
        P[3 * i + 2, i] = 1.0
        P[3 * i:3 * i + 2, nc + ND * i:nc + ND * (i + 1)] = dirs[i].T
    ref = np.zeros((n, n))
    ref[:nz, :nz] = P.T @ W @ P + np.diag(np.concatenate([Rn, np.repeat(Rt, ND)]))
    for i in range(nc):
        rows = slice(nc + ND * i, nc + ND * (i + 1))
        ref[rows, nz + i] = 1.0
        ref[nz + i, i] = mu[i]
        ref[nz + i, rows] = -1.0
        ref[nz + i, nz + i] = 1e-6
    np.testing.assert_allclose(A, ref, atol=1e-12)
    np.testing.assert_allclose(q[:nz], P.T @ b - np.concatenate([vhat, np.zeros(nz - nc)]))
    np.testing.assert_allclose(dirs[0, 0], -dirs[0, 2])   # opposite directions included


@pytest.mark.parametrize("vc, regime", [
    ((1e-6, 0.0, -0.01), "stiction"), ((0.5, 0.0, 0.0), "sliding"), ((0.0, 0.0, 1.0), "none")])
def test_sap_cone_projection_regimes(vc, regime):
    mu, Rt, Rn, vhat = 0.5, 1e-3, 1e-1, 0.0
    g, G = np.zeros(3), np.zeros((3, 3))
    _sap_contact(vc[0], vc[1], vc[2], mu, Rt, Rn, vhat, g, G, True)
    if regime == "stiction":
        np.testing.assert_allclose(g, [-vc[0] / Rt, 0.0, (vhat - vc[2]) / Rn])
        np.testing.assert_allclose(G, np.diag([1 / Rt, 1 / Rt, 1 / Rn]))
    elif regime == "sliding":
        assert np.hypot(g[0], g[1]) == pytest.approx(mu * g[2])     # on the cone
        assert g[0] < 0 and g[2] > 0                                 # opposes the slip
        np.testing.assert_allclose(G, G.T, atol=1e-9)
        # G = -dγ/dvc, checked by finite differences
        for j in range(3):
            e = np.zeros(3)
            e[j] = 1e-7
            gp, gm = np.zeros(3), np.zeros(3)
            _sap_contact(*(np.array(vc) + e), mu, Rt, Rn, vhat, gp, np.zeros((3, 3)), False)
            _sap_contact(*(np.array(vc) - e), mu, Rt, Rn, vhat, gm, np.zeros((3, 3)), False)
            np.testing.assert_allclose(-(gp - gm) / 2e-7, G[:, j], rtol=1e-5, atol=1e-3)
    else:
        assert not g.any() and not G.any()
