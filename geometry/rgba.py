"""Rgba: a color with red, green, blue and alpha channels, each in [0, 1] (Drake's Rgba).

An `Rgba` converts to a float64 array of shape (4,) (``np.asarray(color)``), so anything that
takes an RGBA array (illustration ("phong", "diffuse"), meshcat colors) also takes an Rgba.
"""

import math

import numpy as np

from merganser.framework.yaml_io import YamlField

__all__ = ["Rgba"]


def _channels(func, values):
    """Validate `values` (4 numbers) and return them as a tuple of floats."""
    try:
        out = tuple(float(v) for v in values)
    except (TypeError, ValueError):
        raise RuntimeError(f"Rgba.{func}: values must be numbers, got {values!r}") from None
    if not all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in out):
        raise RuntimeError(
            f"Rgba.{func}: Rgba values must be within the range [0, 1]; got "
            f"(r={out[0]:g}, g={out[1]:g}, b={out[2]:g}, a={out[3]:g})")
    return out


def _vector(func, rgba):
    """An array-like of 3 or 4 numbers as 4 channels (alpha defaults to 1)."""
    v = np.asarray(rgba, dtype=float).reshape(-1)
    if v.size not in (3, 4):
        raise RuntimeError(
            f"Rgba.{func}: rgba must contain either 3 or 4 elements, got {v.size} ({v.tolist()})")
    return tuple(v.tolist()) + ((1.0,) if v.size == 3 else ())


class Rgba:
    """A color (r, g, b, a), every channel in [0, 1]; the default is opaque white.

    Parameters
    ----------
    r, g, b : float
        Red, green, blue in [0, 1].
    a : float, optional
        Alpha (opacity) in [0, 1]; default 1.

    Raises
    ------
    RuntimeError
        A channel outside [0, 1] (or not finite).
    """

    __slots__ = ("_v",)
    #: the YAML schema (framework.yaml_io): ``rgba: [r, g, b]`` or ``rgba: [r, g, b, a]``
    __fields__ = (YamlField("rgba", np.ndarray),)

    def __init__(self, r=1.0, g=1.0, b=1.0, a=1.0):
        self._v = _channels("Rgba", (r, g, b, a))

    def r(self):
        return self._v[0]

    def g(self):
        return self._v[1]

    def b(self):
        return self._v[2]

    def a(self):
        return self._v[3]

    def set(self, r=None, g=None, b=None, a=1.0, *, rgba=None):
        """Set all channels: ``set(r, g, b[, a])`` or ``set(rgba=array of 3 or 4)``."""
        if rgba is None and r is not None and g is None and b is None and np.ndim(r) == 1:
            rgba = r
        if rgba is not None:
            self._v = _channels("set", _vector("set", rgba))
        else:
            self._v = _channels("set", (r, g, b, a))

    def update(self, r=None, g=None, b=None, a=None):
        """Set the channels given; the others keep their values."""
        new = tuple(old if v is None else v for old, v in zip(self._v, (r, g, b, a)))
        self._v = _channels("update", new)

    @property
    def rgba(self):
        """The channels as a float64 array, shape (4,) (a copy); assign 3 or 4 values."""
        return np.array(self._v)

    @rgba.setter
    def rgba(self, value):
        self._v = _channels("rgba", _vector("rgba", value))

    def scale_rgb(self, scale):
        """A new Rgba with r, g, b multiplied by `scale` >= 0 and clamped to 1; alpha kept."""
        s = float(scale)
        if not (math.isfinite(s) and s >= 0.0):
            raise RuntimeError(f"Rgba.scale_rgb: scale must be finite and >= 0, got {scale!r}")
        r, g, b, a = self._v
        return Rgba(min(r * s, 1.0), min(g * s, 1.0), min(b * s, 1.0), a)

    def __mul__(self, other):
        """Channel-wise product with another Rgba (color modulation)."""
        if not isinstance(other, Rgba):
            return NotImplemented
        return Rgba(*(x * y for x, y in zip(self._v, other._v)))

    def __eq__(self, other):
        return isinstance(other, Rgba) and self._v == other._v

    def __hash__(self):
        return hash(self._v)

    def __array__(self, dtype=None, copy=None):
        return np.array(self._v, dtype=dtype)

    def __iter__(self):
        return iter(self._v)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self._v[i]

    def __copy__(self):
        return Rgba(*self._v)

    def __deepcopy__(self, memo):
        return Rgba(*self._v)

    def __getstate__(self):
        return self._v

    def __setstate__(self, state):
        self._v = _channels("__setstate__", state)

    def __repr__(self):
        r, g, b, a = self._v
        return f"Rgba(r={r!r}, g={g!r}, b={b!r}, a={a!r})"
