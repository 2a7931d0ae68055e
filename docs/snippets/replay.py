import numpy as np
from merganser.controllers import linear_quadratic_regulator
from merganser.framework import DiagramBuilder
from merganser.geometry import Meshcat
from merganser.geometry.visualization import add_default_visualization
from merganser.multibody import Parser, add_multibody_plant_scene_graph

builder = DiagramBuilder()
plant, scene_graph = add_multibody_plant_scene_graph(builder, time_step=0.0)
Parser(plant, scene_graph).add_models("tests/data/models/drake/acrobot/Acrobot.urdf")
plant.finalize()
upright = plant.create_default_context()
plant.set_positions(upright, [np.pi, 0.0])
plant.get_actuation_input_port().fix_value(upright, [0.0])
lqr = builder.add_system(linear_quadratic_regulator(
    plant, upright, Q=np.diag([10.0, 10.0, 1.0, 1.0]), R=np.eye(1),
    input_port_index=plant.get_actuation_input_port().get_index()))
builder.connect(plant.get_state_output_port(), lqr.get_input_port())
builder.connect(lqr.get_output_port(), plant.get_actuation_input_port())
meshcat = Meshcat()
visualizer = add_default_visualization(builder, meshcat)
diagram = builder.build()

meshcat.set_camera_pose([0.0, -7.5, 1.0], [0.0, 0.0, 1.0])   # the upright arm reaches z = 3 m
context = diagram.create_default_context()
plant.set_positions(plant.get_my_context_from_root(context), [np.pi + 0.05, -0.05])
meshcat.start_recording()
diagram.simulate(3.0, context=context)
meshcat.stop_recording()
meshcat.publish_recording()
meshcat.save_static_html("run.html")                        # open it in any browser
