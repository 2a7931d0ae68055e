"""Sparse LTDL factorization of the mass matrix, exploiting the tree's branch sparsity.

With the velocities numbered so that every velocity's parent comes before it (the
packed tree's depth-first pre-order: a node's velocities after its ancestors'), M(q)
has ``M[i, j] = 0`` unless one of i, j is an ancestor of the other, and factors as
``M = Lᵀ D L`` with L unit lower triangular of the same sparsity (no fill-in) and D
diagonal. The velocity parents ``λ(i)`` (`velocity_parents`: the previous velocity of
the same joint, else the last velocity of the nearest ancestor with a velocity, -1 at a
root) drive both the factorization and the solves, which visit only the ancestors of
each velocity::

    for k = nv-1 .. 0:                 (factorization, in place)
        i = λ(k)
        while i != -1:
            a = M[k, i] / M[k, k]
            j = i
            while j != -1:  M[i, j] -= a M[k, j];  j = λ(j)
            M[k, i] = a
            i = λ(i)

After it ``D = diag(M)`` and ``L[k, i] = M[k, i]`` (i an ancestor of k). The cost is
the sum over the velocities of their depth squared: a branch (two fingers, a second
tree) costs nothing in the others'.

References
----------
R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008, section 6.5 (tables
6.3 and 6.4).
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.layout import IP_NV, IP_PARENT, IP_VS

__all__ = ["velocity_parents", "ltdl_factor", "ltdl_solve", "solve_with_factor"]


@kernel
def velocity_parents(ip, lam):
    """λ (nv,) int64 of the packed tree (see the module docstring); returns False if a
    velocity's parent would not come before it (then `ltdl_factor` does not apply)."""
    for k in range(1, ip.shape[0]):
        vs, n = ip[k, IP_VS], ip[k, IP_NV]
        if n == 0:
            continue
        a = ip[k, IP_PARENT]
        while a > 0 and ip[a, IP_NV] == 0:
            a = ip[a, IP_PARENT]
        lam[vs] = ip[a, IP_VS] + ip[a, IP_NV] - 1 if a > 0 else -1
        if lam[vs] >= vs:
            return False
        for j in range(1, n):
            lam[vs + j] = vs + j - 1
    return True


@kernel
def ltdl_factor(L, lam):
    """Factor the SPD M = Lᵀ D L in place in L (nv, nv), which holds M's lower triangle
    and diagonal on entry (the strict upper part is not read nor written).

    Returns False if a pivot D[k] is not > 0 (M not positive definite)."""
    for k in range(L.shape[0] - 1, -1, -1):
        d = L[k, k]
        if not d > 0.0:
            return False
        i = lam[k]
        while i != -1:
            a = L[k, i] / d
            j = i
            while j != -1:
                L[i, j] -= a * L[k, j]
                j = lam[j]
            L[k, i] = a
            i = lam[i]
    return True


@kernel
def ltdl_solve(L, lam, b):
    """Solve M x = b in place (b (nv,)) with the factor of `ltdl_factor`:
    Lᵀ y = b (tip to base), z = D⁻¹ y, L x = z (base to tip)."""
    n = L.shape[0]
    for k in range(n - 1, -1, -1):
        x = b[k]
        i = lam[k]
        while i != -1:
            b[i] -= L[k, i] * x
            i = lam[i]
    for k in range(n):
        x = b[k] / L[k, k]
        i = lam[k]
        while i != -1:
            x -= L[k, i] * b[i]
            i = lam[i]
        b[k] = x


@kernel
def solve_with_factor(M, lam, L, b):
    """b = M⁻¹ b in place: M's lower triangle copied into L (nv, nv), factored
    (`ltdl_factor`) and solved (`ltdl_solve`); M is not modified. Returns False (b
    untouched) if M is not positive definite."""
    n = M.shape[0]
    for i in range(n):
        for j in range(i + 1):
            L[i, j] = M[i, j]
    if not ltdl_factor(L, lam):
        return False
    ltdl_solve(L, lam, b)
    return True
