"""add_default_visualization: a Meshcat showing every SceneGraph of a DiagramBuilder
(illustration geometry, plus the proximity geometry hidden) and the contact forces of
every system with a contact results output (Drake's AddDefaultVisualization)."""

from __future__ import annotations

__all__ = ["add_default_visualization"]


def add_default_visualization(builder, meshcat=None, publish_period=1.0 / 64.0):
    """Add visualizers for the systems already in `builder` (before ``build()``).

    Parameters
    ----------
    builder : DiagramBuilder
    meshcat : Meshcat, optional
        A new Meshcat (no live server) when None.
    publish_period : float

    Returns
    -------
    Meshcat
        The Meshcat drawn into (record with ``meshcat.start_recording()``).

    Raises
    ------
    ValueError
        When `builder` holds no SceneGraph.
    """
    from merganser.geometry.scene_graph import SceneGraph
    from merganser.geometry.visualization.contact_visualizer import (ContactVisualizer,
                                                           ContactVisualizerParams)
    from merganser.geometry.visualization.meshcat import Meshcat
    from merganser.geometry.visualization.meshcat_visualizer import (MeshcatVisualizer,
                                                           MeshcatVisualizerParams)

    systems = list(builder.get_systems())
    scene_graphs = [s for s in systems if isinstance(s, SceneGraph)]
    if not scene_graphs:
        raise ValueError("add_default_visualization: builder has no SceneGraph; add one "
                         "(e.g. with add_multibody_plant_scene_graph) first")
    meshcat = Meshcat() if meshcat is None else meshcat
    for scene_graph in scene_graphs:
        MeshcatVisualizer.add_to_builder(builder, scene_graph, meshcat,
                                         MeshcatVisualizerParams(publish_period=publish_period))
        MeshcatVisualizer.add_to_builder(
            builder, scene_graph, meshcat,
            MeshcatVisualizerParams(publish_period=publish_period, role="proximity",
                                    default_color=[0.4, 0.6, 1.0, 0.5],
                                    visible_by_default=False))
    for system in systems:
        if hasattr(system, "get_contact_results_output_port") and getattr(
                system, "is_finalized", lambda: False)():
            ContactVisualizer.add_to_builder(
                builder, system, meshcat, ContactVisualizerParams(publish_period=publish_period))
    return meshcat
