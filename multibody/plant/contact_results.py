"""Contact results reported by the plant's ``contact_results`` output port.

`ContactResults` holds one `PointPairContactInfo` per point contact and one
`HydroelasticContactInfo` per hydroelastic contact surface (Drake's classes of the same
names). The plant reports an empty ContactResults until contact is computed (the
contact models add their infos with `ContactResults.add_contact_info`).
"""

import numpy as np

from merganser.multibody.plant.accessor_values import accessor_value
from merganser.multibody.tree.indices import BodyIndex

__all__ = ["ContactResults", "HydroelasticContactInfo", "PointPairContactInfo"]


class PointPairContactInfo:
    """The result of one point contact between bodies A and B.

    Each attribute also answers pydrake's accessor spelling: ``info.contact_force()``
    is ``info.contact_force`` (see `accessor_value`). The constructor takes pydrake's
    keywords too: ``f_Bc_W`` for `contact_force` and ``p_WC`` for `contact_point`.

    Parameters and attributes
    -------------------------
    bodyA_index, bodyB_index : BodyIndex
        Indices of the bodies in contact.
    contact_force : ndarray, shape (3,)
        f_Bc_W, the contact force on body B at the contact point, expressed in W (N);
        the force on A is its negative.
    contact_point : ndarray, shape (3,)
        p_WC, the contact point C in world (m).
    separation_speed : float
        Rate of change of the signed distance (m/s); negative when approaching.
    slip_speed : float
        Magnitude of the tangential slip velocity at C (m/s).
    point_pair : object
        The geometric query result (a PenetrationAsPointPair) the contact came from.
    """

    __slots__ = ("bodyA_index", "bodyB_index", "contact_force", "contact_point",
                 "separation_speed", "slip_speed", "point_pair")

    def __init__(self, bodyA_index, bodyB_index, contact_force=None, contact_point=None,
                 separation_speed=0.0, slip_speed=0.0, point_pair=None, *, f_Bc_W=None,
                 p_WC=None):
        contact_force = _one_of("contact_force", contact_force, "f_Bc_W", f_Bc_W)
        contact_point = _one_of("contact_point", contact_point, "p_WC", p_WC)
        self.bodyA_index = accessor_value(BodyIndex(bodyA_index))
        self.bodyB_index = accessor_value(BodyIndex(bodyB_index))
        self.contact_force = accessor_value(np.array(contact_force, dtype=float).reshape(3))
        self.contact_point = accessor_value(np.array(contact_point, dtype=float).reshape(3))
        self.separation_speed = accessor_value(float(separation_speed))
        self.slip_speed = accessor_value(float(slip_speed))
        self.point_pair = accessor_value(point_pair)

    def __repr__(self):
        return (f"PointPairContactInfo(bodyA_index={self.bodyA_index}, "
                f"bodyB_index={self.bodyB_index}, contact_force={self.contact_force.tolist()})")


def _one_of(name, value, drake_name, drake_value):
    """The value given under merganser's `name` or pydrake's `drake_name` (exactly one)."""
    if (value is None) == (drake_value is None):
        raise TypeError(f"PointPairContactInfo: give exactly one of {name}= and "
                        f"{drake_name}= (pydrake's keyword), got "
                        f"{'both' if value is not None else 'neither'}")
    return value if value is not None else drake_value


class HydroelasticContactInfo:
    """The result of one hydroelastic contact between the bodies of geometries A and B.

    Each attribute also answers pydrake's accessor spelling (``info.F_Ac_W()``).

    Attributes
    ----------
    contact_surface : object
        The contact surface (centroid, area, polygons, pressure).
    F_Ac_W : SpatialForce
        Spatial force on geometry A's body at the surface centroid C, expressed in W.
    """

    __slots__ = ("contact_surface", "F_Ac_W")

    def __init__(self, contact_surface, F_Ac_W):
        self.contact_surface = accessor_value(contact_surface)
        self.F_Ac_W = accessor_value(F_Ac_W)


class ContactResults:
    """All contact results of one evaluation (empty until contact is modelled)."""

    __slots__ = ("_point_pairs", "_hydroelastic", "_plant")

    def __init__(self, point_pair_infos=(), hydroelastic_infos=(), plant=None):
        self._point_pairs = list(point_pair_infos)
        self._hydroelastic = list(hydroelastic_infos)
        self._plant = plant

    def plant(self):
        """The MultibodyPlant that computed these results; None for results built by
        hand (as pydrake's ``ContactResults.plant()``)."""
        return self._plant

    def set_plant(self, plant):
        """Record the plant these results come from (`plant()` returns it)."""
        self._plant = plant

    def select_hydroelastic(self, selector):
        """A copy keeping only the hydroelastic contacts for which ``selector(info)`` is
        true (point contacts are all kept), as pydrake's ``SelectHydroelastic``.

        Parameters
        ----------
        selector : callable
            ``selector(HydroelasticContactInfo) -> bool``.

        Returns
        -------
        ContactResults
        """
        if not callable(selector):
            raise TypeError(f"ContactResults.select_hydroelastic: selector must be "
                            f"callable, got {type(selector).__name__}")
        return ContactResults(self._point_pairs,
                              [h for h in self._hydroelastic if selector(h)], self._plant)

    def num_point_pair_contacts(self):
        """Number of point contacts."""
        return len(self._point_pairs)

    def point_pair_contact_info(self, i):
        """The `PointPairContactInfo` of point contact `i`."""
        return self._get(self._point_pairs, i, "point_pair_contact_info", "point contacts")

    def num_hydroelastic_contacts(self):
        """Number of hydroelastic contact surfaces."""
        return len(self._hydroelastic)

    def hydroelastic_contact_info(self, i):
        """The `HydroelasticContactInfo` of hydroelastic contact `i`."""
        return self._get(self._hydroelastic, i, "hydroelastic_contact_info",
                         "hydroelastic contacts")

    def add_contact_info(self, info):
        """Append a PointPairContactInfo or a HydroelasticContactInfo."""
        if isinstance(info, PointPairContactInfo):
            self._point_pairs.append(info)
        elif isinstance(info, HydroelasticContactInfo):
            self._hydroelastic.append(info)
        else:
            raise TypeError(
                f"ContactResults.add_contact_info: expected a PointPairContactInfo or a "
                f"HydroelasticContactInfo, got {type(info).__name__}")

    def clear(self):
        """Remove every contact info."""
        self._point_pairs.clear()
        self._hydroelastic.clear()

    @staticmethod
    def _get(items, i, fn, what):
        if not isinstance(i, (int, np.integer)) or not 0 <= i < len(items):
            raise IndexError(
                f"ContactResults.{fn}: index {i!r} out of range; there are {len(items)} {what}")
        return items[int(i)]

    def __repr__(self):
        return (f"ContactResults({self.num_point_pair_contacts()} point pair, "
                f"{self.num_hydroelastic_contacts()} hydroelastic)")
