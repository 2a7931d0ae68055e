"""Body inertial parameters of MultibodyPlant, kept in the Context.

Each body except the world has one numeric parameter group of 10 values, Drake's
per-body layout::

    [m, px, py, pz, Gxx, Gyy, Gzz, Gxy, Gxz, Gyz]

the mass m (kg), the center of mass p_BoBcm_B (m) and the unit inertia G_BBo_B about the
body origin, expressed in B (moments, then products; m²). ``body.set_mass(ctx, m)``
changes m only, so the rotational inertia I_BBo_B = m G_BBo_B scales with the mass, as in
Drake. The kernels read the parameters as the (nb, 10) array I10 in node order
(``[m, m p, I_BBo_B moments, products]``), rebuilt by a cache entry when a parameter
changes.
"""

import math

import numpy as np

from merganser.multibody.math import SpatialInertia

__all__ = ["PlantParametersMixin", "body_parameters"]


def body_parameters(M_BBo_B):
    """The parameter vector ``[m, p_BoBcm_B, G moments, G products]`` (10,) of a
    SpatialInertia about Bo, expressed in B."""
    G = M_BBo_B.get_unit_inertia().copy_to_full_matrix3()
    out = np.empty(10)
    out[0] = M_BBo_B.get_mass()
    out[1:4] = M_BBo_B.get_com()
    out[4:7] = G[0, 0], G[1, 1], G[2, 2]
    out[7:10] = G[0, 1], G[0, 2], G[1, 2]
    return out


class PlantParametersMixin:
    """Declaration and access of the body parameters (see the module docstring)."""

    def _declare_body_parameters(self):
        for b in range(1, self._tree.num_bodies()):
            M_BBo_B = self._tree.get_body(b).default_spatial_inertia()
            index = self.declare_numeric_parameter(body_parameters(M_BBo_B))
            assert index == b - 1

    def _body_parameters_to_I10(self, context, I10):
        """Fill I10 (nb, 10), node order, from the body parameters of `context`."""
        t = self._tables
        for b in range(1, t.nb):
            p = context.get_numeric_parameter(t.parameter_of_body[b])
            row = I10[t.node_of_body[b]]
            m = p[0]
            row[0] = m
            row[1:] = p[1:]
            row[1:] *= m

    def _body_parameter_group(self, body, fn):
        self._check_body(body, fn)
        if body.index() == 0:
            raise ValueError(f"{fn}: the world body has no inertial parameters")
        return int(self._tables.parameter_of_body[body.index()])

    # ---- the StateAccessor side (used by RigidBody methods) ------------------------------------
    def _get_body_mass(self, context, body):
        fn = "RigidBody.get_mass"
        ctx = self._ctx(context, fn)
        return float(ctx.get_numeric_parameter(self._body_parameter_group(body, fn))[0])

    def _set_body_mass(self, context, body, mass):
        fn = "RigidBody.set_mass"
        ctx = self._ctx(context, fn)
        group = self._body_parameter_group(body, fn)
        try:
            m = float(mass)
        except (TypeError, ValueError):
            raise TypeError(f"{fn}: mass of body {body.name()!r} must be a number, got "
                            f"{type(mass).__name__}") from None
        if not (math.isfinite(m) and m >= 0.0):
            raise ValueError(f"{fn}: mass of body {body.name()!r} must be finite and >= 0, "
                             f"got {mass!r}")
        p = np.array(ctx.get_numeric_parameter(group))
        p[0] = m
        ctx.set_numeric_parameter(group, p)

    def _get_body_spatial_inertia(self, context, body):
        fn = "RigidBody.calc_spatial_inertia_in_body_frame"
        ctx = self._ctx(context, fn)
        p = ctx.get_numeric_parameter(self._body_parameter_group(body, fn))
        Gxx, Gyy, Gzz, Gxy, Gxz, Gyz = p[4:]
        G = np.array([[Gxx, Gxy, Gxz], [Gxy, Gyy, Gyz], [Gxz, Gyz, Gzz]])
        return SpatialInertia(p[0], np.array(p[1:4]), G, skip_validity_check=True)

    def _set_body_spatial_inertia(self, context, body, M_BBo_B):
        fn = "RigidBody.set_spatial_inertia_in_body_frame"
        ctx = self._ctx(context, fn)
        group = self._body_parameter_group(body, fn)
        if not isinstance(M_BBo_B, SpatialInertia):
            raise TypeError(f"{fn}: M_BBo_B of body {body.name()!r} must be a SpatialInertia, "
                            f"got {type(M_BBo_B).__name__}")
        ctx.set_numeric_parameter(group, body_parameters(M_BBo_B))
