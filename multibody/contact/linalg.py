"""Small dense linear-algebra kernels for the contact solvers (explicit loops, no
allocation): Cholesky factorization and solves, block-sparse products with the
constraint Jacobian."""

import math

from merganser.framework.compilation import kernel


@kernel(inline=False)
def cholesky_inplace(A, n, first):
    """Lower Cholesky factor of the SPD A[:n, :n] in place (upper part untouched).

    Skyline (envelope) factorization: with first[i] the first nonzero column of row i
    of the lower triangle, L keeps that envelope, so the inner products run over
    max(first[i], first[j]) .. j only; block-sparse matrices (bodies coupled by a few
    contacts) factor in a fraction of the dense cost. `first` (>= n,) int64 is work.

    Returns False if A is not (numerically) positive definite.
    """
    for i in range(n):
        f = i
        for k in range(i):
            if A[i, k] != 0.0:
                f = k
                break
        first[i] = f
    for j in range(n):
        s = A[j, j]
        for k in range(first[j], j):
            s -= A[j, k] * A[j, k]
        if not s > 0.0:
            return False
        ljj = math.sqrt(s)
        A[j, j] = ljj
        for i in range(j + 1, n):
            if first[i] > j:
                continue
            s = A[i, j]
            for k in range(max(first[i], first[j]), j):
                s -= A[i, k] * A[j, k]
            A[i, j] = s / ljj
    return True


@kernel(inline=False)
def cholesky_solve(L, n, b):
    """Solve (L Lᵀ) x = b in place (b (n,)); L from `cholesky_inplace` (entries outside
    the envelope are zero, so the dense loops are exact)."""
    for i in range(n):
        s = b[i]
        for k in range(i):
            s -= L[i, k] * b[k]
        b[i] = s / L[i, i]
    for i in range(n - 1, -1, -1):
        s = b[i]
        for k in range(i + 1, n):
            s -= L[k, i] * b[k]
        b[i] = s / L[i, i]


@kernel(inline=False)
def block_columns(J, nc, nh, cols, ncols):
    """Nonzero columns of each constraint block (contact i: rows 3i..3i+2; holonomic j:
    row 3nc+j) into cols[b, :ncols[b]]."""
    nv = J.shape[1]
    for b in range(nc + nh):
        r0 = 3 * b if b < nc else 3 * nc + (b - nc)
        nr = 3 if b < nc else 1
        k = 0
        for c in range(nv):
            nz = False
            for r in range(nr):
                if J[r0 + r, c] != 0.0:
                    nz = True
            if nz:
                cols[b, k] = c
                k += 1
        ncols[b] = k


@kernel(inline=False)
def sparse_matvec(J, nc, nh, cols, ncols, v, out):
    """out = J v using the block column lists."""
    for b in range(nc + nh):
        r0 = 3 * b if b < nc else 3 * nc + (b - nc)
        nr = 3 if b < nc else 1
        for r in range(nr):
            s = 0.0
            for k in range(ncols[b]):
                c = cols[b, k]
                s += J[r0 + r, c] * v[c]
            out[r0 + r] = s


@kernel(inline=False)
def sparse_matvec_transpose(J, nc, nh, cols, ncols, g, out):
    """out = Jᵀ g using the block column lists."""
    for c in range(J.shape[1]):
        out[c] = 0.0
    for b in range(nc + nh):
        r0 = 3 * b if b < nc else 3 * nc + (b - nc)
        nr = 3 if b < nc else 1
        for k in range(ncols[b]):
            c = cols[b, k]
            s = 0.0
            for r in range(nr):
                s += J[r0 + r, c] * g[r0 + r]
            out[c] += s


@kernel(inline=False)
def delassus_diagonal_estimate(J, Minv_diag, nc, nh, cols, ncols, w):
    """w[r] ≈ (J M⁻¹ Jᵀ)[r, r] with M approximated by its diagonal."""
    for b in range(nc + nh):
        r0 = 3 * b if b < nc else 3 * nc + (b - nc)
        nr = 3 if b < nc else 1
        for r in range(nr):
            s = 0.0
            for k in range(ncols[b]):
                c = cols[b, k]
                s += J[r0 + r, c] * J[r0 + r, c] * Minv_diag[c]
            w[r0 + r] = s


@kernel(inline=False)
def momentum_residual(Mr, jg, D, res, nv):
    """res = Mr − jg and its scaled norms (the convergence test of the Newton solvers).

    Parameters
    ----------
    Mr : ndarray, shape (nv,)
        M (v − v*).
    jg : ndarray, shape (nv,)
        Jᵀ γ, the generalized contact impulse.
    D : ndarray, shape (nv,)
        Diagonal scaling (e.g. 1/sqrt(diag M)).
    res : ndarray, shape (>= nv,)
        Output residual (also the gradient of the SAP cost).
    nv : int
        Number of generalized velocities.

    Returns
    -------
    (float, float)
        ‖D res‖ and the scale max(‖D Mr‖, ‖D jg‖).
    """
    e2, m2, j2 = 0.0, 0.0, 0.0
    for a in range(nv):
        res[a] = Mr[a] - jg[a]
        e2 += (D[a] * res[a]) ** 2
        m2 += (D[a] * Mr[a]) ** 2
        j2 += (D[a] * jg[a]) ** 2
    return math.sqrt(e2), math.sqrt(max(m2, j2))

