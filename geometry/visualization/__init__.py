"""geometry.visualization: a Meshcat scene (configured by `MeshcatParams`, served live from
this process) with recording and self-contained HTML replay, the MeshcatVisualizer of a
SceneGraph, the MeshcatPointCloudVisualizer of a PointCloud, contact-force arrows,
`add_default_visualization` and `VisualizationConfig` / `apply_visualization_config`."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".contact_visualizer": ("ContactVisualizer", "ContactVisualizerParams"),
    ".default_visualization": ("add_default_visualization",),
    ".meshcat": ("Meshcat", "MeshcatUnavailableError", "start_meshcat"),
    ".meshcat_animation": ("MeshcatAnimation",),
    ".meshcat_params": ("MeshcatParams",),
    ".meshcat_point_cloud_visualizer": ("MeshcatPointCloudVisualizer",),
    ".meshcat_visualizer": ("MeshcatVisualizer", "MeshcatVisualizerParams"),
    ".planar_scenegraph_visualizer": ("PlanarSceneGraphVisualizer",
                                      "connect_planar_scene_graph_visualizer"),
    ".visualization_config": ("VisualizationConfig", "apply_visualization_config"),
})
