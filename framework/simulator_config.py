"""SimulatorConfig: the serializable settings of a Simulator (Drake's SimulatorConfig).

``apply_simulator_config(config, simulator)`` and ``reset_integrator_from_flags(simulator,
scheme, max_step_size)`` configure a Simulator through these of its methods only:
``get_system()``, ``get_mutable_context()`` (then ``set_time`` on it),
``reset_integrator(integrator)``, ``set_target_realtime_rate(r)`` and
``set_publish_every_time_step(b)``.
"""

from pydantic import ConfigDict, Field, field_validator, model_validator

from .config_model import ConfigModel
from .integrators import INTEGRATION_SCHEMES, make_integrator


class SimulatorConfig(ConfigModel):
    """Integrator and pacing settings of a simulation.

    Attributes
    ----------
    integration_scheme : str
        One of ``INTEGRATION_SCHEMES`` (default ``"runge_kutta3"``).
    max_step_size : float
        Largest integration step (s, > 0); the step of fixed-step schemes.
    accuracy : float
        Target accuracy of error-controlled schemes (> 0); see step_size_control.
    use_error_control : bool
        False runs an error-controlled scheme in fixed-step mode.
    start_time : float
        Context time set when the config is applied (s).
    target_realtime_rate : float
        Pace the simulation at this multiple of real time (0 = as fast as possible).
    publish_every_time_step : bool
        Publish after every integration step, not only at publish events.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    integration_scheme: str = "runge_kutta3"
    max_step_size: float = Field(0.1, gt=0.0, allow_inf_nan=False)
    accuracy: float = Field(1e-4, gt=0.0, allow_inf_nan=False)
    use_error_control: bool = True
    start_time: float = Field(0.0, allow_inf_nan=False)
    target_realtime_rate: float = Field(0.0, ge=0.0, allow_inf_nan=False)
    publish_every_time_step: bool = False

    @model_validator(mode="before")
    @classmethod
    def _known_fields(cls, data):
        if isinstance(data, dict):
            unknown = [k for k in data if k not in cls.model_fields]
            if unknown:
                raise ValueError(
                    f"SimulatorConfig: unknown field(s) {', '.join(map(repr, unknown))}; valid "
                    f"fields: {', '.join(cls.model_fields)}")
        return data

    @field_validator("integration_scheme")
    @classmethod
    def _known_scheme(cls, scheme):
        if scheme not in INTEGRATION_SCHEMES:
            raise ValueError(
                f"SimulatorConfig: integration_scheme {scheme!r} is not a known scheme; "
                f"valid schemes: {', '.join(INTEGRATION_SCHEMES)}")
        return scheme


def get_integration_schemes():
    """The names ``reset_integrator_from_flags`` and ``SimulatorConfig`` accept (Drake's
    GetIntegrationSchemes), as a list of str."""
    return list(INTEGRATION_SCHEMES)


def extract_simulator_config(simulator):
    """The SimulatorConfig that reproduces ``simulator``'s settings (Drake's
    ExtractSimulatorConfig): ``apply_simulator_config(extract_simulator_config(a), b)``
    configures ``b`` like ``a``.

    Parameters
    ----------
    simulator : Simulator
        Read through ``get_integrator()``, ``get_context()``,
        ``get_target_realtime_rate()`` and ``get_publish_every_time_step()``.

    Returns
    -------
    SimulatorConfig
        ``integration_scheme`` and ``max_step_size`` of the integrator; for schemes with an
        error estimate ``use_error_control = not fixed_step_mode`` and ``accuracy`` = the
        accuracy in use, otherwise ``use_error_control = False`` and the default accuracy
        (Drake reports 0, which this config does not accept); ``start_time`` = the
        context's time.
    """
    integrator = simulator.get_integrator()
    scheme = getattr(integrator, "scheme_name", "")
    if scheme not in INTEGRATION_SCHEMES:
        raise ValueError(
            f"extract_simulator_config: the simulator's integrator "
            f"{type(integrator).__name__} is not one of the named schemes "
            f"({', '.join(INTEGRATION_SCHEMES)})")
    fields = dict(integration_scheme=scheme, max_step_size=integrator.get_maximum_step_size(),
                  target_realtime_rate=simulator.get_target_realtime_rate(),
                  publish_every_time_step=simulator.get_publish_every_time_step(),
                  start_time=simulator.get_context().get_time())
    if integrator.supports_error_estimation():
        fields["use_error_control"] = not integrator.get_fixed_step_mode()
        accuracy = integrator.get_target_accuracy()
        fields["accuracy"] = integrator.get_accuracy_in_use() if accuracy is None else accuracy
    else:
        fields["use_error_control"] = False
    return SimulatorConfig(**fields)


def reset_integrator_from_flags(simulator, scheme, max_step_size):
    """Give ``simulator`` a new integrator of ``scheme`` (Drake's ResetIntegratorFromFlags).

    Parameters
    ----------
    simulator : Simulator
        Uses ``get_system()``, ``get_mutable_context()`` and ``reset_integrator(integrator)``.
    scheme : str
        One of ``INTEGRATION_SCHEMES``.
    max_step_size : float
        Maximum step size (s, > 0).

    Returns
    -------
    IntegratorBase
        The new integrator (now owned by the simulator).
    """
    integrator = make_integrator(scheme, simulator.get_system(),
                                 simulator.get_mutable_context(), max_step_size)
    simulator.reset_integrator(integrator)
    return integrator


def apply_simulator_config(config, simulator):
    """Configure ``simulator`` from ``config`` (Drake's ApplySimulatorConfig).

    Resets the integrator (``reset_integrator_from_flags``); for schemes with an error
    estimate, sets fixed-step mode to ``not use_error_control`` and the target accuracy
    (in fixed-step mode the accuracy still sets the Newton tolerance of the implicit
    schemes); sets the context time to ``start_time``, the target realtime rate and
    publish-every-time-step.

    Parameters
    ----------
    config : SimulatorConfig
    simulator : Simulator
        Uses ``get_system()``, ``get_mutable_context()``, ``reset_integrator``,
        ``set_target_realtime_rate`` and ``set_publish_every_time_step``.
    """
    if not isinstance(config, SimulatorConfig):
        raise TypeError(
            f"apply_simulator_config: config must be a SimulatorConfig, got "
            f"{type(config).__name__}")
    integrator = reset_integrator_from_flags(simulator, config.integration_scheme,
                                             config.max_step_size)
    if integrator.supports_error_estimation():
        integrator.set_fixed_step_mode(not config.use_error_control)
        integrator.set_target_accuracy(config.accuracy)
    simulator.get_mutable_context().set_time(config.start_time)
    simulator.set_target_realtime_rate(config.target_realtime_rate)
    simulator.set_publish_every_time_step(config.publish_every_time_step)
    return integrator
