"""VisualizationConfig and apply_visualization_config: what a diagram's MultibodyPlant and
SceneGraph show in Meshcat (pydrake's ``pydrake.visualization.VisualizationConfig`` and
``ApplyVisualizationConfig``).

    apply_visualization_config(VisualizationConfig(publish_period=1 / 256.0,
                                                   publish_contacts=False),
                               builder, meshcat=meshcat)

adds, before ``builder.build()``, a MeshcatVisualizer of the illustration geometry, one of
the proximity geometry (hidden at first, drawn at ``initial_proximity_alpha``) and a
ContactVisualizer of the plant's contact forces, as the fields say.

Differences from Drake: there is no LCM, so ``lcm_bus`` must stay ``"default"`` and the
``lcm_buses`` / ``lcm`` arguments None (anything else raises NotImplementedError); Drake's
inertia layer (``publish_inertia``: each body's equivalent-inertia ellipsoid, hidden at
first) is not drawn; ``enable_alpha_sliders`` adds no sliders (merganser's viewer shows
none), so True raises NotImplementedError; a Meshcat made for lack of one
(``enable_meshcat_creation``) has no live server (`start_meshcat` gives one).
"""

from __future__ import annotations

from pydantic import ConfigDict, Field, field_validator

from merganser.framework.config_model import ConfigModel

from ..rgba import Rgba

__all__ = ["VisualizationConfig", "apply_visualization_config"]


def _rgba(value):
    if isinstance(value, Rgba):
        return value
    try:
        return Rgba(*[float(x) for x in value])
    except TypeError:
        raise ValueError(f"expected an Rgba or 3-4 numbers in [0, 1], got {value!r}") from None


class VisualizationConfig(ConfigModel):
    """The settings of `apply_visualization_config` (pydrake's VisualizationConfig; see
    the module docstring for what differs).

    Attributes
    ----------
    lcm_bus : str
        Only ``"default"`` (there is no LCM).
    publish_period : float
        Seconds between draws, > 0.
    publish_illustration, publish_proximity, publish_contacts : bool
        Draw the illustration geometry, the proximity geometry (hidden at first), the
        contact forces.
    default_illustration_color, default_proximity_color : Rgba
        Colors of geometry without its own.
    initial_proximity_alpha : float
        The proximity geometry's opacity, in [0, 1].
    publish_inertia : bool
        Accepted; the inertia layer is not drawn.
    enable_meshcat_creation : bool
        Make a Meshcat when `apply_visualization_config` is given none.
    delete_on_initialization_event : bool
        Clear the visualizers' paths when a simulation initializes.
    enable_alpha_sliders : bool
        Only False.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True,
                              arbitrary_types_allowed=True)

    lcm_bus: str = "default"
    publish_period: float = Field(1.0 / 64.0, gt=0.0)
    publish_illustration: bool = True
    default_illustration_color: Rgba = Field(default_factory=lambda: Rgba(0.9, 0.9, 0.9, 1.0))
    publish_proximity: bool = True
    default_proximity_color: Rgba = Field(default_factory=lambda: Rgba(0.8, 0.0, 0.0, 1.0))
    initial_proximity_alpha: float = Field(0.5, ge=0.0, le=1.0)
    publish_contacts: bool = True
    publish_inertia: bool = True
    enable_meshcat_creation: bool = True
    delete_on_initialization_event: bool = True
    enable_alpha_sliders: bool = False

    @field_validator("default_illustration_color", "default_proximity_color", mode="before")
    @classmethod
    def _color(cls, value):
        return _rgba(value)

    @field_validator("lcm_bus")
    @classmethod
    def _bus(cls, value):
        if value != "default":
            raise ValueError(f"lcm_bus: merganser has no LCM; only 'default' is accepted, got "
                             f"{value!r}")
        return value

    @field_validator("enable_alpha_sliders")
    @classmethod
    def _sliders(cls, value):
        if value:
            raise ValueError("enable_alpha_sliders: merganser's Meshcat viewer shows no "
                             "sliders; only False is accepted")
        return value


def _named(builder, name, kind, fn):
    matches = [s for s in builder.get_systems() if s.get_name() == name]
    if not matches:
        raise RuntimeError(f"{fn}: the builder has no system named {name!r} ({kind}); pass "
                           f"{kind}= or name it {name!r} (add_multibody_plant_scene_graph "
                           f"does)")
    return matches[0]


def apply_visualization_config(config, builder, lcm_buses=None, plant=None, scene_graph=None,
                               meshcat=None, lcm=None):
    """Add the Meshcat visualizers `config` asks for to `builder` (before ``build()``).

    Parameters
    ----------
    config : VisualizationConfig
    builder : DiagramBuilder
    lcm_buses, lcm : None
        pydrake's LCM arguments: only None.
    plant : MultibodyPlant, optional
        The plant whose contact forces are drawn; the builder's system named ``"plant"``
        when None (as Drake).
    scene_graph : SceneGraph, optional
        The builder's system named ``"scene_graph"`` when None.
    meshcat : Meshcat, optional
        Drawn into; a new one (no live server) when None and the config allows it.

    Returns
    -------
    Meshcat or None
        The Meshcat drawn into (None when none was given and creation is disabled: then
        nothing is added, as in Drake).

    Raises
    ------
    TypeError
        A `config` that is not a VisualizationConfig.
    NotImplementedError
        Non-None LCM arguments.
    RuntimeError
        No plant / scene graph given or found by name, or (with ``publish_contacts``) a
        plant not finalized yet; nothing is added to the builder then.
    """
    fn = "apply_visualization_config"
    from .contact_visualizer import ContactVisualizer, ContactVisualizerParams
    from .meshcat import Meshcat
    from .meshcat_visualizer import MeshcatVisualizer, MeshcatVisualizerParams

    if not isinstance(config, VisualizationConfig):
        raise TypeError(f"{fn}: config must be a VisualizationConfig, got "
                        f"{type(config).__name__}")
    for name, value in (("lcm_buses", lcm_buses), ("lcm", lcm)):
        if value is not None:
            raise NotImplementedError(f"{fn}: {name} must be None (merganser has no LCM)")
    if meshcat is None:
        if not config.enable_meshcat_creation:
            return None
        meshcat = Meshcat()
    scene_graph = scene_graph or _named(builder, "scene_graph", "scene_graph", fn)
    if config.publish_contacts:         # checked before anything is added to the builder
        plant = plant or _named(builder, "plant", "plant", fn)
        if not getattr(plant, "is_finalized", lambda: True)():
            raise RuntimeError(f"{fn}: the plant {plant.get_name()!r} is not finalized; its "
                               f"contact results (publish_contacts) exist after finalize(): "
                               f"call plant.finalize() first")
    period = config.publish_period
    deleting = config.delete_on_initialization_event
    if config.publish_illustration:
        MeshcatVisualizer.add_to_builder(builder, scene_graph, meshcat, MeshcatVisualizerParams(
            publish_period=period, role="illustration",
            default_color=config.default_illustration_color.rgba.tolist(),
            delete_on_initialization_event=deleting))
    if config.publish_proximity:
        r, g, b, _ = config.default_proximity_color.rgba.tolist()
        MeshcatVisualizer.add_to_builder(builder, scene_graph, meshcat, MeshcatVisualizerParams(
            publish_period=period, role="proximity",
            default_color=[r, g, b, config.initial_proximity_alpha],
            delete_on_initialization_event=deleting, visible_by_default=False))
    if config.publish_contacts:
        ContactVisualizer.add_to_builder(builder, plant, meshcat,
                                         ContactVisualizerParams(publish_period=period))
    return meshcat
