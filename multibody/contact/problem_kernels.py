"""Compiled set-up of the discrete contact problem: Delassus diagonal estimate, the SAP and
Hunt & Crossley regularization parameters, and the generalized impulse Jᵀγ/h (explicit
loops instead of a dozen small numpy calls per step)."""

import math

from merganser.framework.compilation import kernel

SIGMA = 1.0e-3                               # SAP's friction regularization factor
NEAR_RIGID = 1.0 / (4.0 * math.pi ** 2)      # β² / (4π²) for Drake's default β = 1


def near_rigid_factor(beta):
    """β² / (4π²), the factor of the Delassus estimate in SAP's near-rigid bound on Rn
    (β: the plant's sap_near_rigid_threshold; 0 turns the bound off)."""
    return beta * beta / (4.0 * math.pi ** 2)


@kernel(inline=False)
def delassus_estimate(J, M, nrows, w):
    """w[r] ≈ (J M⁻¹ Jᵀ)[r, r] with M approximated by its diagonal."""
    nv = J.shape[1]
    for r in range(nrows):
        s = 0.0
        for c in range(nv):
            x = J[r, c]
            if x != 0.0:
                s += x * x / M[c, c]
        w[r] = s


@kernel(inline=False)
def sap_parameters(nc, w, phi0, k, d, tau, mu, J, v0, h, vs, near_rigid, Rt, Rn, vhat, fe0, n0,
                   eps):
    """Per contact: Rt = σ wt, Rn = max(near_rigid wn, 1/(h k (h + τ))), v̂ = -φ₀/(h + τ)
    (SAP; near_rigid = β²/(4π²), `near_rigid_factor`);
    f₀ = k x₀, n₀ = h f₀ (1 - d vn₀)₊ and ε = max(vs, μ Rt n₀) (similar, lagged).

    wt = max(½(w₀ + w₁), w_rms) and wn = max(w₂, 10⁻⁶ w_rms), w_rms = ‖w‖/√3.
    """
    nv = J.shape[1]
    for i in range(nc):
        w0, w1, w2 = w[3 * i], w[3 * i + 1], w[3 * i + 2]
        w_rms = math.sqrt((w0 * w0 + w1 * w1 + w2 * w2) / 3.0)
        wt = max(0.5 * (w0 + w1), w_rms)
        wn = max(w2, 1e-6 * w_rms)
        Rt[i] = SIGMA * wt
        Rn[i] = max(near_rigid * wn, 1.0 / (h * k[i] * (h + tau[i])))
        vhat[i] = -phi0[i] / (h + tau[i])
        fe0[i] = -k[i] * phi0[i]
        vn0 = 0.0
        for c in range(nv):
            vn0 += J[3 * i + 2, c] * v0[c]
        n0[i] = h * fe0[i] * max(0.0, 1.0 - d[i] * vn0)
        eps[i] = max(vs, mu[i] * Rt[i] * n0[i])


@kernel(inline=False)
def generalized_impulse(J, gamma, nrows, h, tau):
    """tau = Jᵀ γ / h over the first `nrows` rows."""
    nv = J.shape[1]
    for c in range(nv):
        tau[c] = 0.0
    for r in range(nrows):
        g = gamma[r] / h
        if g != 0.0:
            for c in range(nv):
                tau[c] += J[r, c] * g
