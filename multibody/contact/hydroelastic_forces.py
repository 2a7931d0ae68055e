"""Hydroelastic contact forces of a continuous plant (compliant-rigid surfaces).

Each polygon f of a contact surface between geometries M and N is integrated with one
quadrature point at its area centroid c_f, exact for the linear pressure field:

    f_n = A_f p0(c_f) (1 - d v_n)₊,   f_t = -μ(s) f_n v_t / s,

with v_n = (v_M(c_f) - v_N(c_f)) · n_f the separation speed (n_f out of N into M), v_t the
tangential slip velocity (s = |v_t|), μ(s) the regularized Coulomb friction of the
point-contact model (stiction tolerance v_s), d the Hunt & Crossley dissipation of the
pair, d = Eᴺ/(Eᴹ+Eᴺ) dᴹ + Eᴹ/(Eᴹ+Eᴺ) dᴺ (compliant-rigid: the compliant
geometry's d, its limit) and μ = 2 μᴹ μᴺ / (μᴹ + μᴺ). The force on M is
f_n n_f + f_t at c_f, its negative acts on N.

`HydroelasticContacts` declares the plant's ``hydroelastic contact surfaces`` cache entry
and is used by `multibody.contact.contact_manager.ContactManager` when contact_model is
``hydroelastic`` or ``hydroelastic_with_fallback``. Continuous plants add the forces
above; discrete plants get each quadrature point as a point contact
(`append_point_contacts`) solved by the discrete contact solver.
"""

import math

import numpy as np
from merganser.framework.compilation import kernel
from merganser.geometry import HydroelasticContactRepresentation

from merganser.multibody.contact.hydroelastic_kernels import append_surface_contacts
from merganser.multibody.plant.contact_results import HydroelasticContactInfo

__all__ = ["HydroelasticContacts", "hydroelastic_face_forces", "append_point_contacts",
           "discrete_hydroelastic_results"]


@kernel(allocates=True, inline=False)
def hydroelastic_face_forces(nf, node_m, node_n, centroid, normal, area, p0, d, mu,
                             v_stiction, X_WB, V_WB, F_Bo_W, f_M):
    """Add each face's force to F_Bo_W (nb, 6) ([torque; force] at body origins, in W).

    Parameters
    ----------
    nf : int
    node_m, node_n : ndarray (nf,) int64
        Body nodes of M and N per face.
    centroid, normal : ndarray (nf, 3)
        Quadrature points and unit normals (out of N into M), in W.
    area, p0, d, mu : ndarray (nf,)
        Face area (m²), pressure at the centroid (Pa), dissipation (s/m), friction.
    v_stiction : float
    X_WB : ndarray (nb, 4, 4); V_WB : ndarray (nb, 6) ([w; v] of the body origins, in W)
    F_Bo_W : ndarray (nb, 6), accumulated
    f_M : ndarray (nf, 3)
        Output: force on M at each centroid, in W.
    """
    for f in range(nf):
        px, py, pz = centroid[f, 0], centroid[f, 1], centroid[f, 2]
        um = node_m[f]
        un = node_n[f]
        rx, ry, rz = px - X_WB[um, 0, 3], py - X_WB[um, 1, 3], pz - X_WB[um, 2, 3]
        vmx = V_WB[um, 3] + V_WB[um, 1] * rz - V_WB[um, 2] * ry
        vmy = V_WB[um, 4] + V_WB[um, 2] * rx - V_WB[um, 0] * rz
        vmz = V_WB[um, 5] + V_WB[um, 0] * ry - V_WB[um, 1] * rx
        sx, sy, sz = px - X_WB[un, 0, 3], py - X_WB[un, 1, 3], pz - X_WB[un, 2, 3]
        vnx = V_WB[un, 3] + V_WB[un, 1] * sz - V_WB[un, 2] * sy
        vny = V_WB[un, 4] + V_WB[un, 2] * sx - V_WB[un, 0] * sz
        vnz = V_WB[un, 5] + V_WB[un, 0] * sy - V_WB[un, 1] * sx
        ux, uy, uz = vmx - vnx, vmy - vny, vmz - vnz
        nx, ny, nz = normal[f, 0], normal[f, 1], normal[f, 2]
        vn = ux * nx + uy * ny + uz * nz
        fn = area[f] * p0[f] * max(0.0, 1.0 - d[f] * vn)
        tx, ty, tz = ux - vn * nx, uy - vn * ny, uz - vn * nz
        s = math.sqrt(tx * tx + ty * ty + tz * tz)
        fx, fy, fz = fn * nx, fn * ny, fn * nz
        if s > 0.0:
            ratio = s / v_stiction
            m = mu[f] * ratio * (2.0 - ratio) if ratio < 1.0 else mu[f]
            fx -= m * fn * tx / s
            fy -= m * fn * ty / s
            fz -= m * fn * tz / s
        f_M[f, 0], f_M[f, 1], f_M[f, 2] = fx, fy, fz
        F_Bo_W[um, 0] += ry * fz - rz * fy
        F_Bo_W[um, 1] += rz * fx - rx * fz
        F_Bo_W[um, 2] += rx * fy - ry * fx
        F_Bo_W[um, 3] += fx
        F_Bo_W[um, 4] += fy
        F_Bo_W[um, 5] += fz
        F_Bo_W[un, 0] -= sy * fz - sz * fy
        F_Bo_W[un, 1] -= sz * fx - sx * fz
        F_Bo_W[un, 2] -= sx * fy - sy * fx
        F_Bo_W[un, 3] -= fx
        F_Bo_W[un, 4] -= fy
        F_Bo_W[un, 5] -= fz


def _combined_friction(mu_a, mu_b):
    """μ = 2 μᵃ μᵇ / (μᵃ + μᵇ) (0 when both are 0)."""
    return 0.0 if mu_a + mu_b == 0.0 else float(2.0 * mu_a * mu_b / (mu_a + mu_b))


def _combined_dissipation(res, gt, i, j):
    """d = Eʲ/(Eⁱ+Eʲ) dⁱ + Eⁱ/(Eⁱ+Eʲ) dʲ (the compliant one's d against a rigid one)."""
    if not res.compliant[j]:
        return gt.d[i]
    if not res.compliant[i]:
        return gt.d[j]
    ei, ej = res.modulus[i], res.modulus[j]
    return (ej * gt.d[i] + ei * gt.d[j]) / (ei + ej)


class _HydroelasticState:
    """Cache value: the query result, the surfaces between different bodies with their
    pairs and per-pair parameters, and (on demand) the faces of all surfaces as flat
    arrays."""

    def __init__(self):
        self.result = None
        self.nf = 0
        self.surfaces = []
        self.pairs = []
        self.params = []
        self.faces = None
        self.face_start = np.zeros(1, np.int64)


class HydroelasticContacts:
    """The hydroelastic part of a plant's contact (see the module docstring).

    Parameters
    ----------
    manager : ContactManager
    tickets : list
        Prerequisites of the surfaces (state and geometry query).
    """

    def __init__(self, manager, tickets):
        self.manager = manager
        self.core = manager.core
        self.plant = manager.plant
        self.entry = self.plant.declare_cache_entry(
            "hydroelastic contact surfaces", _HydroelasticState, self._calc, tickets)
        #: (geometry tables, moduli, {(i, j): per-pair parameters}) of the last query
        self._pair_params = (None, None, {})

    def _calc(self, context, st):
        plant = self.plant
        st.result, st.nf = None, 0
        port = self.core.ports.geometry_query
        if not port.has_value(context):
            return
        query = port.eval(context)
        if query is None:
            return
        strict = plant.get_contact_model() == "hydroelastic"
        res = query._hydroelastic(strict)
        st.result = res
        gt = self.manager.geometry_tables(res.ids)
        keep = [k for k, (i, j) in enumerate(res.surface_pairs) if gt.node[i] != gt.node[j]]
        st.surfaces = [res.surfaces[k] for k in keep]
        st.pairs = pairs = [res.surface_pairs[k] for k in keep]
        start = [0]
        for surface in st.surfaces:
            start.append(start[-1] + surface.num_faces())
        st.face_start = np.array(start, np.int64)
        st.nf = start[-1]
        # per pair: nodes of M and N, combined dissipation, relaxation time and friction
        # (constant per pair and geometry tables: made once)
        memo = self._pair_params
        if memo[0] is not gt or memo[1] is not res.modulus:
            memo = self._pair_params = (gt, res.modulus, {})
        params = memo[2]
        st.params = [params.get((i, j)) or params.setdefault((i, j), (
            int(gt.node[i]), int(gt.node[j]), _combined_dissipation(res, gt, i, j),
            float(gt.tau[i] + gt.tau[j]), _combined_friction(gt.mu[i], gt.mu[j])))
            for i, j in pairs]
        st.faces = None

    @staticmethod
    def _faces(st):
        """Per-face arrays of all surfaces (node_m, node_n, d, mu, centroid, normal, area,
        p0), made on first use (the continuous plant's forces)."""
        if st.faces is None:
            counts = np.diff(st.face_start)
            par = np.array([p[:3] + p[4:] for p in st.params]).reshape(-1, 4)
            cat = np.concatenate
            st.faces = (np.repeat(par[:, 0].astype(np.int64), counts),
                        np.repeat(par[:, 1].astype(np.int64), counts),
                        np.repeat(par[:, 2], counts), np.repeat(par[:, 3], counts),
                        cat([s.face_centroids_W for s in st.surfaces]),
                        cat([s.face_normals_W for s in st.surfaces]),
                        cat([s.face_areas for s in st.surfaces]),
                        cat([s.face_pressures for s in st.surfaces]))
        return st.faces

    def eval(self, context):
        return self.entry.eval(context)

    def handled_pairs(self, context):
        """Proximity-table index pairs (i, j) handled hydroelastically."""
        st = self.entry.eval(context)
        return set() if st.result is None else st.result.hydroelastic_pairs

    @staticmethod
    def filter_point_rows(st, rows, pairs):
        """(rows, pairs) without the pairs handled hydroelastically in the surfaces' state
        `st` (`eval`'s value)."""
        if st.result is None or st.result.supported is None or rows.shape[0] == 0:
            return rows, pairs
        keep = ~st.result.supported[pairs[:, 0], pairs[:, 1]]
        if keep.all():
            return rows, pairs
        return rows[keep], pairs[keep]

    def add_forces(self, context, F):
        """Add the hydroelastic forces to F (nb, 6); returns (state, f_M (nf, 3))."""
        st = self.entry.eval(context)
        f_M = np.zeros((st.nf, 3))
        if st.nf:
            plant = self.plant
            node_m, node_n, d, mu, centroid, normal, area, p0 = self._faces(st)
            hydroelastic_face_forces(st.nf, node_m, node_n, centroid, normal, area, p0, d, mu,
                                     plant.get_stiction_tolerance(),
                                     self.core.eval_X_WB(context), self.core.eval_V_WB(context), F,
                                     f_M)
        return st, f_M

    def has_surfaces(self, context):
        return self.entry.eval(context).nf > 0

    def add_results(self, context, results):
        """Append a HydroelasticContactInfo per surface to `results` (F_Ac_W on M's body
        at the surface centroid, in W)."""
        from merganser.multibody import SpatialForce
        F = np.zeros((self.core.tables.nb, 6))
        st, f_M = self.add_forces(context, F)
        if st.nf == 0:
            return results
        for k, s in enumerate(st.surfaces):
            a, b = st.face_start[k], st.face_start[k + 1]
            f = f_M[a:b]
            r = s.face_centroids_W - s.centroid
            results.add_contact_info(HydroelasticContactInfo(
                _reported(self.core, s),
                SpatialForce(np.cross(r, f).sum(axis=0), f.sum(axis=0))))
        return results



def _reported(core, surface):
    """`surface` in the plant's contact surface representation."""
    if core.plant.get_contact_surface_representation() is \
            HydroelasticContactRepresentation.kTriangle:
        return surface.to_triangles()
    return surface


def append_point_contacts(st, pcs, gt):
    """Discrete plants: append each hydroelastic quadrature point to the PointContactSet
    `pcs` as a point contact (A = N, B = M, z = the face normal) with the stiffness the
    pressure field implies: k = A_f |∂p/∂n|, penetration p0 / |∂p/∂n| (so k x = A_f p0),
    in one compiled call per surface (`multibody.contact.hydroelastic_kernels`). Faces
    with a zero pressure gradient are skipped; `st` is the surfaces' state
    (`HydroelasticContacts.eval`). Returns the new contact count."""
    nc = pcs.nc
    pcs.hydro_start = nc
    if st.nf == 0:
        pcs.hydro_surface = np.zeros(0, np.int64)
        return nc
    if pcs.capacity() < nc + st.nf:
        old = {name: getattr(pcs, name)[:nc].copy() for name in (
            "node_a", "node_b", "geom_a", "geom_b", "p_WC", "R_WC", "phi0", "k", "d", "tau",
            "mu", "rows")}
        pcs._alloc(2 * (nc + st.nf))
        for name, value in old.items():
            getattr(pcs, name)[:nc] = value
    surface_of = np.empty(pcs.capacity(), np.int64)
    for index, (s, (i, j), (node_m, node_n, d, tau, mu)) in enumerate(zip(
            st.surfaces, st.pairs, st.params)):
        nc = append_surface_contacts(
            s.face_centroids_W, s.face_normals_W, s.face_areas, s.face_pressures,
            s.face_pressure_gradients, node_m, node_n, i, j, d, tau, mu, index, nc, pcs.node_a,
            pcs.node_b, pcs.geom_a, pcs.geom_b, pcs.p_WC, pcs.R_WC, pcs.phi0, pcs.k, pcs.d,
            pcs.tau, pcs.mu, pcs.rows, surface_of)
    pcs.hydro_surface = surface_of[pcs.hydro_start:nc]
    pcs.nc = nc
    return nc


def discrete_hydroelastic_results(hydro, context, pcs, results):
    """ContactResults of a discrete step with the quadrature-point contacts (appended by
    `append_point_contacts`) regrouped into one HydroelasticContactInfo per surface
    (F_Ac_W: the sum of the points' forces on M, moved to the surface centroid)."""
    from merganser.multibody import SpatialForce
    from merganser.multibody.plant.contact_results import ContactResults
    start = getattr(pcs, "hydro_start", None)
    if start is None or results.num_point_pair_contacts() < pcs.nc:
        return results
    st = hydro.entry.eval(context)
    out = ContactResults()
    for i in range(start):
        out.add_contact_info(results.point_pair_contact_info(i))
    nsurf = len(st.surfaces) if st.nf else 0
    f_sum = np.zeros((nsurf, 3))
    tau = np.zeros((nsurf, 3))
    for k in range(pcs.nc - start):
        info = results.point_pair_contact_info(start + k)
        s = pcs.hydro_surface[k]
        f_sum[s] += info.contact_force  # force on B = M
        tau[s] += np.cross(info.contact_point - st.surfaces[s].centroid, info.contact_force)
    for s in range(nsurf):
        out.add_contact_info(HydroelasticContactInfo(_reported(hydro.core, st.surfaces[s]),
                                                     SpatialForce(tau[s], f_sum[s])))
    return out
