"""The acrobot benchmark: a two-link planar pendulum actuated at the elbow, built in code
(pydrake's ``benchmarks.acrobot.AcrobotParameters`` and ``MakeAcrobotPlant``).

Each link hangs along -z from its inboard joint; both joints turn about +y, so the
acrobot swings in the x-z plane. Link i's frame Li has its origin at its inboard joint,
its center of mass at -lci z, and its central inertia is that of a thin rod along z with
moment Ici about the perpendicular axes. The elbow is at -l1 z in L1.
"""

from __future__ import annotations

import numpy as np

from merganser.geometry import Cylinder, RigidTransform, Sphere
from merganser.multibody.math import SpatialInertia, UnitInertia
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import FixedOffsetFrame, RevoluteJoint

__all__ = ["AcrobotParameters", "make_acrobot_plant"]

_UNIT_Y = np.array([0.0, 1.0, 0.0])
_UNIT_Z = np.array([0.0, 0.0, 1.0])


class AcrobotParameters:
    """Physical parameters of the acrobot (SI units); defaults as pydrake's.

    Parameters
    ----------
    m1, m2 : float
        Link masses (kg), > 0.
    l1, l2 : float
        Link lengths (m).
    lc1, lc2 : float
        Distance from each link's inboard joint to its center of mass (m).
    Ic1, Ic2 : float
        Each link's moment of inertia about its center of mass, perpendicular to the
        link (kg m²).
    b1, b2 : float
        Joint damping coefficients (N m s); recorded, not applied to the plant (as
        pydrake's ``MakeAcrobotPlant``).
    g : float
        Gravitational acceleration (m/s²), along -z.
    """

    _NAMES = ("m1", "m2", "l1", "l2", "lc1", "lc2", "Ic1", "Ic2", "b1", "b2", "g")

    def __init__(self, m1=1.0, m2=1.0, l1=1.0, l2=2.0, lc1=0.5, lc2=1.0, Ic1=0.083,
                 Ic2=0.33, b1=0.1, b2=0.1, g=9.81):
        values = dict(m1=m1, m2=m2, l1=l1, l2=l2, lc1=lc1, lc2=lc2, Ic1=Ic1, Ic2=Ic2,
                      b1=b1, b2=b2, g=g)
        for name in ("m1", "m2"):
            if not float(values[name]) > 0.0:
                raise ValueError(f"AcrobotParameters: {name} must be > 0, got "
                                 f"{values[name]!r}")
        self._values = {k: float(v) for k, v in values.items()}

    def __getattr__(self, name):
        values = self.__dict__.get("_values")
        if values is not None and name in values:
            return lambda: values[name]
        raise AttributeError(f"AcrobotParameters has no attribute {name!r}")

    def Gc1(self):  # noqa: N802 (pydrake's name)
        """Unit inertia of link 1 about its center of mass, Ic1 / m1 (m²)."""
        return self._values["Ic1"] / self._values["m1"]

    def Gc2(self):  # noqa: N802 (pydrake's name)
        """Unit inertia of link 2 about its center of mass, Ic2 / m2 (m²)."""
        return self._values["Ic2"] / self._values["m2"]

    def r1(self):
        """Radius of link 1's visual cylinder (m)."""
        return 0.035

    def r2(self):
        """Radius of link 2's visual cylinder (m)."""
        return 0.07

    def link1_name(self):
        return "Link1"

    def link2_name(self):
        return "Link2"

    def shoulder_joint_name(self):
        return "ShoulderJoint"

    def elbow_joint_name(self):
        return "ElbowJoint"

    def actuator_name(self):
        return "ElbowJoint"

    def __repr__(self):
        return "AcrobotParameters(" + ", ".join(
            f"{k}={self._values[k]!r}" for k in self._NAMES) + ")"


def _link_inertia(mass, lc, G_cm):
    return SpatialInertia.make_from_central_inertia(
        mass, -lc * _UNIT_Z, UnitInertia.straight_line(G_cm, _UNIT_Z) * mass)


def make_acrobot_plant(default_parameters, finalize, scene_graph=None):
    """A continuous MultibodyPlant of the acrobot (pydrake's ``MakeAcrobotPlant``).

    Parameters
    ----------
    default_parameters : AcrobotParameters
    finalize : bool
        Finalize the plant before returning it.
    scene_graph : SceneGraph, optional
        When given, the plant registers with it and adds visual geometry (a cylinder per
        link, a sphere at the world origin).

    Returns
    -------
    MultibodyPlant
        Bodies ``Link1``, ``Link2``; revolute joints ``ShoulderJoint`` (world-Link1) and
        ``ElbowJoint`` (Link1-Link2) about +y; actuator ``ElbowJoint``; gravity -g z.
    """
    p = default_parameters
    if not isinstance(p, AcrobotParameters):
        raise TypeError(f"make_acrobot_plant: default_parameters must be "
                        f"AcrobotParameters, got {type(p).__name__}")
    plant = MultibodyPlant(0.0)
    link1 = plant.add_rigid_body(p.link1_name(), _link_inertia(p.m1(), p.lc1(), p.Gc1()))
    link2 = plant.add_rigid_body(p.link2_name(), _link_inertia(p.m2(), p.lc2(), p.Gc2()))
    if scene_graph is not None:
        plant.register_as_source_for_scene_graph(scene_graph)
        plant.register_visual_geometry(link1, RigidTransform(-p.l1() / 2.0 * _UNIT_Z),
                                       Cylinder(p.r1(), p.l1()), "visual")
        plant.register_visual_geometry(link2, RigidTransform(-p.l2() / 2.0 * _UNIT_Z),
                                       Cylinder(p.r2(), p.l2()), "visual")
        plant.register_visual_geometry(plant.world_body(), RigidTransform(),
                                       Sphere(p.l1() / 8.0), "visual")
    plant.add_joint(RevoluteJoint(p.shoulder_joint_name(), plant.world_frame(),
                                  link1.body_frame(), _UNIT_Y))
    elbow_inboard = plant.add_frame(FixedOffsetFrame(
        p.elbow_joint_name() + "_parent", link1.body_frame(),
        RigidTransform(-p.l1() * _UNIT_Z)))
    elbow = plant.add_joint(RevoluteJoint(p.elbow_joint_name(), elbow_inboard,
                                          link2.body_frame(), _UNIT_Y))
    plant.add_joint_actuator(p.actuator_name(), elbow)
    plant.mutable_gravity_field().set_gravity_vector(-p.g() * _UNIT_Z)
    if finalize:
        plant.finalize()
    return plant
