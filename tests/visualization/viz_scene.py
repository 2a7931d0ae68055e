"""A minimal scene for the visualizer tests: a SceneGraph with one source whose frame
"mover" carries a red box and slides along x (x = t m), plus a green sphere anchored at
(0, 0.6, 0.2), drawn by a MeshcatVisualizer fed by a pose-source LeafSystem."""

import numpy as np

from merganser.framework import DiagramBuilder, LeafSystem
from merganser.geometry import (Box, FramePoseVector, GeometryFrame, GeometryInstance,
                      IllustrationProperties, RigidTransform, SceneGraph, Sphere)
from merganser.geometry.visualization import Meshcat, MeshcatVisualizer, MeshcatVisualizerParams

RED = [1.0, 0.0, 0.0, 1.0]
GREEN = [0.0, 0.8, 0.0, 1.0]


def illustrated(shape, name, rgba, X=None):
    g = GeometryInstance(RigidTransform() if X is None else X, shape, name)
    props = IllustrationProperties()
    props.add_property("phong", "diffuse", np.array(rgba))
    g.set_illustration_properties(props)
    return g


class SlidingPose(LeafSystem):
    """Outputs the FramePoseVector X_WF = translation (t, 0, 0.1) of one frame."""

    def __init__(self, frame_id):
        super().__init__()
        self._frame_id = frame_id
        self.declare_abstract_output_port("poses", FramePoseVector, self._calc)

    def _calc(self, context, value):
        poses = FramePoseVector()
        poses.set_value(self._frame_id, RigidTransform([context.get_time(), 0.0, 0.1]))
        value.set_value(poses)


def build(publish_period=0.05):
    """(diagram, meshcat, visualizer) of the scene."""
    builder = DiagramBuilder()
    scene_graph = builder.add_system(SceneGraph())
    source = scene_graph.register_source("toy")
    frame = scene_graph.register_frame(source, GeometryFrame("mover"))
    scene_graph.register_geometry(source, frame, illustrated(Box(0.4, 0.4, 0.2), "red_box", RED))
    scene_graph.register_anchored_geometry(
        source, illustrated(Sphere(0.15), "green_ball", GREEN, RigidTransform([0.0, 0.6, 0.2])))
    pose = builder.add_system(SlidingPose(frame))
    builder.connect(pose.get_output_port(0), scene_graph.get_source_pose_port(source))
    meshcat = Meshcat()
    visualizer = MeshcatVisualizer.add_to_builder(
        builder, scene_graph, meshcat, MeshcatVisualizerParams(publish_period=publish_period))
    return builder.build(), meshcat, visualizer


def page_commands(page):
    """The scene commands embedded in an exported page (`Meshcat.static_html`): its JSON
    list of msgpack data URIs, decoded."""
    import base64
    import json
    import re

    import umsgpack

    uris = json.loads(re.search(r'id="merganser-commands">(.*?)</script>', page,
                                re.S).group(1))
    return [umsgpack.unpackb(base64.b64decode(uri.split(",", 1)[1])) for uri in uris]
