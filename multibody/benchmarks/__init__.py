"""Reference models built in code, as pydrake.multibody.benchmarks."""

from merganser.multibody.benchmarks.acrobot import AcrobotParameters, make_acrobot_plant

__all__ = ["AcrobotParameters", "make_acrobot_plant"]
