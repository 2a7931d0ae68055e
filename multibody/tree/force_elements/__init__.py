"""Force elements: gravity, springs, dampers, bushings and door hinges."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".door_hinge": ("DoorHinge", "DoorHingeConfig"),
    ".force_element": ("ForceElement",),
    ".linear_bushing_roll_pitch_yaw": ("LinearBushingRollPitchYaw",),
    ".linear_spring_damper": ("LinearSpringDamper",),
    ".prismatic_spring": ("PrismaticSpring",),
    ".revolute_spring": ("RevoluteSpring",),
    ".uniform_gravity_field": ("UniformGravityFieldElement",),
})
