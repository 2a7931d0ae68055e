"""The SAP solver: the convex formulation of compliant contact of Castro et al. (2022),
and its Hunt & Crossley variants "similar" and "lagged" (Castro et al., 2023).

The next velocities minimize the strictly convex

    ℓ(v) = ½ ‖v - v*‖²_M + Σᵢ ℓᵢ(vcᵢ),      vc = J v,

whose gradient is M (v - v*) - Jᵀ γ(vc), γ the constraint impulses. Newton's method with
an exact line search (on dℓ/dα along the Newton direction, safeguarded Newton-bisection)
solves it. Per contact (vc = [vt; vn] in the contact frame, vn > 0 separating):

- ``sap``: linear compliance with Kelvin-Voigt dissipation. With R = diag(Rt, Rt, Rn) and
  the bias v̂ = [0, 0, -φ₀/(h + τ)], y = R⁻¹(v̂ - vc) and γ = P(y), the projection onto
  the friction cone in the R norm (stiction, sliding or no contact); Rn = max(β²/(4π²) w,
  1/(h k (h + τ))) (the near-rigid bound, β = 1) and Rt = σ w (σ = 10⁻³), w the
  Delassus diagonal estimate.
- ``similar`` / ``lagged``: Hunt & Crossley compliance, γn = n(z) with
  n(z) = h (f₀ - h k z)₊ (1 - d z)₊, f₀ = k x₀ (x₀ the penetration), and friction
  γt = -μ γ_f t̂ₛ with the soft unit tangent t̂ₛ = vt / sqrt(‖vt‖² + ε²). "similar" uses
  z = vn - μ‖vt‖ₛ and γ_f = n(z) (a convex cost in vc); "lagged" uses z = vn and the
  previous-step impulse γ_f = n₀ in Coulomb's bound. ε = max(vs, μ Rt n₀).

Bilateral (holonomic) rows have γ = (v̂ - vc)/R, unbounded; the last nl of the nh rows are
unilateral (joint limits): γ = max(0, (v̂ - vc)/R), with Hessian block 1/R where γ > 0.

References
----------
A. M. Castro, F. N. Permenter, X. Han, "An unconstrained convex formulation of compliant
contact", IEEE Transactions on Robotics 39(2), 2022.
A. M. Castro, X. Han, J. Masterjohn, "A theory of irrotational contact fields", 2023.
"""

import math

import numpy as np

from merganser.framework.compilation import kernel
from merganser.multibody.contact.linalg import (
    block_columns, cholesky_inplace, cholesky_solve, momentum_residual, sparse_matvec,
    sparse_matvec_transpose,
)

SAP, SIMILAR, LAGGED = 0, 1, 2


@kernel
def _sap_contact(vt0, vt1, vn, mu, Rt, Rn, vhat, g, G, need_G):
    """SAP cone projection: impulse g (3,) and G = -dγ/dvc (3, 3)."""
    y0, y1, yn = -vt0 / Rt, -vt1 / Rt, (vhat - vn) / Rn
    yr = math.sqrt(y0 * y0 + y1 * y1)
    mu_hat = mu * Rt / Rn
    if yr <= mu * yn:                       # stiction
        g[0], g[1], g[2] = y0, y1, yn
        if need_G:
            for a in range(3):
                for b in range(3):
                    G[a, b] = 0.0
            G[0, 0], G[1, 1], G[2, 2] = 1.0 / Rt, 1.0 / Rt, 1.0 / Rn
        return
    if -mu_hat * yr < yn:                   # sliding (yr > 0 here)
        t0, t1 = y0 / yr, y1 / yr
        factor = 1.0 / (1.0 + mu * mu_hat)
        gn = (yn + mu_hat * yr) * factor
        g[0], g[1], g[2] = mu * gn * t0, mu * gn * t1, gn
        if need_G:
            # dP/dy, then times R^-1 on the right
            P00, P01, P11 = t0 * t0, t0 * t1, t1 * t1
            a = mu * gn / yr
            b = mu * mu_hat * factor
            G[0, 0] = (a * (1.0 - P00) + b * P00) / Rt
            G[0, 1] = (a * (-P01) + b * P01) / Rt
            G[1, 0] = G[0, 1]
            G[1, 1] = (a * (1.0 - P11) + b * P11) / Rt
            G[0, 2] = mu * factor * t0 / Rn
            G[1, 2] = mu * factor * t1 / Rn
            G[2, 0] = mu_hat * factor * t0 / Rt
            G[2, 1] = mu_hat * factor * t1 / Rt
            G[2, 2] = factor / Rn
        return
    g[0], g[1], g[2] = 0.0, 0.0, 0.0        # no contact
    if need_G:
        for a in range(3):
            for b in range(3):
                G[a, b] = 0.0


@kernel
def _hc_impulse(h, k, d, fe0, z):
    """n(z) and n'(z) of the discrete Hunt & Crossley impulse."""
    fe = fe0 - h * k * z
    damp = 1.0 - d * z
    if fe <= 0.0 or damp <= 0.0:
        return 0.0, 0.0
    return h * fe * damp, -h * (k * h * damp + d * fe)


@kernel
def _hc_contact(model, vt0, vt1, vn, mu, h, k, d, fe0, n0, eps, g, G, need_G):
    """Similar / lagged impulse g (3,) and G = -dγ/dvc (3, 3)."""
    r = math.sqrt(vt0 * vt0 + vt1 * vt1 + eps * eps)
    s = r - eps
    t0, t1 = vt0 / r, vt1 / r
    z = vn - mu * s if model == SIMILAR else vn
    n, dn = _hc_impulse(h, k, d, fe0, z)
    nf = n if model == SIMILAR else n0
    g[0], g[1], g[2] = -mu * nf * t0, -mu * nf * t1, n
    if not need_G:
        return
    P00, P01, P11 = t0 * t0, t0 * t1, t1 * t1
    c = mu * nf / r
    if model == SIMILAR:
        a = -mu * mu * dn
        G[0, 0] = a * P00 + c * (1.0 - P00)
        G[0, 1] = a * P01 - c * P01
        G[1, 1] = a * P11 + c * (1.0 - P11)
        G[0, 2] = mu * dn * t0
        G[1, 2] = mu * dn * t1
    else:
        G[0, 0] = c * (1.0 - P00)
        G[0, 1] = -c * P01
        G[1, 1] = c * (1.0 - P11)
        G[0, 2] = 0.0
        G[1, 2] = 0.0
    G[1, 0] = G[0, 1]
    G[2, 0] = G[0, 2]
    G[2, 1] = G[1, 2]
    G[2, 2] = -dn


@kernel
def _impulses(model, nc, nh, nl, vc, mu, Rt, Rn, vhat, h, k, d, fe0, n0, eps, Rh, vhath, gamma,
              Gc, Gh, need_G, g):
    """Impulses gamma (3nc + nh) and Hessian blocks Gc (nc, 3, 3), Gh (nh) at vc (the last
    nl of the nh rows unilateral); g (3,) is work."""
    for i in range(nc):
        G = Gc[i]
        if model == SAP:
            _sap_contact(vc[3 * i], vc[3 * i + 1], vc[3 * i + 2], mu[i], Rt[i], Rn[i], vhat[i],
                         g, G, need_G)
        else:
            _hc_contact(model, vc[3 * i], vc[3 * i + 1], vc[3 * i + 2], mu[i], h, k[i], d[i],
                        fe0[i], n0[i], eps[i], g, G, need_G)
        gamma[3 * i], gamma[3 * i + 1], gamma[3 * i + 2] = g[0], g[1], g[2]
    for j in range(nh):
        r = 3 * nc + j
        y = (vhath[j] - vc[r]) / Rh[j]
        if j >= nh - nl and not y > 0.0:        # a unilateral row, inactive
            gamma[r] = 0.0
            Gh[j] = 0.0
        else:
            gamma[r] = y
            Gh[j] = 1.0 / Rh[j]


@kernel(allocates=True, inline=False)
def sap_work(nv, nrows, nblocks):
    """The work arrays of `sap_solve_in` for nv velocities, `nrows` constraint rows
    (3 nc + nh) and `nblocks` blocks (nc + nh): a tuple (ints, mats, rows, vecs, G, Gh)."""
    nb1, nr1 = max(nblocks, 1), max(nrows, 1)
    ints = np.zeros((nb1 + 4, max(nv, nb1)), np.int64)  # cols (nb1 rows), ncols, P, labels, first
    mats = np.zeros((3, max(nv * nv, nr1 * nv, 1)))    # M_PP, H, J_P (flat)
    rows = np.zeros((3, nr1))                          # J dv, vc(α), γ(α)
    vecs = np.zeros((10, max(nv, 3)))                  # D, r, Mr, jg, grad, dv, Mdv, v*, v, g
    G = np.zeros((2, nb1, 3, 3))                       # Gc, Gc(α)
    Gh = np.zeros((2, nb1))                            # Gh, Gh(α)
    return ints, mats, rows, vecs, G, Gh


@kernel(allocates=True, inline=False)
def sap_solve(model, M, vstar, v, J, nc, nh, nl, mu, Rt, Rn, vhat, h, k, d, fe0, n0, eps, Rh,
              vhath, rel_tol, abs_tol, max_iter, gamma, vc):
    """`sap_solve_in` with work arrays of its own (`sap_work`)."""
    return sap_solve_in(model, M, vstar, v, J, nc, nh, nl, mu, Rt, Rn, vhat, h, k, d, fe0, n0,
                        eps, Rh, vhath, rel_tol, abs_tol, max_iter, gamma, vc,
                        sap_work(M.shape[0], 3 * nc + nh, nc + nh))


@kernel
def participating_velocities(M, J, nr, P, label, part):
    """The velocities of the problem: every velocity coupled through M's nonzero pattern
    (a tree of the plant) to one on which a row of J[:nr] acts, into P in increasing order;
    returns their count. `label` and `part` (nv,) are work (union-find over M's pattern,
    whether a root's tree takes part).

    The cost separates over the other velocities, whose minimizer is v* exactly."""
    nv = M.shape[0]
    for a in range(nv):
        label[a] = a
        part[a] = 0
    for a in range(nv):
        for b in range(a):
            if M[a, b] != 0.0:
                ra, rb = a, b
                while label[ra] != ra:
                    ra = label[ra]
                while label[rb] != rb:
                    rb = label[rb]
                if ra != rb:                 # the smaller index is the root
                    label[max(ra, rb)] = min(ra, rb)
    for a in range(nv):                      # label[a] < a is already its root's
        label[a] = label[label[a]]
    for c in range(nv):
        for r in range(nr):
            if J[r, c] != 0.0:
                part[label[c]] = 1
                break
    n = 0
    for a in range(nv):
        if part[label[a]] == 1:
            P[n] = a
            n += 1
    return n


@kernel
def sap_solve_in(model, M, vstar, v, J, nc, nh, nl, mu, Rt, Rn, vhat, h, k, d, fe0, n0, eps, Rh,
                 vhath, rel_tol, abs_tol, max_iter, gamma, vc, work):
    """Newton with exact line search on ℓ(v) (see the module docstring).

    `v` holds the initial guess and receives the solution; `gamma` and `vc` (3nc + nh)
    receive the impulses and constraint velocities at the solution. Only the velocities
    of the trees the rows act on take part (`participating_velocities`); the others
    get v* exactly. `work` is `sap_work`'s (sizes at least nv, 3nc + nh, nc + nh).

    Returns
    -------
    (iterations, residual)
        iterations < 0 means no convergence within max_iter (residual: the last
        relative gradient norm).
    """
    nva = M.shape[0]
    nb = nc + nh
    nr = 3 * nc + nh
    ints, mats, rows, vecs, G, Gh = work
    nb1 = ints.shape[0] - 4
    P, first = ints[nb1 + 1], ints[nb1 + 3]
    nv = participating_velocities(M, J, nr, P, ints[nb1 + 2], first)
    Mp = mats[0, :nv * nv].reshape((nv, nv))
    H = mats[1, :nv * nv].reshape((nv, nv))
    Jp = mats[2, :nr * nv].reshape((nr, nv))
    D, r, Mr, jg, grad = vecs[0], vecs[1], vecs[2], vecs[3], vecs[4]
    dv, Mdv, vstar_p, v_p, g3 = vecs[5], vecs[6], vecs[7], vecs[8], vecs[9]
    for a in range(nv):
        pa = P[a]
        for b in range(nv):
            Mp[a, b] = M[pa, P[b]]
        for q in range(nr):
            Jp[q, a] = J[q, pa]
        vstar_p[a] = vstar[pa]
        v_p[a] = v[pa]
    for c in range(nva):                     # the velocities that take no part
        v[c] = vstar[c]
    it, residual = _newton(model, Mp, vstar_p, v_p, Jp, nc, nh, nl, mu, Rt, Rn, vhat, h, k, d,
                           fe0, n0, eps, Rh, vhath, rel_tol, abs_tol, max_iter, gamma, vc,
                           ints[:max(nb, 1)], ints[nb1], first, H, rows[0], rows[1], rows[2],
                           D, r, Mr, jg, grad, dv, Mdv, G[0], G[1], Gh[0], Gh[1], g3)
    for a in range(nv):
        v[P[a]] = v_p[a]
    return it, residual


@kernel
def _newton(model, M, vstar, v, J, nc, nh, nl, mu, Rt, Rn, vhat, h, k, d, fe0, n0, eps, Rh, vhath,
            rel_tol, abs_tol, max_iter, gamma, vc, cols, ncols, first, H, Jdv, vca, ga, D, r,
            Mr, jg, grad, dv, Mdv, Gc, Gc2, Gh, Gh2, g3):
    """`sap_solve_in`'s Newton iterations on the participating velocities (M (nv, nv),
    J (3nc + nh, nv)); the arguments after ``vc`` are work."""
    nv = M.shape[0]
    nr = 3 * nc + nh
    block_columns(J, nc, nh, cols, ncols)
    for c in range(nv):
        D[c] = 1.0 / math.sqrt(M[c, c])
    residual = 0.0
    for it in range(max_iter + 1):
        sparse_matvec(J, nc, nh, cols, ncols, v, vc)
        _impulses(model, nc, nh, nl, vc, mu, Rt, Rn, vhat, h, k, d, fe0, n0, eps, Rh, vhath, gamma,
                  Gc, Gh, True, g3)
        for a in range(nv):
            r[a] = v[a] - vstar[a]
        for a in range(nv):
            s = 0.0
            for b in range(nv):
                s += M[a, b] * r[b]
            Mr[a] = s
        sparse_matvec_transpose(J, nc, nh, cols, ncols, gamma, jg)
        err, scale = momentum_residual(Mr, jg, D, grad, nv)
        residual = err / scale if scale > 0.0 else 0.0
        if err <= abs_tol + rel_tol * scale:
            return it, residual
        if it == max_iter:
            break
        # Hessian H = M + Jᵀ G J (block sparse)
        for a in range(nv):
            for b in range(nv):
                H[a, b] = M[a, b]
        for i in range(nc):
            r0 = 3 * i
            nci = ncols[i]
            for p in range(nci):
                ca = cols[i, p]
                # u = G J[:, ca] (3)
                u0 = Gc[i, 0, 0] * J[r0, ca] + Gc[i, 0, 1] * J[r0 + 1, ca] + Gc[i, 0, 2] * J[r0 + 2, ca]
                u1 = Gc[i, 1, 0] * J[r0, ca] + Gc[i, 1, 1] * J[r0 + 1, ca] + Gc[i, 1, 2] * J[r0 + 2, ca]
                u2 = Gc[i, 2, 0] * J[r0, ca] + Gc[i, 2, 1] * J[r0 + 1, ca] + Gc[i, 2, 2] * J[r0 + 2, ca]
                for qq in range(nci):
                    cb = cols[i, qq]
                    H[cb, ca] += J[r0, cb] * u0 + J[r0 + 1, cb] * u1 + J[r0 + 2, cb] * u2
        for j in range(nh):
            row = 3 * nc + j
            b = nc + j
            for p in range(ncols[b]):
                ca = cols[b, p]
                for qq in range(ncols[b]):
                    cb = cols[b, qq]
                    H[cb, ca] += J[row, cb] * Gh[j] * J[row, ca]
        if not cholesky_inplace(H, nv, first):
            return -(it + 1), residual
        for a in range(nv):
            dv[a] = -grad[a]
        cholesky_solve(H, nv, dv)
        # exact line search on f(α) = dℓ/dα
        sparse_matvec(J, nc, nh, cols, ncols, dv, Jdv)
        A2, B1 = 0.0, 0.0
        for a in range(nv):
            s = 0.0
            for b in range(nv):
                s += M[a, b] * dv[b]
            Mdv[a] = s
            A2 += dv[a] * s
            B1 += dv[a] * Mr[a]
        f0 = B1
        for q in range(nr):
            f0 -= Jdv[q] * gamma[q]
        if f0 >= 0.0:
            # not a descent direction (round-off at the solution)
            return it, residual
        alpha_max = 1.5
        lo, hi = 0.0, alpha_max
        alpha = alpha_max
        f, df = _line_derivative(model, alpha, vc, Jdv, A2, B1, nc, nh, nl, mu, Rt, Rn, vhat, h, k,
                                 d, fe0, n0, eps, Rh, vhath, vca, ga, Gc2, Gh2, g3)
        if f > 0.0:
            # Newton-bisection on the bracket [0, α_max]; the first guess minimizes the
            # quadratic model with the curvature at α_max
            alpha = min(-f0 / df, alpha_max) if df > 0.0 else 1.0
            if not 0.0 < alpha < alpha_max:
                alpha = 1.0
            for _ in range(60):
                f, df = _line_derivative(model, alpha, vc, Jdv, A2, B1, nc, nh, nl, mu, Rt, Rn,
                                         vhat, h, k, d, fe0, n0, eps, Rh, vhath, vca, ga, Gc2,
                                         Gh2, g3)
                if abs(f) <= 1e-8 * abs(f0):
                    break
                if f < 0.0:
                    lo = alpha
                else:
                    hi = alpha
                if hi - lo <= 1e-14 * hi:
                    break
                an = alpha - f / df if df > 0.0 else -1.0
                alpha = an if lo < an < hi else 0.5 * (lo + hi)
        step, vmax = 0.0, 0.0
        for a in range(nv):
            v[a] += alpha * dv[a]
            step = max(step, abs(alpha * dv[a]))
            vmax = max(vmax, abs(v[a]))
        if step <= 1e-14 + 1e-12 * vmax:
            # the Newton step stalled at round-off level: v is the solution to precision
            return it + 1, residual
    return -max(max_iter, 1), residual


@kernel
def _line_derivative(model, alpha, vc, Jdv, A2, B1, nc, nh, nl, mu, Rt, Rn, vhat, h, k, d, fe0, n0,
                     eps, Rh, vhath, vca, ga, Gc, Gh, g):
    """dℓ/dα and d²ℓ/dα² along the search direction."""
    nr = 3 * nc + nh
    for q in range(nr):
        vca[q] = vc[q] + alpha * Jdv[q]
    _impulses(model, nc, nh, nl, vca, mu, Rt, Rn, vhat, h, k, d, fe0, n0, eps, Rh, vhath, ga, Gc,
              Gh, True, g)
    f = B1 + alpha * A2
    df = A2
    for q in range(nr):
        f -= Jdv[q] * ga[q]
    for i in range(nc):
        for a in range(3):
            s = 0.0
            for b in range(3):
                s += Gc[i, a, b] * Jdv[3 * i + b]
            df += Jdv[3 * i + a] * s
    for j in range(nh):
        df += Jdv[3 * nc + j] ** 2 * Gh[j]
    return f, df
