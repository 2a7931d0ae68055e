"""merganser: Drake's systems framework and compiled rigid-body dynamics, the Python way.

The four layers install as subpackages, each re-exporting its public names::

    merganser.framework    systems, diagrams, simulator, integrators, primitives
    merganser.geometry     poses, shapes, SceneGraph, queries, visualization
    merganser.multibody    spatial algebra, MultibodyPlant, parsing, contact, IK
    merganser.controllers  PID, inverse dynamics, LQR

``import merganser`` gives the names used most, as ``pydrake.all`` does::

    from merganser import DiagramBuilder, MultibodyPlant, Parser, Simulator

The names load on first use (PEP 562), so ``import merganser`` alone costs almost
nothing and a script that only needs the framework never loads the multibody kernels.
"""

import importlib

__version__ = "0.1.0"

_LAYERS = ("framework", "geometry", "multibody", "controllers")

# name -> the subpackage that defines it (its package-level re-export).
_NAMES = {
    "framework": (
        "AbstractValue", "Adder", "AffineSystem", "BasicVector", "ConstantValueSource",
        "ConstantVectorSource", "Context", "Demultiplexer", "Diagram", "DiagramBuilder",
        "DiscreteDerivative", "DiscreteValues", "EventStatus", "FirstOrderLowPassFilter",
        "Gain", "InputPort", "Integrator", "LeafSystem", "LinearSystem", "MatrixGain",
        "Multiplexer", "OutputPort", "PassThrough", "PiecewisePolynomial", "RandomSource",
        "Saturation", "SimulationResult", "Simulator", "SimulatorConfig", "SimulatorStatus",
        "Sine", "State", "System", "TrajectorySource", "Value", "VectorLog", "VectorLogSink",
        "ZeroOrderHold", "apply_simulator_config", "controllability_matrix",
        "first_order_taylor_approximation", "is_controllable", "linearize",
        "log_vector_output", "monte_carlo_simulation", "reset_integrator_from_flags",
    ),
    "geometry": (
        "Box", "Capsule", "CollisionFilterDeclaration", "Convex", "CoulombFriction",
        "Cylinder", "Ellipsoid", "GeometryInstance", "GeometrySet", "HalfSpace",
        "IllustrationProperties", "Mesh", "ProximityProperties", "QueryObject", "RigidTransform",
        "RollPitchYaw", "RotationMatrix", "SceneGraph", "Sphere", "add_contact_material",
        "add_compliant_hydroelastic_properties", "add_rigid_hydroelastic_properties",
    ),
    "multibody": (
        "BaseBodyJointType", "BatchedPlant", "ContactModel", "ContactResults",
        "DiscreteContactApproximation", "SingularDynamicsError", "FixedOffsetFrame", "InverseKinematics",
        "JacobianWrtVariable", "MultibodyForces", "MultibodyPlant", "MultibodyPlantConfig",
        "Parser", "PrismaticJoint", "QuaternionFloatingJoint", "RevoluteJoint",
        "RotationalInertia", "SpatialAcceleration", "SpatialForce", "SpatialInertia",
        "SpatialVelocity", "UnitInertia", "WeldJoint", "add_multibody_plant",
        "add_multibody_plant_scene_graph", "apply_multibody_plant_config",
    ),
    "controllers": (
        "InverseDynamics", "InverseDynamicsController", "JointStiffnessController",
        "PidController", "discrete_time_linear_quadratic_regulator",
        "linear_quadratic_regulator",
    ),
}
_WHERE = {name: layer for layer, names in _NAMES.items() for name in names}

__all__ = sorted(_WHERE) + list(_LAYERS)


def __getattr__(name):
    if name in _LAYERS:
        return importlib.import_module(f"merganser.{name}")
    layer = _WHERE.get(name)
    if layer is None:
        raise AttributeError(f"module 'merganser' has no attribute {name!r}; the subpackages "
                             f"{', '.join('merganser.' + n for n in _LAYERS)} hold the rest")
    value = getattr(importlib.import_module(f"merganser.{layer}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
