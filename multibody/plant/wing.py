"""Wing: the aerodynamic force of a flat plate fixed to a body (Drake's Wing system).

::

                                          ┌──────┐
        body_poses ──────────────────────>│      │──> spatial_force
        body_spatial_velocities ─────────>│ Wing │
        wind_velocity_at_aerodynamic_center >│      │──> aerodynamic_center
        fluid_density ───────────────────>│      │
                                          └──────┘

The wing frame W_g is fixed to body B at X_BodyWing, its origin the aerodynamic center,
its z axis the plate's normal. With v the velocity of the body's origin relative to the
wind (``-v_wind + v_WBo``), expressed in the wing frame, the flat-plate model gives one
force along the normal at the aerodynamic center::

    f_z = -ρ A v_z sqrt(v_x² + v_z²)

(Underactuated Robotics, "perching"). ``wind_velocity_at_aerodynamic_center`` (3, W) and
``fluid_density`` (1) are optional: unconnected, the wind is zero and ρ the constructor's
`fluid_density`. ``spatial_force`` is a one-element list of ExternallyAppliedSpatialForce
for the plant's ``applied_spatial_force``; ``aerodynamic_center`` is its position in W.
"""

import numpy as np

from merganser.framework import LeafSystem
from merganser.geometry import RigidTransform
from merganser.multibody.math import SpatialForce
from merganser.multibody.plant.externally_applied_spatial_force import (
    ExternallyAppliedSpatialForce,
)

__all__ = ["Wing"]


class Wing(LeafSystem):
    """A flat-plate wing on body `body_index` (see the module docstring).

    Parameters
    ----------
    body_index : int
    surface_area : float
        A (m²), > 0.
    X_BodyWing : RigidTransform, optional
        The wing frame in the body frame (identity by default).
    fluid_density : float, optional
        ρ (kg/m³) when the ``fluid_density`` port is unconnected; air's 1.204 by default.
    """

    #: Drake's default fluid density (air at 20 °C, kg/m³).
    kDefaultFluidDensity = 1.204

    def __init__(self, body_index, surface_area, X_BodyWing=None,
                 fluid_density=kDefaultFluidDensity):
        super().__init__()
        if not (np.isfinite(surface_area) and surface_area > 0.0):
            raise ValueError(f"Wing: surface_area must be finite and > 0, got {surface_area!r}")
        if not (np.isfinite(fluid_density) and fluid_density >= 0.0):
            raise ValueError(f"Wing: fluid_density must be finite and >= 0, got "
                             f"{fluid_density!r}")
        X = RigidTransform() if X_BodyWing is None else X_BodyWing
        if not isinstance(X, RigidTransform):
            raise TypeError(f"Wing: X_BodyWing must be a RigidTransform, got "
                            f"{type(X).__name__}")
        self._body_index, self._area, self._X_BodyWing = int(body_index), float(surface_area), X
        self._density = float(fluid_density)
        self._poses = self.declare_abstract_input_port("body_poses", [])
        self._velocities = self.declare_abstract_input_port("body_spatial_velocities", [])
        self._wind = self.declare_vector_input_port("wind_velocity_at_aerodynamic_center", 3,
                                                    required=False)
        self._rho = self.declare_vector_input_port("fluid_density", 1, required=False)
        self._force = self.declare_abstract_output_port("spatial_force", list,
                                                        self._calc_force,
                                                        [self.all_input_ports_ticket()])
        self._center = self.declare_vector_output_port(
            "aerodynamic_center", 3, self._calc_center, [self.input_port_ticket(0)])

    @classmethod
    def add_to_builder(cls, builder, plant, body_index, surface_area, X_BodyWing=None,
                       fluid_density=kDefaultFluidDensity):
        """Add a Wing to `builder`, connected to `plant`'s body poses and velocities and
        to its ``applied_spatial_force`` input; returns it."""
        wing = builder.add_system(cls(body_index, surface_area, X_BodyWing, fluid_density))
        builder.connect(plant.get_body_poses_output_port(), wing.get_body_poses_input_port())
        builder.connect(plant.get_body_spatial_velocities_output_port(),
                        wing.get_body_spatial_velocities_input_port())
        builder.connect(wing.get_spatial_force_output_port(),
                        plant.get_applied_spatial_force_input_port())
        return wing

    def get_body_poses_input_port(self):
        """``body_poses`` (list of X_WB by body index)."""
        return self._poses

    def get_body_spatial_velocities_input_port(self):
        """``body_spatial_velocities`` (list of V_WB by body index)."""
        return self._velocities

    def get_wind_velocity_input_port(self):
        """``wind_velocity_at_aerodynamic_center`` (3,), in W; optional."""
        return self._wind

    def get_fluid_density_input_port(self):
        """``fluid_density`` (1,); optional."""
        return self._rho

    def get_spatial_force_output_port(self):
        """``spatial_force`` (a one-element list of ExternallyAppliedSpatialForce)."""
        return self._force

    def get_aerodynamic_center_output_port(self):
        """``aerodynamic_center`` (3,): the wing frame's origin in W."""
        return self._center

    def _body_pose(self, context):
        poses = self._poses.eval(context)
        if not 0 <= self._body_index < len(poses):
            raise ValueError(f"Wing: body_index {self._body_index} is not in body_poses "
                             f"({len(poses)} bodies)")
        return poses[self._body_index]

    def _calc_force(self, context, output):
        X_WB = self._body_pose(context)
        V_WB = self._velocities.eval(context)[self._body_index]
        rho = (float(self._rho.eval(context)[0]) if self._rho.has_value(context)
               else self._density)
        wind = self._wind.eval(context) if self._wind.has_value(context) else np.zeros(3)
        R_W_wing = (X_WB.rotation() @ self._X_BodyWing.rotation()).matrix()
        v = R_W_wing.T @ (V_WB.translational() - wind)
        f_wing = np.array([0.0, 0.0, -rho * self._area * v[2] * np.hypot(v[0], v[2])])
        output.set_value([ExternallyAppliedSpatialForce(
            self._body_index, self._X_BodyWing.translation(),
            SpatialForce(np.zeros(3), R_W_wing @ f_wing))])

    def _calc_center(self, context, output):
        output.set_value(self._body_pose(context) @ self._X_BodyWing.translation())
