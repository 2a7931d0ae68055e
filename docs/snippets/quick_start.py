import numpy as np
from merganser.framework import DiagramBuilder, SimulatorConfig
from merganser.framework.plotting import plot_simulation_result, save_figure
from merganser.multibody import add_multibody_plant_scene_graph
from merganser.multibody.parsing import Parser
from merganser.controllers import linear_quadratic_regulator

builder = DiagramBuilder()
plant, scene_graph = add_multibody_plant_scene_graph(builder, time_step=0.0)
Parser(plant, scene_graph).add_models("tests/data/models/drake/acrobot/Acrobot.urdf")
plant.finalize()

upright = plant.create_default_context()                 # linearize about x* = [π, 0, 0, 0]
plant.set_positions(upright, [np.pi, 0.0])
plant.get_actuation_input_port().fix_value(upright, [0.0])
lqr = builder.add_system(linear_quadratic_regulator(
    plant, upright, Q=np.diag([10.0, 10.0, 1.0, 1.0]), R=np.eye(1),
    input_port_index=plant.get_actuation_input_port().get_index()))
builder.connect(plant.get_state_output_port(), lqr.get_input_port())
builder.connect(lqr.get_output_port(), plant.get_actuation_input_port())
diagram = builder.build()

context = diagram.create_default_context()
plant.set_positions(plant.get_my_context_from_root(context), [np.pi + 0.05, -0.05])
result = diagram.simulate(5.0, context=context, config=SimulatorConfig(accuracy=1e-6),
                          record={"x": plant.get_state_output_port()})
save_figure(plot_simulation_result(result, signals={"x": ["q1", "q2", "v1", "v2"]}), "x.png")
