"""The ``lcp`` approximation: velocity-level time stepping with a polyhedral friction cone
(Stewart & Trinkle 1996, Anitescu & Potra 1997), as a linear complementarity problem.

With W = J M⁻¹ Jᵀ and the free velocities b = J v*, each contact i has the normal
impulse λᵢ, friction impulses βᵢ ≥ 0 along nd = 4 unit tangent directions dⱼ (the first
along the current slip, so that sliding friction is exact) and a slack sᵢ:

    0 ≤ λᵢ ⊥ vnᵢ - v̂ᵢ + Rnᵢ λᵢ ≥ 0
    0 ≤ βᵢ ⊥ Dᵢ vtᵢ + Rtᵢ βᵢ + sᵢ e ≥ 0
    0 ≤ sᵢ ⊥ μᵢ λᵢ - eᵀ βᵢ ≥ 0

with vc = b + W γ and γᵢ = [Dᵢᵀ βᵢ; λᵢ]. The compliance Rn = 1/(h k (h + τ)) and the bias
v̂ = -φ₀/(h + τ) are those of SAP, so a resting contact penetrates by its weight over
k like the other solvers and an impact is inelastic (restitution zero). The slack rows
get a tiny diagonal ε = 10⁻⁶/w̄ (w̄ the mean Delassus diagonal): the matrix is then
strictly copositive, for which Lemke's method always ends with a solution (without it,
degenerate contact sets can end on a secondary ray); the friction bound becomes
μ λ + ε s with s the sliding speed, a relative change of about 10⁻⁴ for a 1 kg body
sliding at 1 m/s. Bilateral constraint rows are eliminated
first (Schur complement). The LCP is solved by Lemke's complementary pivoting or by a
Fischer-Burmeister semismooth Newton method.

References
----------
D. E. Stewart, J. C. Trinkle, "An implicit time-stepping scheme for rigid body dynamics
with inelastic collisions and Coulomb friction", IJNME 39, 1996.
M. Anitescu, F. A. Potra, "Formulating dynamic multi-rigid-body contact problems with
friction as solvable linear complementarity problems", Nonlinear Dynamics 14, 1997.
C. E. Lemke, "Bimatrix equilibrium points and mathematical programming", 1965.
"""

import math

import numpy as np

from merganser.framework.compilation import kernel

__all__ = ["lcp_solve", "lemke", "fischer_burmeister"]

ND = 4
SIGMA = 1.0e-3
NEAR_RIGID = 1.0 / (4.0 * math.pi ** 2)
SIGMA_BILATERAL = 1.0e-6
EPS_SLACK = 1.0e-6


@kernel(allocates=True, inline=False)
def lemke(A, q, z, max_pivots):
    """Solve w = A z + q, w ≥ 0, z ≥ 0, wᵀz = 0 by Lemke's method (covering vector 1).

    Returns the number of pivots, or -1 on ray termination / pivot limit.
    """
    n = q.shape[0]
    for i in range(n):
        z[i] = 0.0
    qmin = 0.0
    r = -1
    for i in range(n):
        if q[i] < qmin:
            qmin = q[i]
            r = i
    if r < 0:
        return 0
    # tableau columns: w (0..n-1), z (n..2n-1), z0 (2n), rhs (2n+1)
    T = np.zeros((n, 2 * n + 2))
    for i in range(n):
        T[i, i] = 1.0
        for j in range(n):
            T[i, n + j] = -A[i, j]
        T[i, 2 * n] = -1.0
        T[i, 2 * n + 1] = q[i]
    basis = np.empty(n, np.int64)
    for i in range(n):
        basis[i] = i
    entering = 2 * n
    tol = 1e-12
    for it in range(max_pivots):
        # pivot on (r, entering)
        piv = T[r, entering]
        for c in range(2 * n + 2):
            T[r, c] /= piv
        for i in range(n):
            if i != r:
                f = T[i, entering]
                if f != 0.0:
                    for c in range(2 * n + 2):
                        T[i, c] -= f * T[r, c]
        leaving = basis[r]
        basis[r] = entering
        if leaving == 2 * n:
            for i in range(n):
                if basis[i] >= n and basis[i] < 2 * n:
                    z[basis[i] - n] = T[i, 2 * n + 1]
            return it + 1
        entering = leaving + n if leaving < n else leaving - n
        # ratio test (pivot entries below a tolerance relative to the column are zeros)
        cmax = 0.0
        for i in range(n):
            cmax = max(cmax, abs(T[i, entering]))
        ctol = max(tol, 1e-11 * cmax)
        r = -1
        best = np.inf
        for i in range(n):
            col = T[i, entering]
            if col > ctol:
                ratio = T[i, 2 * n + 1] / col
                if ratio < best - 1e-14 or (ratio <= best + 1e-14 and basis[i] == 2 * n):
                    best = ratio
                    r = i
        if r < 0:
            return -1
    return -1


@kernel(allocates=True, inline=False)
def fischer_burmeister(A, q, z, max_iterations, tolerance):
    """Semismooth Newton on Φ(z)ᵢ = zᵢ + wᵢ - sqrt(zᵢ² + wᵢ²), w = A z + q, with an
    Armijo line search on ½‖Φ‖². Returns iterations (-1 if not converged)."""
    n = q.shape[0]
    w = np.empty(n)
    phi = np.empty(n)
    Jm = np.empty((n, n))
    dz = np.empty(n)
    zt = np.empty(n)
    for i in range(n):
        z[i] = max(0.0, -q[i] / A[i, i]) if A[i, i] > 0.0 else 0.0
    scale = 1.0
    for i in range(n):
        scale = max(scale, abs(q[i]))
    for it in range(max_iterations):
        merit = 0.0
        for i in range(n):
            s = q[i]
            for j in range(n):
                s += A[i, j] * z[j]
            w[i] = s
            phi[i] = z[i] + s - math.sqrt(z[i] * z[i] + s * s)
            merit += phi[i] * phi[i]
        err = 0.0
        for i in range(n):
            err = max(err, abs(phi[i]))
        if err <= tolerance * scale:
            return it
        for i in range(n):
            r = math.sqrt(z[i] * z[i] + w[i] * w[i])
            if r > 1e-14:
                a, b = 1.0 - z[i] / r, 1.0 - w[i] / r
            else:
                a, b = 1.0 - 1.0 / math.sqrt(2.0), 1.0 - 1.0 / math.sqrt(2.0)
            for j in range(n):
                Jm[i, j] = b * A[i, j]
            Jm[i, i] += a
            dz[i] = -phi[i]
        # Gaussian elimination with partial pivoting
        for c in range(n):
            p = c
            for rr in range(c + 1, n):
                if abs(Jm[rr, c]) > abs(Jm[p, c]):
                    p = rr
            if Jm[p, c] == 0.0:
                return -1
            if p != c:
                for k in range(n):
                    Jm[c, k], Jm[p, k] = Jm[p, k], Jm[c, k]
                dz[c], dz[p] = dz[p], dz[c]
            for rr in range(c + 1, n):
                f = Jm[rr, c] / Jm[c, c]
                if f != 0.0:
                    for k in range(c, n):
                        Jm[rr, k] -= f * Jm[c, k]
                    dz[rr] -= f * dz[c]
        for rr in range(n - 1, -1, -1):
            s = dz[rr]
            for k in range(rr + 1, n):
                s -= Jm[rr, k] * dz[k]
            dz[rr] = s / Jm[rr, rr]
        t = 1.0
        for _ in range(40):
            m2 = 0.0
            for i in range(n):
                zt[i] = z[i] + t * dz[i]
            for i in range(n):
                s = q[i]
                for j in range(n):
                    s += A[i, j] * zt[j]
                f = zt[i] + s - math.sqrt(zt[i] * zt[i] + s * s)
                m2 += f * f
            if m2 <= (1.0 - 1e-4 * t) * merit:
                break
            t *= 0.5
        for i in range(n):
            z[i] = zt[i]
    return -1


@kernel(allocates=True, inline=False)
def assemble_lcp(Wc, bc, Dirs, Rn, Rt, vhat, mu, eps_s, A, q):
    """The LCP (A, q) of the module docstring from the (bilateral-reduced) Delassus Wc
    (3nc, 3nc) and free velocities bc (3nc), without forming the (λ, β) -> γ map."""
    nc = Dirs.shape[0]
    nd = Dirs.shape[1]
    nz = nc * (1 + nd)
    n = A.shape[0]
    for i in range(n):
        q[i] = 0.0
        for j in range(n):
            A[i, j] = 0.0
    for i in range(nc):
        bi = nc + nd * i
        q[i] = bc[3 * i + 2] - vhat[i]
        for k in range(nd):
            q[bi + k] = Dirs[i, k, 0] * bc[3 * i] + Dirs[i, k, 1] * bc[3 * i + 1]
        for j in range(nc):
            bj = nc + nd * j
            A[i, j] = Wc[3 * i + 2, 3 * j + 2]
            for l in range(nd):
                s = Wc[3 * i + 2, 3 * j] * Dirs[j, l, 0] + Wc[3 * i + 2, 3 * j + 1] * Dirs[j, l, 1]
                A[i, bj + l] = s
                t = Wc[3 * j, 3 * i + 2] * Dirs[j, l, 0] + Wc[3 * j + 1, 3 * i + 2] * Dirs[j, l, 1]
                A[bj + l, i] = t
            for k in range(nd):
                d0, d1 = Dirs[i, k, 0], Dirs[i, k, 1]
                for l in range(nd):
                    e0, e1 = Dirs[j, l, 0], Dirs[j, l, 1]
                    A[bi + k, bj + l] = (d0 * (Wc[3 * i, 3 * j] * e0 + Wc[3 * i, 3 * j + 1] * e1)
                                         + d1 * (Wc[3 * i + 1, 3 * j] * e0
                                                 + Wc[3 * i + 1, 3 * j + 1] * e1))
        A[i, i] += Rn[i]
        s_idx = nz + i
        A[s_idx, i] = mu[i]
        A[s_idx, s_idx] = eps_s
        for k in range(nd):
            A[bi + k, bi + k] += Rt[i]
            A[bi + k, s_idx] = 1.0
            A[s_idx, bi + k] = -1.0


@kernel(allocates=True, inline=False)
def impulses_from_lcp(z, Dirs, gamma):
    """γ (3nc) from the LCP solution z = [λ, β, s]."""
    nc = Dirs.shape[0]
    nd = Dirs.shape[1]
    for i in range(nc):
        g0, g1 = 0.0, 0.0
        for k in range(nd):
            b = z[nc + nd * i + k]
            g0 += b * Dirs[i, k, 0]
            g1 += b * Dirs[i, k, 1]
        gamma[3 * i], gamma[3 * i + 1], gamma[3 * i + 2] = g0, g1, z[i]


def _directions(vt0, vs):
    """(nc, ND, 2) unit tangent directions, the first along the current slip."""
    theta0 = np.where(np.hypot(vt0[:, 0], vt0[:, 1]) > vs,
                      np.arctan2(vt0[:, 1], vt0[:, 0]), 0.0)
    theta = theta0[:, None] + 2.0 * np.pi * np.arange(ND)[None, :] / ND
    return np.ascontiguousarray(np.stack([np.cos(theta), np.sin(theta)], axis=-1))


def _warm_start(A, q, z_prev, tol=1e-10):
    """Try the complementary basis where the previous solution z_prev was positive: solve
    A_SS z_S = -q_S and accept it if z_S >= 0 and w_N >= 0 (then it solves the LCP).
    Returns z or None."""
    S = z_prev > 0.0
    z = np.zeros_like(q)
    if S.any():
        try:
            z[S] = np.linalg.solve(A[np.ix_(S, S)], -q[S])
        except np.linalg.LinAlgError:
            return None
    w = A @ z + q
    scale = tol * max(1.0, float(np.max(np.abs(q))))
    if np.all(z[S] >= -scale) and np.all(w[~S] >= -scale):
        np.maximum(z, 0.0, out=z)
        return z
    return None


def lcp_solve(p, v, gamma_out, vc_out, method="lemke", warm=None):
    """Solve the step of `p` (a DiscreteProblem) as an LCP; writes v, gamma and vc.

    `warm` (a dict kept by the caller between steps, with ``"key"``, identifying the
    contact set, and ``"z"``) lets a step whose active set did not change be solved by
    one linear solve (`_warm_start`); Lemke (or the semismooth method) runs otherwise.

    Returns (iterations, residual); iterations < 0 when the LCP solver failed.
    """
    nc, m, h = p.nc, p.m, p.h
    J = p.J
    L = np.linalg.cholesky(p.M)
    MinvJt = np.linalg.solve(L.T, np.linalg.solve(L, J.T))
    W = J @ MinvJt
    b = J @ p.v_star
    c3 = 3 * nc
    # eliminate the bilateral rows
    if m:
        wh = np.maximum(np.diag(W)[c3:], 1e-12)
        rigid = ~np.isfinite(p.stiffness)
        tau = np.where(rigid, 0.0, p.damping / np.where(rigid, 1.0, p.stiffness))
        Rh = np.where(rigid, SIGMA_BILATERAL * wh,
                      1.0 / (h * np.where(rigid, 1.0, p.stiffness) * (h + tau)))
        vhat_h = -p.g / (h + tau)
        S = W[c3:, c3:] + np.diag(Rh)
        SinvWhc = np.linalg.solve(S, W[c3:, :c3])
        Sinvr = np.linalg.solve(S, vhat_h - b[c3:])
        Wc = W[:c3, :c3] - W[:c3, c3:] @ SinvWhc
        bc = b[:c3] + W[:c3, c3:] @ Sinvr
    else:
        Wc, bc = W, b
    iterations, residual = 0, 0.0
    gamma_c = np.zeros(c3)
    if nc:
        w3 = np.diag(Wc).reshape(nc, 3)
        w_rms = np.linalg.norm(w3, axis=1) / math.sqrt(3.0)
        wt = np.maximum(0.5 * (w3[:, 0] + w3[:, 1]), w_rms)
        wn = np.maximum(w3[:, 2], 1e-6 * w_rms)
        Rn = np.maximum(NEAR_RIGID * wn, 1.0 / (h * p.k * (h + p.tau)))
        Rt = SIGMA * wt
        vhat = -p.phi0 / (h + p.tau)
        vt0 = (J[:c3] @ p.v0).reshape(nc, 3)[:, :2]
        Dirs = _directions(vt0, p.vs)
        n = nc * (2 + ND)
        A = np.empty((n, n))
        q = np.empty(n)
        eps_s = EPS_SLACK / max(float(np.mean(w3)), 1e-12)
        assemble_lcp(np.ascontiguousarray(Wc), np.ascontiguousarray(bc), Dirs, Rn, Rt, vhat,
                     np.ascontiguousarray(p.mu), eps_s, A, q)
        z = None
        if warm is not None and warm.get("key") == warm.get("new_key") and \
                warm.get("z") is not None and warm["z"].shape == (n,):
            z = _warm_start(A, q, warm["z"])
            iterations = 1
        if z is not None:
            pass
        elif method == "lemke":
            z = np.zeros(n)
            iterations = lemke(A, q, z, 50 * n + 100)
            if iterations < 0:      # numerical ray termination: the semismooth solver
                iterations = fischer_burmeister(A, q, z, 200, 1e-10)
        else:
            z = np.zeros(n)
            iterations = fischer_burmeister(A, q, z, 200, 1e-10)
        if warm is not None:
            warm["key"], warm["z"] = warm.get("new_key"), z.copy() if iterations >= 0 else None
        if iterations >= 0:
            w = A @ z + q
            residual = float(np.max(np.abs(np.minimum(z, w))))
            impulses_from_lcp(z, Dirs, gamma_c)
        else:
            residual = math.inf
    gamma_out[:c3] = gamma_c
    if m:
        gamma_out[c3:] = Sinvr - SinvWhc @ gamma_c
    if iterations < 0:
        return iterations, residual
    v[:] = p.v_star + MinvJt @ gamma_out
    vc_out[:] = J @ v
    return iterations, residual
