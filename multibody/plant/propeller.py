"""Propeller: the thrust and reaction moment of propellers fixed to bodies (Drake's
Propeller system).

::

                    ┌───────────┐
        command ───>│           │
                    │ Propeller │──> spatial_forces
        body_poses >│           │
                    └───────────┘

Propeller i sits at frame P_i, fixed to body B_i at X_BP. For its command u_i (one entry
of ``command``) it pushes along P's z axis with the force ``thrust_ratio u_i`` and turns
about it with the moment ``moment_ratio u_i``; ``spatial_forces`` lists these as
ExternallyAppliedSpatialForce (applied at Po, expressed in W, from the body's X_WB in
``body_poses``), ready for the plant's ``applied_spatial_force`` input. Connect
``body_poses`` to the plant's ``body_poses`` output.
"""

import copy
import dataclasses

import numpy as np

from merganser.framework import LeafSystem
from merganser.geometry import RigidTransform
from merganser.multibody.math import SpatialForce
from merganser.multibody.plant.externally_applied_spatial_force import (
    ExternallyAppliedSpatialForce,
)

__all__ = ["Propeller", "PropellerInfo"]


@dataclasses.dataclass
class PropellerInfo:
    """One propeller: on body `body_index` at `X_BP`; thrust = thrust_ratio · u (N),
    moment = moment_ratio · u (N m), both along P's z axis."""

    body_index: int = 0
    X_BP: RigidTransform = None
    thrust_ratio: float = 1.0
    moment_ratio: float = 0.0

    def __post_init__(self):
        if self.X_BP is None:
            self.X_BP = RigidTransform()
        if not isinstance(self.X_BP, RigidTransform):
            raise TypeError(f"PropellerInfo: X_BP must be a RigidTransform, got "
                            f"{type(self.X_BP).__name__}")
        for name in ("thrust_ratio", "moment_ratio"):
            if not np.isfinite(getattr(self, name)):
                raise ValueError(f"PropellerInfo: {name} must be finite, got "
                                 f"{getattr(self, name)!r}")


class Propeller(LeafSystem):
    """Propellers' forces for a MultibodyPlant (see the module docstring).

    Parameters
    ----------
    body_index : int or list of PropellerInfo
        The body of a single propeller, or the list of all propellers.
    X_BP, thrust_ratio, moment_ratio :
        The single propeller's pose on the body and ratios (see `PropellerInfo`).
    """

    def __init__(self, body_index, X_BP=None, thrust_ratio=1.0, moment_ratio=0.0):
        super().__init__()
        if isinstance(body_index, (list, tuple)):
            infos = [copy.copy(info) for info in body_index]
            if not infos or not all(isinstance(i, PropellerInfo) for i in infos):
                raise TypeError("Propeller: give a body index or a non-empty list of "
                                "PropellerInfo")
        else:
            infos = [PropellerInfo(int(body_index), X_BP, thrust_ratio, moment_ratio)]
        self._infos = infos
        self._command = self.declare_vector_input_port("command", len(infos))
        self._poses = self.declare_abstract_input_port("body_poses", [])
        self._forces = self.declare_abstract_output_port(
            "spatial_forces", list, self._calc, [self.all_input_ports_ticket()])

    def num_propellers(self) -> int:
        """The number of propellers."""
        return len(self._infos)

    def get_command_input_port(self):
        """``command`` (vector, one entry per propeller)."""
        return self._command

    def get_body_poses_input_port(self):
        """``body_poses`` (list of X_WB, by body index: the plant's ``body_poses``)."""
        return self._poses

    def get_spatial_forces_output_port(self):
        """``spatial_forces`` (list of ExternallyAppliedSpatialForce)."""
        return self._forces

    def _calc(self, context, output):
        u = self._command.eval(context)
        poses = self._poses.eval(context)
        forces = []
        for info, u_i in zip(self._infos, u):
            if not 0 <= info.body_index < len(poses):
                raise ValueError(f"Propeller: body_index {info.body_index} is not in "
                                 f"body_poses ({len(poses)} bodies)")
            R_WP = (poses[info.body_index].rotation() @ info.X_BP.rotation()).matrix()
            z_W = R_WP[:, 2]
            F = SpatialForce(info.moment_ratio * u_i * z_W, info.thrust_ratio * u_i * z_W)
            forces.append(ExternallyAppliedSpatialForce(info.body_index,
                                                        info.X_BP.translation(), F))
        output.set_value(forces)
