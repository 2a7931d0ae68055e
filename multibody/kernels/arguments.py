"""Argument checking for the `TreeDynamics` facade (the slow path of its methods).

The facade's fast path only checks that the arguments are numpy arrays and lets the
kernel compare sizes (it returns a status); on any mismatch the method comes here, which
converts the arguments to C-contiguous float64 arrays and raises
`DynamicsArgumentError` naming the method, the argument, what was expected and what was
received.
"""

from __future__ import annotations

import numpy as np

__all__ = ["DynamicsArgumentError", "ArgumentChecker"]


class DynamicsArgumentError(ValueError):
    """An argument of a `TreeDynamics` method has the wrong size, type or value."""


class ArgumentChecker:
    """Mixin converting and checking arguments by name.

    Requires ``self.nb``, ``self.nq``, ``self.nv`` and ``self._M_added`` (the default
    added mass or None).
    """

    def _expected_shapes(self):
        nq, nv, nb = (self.nq,), (self.nv,), self.nb
        return {"q": (nq, "nq"), "qdot": (nq, "nq"), "v": (nv, "nv"), "vdot": (nv, "nv"),
                "tau": (nv, "nv"), "armature": (nv, "nv"), "I10": ((nb, 10), None), "g": ((3,), None),
                "p_BoBp_B": ((3,), None), "p_WoP_W": ((3,), None),
                "F_ext_W": ((nb, 6), None), "M_added": ((nb, 6, 6), None)}

    def _coerce(self, fn, **arrays):
        """Return the arguments as float64 C arrays, in keyword order, or raise."""
        shapes = self._expected_shapes()
        out = []
        for name, value in arrays.items():
            shape, label = shapes[name]
            try:
                arr = np.ascontiguousarray(value, dtype=np.float64)
            except (TypeError, ValueError) as exc:
                raise DynamicsArgumentError(
                    f"{fn}: {name} must be a float array of shape {shape}, got "
                    f"{type(value).__name__} ({exc})") from None
            if arr.shape != shape:
                if label is not None and arr.ndim == 1:
                    message = f"{name} has size {arr.size}, expected {label} = {shape[0]}"
                else:
                    message = f"{name} has shape {arr.shape}, expected {shape}"
                raise DynamicsArgumentError(f"{fn}: {message}")
            out.append(arr)
        return out

    def _forces(self, fn, F_ext_W):
        """Return ``(F, use)`` for an optional (nb, 6) external force argument."""
        if F_ext_W is None:
            return self._no_fext, False
        return self._coerce(fn, F_ext_W=F_ext_W)[0], True

    def _added_mass_arg(self, fn, M_added):
        """Return an optional (nb, 6, 6) added mass as a float64 C array, or the
        object's default (``self._M_added``, possibly None) when `M_added` is None."""
        if M_added is None:
            return self._M_added
        return self._coerce(fn, M_added=M_added)[0]

    def _node(self, fn, node):
        if not isinstance(node, (int, np.integer)) or not 0 <= node < self.nb:
            raise DynamicsArgumentError(
                f"{fn}: node is {node!r}, expected an integer in [0, nb = {self.nb})")
        return int(node)

    def _batch(self, fn, **arrays):
        """Return 2-D float64 arrays with a common number of rows N, or raise.

        Widths: Q has nq columns, V / VD / TAU have nv.
        """
        widths = {"Q": self.nq, "V": self.nv, "VD": self.nv, "TAU": self.nv}
        out, n = [], None
        for name, value in arrays.items():
            arr = np.ascontiguousarray(value, dtype=np.float64)
            width = widths[name]
            if arr.ndim != 2 or arr.shape[1] != width or (n is not None and arr.shape[0] != n):
                raise DynamicsArgumentError(
                    f"{fn}: {name} has shape {arr.shape}, expected "
                    f"({'N' if n is None else n}, {width})")
            n = arr.shape[0]
            out.append(arr)
        return out

    def _batch_inertia(self, fn, I10, n):
        """Return I10 as (1, nb, 10) (shared) or (N, nb, 10) (per state), or raise."""
        arr = np.ascontiguousarray(I10, dtype=np.float64)
        if arr.shape == (self.nb, 10):
            return arr.reshape(1, self.nb, 10)
        if arr.shape == (n, self.nb, 10):
            return arr
        raise DynamicsArgumentError(
            f"{fn}: I10 has shape {arr.shape}, expected ({self.nb}, 10) or "
            f"({n}, {self.nb}, 10)")
