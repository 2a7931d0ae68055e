"""pydrake's visualization helpers: ModelVisualizer, VisualizationConfig /
apply_visualization_config, and the hydroelastic arrows of ContactVisualizerParams."""

import warnings
from types import SimpleNamespace

import numpy as np
import pytest

from merganser.framework import DiagramBuilder
from merganser.geometry import (ContactVisualizer, ContactVisualizerParams, Meshcat,
                                MeshcatVisualizer, Rgba, VisualizationConfig,
                                apply_visualization_config)
from merganser.multibody import ModelVisualizer, add_multibody_plant_scene_graph

BOX = """<?xml version="1.0"?><sdf version="1.7"><model name="box"><link name="b">
  <visual name="v"><geometry><box><size>0.1 0.2 0.3</size></box></geometry></visual>
  <collision name="c"><geometry><box><size>0.1 0.2 0.3</size></box></geometry></collision>
</link></model></sdf>"""


def test_model_visualizer_draws_the_parsed_model_and_its_frames():
    meshcat = Meshcat()
    visualizer = ModelVisualizer(meshcat=meshcat, visualize_frames=True)
    visualizer.parser().add_models_from_string(BOX, "sdf")
    visualizer.run(loop_once=True)
    paths = meshcat.object_paths()
    assert "/merganser/illustration/plant/box/b/v" in paths
    assert "/merganser/proximity/plant/box/b/c" in paths
    assert {f"/frames/box/b/{a}-axis" for a in "xyz"} <= set(paths)
    q = np.array([1.0, 0.0, 0.0, 0.0, 0.5, -0.25, 0.1])        # a free body: quaternion, p
    visualizer.run(position=q, loop_once=True)
    np.testing.assert_allclose(meshcat.get_transform("/frames/box/b")[:3, 3], q[4:])
    with pytest.warns(UserWarning, match="no interactive loop: the model was published once"):
        visualizer.run()
    with pytest.raises(ValueError, match="position must have 7 values .* got 2"):
        visualizer.run(position=[0.0, 1.0], loop_once=True)
    with pytest.raises(RuntimeError, match="ModelVisualizer.add_models: already finalized"):
        visualizer.add_models(url="package://x/y.sdf")
    with pytest.raises(NotImplementedError, match="pyplot=True is not supported"):
        ModelVisualizer(pyplot=True)


def test_apply_visualization_config_adds_what_the_config_asks_for():
    def visualizers(config):
        builder = DiagramBuilder()
        plant, _ = add_multibody_plant_scene_graph(builder, 0.001)
        plant.finalize()                # as in Drake, after finalize (the contact port)
        meshcat = apply_visualization_config(config, builder, meshcat=Meshcat())
        for system in builder.get_systems():
            if isinstance(system, MeshcatVisualizer):     # pydrake's port name too
                assert system.query_object_input_port() is system.get_query_object_input_port()
        return meshcat, sorted(type(s).__name__ for s in builder.get_systems()
                               if isinstance(s, (MeshcatVisualizer, ContactVisualizer)))

    _, everything = visualizers(VisualizationConfig())
    assert everything == ["ContactVisualizer", "MeshcatVisualizer", "MeshcatVisualizer"]
    _, no_contacts = visualizers(VisualizationConfig(publish_contacts=False,
                                                     publish_proximity=False))
    assert no_contacts == ["MeshcatVisualizer"]
    config = VisualizationConfig(default_proximity_color=[0.1, 0.2, 0.3],
                                 initial_proximity_alpha=0.25)
    assert config.default_proximity_color == Rgba(0.1, 0.2, 0.3, 1.0)
    with pytest.raises(ValueError, match="lcm_bus: merganser has no LCM"):
        VisualizationConfig(lcm_bus="other")
    with pytest.raises(ValueError, match="initial_proximity_alpha"):
        VisualizationConfig(initial_proximity_alpha=2.0)
    with pytest.raises(RuntimeError, match="the builder has no system named 'scene_graph'"):
        apply_visualization_config(VisualizationConfig(), DiagramBuilder(), meshcat=Meshcat())
    builder = DiagramBuilder()
    add_multibody_plant_scene_graph(builder, 0.0)
    assert apply_visualization_config(VisualizationConfig(enable_meshcat_creation=False),
                                      builder) is None
    before = len(builder.get_systems())
    with pytest.raises(RuntimeError, match="the plant 'plant' is not finalized"):
        apply_visualization_config(VisualizationConfig(), builder, meshcat=Meshcat())
    assert len(builder.get_systems()) == before            # nothing added on a refusal


class _HydroResults:
    """A contact result with one hydroelastic contact: force f and moment tau at c."""

    def __init__(self, f, tau, c):
        F = SimpleNamespace(translational=lambda: np.asarray(f, float),
                            rotational=lambda: np.asarray(tau, float))
        self._info = SimpleNamespace(F_Ac_W=F, contact_surface=SimpleNamespace(centroid=c))

    def num_point_pair_contacts(self):
        return 0

    def num_hydroelastic_contacts(self):
        return 1

    def hydroelastic_contact_info(self, i):
        return self._info


def test_hydroelastic_contacts_draw_a_force_and_a_moment_arrow():
    meshcat = Meshcat()
    params = ContactVisualizerParams(newtons_per_meter=20.0, newton_meters_per_meter=2.0)
    assert params.color == [0.0, 1.0, 0.0, 1.0] and params.radius == 0.002   # Drake's
    arrows = ContactVisualizer(meshcat, params)
    context = arrows.create_default_context()
    port = arrows.get_contact_results_input_port()
    port.fix_value(context, _HydroResults([0.0, 0.0, 10.0], [0.0, 1.0, 0.0], [0.1, 0.0, 0.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        arrows.forced_publish(context)
    force = "/merganser/contact_forces/hydroelastic/force/0"
    moment = "/merganser/contact_forces/hydroelastic/moment/0"
    np.testing.assert_allclose(meshcat.get_transform(f"{force}/shaft"), np.diag([1, 1, 0.5, 1]))
    np.testing.assert_allclose(meshcat.get_transform(f"{moment}/shaft"), np.diag([1, 1, 0.5, 1]))
    np.testing.assert_allclose(meshcat.get_transform(moment)[:3, 2], [0.0, 1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(meshcat.get_transform(moment)[:3, 3], [0.1, 0.0, 0.0])
    port.fix_value(context, _HydroResults([0.0, 0.0, 10.0], [0.0, 1e-4, 0.0], [0.0, 0.0, 0.0]))
    arrows.forced_publish(context)                 # the moment is below its threshold now
    visible = {path: cmd["value"] for (path, prop), cmd in meshcat._properties.items()
               if prop == "visible"}
    assert visible == {force: True, moment: False}
    with pytest.raises(ValueError, match="params.radius must be > 0"):
        ContactVisualizer(meshcat, ContactVisualizerParams(radius=0.0))


def test_planar_scene_graph_visualizer_draws_projected_hulls_and_records():
    import matplotlib
    matplotlib.use("Agg")
    from merganser.framework import Simulator
    from merganser.geometry import Box, RigidTransform, Sphere, \
        connect_planar_scene_graph_visualizer
    from merganser.multibody import SpatialInertia

    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    ball = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    plant.register_visual_geometry(ball, RigidTransform(), Sphere(0.1), "ball", [1, 0, 0, 1])
    plant.register_visual_geometry(plant.world_body(), RigidTransform([0.5, 0.0, 0.0]),
                                   Box(0.2, 0.4, 0.6), "post", [0, 0, 1, 1])
    plant.finalize()
    visualizer = connect_planar_scene_graph_visualizer(builder, scene_graph, xlim=[-1, 1],
                                                       ylim=[-2, 1], show=False)
    simulator = Simulator(builder.build())
    visualizer.start_recording()
    simulator.advance_to(0.5)                            # a free fall: z = -g t² / 2
    visualizer.stop_recording()
    visualizer.draw(visualizer.get_my_context_from_root(simulator.get_context()))
    polygons = {tuple(np.round(p.get_facecolor()[:3], 3)): p.get_xy()
                for p in visualizer.ax.patches}
    post = polygons[(0.0, 0.0, 1.0)]                     # the box seen from -y: x-z rectangle
    np.testing.assert_allclose([post[:, 0].min(), post[:, 0].max(), post[:, 1].min(),
                                post[:, 1].max()], [0.4, 0.6, -0.3, 0.3], atol=1e-12)
    ball_xy = polygons[(1.0, 0.0, 0.0)]
    assert ball_xy[:, 1].mean() == pytest.approx(-9.81 * 0.5 ** 2 / 2, abs=0.01)
    assert ball_xy[:, 0].max() == pytest.approx(0.1, abs=1e-12)
    animation = visualizer.get_recording_as_animation(repeat=False)
    # as pydrake: the initialization publish and the periodic one at t = 0, then 1/32 .. 0.5
    assert len(list(animation.new_frame_seq())) == 18
    with warnings.catch_warnings():         # matplotlib's note on an animation never shown
        warnings.simplefilter("ignore", UserWarning)
        del animation
        import gc
        gc.collect()
