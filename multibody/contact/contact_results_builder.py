"""Building ContactResults (PointPairContactInfo per point contact) from the contact
pipeline's arrays, for the continuous penalty model and the discrete solvers."""

import numpy as np

from merganser.geometry import PenetrationAsPointPair
from merganser.multibody.plant.contact_results import ContactResults, PointPairContactInfo

__all__ = ["continuous_contact_results", "discrete_contact_results"]


def _results(core, pcs, f_Bc_W, vc):
    body_of_node = core.tables.body_of_node
    results = ContactResults()
    for i in range(pcs.nc):
        r = pcs.rows[i]
        pair = PenetrationAsPointPair(pcs.ids[pcs.geom_a[i]], pcs.ids[pcs.geom_b[i]],
                                      r[0:3].copy(), r[3:6].copy(), r[6:9].copy(), float(-r[9]))
        results.add_contact_info(PointPairContactInfo(
            body_of_node[pcs.node_a[i]], body_of_node[pcs.node_b[i]], f_Bc_W[i],
            pcs.p_WC[i], vc[i, 2], float(np.hypot(vc[i, 0], vc[i, 1])), pair))
    return results


def continuous_contact_results(core, pcs, f_Bc_W, vc):
    """ContactResults of the penalty model: f_Bc_W (nc, 3) forces on B, vc (nc, 3) contact
    velocities in the contact frames; `core` is the plant's `PlantCore`."""
    return _results(core, pcs, f_Bc_W, vc)


def discrete_contact_results(core, pcs, step):
    """ContactResults of a discrete step: forces are the contact impulses / h, velocities
    those of the next state."""
    nc = pcs.nc
    if nc == 0 or step.nc != nc:
        return ContactResults()
    gamma = step.gamma[:3 * nc].reshape(nc, 3)
    f = np.einsum("nij,nj->ni", pcs.R_WC[:nc], gamma) / core.time_step
    vc = step.vc[:3 * nc].reshape(nc, 3)
    return _results(core, pcs, f, vc)
