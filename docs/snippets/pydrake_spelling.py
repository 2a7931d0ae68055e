from merganser.pydrake_spelling import *       # in place of: from pydrake.all import *

builder = DiagramBuilder()
plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step=0.0)
Parser(plant).AddModels("tests/data/models/drake/acrobot/Acrobot.urdf")
plant.Finalize()
diagram = builder.Build()
context = diagram.CreateDefaultContext()
plant_context = plant.GetMyContextFromRoot(context)
plant.SetPositions(plant_context, [0.1, 0.2])
plant.get_actuation_input_port().FixValue(plant_context, [0.0])
Simulator(diagram, context).AdvanceTo(1.0)
print(plant.GetPositions(plant_context), plant.CalcMassMatrix(plant_context))
