"""Force elements: gravity, springs, dampers and bushings."""

from merganser.multibody.tree.force_elements.force_element import ForceElement
from merganser.multibody.tree.force_elements.linear_bushing_roll_pitch_yaw import LinearBushingRollPitchYaw
from merganser.multibody.tree.force_elements.linear_spring_damper import LinearSpringDamper
from merganser.multibody.tree.force_elements.prismatic_spring import PrismaticSpring
from merganser.multibody.tree.force_elements.revolute_spring import RevoluteSpring
from merganser.multibody.tree.force_elements.uniform_gravity_field import UniformGravityFieldElement

__all__ = [
    "ForceElement",
    "LinearBushingRollPitchYaw",
    "LinearSpringDamper",
    "PrismaticSpring",
    "RevoluteSpring",
    "UniformGravityFieldElement",
]
