"""geometry.visualization: a Meshcat scene with recording and self-contained HTML replay,
the MeshcatVisualizer of a SceneGraph, contact-force arrows and
`add_default_visualization`."""

from merganser.geometry.visualization.contact_visualizer import ContactVisualizer, ContactVisualizerParams
from merganser.geometry.visualization.default_visualization import add_default_visualization
from merganser.geometry.visualization.meshcat import Meshcat, MeshcatUnavailableError
from merganser.geometry.visualization.meshcat_animation import MeshcatAnimation
from merganser.geometry.visualization.meshcat_visualizer import MeshcatVisualizer, MeshcatVisualizerParams

__all__ = ["ContactVisualizer", "ContactVisualizerParams", "Meshcat", "MeshcatAnimation",
           "MeshcatUnavailableError", "MeshcatVisualizer", "MeshcatVisualizerParams",
           "add_default_visualization"]
