import numpy as np
from merganser.multibody import BatchedPlant, MultibodyPlant, Parser

plant = MultibodyPlant(time_step=0.0)
Parser(plant).add_models("tests/data/models/drake/acrobot/Acrobot.urdf")
plant.finalize()

envs = BatchedPlant(plant, 1000, time_step=1e-3)          # defined in merganser.multibody.batched_plant
envs.set_positions(np.array([0.1, 0.0]))                 # (1000, nq) or (nq,)
gain = np.array([[-5.0, 0.0, -1.0, 0.0]])                # u = K x, one gain for every env
for _ in range(500):
    envs.step(envs.get_state() @ gain.T)                 # u: (1000, nu)
print(envs.get_positions().shape)                        # (1000, 2)
