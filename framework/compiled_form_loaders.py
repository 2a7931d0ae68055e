"""Compiled forms that register when first needed, so that a layer need not import a
system's compiled form (and the system) when the layer is imported.

A layer above the framework names the class by its qualified name and gives a loader
that imports the module registering the form::

    register_compiled_form_loader(
        "merganser.multibody.plant.multibody_plant.MultibodyPlant", load_plant_form)

`compiled_form_of` calls the loader the first time it meets an instance of that class
(which means the class's module is loaded by then) and then finds the registered factory.
Imports nothing, so that any package ``__init__`` may call it.
"""

#: "module.QualifiedName" -> loader() that registers the class's compiled form
_loaders = {}


def register_compiled_form_loader(qualified_name, loader):
    """Register ``loader()`` to run before the first compiled-form lookup of the class
    ``qualified_name`` ("package.module.ClassName").

    Raises
    ------
    TypeError
        When ``qualified_name`` is not a str or ``loader`` not callable.
    """
    if not isinstance(qualified_name, str) or "." not in qualified_name:
        raise TypeError(f"register_compiled_form_loader: qualified_name must be "
                        f"'module.ClassName', got {qualified_name!r}")
    if not callable(loader):
        raise TypeError(f"register_compiled_form_loader: loader must be callable, got "
                        f"{type(loader).__name__}")
    _loaders[qualified_name] = loader


def run_compiled_form_loader(cls):
    """Run (once) the loader registered for the class ``cls``; True when there was one."""
    loader = _loaders.pop(f"{cls.__module__}.{cls.__qualname__}", None)
    if loader is None:
        return False
    loader()
    return True
