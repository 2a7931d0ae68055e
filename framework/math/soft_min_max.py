"""Smooth approximations of max and min (Drake's math::SoftOverMax and relatives).

With d(α) = Σⱼ exp(αxⱼ):

- soft_over_max(x, α) = log(d(α)) / α ≥ max(x)
- soft_under_max(x, α) = Σᵢ xᵢ exp(αxᵢ) / d(α) ≤ max(x)
- soft_over_min(x, α) = Σᵢ xᵢ exp(−αxᵢ) / d(−α) ≥ min(x)
- soft_under_min(x, α) = −log(d(−α)) / α ≤ min(x)

Larger α gives a sharper corner. The exponentials are shifted by the extreme value, so
large α·x does not overflow.
"""

import math

import numpy as np

__all__ = ["soft_over_max", "soft_over_min", "soft_under_max", "soft_under_min"]


def _weights(fn, x, alpha, sign):
    """(x (n,), exp(sign α (x − ext)) (n,), ext) with ext the max of sign·x times sign."""
    if not (math.isfinite(alpha) and alpha > 0):
        raise ValueError(f"{fn}: argument alpha: expected a finite number > 0, got {alpha!r}")
    x = np.asarray(x, dtype=float).reshape(-1)
    if x.size == 0:
        raise ValueError(f"{fn}: argument x: expected at least one value, got none")
    ext = sign * np.max(sign * x)
    return x, np.exp(sign * alpha * (x - ext)), ext


def soft_over_max(x, alpha=1.0):
    """log(Σᵢ exp(αxᵢ)) / α, an upper bound of max(x); x (n,), alpha > 0."""
    _, w, ext = _weights("soft_over_max", x, alpha, 1.0)
    return float(ext + math.log(w.sum()) / alpha)


def soft_under_max(x, alpha=1.0):
    """Σᵢ xᵢ exp(αxᵢ) / Σⱼ exp(αxⱼ), a lower bound of max(x); x (n,), alpha > 0."""
    x, w, _ = _weights("soft_under_max", x, alpha, 1.0)
    return float(w @ x / w.sum())


def soft_over_min(x, alpha=1.0):
    """Σᵢ xᵢ exp(−αxᵢ) / Σⱼ exp(−αxⱼ), an upper bound of min(x); x (n,), alpha > 0."""
    x, w, _ = _weights("soft_over_min", x, alpha, -1.0)
    return float(w @ x / w.sum())


def soft_under_min(x, alpha=1.0):
    """−log(Σᵢ exp(−αxᵢ)) / α, a lower bound of min(x); x (n,), alpha > 0."""
    _, w, ext = _weights("soft_under_min", x, alpha, -1.0)
    return float(ext - math.log(w.sum()) / alpha)
