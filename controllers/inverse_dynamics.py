"""InverseDynamics: generalized forces for desired accelerations, or gravity compensation
(Drake's InverseDynamics)."""

from merganser.framework import LeafSystem
from merganser.multibody.tree.choice_enum import ChoiceEnum

from ._control_model import ControlModel
from ._validation import check_finalized_plant


class InverseDynamicsMode(ChoiceEnum):
    """Drake's InverseDynamics::InverseDynamicsMode; each member equals its string.

    Attributes
    ----------
    kInverseDynamics : "inverse_dynamics"
        Full inverse dynamics for a desired acceleration.
    kGravityCompensation : "gravity_compensation"
        Only −τ_g(q) (no desired_acceleration port).
    """

    kInverseDynamics = "inverse_dynamics"
    kGravityCompensation = "gravity_compensation"


INVERSE_DYNAMICS = InverseDynamicsMode.kInverseDynamics
GRAVITY_COMPENSATION = InverseDynamicsMode.kGravityCompensation


class InverseDynamics(LeafSystem):
    """Inverse dynamics of a MultibodyPlant (Drake's InverseDynamics).

    ::

             estimated_state ──▶ ┌─────────────────┐
        desired_acceleration ──▶ │ InverseDynamics │ ──▶ generalized_force
                                 └─────────────────┘

    In ``"inverse_dynamics"`` mode, with x = [q; v] from ``estimated_state`` and v̇_d from
    ``desired_acceleration``::

        generalized_force = M(q) v̇_d + C(q, v) v − τ_g(q) − τ_app(q, v)

    where τ_app are the plant's force elements and joint damping (−D v), so that applying
    it to the plant (as actuation or applied generalized force) produces v̇_d. In
    ``"gravity_compensation"`` mode there is no ``desired_acceleration`` port and
    ``generalized_force = −τ_g(q)``. The output has direct feedthrough from every input.

    Each controller Context holds its own plant Context (a cache entry updated from
    ``estimated_state``), so contexts of this system never share plant state. For a model
    whose only force element is gravity the output comes straight from the plant's
    compiled inverse-dynamics kernel instead, with the same values (see
    ``controllers._control_model``).

    Parameters
    ----------
    plant : MultibodyPlant
        The finalized control model (need not be the simulated plant).
    mode : InverseDynamicsMode or str
        ``InverseDynamics.InverseDynamicsMode.kInverseDynamics`` (or
        ``"inverse_dynamics"``, the default) or ``kGravityCompensation``
        (``"gravity_compensation"``).
    plant_context : Context, optional
        A context of ``plant`` whose parameters (masses, inertias) the model uses.

    Raises
    ------
    ValueError
        For an unknown mode or a context of another plant.
    RuntimeError
        If the plant is not finalized.
    """

    InverseDynamicsMode = InverseDynamicsMode
    kInverseDynamics = INVERSE_DYNAMICS
    kGravityCompensation = GRAVITY_COMPENSATION

    def __init__(self, plant, mode=INVERSE_DYNAMICS, plant_context=None):
        super().__init__()
        fn = "InverseDynamics"
        mode = InverseDynamicsMode.coerce(fn, "mode", mode)
        check_finalized_plant(fn, plant)
        self._mode = mode
        nq, nv = plant.num_positions(), plant.num_velocities()
        self._estimated = self.declare_vector_input_port("estimated_state", nq + nv)
        self._model = ControlModel(fn, self, plant, self._estimated, plant_context,
                                   zero_velocities=mode == GRAVITY_COMPENSATION)
        self._desired = (self.declare_vector_input_port("desired_acceleration", nv)
                         if mode == INVERSE_DYNAMICS else None)
        self._output = self.declare_vector_output_port(
            "generalized_force", nv, self._calc_generalized_force,
            [self.all_input_ports_ticket()])

    # ---- accessors -----------------------------------------------------------------------------
    def is_pure_gravity_compensation(self):
        """True in ``"gravity_compensation"`` mode."""
        return self._mode == GRAVITY_COMPENSATION

    def get_input_port_estimated_state(self):
        """Input x = [q; v] (nq + nv,)."""
        return self._estimated

    def get_input_port_desired_acceleration(self):
        """Input v̇_d (nv,); raises in gravity compensation mode."""
        if self._desired is None:
            raise RuntimeError("InverseDynamics.get_input_port_desired_acceleration: there is no "
                               "desired_acceleration port in gravity compensation mode")
        return self._desired

    def get_output_port_generalized_force(self):
        """Output τ (nv,)."""
        return self._output

    def get_multibody_plant(self):
        """The control model."""
        return self._model.plant

    # ---- computation ---------------------------------------------------------------------------
    def _calc_generalized_force(self, context, output):
        if self._desired is None:
            output.set_value(self._model.gravity_compensation(context))
        else:
            output.set_value(self._model.inverse_dynamics(context, self._desired.eval(context)))
