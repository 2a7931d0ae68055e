"""Opt-in pydrake spelling: a pydrake script runs after changing its imports.

merganser spells Drake's concepts in snake_case (``builder.add_system``,
``plant.calc_mass_matrix``). A script written for pydrake uses CamelCase
(``builder.AddSystem``, ``plant.CalcMassMatrix``). Importing this module, and only then,
makes those spellings resolve::

    from merganser.pydrake_spelling import *      # instead of: from pydrake.all import *

    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step=0.0)
    Parser(plant).AddModels("acrobot.urdf")
    plant.Finalize()

It is one mechanism, applied once at import:

- every public class of the four layers gets, for each method, class method, static
  method or property it defines in snake_case, the same descriptor under the CamelCase
  name (``calc_mass_matrix`` -> ``CalcMassMatrix``), unless the class already has that
  name. Lookups of the snake_case names are untouched, so the snake_case path costs
  nothing whether or not this module was imported;
- this module exports every public name of the four layers (also those a layer keeps
  out of its ``import *``, such as the geometry's ``Meshcat`` and visualizers), classes
  under their own names and functions under both spellings
  (``AddMultibodyPlantSceneGraph`` and ``add_multibody_plant_scene_graph``), as
  ``pydrake.all`` does; ``Simulator_`` and the other ``Name_`` scalar templates
  (``Name_[float]`` is ``Name``) are importable by name.

A few pydrake names follow no rule (``UniformlyRandomRPY``, ``PiecewisePolynomial.isApprox``,
``ContactSurface.HasGradE_M``, the privately bound ``_AddExternalConstraint`` and
``_ExternalSystemConstraint``, Meshcat's private test hooks ``_GetPackedObject`` and
``_InjectWebsocketMessage``); `IRREGULAR_NAMES` gives them too.

Keyword arguments need no mapping: pydrake's are snake_case already (``time_step=``,
``size=``). Names whose pydrake spelling does not follow the rule (``SetFreeBodyPose``
-> ``set_free_body_pose`` does; an enum member like ``JacobianWrtVariable.kV`` is the same
in both) are the only ones a port has to rename by hand.
"""

import importlib
import inspect
import re
import sys

__all__ = []

LAYERS = ("framework", "geometry", "multibody", "controllers")


#: Words whose pydrake spelling is not the capitalized word (``set_to_nan`` ->
#: ``SetToNaN``, ``is_nan`` -> ``IsNaN``).
_IRREGULAR_WORDS = {"nan": "NaN"}

#: Names whose pydrake spelling follows no rule; they get it as well as the regular one.
IRREGULAR_NAMES = {
    "decompose_psd_matrix_into_x_transpose_times_x": "DecomposePSDmatrixIntoXtransposeTimesX",
    "is_both_quaternion_and_quaternion_dt_ok": "IsBothQuaternionAndQuaternionDtOK",
    "uniformly_random_rpy": "UniformlyRandomRPY",
    "has_grad_e_m": "HasGradE_M", "has_grad_e_n": "HasGradE_N",
    "evaluate_grad_e_m_w": "EvaluateGradE_M_W", "evaluate_grad_e_n_w": "EvaluateGradE_N_W",
    "is_approx": "isApprox", "shift_right": "shiftRight",
    # pydrake binds these privately
    "add_external_constraint": "_AddExternalConstraint",
    "ExternalSystemConstraint": "_ExternalSystemConstraint",
    # private in both: Meshcat's test hooks (the server's scene tree, a browser's message)
    "_get_packed_object": "_GetPackedObject", "_get_packed_transform": "_GetPackedTransform",
    "_get_packed_property": "_GetPackedProperty",
    "_inject_websocket_message": "_InjectWebsocketMessage",
}


def camel_case(snake_name):
    """``calc_mass_matrix`` -> ``CalcMassMatrix`` (``is_nan`` -> ``IsNaN``, as pydrake
    spells it); a name with no underscore and no lower case start (``AddSystem``) comes
    back unchanged."""
    if not snake_name or not snake_name[0].islower():
        return snake_name
    return "".join(_IRREGULAR_WORDS.get(part) or part[:1].upper() + part[1:]
                   for part in snake_name.split("_"))


_SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def _forwarder(name, member):
    """A CamelCase attribute that looks the snake_case name up again, so that a subclass's
    override of the snake_case method is the one called."""
    if isinstance(member, property) and type(member) is not property:
        return member       # a descriptor of its own (System.to_scalar_type): the same one
    if isinstance(member, property):
        return property(lambda self: getattr(self, name), doc=f"pydrake spelling of `{name}`.")
    if isinstance(member, (classmethod, staticmethod)):
        def forward_cls(cls, *args, **kwargs):
            return getattr(cls, name)(*args, **kwargs)
        forward_cls.__doc__ = f"pydrake spelling of `{name}`."
        return classmethod(forward_cls)

    def forward(self, *args, **kwargs):
        # The first snake_case implementation along the MRO that is not a pydrake-spelled
        # override bound to it: so ``super().DoFoo()`` inside a user's ``DoFoo`` reaches
        # the framework's ``do_foo`` instead of the override again.
        for klass in type(self).__mro__:
            impl = vars(klass).get(name)
            if impl is not None and (klass, name) not in _ADOPTED:
                return impl.__get__(self, type(self))(*args, **kwargs)
        return getattr(self, name)(*args, **kwargs)
    forward.__name__ = camel_case(name)
    forward.__doc__ = f"pydrake spelling of `{name}`."
    return forward


def _spell_class(cls):
    for name, member in list(vars(cls).items()):
        if not _SNAKE.match(name) and name not in IRREGULAR_NAMES:
            continue
        if not (inspect.isfunction(member) or isinstance(member, (classmethod, staticmethod, property))):
            continue
        for alias in (camel_case(name), IRREGULAR_NAMES.get(name)):
            if alias and alias != name and not hasattr(cls, alias):
                setattr(cls, alias, _forwarder(name, member))


def _adopt_camel_case_overrides(cls):
    """A user's subclass written for pydrake overrides ``DoCalcTimeDerivatives``; the
    framework calls ``do_calc_time_derivatives``: bind the one to the other."""
    for name, member in list(vars(cls).items()):
        if not inspect.isfunction(member) or not name[:1].isupper():
            continue
        for base in cls.__mro__[1:]:
            snake = _SNAKE_OF.get((base, name))
            if snake is not None:
                if snake not in vars(cls):
                    setattr(cls, snake, member)
                    _ADOPTED.add((cls, snake))
                break


_SNAKE_OF = {}
_OWNER = {}         # exported name -> the layer package it comes from
_ADOPTED = set()    # (class, snake_case name) bound to a CamelCase override of that class


def _install_subclass_hook(root):
    original = root.__dict__.get("__init_subclass__")

    def __init_subclass__(cls, **kwargs):
        if original is not None:
            original.__func__(cls, **kwargs)
        else:
            super(root, cls).__init_subclass__(**kwargs)
        _adopt_camel_case_overrides(cls)
    root.__init_subclass__ = classmethod(__init_subclass__)


def _install():
    exported = {}
    for layer in LAYERS:
        package = importlib.import_module(f"merganser.{layer}")
        # the listed names and those a package keeps out of its ``import *`` (the
        # geometry's Meshcat and visualizers), as pydrake.all exports them all
        names = list(getattr(package, "__all__", ()))
        names += sorted(set(getattr(package, "_lazy_where", ())) - set(names))
        for name in names:
            value = getattr(package, name)
            exported[name] = value
            _OWNER[name] = package
            if callable(value) and not inspect.isclass(value) and _SNAKE.match(name):
                exported.setdefault(camel_case(name), value)
            if name in IRREGULAR_NAMES:
                exported.setdefault(IRREGULAR_NAMES[name], value)
    # Every class of the package, also those reached only through others (ports,
    # contexts, joints returned by the plant), bases first.
    classes = {value for module_name, module in list(sys.modules.items())
               if module_name.startswith("merganser.") and module is not None
               for value in list(vars(module).values())
               if inspect.isclass(value) and value.__module__ == module_name}
    for cls in sorted(classes, key=lambda c: len(c.__mro__)):
        _spell_class(cls)
        for name in vars(cls):
            if _SNAKE.match(name) and inspect.isfunction(vars(cls)[name]):
                _SNAKE_OF[(cls, camel_case(name))] = name
        if not any(base in classes for base in cls.__mro__[1:]):
            _install_subclass_hook(cls)
    globals().update(exported)
    __all__.extend(sorted(exported))
    return len(classes)


NUM_CLASSES_SPELLED = _install()


def __getattr__(name):
    """``Name_`` of an exported class ``Name``: its Drake scalar-type template
    (``Simulator_[float]`` is ``Simulator``), as ``pydrake.all`` has them; not in
    ``__all__``."""
    package = _OWNER.get(name[:-1]) if name.endswith("_") else None
    if package is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(package, name)
