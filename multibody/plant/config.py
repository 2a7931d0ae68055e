"""MultibodyPlantConfig and the helpers that add a configured plant to a diagram
(Drake's multibody_plant_config.h and AddMultibodyPlant / AddMultibodyPlantSceneGraph).

``add_multibody_plant`` and ``add_multibody_plant_scene_graph`` add a SceneGraph (or use
the one given), register the plant as its geometry source and connect the geometry ports
(`multibody.plant.plant_geometry.connect_plant_and_scene_graph`).
"""

import difflib

from pydantic import ConfigDict, Field, field_validator, model_validator

from merganser.framework.config_model import ConfigModel
from merganser.geometry import HydroelasticContactRepresentation, SceneGraph, SceneGraphConfig
from merganser.multibody.plant.plant_geometry import connect_plant_and_scene_graph
from merganser.multibody.plant.enums import ContactModel, DiscreteContactApproximation
from merganser.multibody.plant.multibody_plant import MultibodyPlant

__all__ = ["MultibodyPlantConfig", "add_multibody_plant", "add_multibody_plant_scene_graph",
           "apply_multibody_plant_config"]


class MultibodyPlantConfig(ConfigModel):
    """The serializable settings of a MultibodyPlant.

    Attributes
    ----------
    time_step : float
        Discrete period (s), >= 0; 0 makes a continuous plant.
    penetration_allowance : float
        Penetration (m, > 0) that sets the default point-contact stiffness.
    stiction_tolerance : float
        Slip speed (m/s, > 0) below which regularized friction acts as stiction.
    contact_model : str
        ``"point"``, ``"hydroelastic"`` or ``"hydroelastic_with_fallback"``; a
        `ContactModel` member is accepted and stored as its string.
    discrete_contact_approximation : str
        ``"tamsi"``, ``"sap"``, ``"similar"``, ``"lagged"`` or ``"lcp"``; a
        `DiscreteContactApproximation` member is accepted and stored as its string.
    sap_near_rigid_threshold : float
        β >= 0 of SAP's near-rigid regime (Drake's default 1; see
        `MultibodyPlant.set_sap_near_rigid_threshold`).
    contact_surface_representation : str
        ``"polygon"`` or ``"triangle"``: how hydroelastic contact surfaces are reported
        (Drake's field; default ``"polygon"``).
    adjacent_bodies_collision_filters : bool
        Filter collisions between the two bodies of each joint (Drake's field; default
        True).
    use_sampled_output_ports : bool
        Drake's field; merganser computes a discrete plant's outputs from the current
        state, so its default is False and True raises when applied to a discrete plant.

    Notes
    -----
    An unknown keyword raises ValueError listing the fields; Drake's old name
    ``discrete_contact_solver`` says that ``discrete_contact_approximation`` holds the
    solver choice.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    time_step: float = Field(0.001, ge=0.0, allow_inf_nan=False)
    penetration_allowance: float = Field(0.001, gt=0.0, allow_inf_nan=False)
    stiction_tolerance: float = Field(1e-4, gt=0.0, allow_inf_nan=False)
    contact_model: str = "hydroelastic_with_fallback"
    discrete_contact_approximation: str = "sap"
    sap_near_rigid_threshold: float = Field(1.0, ge=0.0, allow_inf_nan=False)
    contact_surface_representation: str = "polygon"
    adjacent_bodies_collision_filters: bool = True
    use_sampled_output_ports: bool = False

    @model_validator(mode="before")
    @classmethod
    def _known_fields(cls, data):
        if isinstance(data, dict):
            for key in data:
                if key in _RENAMED_FIELDS:
                    raise ValueError(f"MultibodyPlantConfig: unknown keyword {key!r}; use "
                                     f"{_RENAMED_FIELDS[key]}")
                if key not in cls.model_fields:
                    close = difflib.get_close_matches(str(key), list(cls.model_fields), n=1)
                    hint = f"; did you mean {close[0]!r}?" if close else ""
                    raise ValueError(f"MultibodyPlantConfig: unknown keyword {key!r}{hint} "
                                     f"(valid keywords: {', '.join(cls.model_fields)})")
        return data

    @field_validator("contact_surface_representation", mode="before")
    @classmethod
    def _known_representation(cls, value):
        if isinstance(value, HydroelasticContactRepresentation):
            value = value.name[1:].lower()          # kPolygon -> "polygon"
        if value not in ("polygon", "triangle"):
            raise ValueError(f"MultibodyPlantConfig: contact_surface_representation must be "
                             f"'polygon' or 'triangle', got {value!r}")
        return value

    @field_validator("contact_model", mode="before")
    @classmethod
    def _known_contact_model(cls, value):
        return ContactModel.coerce("MultibodyPlantConfig", "contact_model", value).value

    @field_validator("discrete_contact_approximation", mode="before")
    @classmethod
    def _known_approximation(cls, value):
        return DiscreteContactApproximation.coerce(
            "MultibodyPlantConfig", "discrete_contact_approximation", value).value


#: Names a Drake user may try, and the field that holds that setting.
_RENAMED_FIELDS = {
    "discrete_contact_solver": (
        "'discrete_contact_approximation' (Drake replaced discrete_contact_solver by "
        "discrete_contact_approximation: 'tamsi', 'sap', 'similar', 'lagged', or merganser's "
        "'lcp')"),
}


def apply_multibody_plant_config(config, plant):
    """Apply `config` (except time_step, fixed at construction) to an unfinalized `plant`."""
    if not isinstance(config, MultibodyPlantConfig):
        raise TypeError(f"apply_multibody_plant_config: config must be a MultibodyPlantConfig, "
                        f"got {type(config).__name__}")
    plant.set_contact_model(config.contact_model)
    plant.set_discrete_contact_approximation(config.discrete_contact_approximation)
    plant.set_penetration_allowance(config.penetration_allowance)
    plant.set_stiction_tolerance(config.stiction_tolerance)
    plant.set_sap_near_rigid_threshold(config.sap_near_rigid_threshold)
    plant.set_contact_surface_representation(
        HydroelasticContactRepresentation.kPolygon
        if config.contact_surface_representation == "polygon"
        else HydroelasticContactRepresentation.kTriangle)
    plant.set_adjacent_bodies_collision_filters(config.adjacent_bodies_collision_filters)
    plant.set_use_sampled_output_ports(config.use_sampled_output_ports)


def add_multibody_plant(config=None, builder=None, scene_graph=None, *, plant_config=None,
                        scene_graph_config=None):
    """Add a MultibodyPlant configured by `config` to `builder`, named ``"plant"``.

    Parameters
    ----------
    config : MultibodyPlantConfig
        (``plant_config=`` in pydrake's three-argument form.)
    builder : DiagramBuilder
    scene_graph : SceneGraph, optional
        An existing SceneGraph (added to `builder` if needed); a new one when None.
    scene_graph_config : SceneGraphConfig, optional
        pydrake's ``AddMultibodyPlant(plant_config, scene_graph_config, builder)``: the new
        SceneGraph's config (also accepted positionally in that order).

    Returns
    -------
    (MultibodyPlant, SceneGraph)
        The plant, registered as a geometry source of the scene graph, ports connected.
    """
    if isinstance(builder, SceneGraphConfig):           # (plant_config, sg_config, builder)
        scene_graph_config, builder, scene_graph = builder, scene_graph, None
    if plant_config is not None:
        if config is not None:
            raise TypeError("add_multibody_plant: give config or plant_config, not both")
        config = plant_config
    if scene_graph_config is not None:
        if scene_graph is not None:
            raise TypeError("add_multibody_plant: give scene_graph or scene_graph_config, "
                            "not both")
        scene_graph = SceneGraph(config=scene_graph_config)
    if builder is None:
        raise TypeError("add_multibody_plant: builder is required")
    if not isinstance(config, MultibodyPlantConfig):
        raise TypeError(f"add_multibody_plant: config must be a MultibodyPlantConfig, got "
                        f"{type(config).__name__}")
    plant = MultibodyPlant(config.time_step)
    plant.set_name("plant")
    apply_multibody_plant_config(config, plant)
    builder.add_system(plant)
    return plant, connect_plant_and_scene_graph(plant, builder, scene_graph)


_UNSET = object()


def add_multibody_plant_scene_graph(builder, time_step=_UNSET, scene_graph=None, *,
                                    plant=_UNSET):
    """Add a MultibodyPlant named ``"plant"`` to `builder`, with a SceneGraph.

    Drake's two overloads: ``(builder, time_step, scene_graph=None)`` makes a new
    ``MultibodyPlant(time_step)``; ``(builder, plant, scene_graph=None)`` (the plant by
    position or as ``plant=``) adds the given, not yet finalized plant, renamed
    ``"plant"`` as Drake does.

    Returns ``(plant, scene_graph)``: `scene_graph` (a new SceneGraph when None) with the
    plant registered as its geometry source and the geometry ports connected.

    Raises
    ------
    TypeError
        Neither or both of a time step and a plant given, or a plant that is not a
        MultibodyPlant.
    RuntimeError
        The plant is finalized (it can no longer register geometry) or already belongs
        to a builder (`DiagramBuilder.add_system`'s error).
    """
    fn = "add_multibody_plant_scene_graph"
    if isinstance(time_step, MultibodyPlant):
        if plant is not _UNSET:
            raise TypeError(f"{fn}: the plant was given twice (by position and as plant=)")
        time_step, plant = _UNSET, time_step
    if (time_step is _UNSET) == (plant is _UNSET):
        raise TypeError(f"{fn}: expected exactly one of time_step (a number) or plant (a "
                        f"MultibodyPlant), got "
                        f"{'neither' if time_step is _UNSET else 'both'}")
    if plant is _UNSET:
        plant = MultibodyPlant(time_step)
    elif not isinstance(plant, MultibodyPlant):
        raise TypeError(f"{fn}: plant must be a MultibodyPlant, got {type(plant).__name__}")
    elif plant.is_finalized():
        raise RuntimeError(f"{fn}: plant {plant.get_name()!r} is already finalized; add it "
                           f"(and register its geometry) before finalize()")
    elif plant.geometry_source_is_registered():
        raise RuntimeError(f"{fn}: plant {plant.get_name()!r} is already registered with a "
                           f"SceneGraph; a plant has one")
    builder.add_system(plant)
    plant.set_name("plant")
    return plant, connect_plant_and_scene_graph(plant, builder, scene_graph)
