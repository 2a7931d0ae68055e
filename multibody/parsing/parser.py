"""Parser: load URDF, SDFormat and MJCF model files into a MultibodyPlant (Drake's Parser).

::

    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().add("example-robot-data", "path/to/example-robot-data")
    [panda] = parser.add_models("panda.urdf")
    plant.weld_frames(plant.world_frame(), plant.get_frame_by_name("panda_link0", panda))
    plant.finalize()

The format follows the file extension: ``.urdf``, ``.sdf`` and ``.xml`` (MJCF). Each
model becomes a model instance named after it (``<robot name>``, ``<model name>``,
``<mujoco model>``); loading a second model with a name already in the plant raises
`ParseError` unless auto-renaming is enabled (``name_1``, ``name_2``, ...) or a
``model_name_prefix`` scopes the names (``prefix::name``).

Diagnostics: errors raise `ParseError` (a RuntimeError and a ValueError) with file:line; everything that
is ignored, defaulted or replaced is a `ParseWarning` with file:line and an entry of the
import report (`last_report`); `set_strict_parsing` turns the warnings into errors. A
failed parse may leave the elements it added before the error in the plant, as in Drake.
"""

from __future__ import annotations

import os

import numpy as np

from merganser.multibody.parsing.collision_filter_groups import CollisionFilterGroups
from merganser.multibody.parsing.diagnostics import Diagnostics, ParseError
from merganser.multibody.parsing.import_report import ImportReport
from merganser.multibody.parsing.mjcf import parse_mjcf
from merganser.multibody.parsing.model_directives import load_model_directives
from merganser.multibody.parsing.obj_model import parse_obj_model
from merganser.multibody.parsing.package_map import PackageMap, UnresolvedUriError
from merganser.multibody.parsing.process_model_directives import apply_model_directives
from merganser.multibody.parsing.sdformat import parse_sdformat
from merganser.multibody.parsing.urdf import parse_urdf
from merganser.multibody.parsing.workspace import ParsingWorkspace
from merganser.multibody.parsing.xml_document import XmlDocument

__all__ = ["FILE_TYPES", "Parser", "process_model_directives"]

FILE_TYPES = {"urdf": ".urdf", "sdf": ".sdf", "xml": ".xml"}


_FORMAT_PARSERS = {"urdf": parse_urdf, "sdf": parse_sdformat, "xml": parse_mjcf}


def _record_source_locations(doc, plant, first_body: int, first_joint: int) -> None:
    """Give the bodies and joints created from `doc` the file:line of their element, so
    that finalize-time errors about them are located."""
    where = {}
    for el in doc.root.iter():
        if not isinstance(el.tag, str) or el.get("name") is None:
            continue
        kind = {"link": "body", "body": "body", "joint": "joint"}.get(doc.tag(el))
        if kind is not None:
            where.setdefault((kind, el.get("name")),
                             f"{doc.file_of(el)}:{doc.line(el)}")
    for index in range(first_body, plant.num_bodies()):
        body = plant.get_body(index)
        body.set_source_location(where.get(("body", body.name())))
    for index in plant.get_joint_indices()[first_joint:]:      # (first_joint: a count)
        joint = plant.get_joint(index)
        joint.set_source_location(where.get(("joint", joint.name()))
                                  or where.get(("body", joint.child_body().name())))


class Parser:
    """Loads model files into `plant` (and, later, their geometry into `scene_graph`).

    Parameters
    ----------
    plant : MultibodyPlant or DiagramBuilder
        Not yet finalized. As in pydrake, the first argument may instead be a
        DiagramBuilder (``Parser(builder)`` or ``Parser(builder=builder)``): the plant and
        scene graph are then the builder's systems named ``plant`` and ``scene_graph``
        (as `add_multibody_plant_scene_graph` names them), unless given.
    scene_graph : SceneGraph, optional
        Kept for geometry registration; the parsed geometry is always available as
        records (`geometries`), with or without a scene graph. A str in this place is the
        `model_name_prefix`, as pydrake's ``Parser(plant, model_name_prefix)``.
    model_name_prefix : str, optional
        Every top-level model instance is named ``<prefix>::<model name>`` (``""`` or
        None: no prefix, as pydrake's default).
    builder : DiagramBuilder, optional
        See `plant`.
    """

    def __init__(self, plant=None, scene_graph=None, model_name_prefix: str | None = None, *,
                 builder=None, geometry_roles=("visual", "collision")):
        if isinstance(scene_graph, str) and model_name_prefix is None:
            # pydrake's Parser(plant, model_name_prefix) (and Parser(builder, prefix))
            scene_graph, model_name_prefix = None, scene_graph
        if builder is None and plant is not None and hasattr(plant, "add_system") \
                and hasattr(plant, "get_systems"):
            builder, plant = plant, None
        if builder is not None:
            systems = {s.get_name(): s for s in builder.get_systems()} \
                if hasattr(builder, "get_systems") else None
            if systems is None:
                raise TypeError(f"Parser: builder must be a DiagramBuilder, got "
                                f"{type(builder).__name__}")
            plant = plant if plant is not None else systems.get("plant")
            scene_graph = scene_graph if scene_graph is not None else systems.get("scene_graph")
            if plant is None:
                raise ValueError(f"Parser: the builder has no system named 'plant'; systems: "
                                 f"{sorted(systems)}; pass plant= explicitly")
        if plant is None:
            raise TypeError("Parser: a plant (MultibodyPlant) or a builder is required")
        if not (hasattr(plant, "add_model_instance") and hasattr(plant, "is_finalized")):
            raise TypeError(f"Parser: plant must be a MultibodyPlant, got {type(plant).__name__}")
        if model_name_prefix == "":
            model_name_prefix = None
        if model_name_prefix is not None and not isinstance(model_name_prefix, str):
            raise ValueError(f"Parser: model_name_prefix must be a str or None, got "
                             f"{model_name_prefix!r}")
        self._builder = builder
        roles = tuple(geometry_roles)
        unknown = [r for r in roles if r not in ("visual", "collision")]
        if unknown:
            raise ValueError(f"Parser: geometry_roles may contain 'visual' and 'collision', got "
                             f"{unknown!r}")
        self._geometry_roles = roles
        self._plant = plant
        self._scene_graph = scene_graph
        if (scene_graph is not None and hasattr(plant, "geometry_source_is_registered")
                and not plant.geometry_source_is_registered() and not plant.is_finalized()):
            plant.register_as_source_for_scene_graph(scene_graph)
        self._prefix = model_name_prefix
        self._package_map = PackageMap()
        self._strict = False
        self._auto_renaming = False
        self._fluid_density = 1000.0
        self._gravity = 9.81
        self._reports: list[ImportReport] = []
        self._collision_filter_groups = CollisionFilterGroups()
        self._name_override: str | None = None
        self._namespace: str | None = None

    # ------------------------------------------------------------------ accessors
    def plant(self):
        """The plant models are added to."""
        return self._plant

    def scene_graph(self):
        """The scene graph given at construction (or None)."""
        return self._scene_graph

    def builder(self):
        """The DiagramBuilder given at construction (or None)."""
        return self._builder

    def package_map(self) -> PackageMap:
        """The package map used to resolve ``package://`` and ``model://`` URIs."""
        return self._package_map

    # ------------------------------------------------------------------ options
    def set_strict_parsing(self, strict: bool = True) -> None:
        """Make every warning (ignored, defaulted-with-warning, replaced) a ParseError."""
        self._strict = bool(strict)

    def is_strict(self) -> bool:
        """True after `set_strict_parsing`."""
        return self._strict

    def set_auto_renaming(self, value: bool) -> None:
        """Rename a model whose name is taken to ``<name>_1``, ``<name>_2``, ... (Drake)."""
        self._auto_renaming = bool(value)

    def get_auto_renaming(self) -> bool:
        """Whether auto-renaming is on."""
        return self._auto_renaming

    def set_hydrodynamics_options(self, fluid_density: float = 1000.0,
                                  gravity: float = 9.81) -> None:
        """ρ (kg/m³) and g (m/s²) for the HydrodynamicForce elements of ``<hydro>`` blocks."""
        for arg, value in (("fluid_density", fluid_density), ("gravity", gravity)):
            if not (np.isfinite(value) and value > 0.0):
                raise ValueError(f"Parser.set_hydrodynamics_options: {arg} must be finite and "
                                 f"> 0, got {value!r}")
        self._fluid_density, self._gravity = float(fluid_density), float(gravity)

    # ------------------------------------------------------------------ reports
    def last_report(self) -> ImportReport | None:
        """The report of the last `add_models` / `add_models_from_string` call."""
        return self._reports[-1] if self._reports else None

    def reports(self) -> list[ImportReport]:
        """Reports of all calls, oldest first."""
        return list(self._reports)

    def geometries(self) -> list:
        """Every GeometryRecord parsed so far (all calls), for scene-graph registration."""
        return [g for report in self._reports for g in report.geometries]

    def get_collision_filter_groups(self) -> CollisionFilterGroups:
        """The collision filter groups read so far (``drake:collision_filter_group``
        elements and model directives' ``add_collision_filter_group``), with scoped names
        (``model::group``, members ``model::link``)."""
        out = CollisionFilterGroups()
        plant = self._plant
        for report in self._reports:
            for group in report.collision_filter_groups:
                scope = plant.get_model_instance_name(group["model_instance"])
                name = f"{scope}::{group['name']}"
                out.add_group(name, {f"{scope}::{m}" for m in group["members"]})
                for ignored in group["ignored_groups"]:
                    out.add_exclusion_pair((name, ignored if "::" in ignored
                                            else f"{scope}::{ignored}"))
        for name, members in self._collision_filter_groups.groups().items():
            out.add_group(name, members)
        for pair in self._collision_filter_groups.exclusion_pairs():
            out.add_exclusion_pair(pair)
        return out

    # ------------------------------------------------------------------ loading
    def add_models(self, file_name=None, *, url: str | None = None,
                   file_contents: str | None = None, file_type: str | None = None) -> list[int]:
        """Load every model of `file_name`; return the model instances created.

        As pydrake's ``AddModels``, exactly one source is given: `file_name` (a path;
        ``.urdf``, ``.sdf``, ``.xml`` or ``.dmd.yaml`` model directives), `url` (see
        `add_models_from_url`) or `file_contents` with `file_type` (see
        `add_models_from_string`).

        Raises
        ------
        ParseError
            With file:line, for unreadable or malformed files and invalid models.
        ValueError
            For an unknown extension or a finalized plant.
        """
        given = [k for k, v in (("file_name", file_name), ("url", url),
                                ("file_contents", file_contents)) if v is not None]
        if len(given) != 1:
            raise TypeError(f"Parser.add_models: give exactly one of file_name=, url= or "
                            f"file_contents= (with file_type=), got {given or 'none'}")
        if url is not None:
            return self.add_models_from_url(url)
        if file_contents is not None:
            return self.add_models_from_string(file_contents, file_type)
        path = os.fspath(file_name)
        if path.lower().endswith(".dmd.yaml"):
            return self._add_model_directives_file(path)
        ext = os.path.splitext(path)[1].lower()
        if ext == ".obj":
            return self._add_obj_model(path)
        file_type = {v: k for k, v in FILE_TYPES.items()}.get(ext)
        if file_type is None:
            raise ValueError(f"Parser.add_models: file_name {path!r} has extension {ext!r}; "
                             f"expected one of {sorted(FILE_TYPES.values()) + ['.obj']} (or "
                             f"a .dmd.yaml)")
        return self._parse(file_type, path, dict(path=path))

    def _add_obj_model(self, path) -> list[int]:
        """A bare .obj mesh as a one-body model (`multibody.parsing.obj_model`)."""
        if self._plant.is_finalized():
            raise ValueError(f"Parser: cannot add {path!r}: the plant is already finalized; "
                             f"add all models before calling finalize()")
        report = ImportReport(path, "obj")
        self._reports.append(report)
        ws = ParsingWorkspace(self._plant, self._package_map, Diagnostics(report, self._strict),
                              report, self._add_model_instance, self._fluid_density,
                              self._gravity, geometry_registered=self._geometry_will_register())
        instances = parse_obj_model(os.path.abspath(path), ws)
        report.model_instances = list(instances)
        self._register_geometry(report)
        return instances

    def add_models_from_url(self, url: str) -> list[int]:
        """Load every model of the file at `url` (``package://``, ``file://`` or a path),
        resolved through the package map; as pydrake's ``AddModelsFromUrl``.

        Raises
        ------
        ParseError
            If the URL does not resolve (naming it), or as `add_models`.
        """
        if not isinstance(url, str):
            raise TypeError(f"Parser.add_models_from_url: url must be a str, got "
                            f"{type(url).__name__}")
        try:
            path = self._package_map.resolve(url)
        except UnresolvedUriError as err:
            raise ParseError(f"Parser.add_models_from_url: cannot resolve {url!r}: {err}",
                             url) from None
        return self.add_models(path)

    def _add_model_directives_file(self, path: str) -> list[int]:
        if self._plant.is_finalized():
            raise ValueError(f"Parser: cannot add {path!r}: the plant is already finalized; "
                             f"add all models before calling finalize()")
        try:
            directives = load_model_directives(path)
        except (OSError, ValueError) as err:
            raise ParseError(f"cannot load the model directives: {err}", path) from None
        return [info.model_instance for info in apply_model_directives(self, directives)]

    def _add_models_named(self, path: str, model_name: str, namespace: str) -> list[int]:
        """`add_models` with the (single) top-level model named `model_name` (if not
        empty) inside `namespace` (model directives' ``add_model``)."""
        saved = self._name_override, self._namespace
        self._name_override, self._namespace = (model_name or None), (namespace or None)
        try:
            return self.add_models(path)
        finally:
            self._name_override, self._namespace = saved

    def _model_prefix(self, namespace: str | None) -> str:
        """The prefix of top-level model names: ``model_name_prefix::namespace``."""
        return "::".join(p for p in (self._prefix, namespace) if p)

    def add_models_from_string(self, file_contents: str, file_type: str) -> list[int]:
        """Load the models of a string; `file_type` is ``"urdf"``, ``"sdf"`` or ``"xml"``.

        Relative file references resolve against the current directory.
        """
        if file_type not in FILE_TYPES:
            raise ValueError(f"Parser.add_models_from_string: file_type must be one of "
                             f"{sorted(FILE_TYPES)}, got {file_type!r}")
        if not isinstance(file_contents, (str, bytes)):
            raise TypeError(f"Parser.add_models_from_string: file_contents must be a str, got "
                            f"{type(file_contents).__name__}")
        label = f"<string{FILE_TYPES[file_type]}>"
        return self._parse(file_type, label, dict(text=file_contents, label=label))

    def _parse(self, file_type, source, load_args) -> list[int]:
        if self._plant.is_finalized():
            raise ValueError(f"Parser: cannot add {source!r}: the plant is already finalized; "
                             f"add all models before calling finalize()")
        report = ImportReport(source, file_type)
        self._reports.append(report)
        diagnostics = Diagnostics(report, self._strict)
        doc = XmlDocument.load(diagnostics, **load_args)
        ws = ParsingWorkspace(self._plant, self._package_map, diagnostics, report,
                              self._add_model_instance, self._fluid_density, self._gravity,
                              geometry_registered=self._geometry_will_register())
        first_body, first_joint = self._plant.num_bodies(), self._plant.num_joints()
        try:
            instances = _FORMAT_PARSERS[file_type](doc, ws)
            doc.finish()
        except ParseError:
            raise
        except (ArithmeticError, LookupError, OSError, RecursionError, TypeError, ValueError,
                NotImplementedError) as err:
            # A gap in the parsers' own checks: still a located ParseError (at the model's
            # root element, the only location known here), never a raw exception.
            raise ParseError(f"the model cannot be loaded: {type(err).__name__}: {err}",
                             doc.file_name, doc.line(doc.root)) from err
        _record_source_locations(doc, self._plant, first_body, first_joint)
        report.model_instances = list(instances)
        self._register_geometry(report)
        self.apply_collision_filter_groups()
        return list(instances)

    def apply_collision_filter_groups(self) -> None:
        """Exclude, in the plant's SceneGraph, the collisions that the collision filter
        groups read so far declare (each exclusion pair (a, b): every body of group a with
        every body of group b, as Drake). Called after each parse; nothing happens for a
        plant without a SceneGraph. A member that names no body raises ParseError."""
        plant = self._plant
        if not getattr(plant, "geometry_source_is_registered", lambda: False)() \
                or plant.is_finalized():
            return
        groups = self.get_collision_filter_groups()
        members = groups.groups()

        def bodies(group):
            out = []
            for scoped in sorted(members.get(group, ())):
                model, _, link = scoped.rpartition("::")
                mi = plant.get_model_instance_by_name(model) \
                    if plant.has_model_instance_named(model) else None
                if mi is None or not plant.has_body_named(link, mi):
                    raise ParseError(f"collision filter group {group!r} names the body "
                                     f"{scoped!r}, which is not in the plant",
                                     self._reports[-1].source if self._reports else None)
                out.append(plant.get_body_by_name(link, mi))
            return out

        for a, b in sorted(groups.exclusion_pairs()):
            for body_a in bodies(a):
                for body_b in bodies(b):
                    if body_a is not body_b:
                        plant.exclude_collisions_between(body_a, body_b)

    def _geometry_will_register(self) -> bool:
        """True if parsed geometry goes to a SceneGraph (so meshes must resolve)."""
        return bool(self._geometry_roles) and getattr(
            self._plant, "geometry_source_is_registered", lambda: False)()

    def _register_geometry(self, report):
        """As Drake: a plant registered with a SceneGraph gets the parsed visual and
        collision geometry (the roles given to the constructor)."""
        plant = self._plant
        if not self._geometry_roles or not getattr(plant, "geometry_source_is_registered",
                                                   lambda: False)():
            return
        from merganser.multibody.plant.plant_geometry import register_parsed_geometry

        try:
            register_parsed_geometry(plant, report.geometries, self._geometry_roles)
        except (ValueError, TypeError, LookupError, OSError, NotImplementedError) as err:
            text = str(err)
            named = [g for g in report.geometries if g.name and (
                f"'{g.name}'" in text or f"::{g.name}'" in text)]
            where = named[0] if named else (report.geometries[0] if report.geometries else None)
            raise ParseError(f"registering the parsed geometry with the SceneGraph failed: "
                             f"{text}", where.file if where else report.source,
                             where.line if where else None) from err

    def _add_model_instance(self, doc, el, name: str, parent_name: str | None = None) -> int:
        """Model instance for a model called `name` (see the module docstring)."""
        if not name:
            doc.error(el, "the model has an empty name")
        if parent_name:
            full = f"{parent_name}::{name}"
        else:
            if self._name_override is not None:
                name, self._name_override = self._name_override, None
            prefix = self._model_prefix(self._namespace)
            full = f"{prefix}::{name}" if prefix else name
        plant = self._plant
        if plant.has_model_instance_named(full):
            if not self._auto_renaming:
                doc.error(el, f"a model instance named '{full}' already exists (index "
                              f"{plant.get_model_instance_by_name(full)}); model instance "
                              f"names must be unique: load the model "
                              f"under another name with parser.set_auto_renaming(True) or "
                              f"Parser(plant, model_name_prefix=...)")
            k = 1
            while plant.has_model_instance_named(f"{full}_{k}"):
                k += 1
            doc.defaulted(el, f"model name '{full}' is taken; renamed to '{full}_{k}'")
            full = f"{full}_{k}"
        with doc.at(el, f"model '{full}'"):
            return plant.add_model_instance(full)

    def __repr__(self) -> str:
        return (f"Parser(plant={self._plant!r}, strict={self._strict}, "
                f"packages={self._package_map.get_package_names()})")


def process_model_directives(directives, plant=None, parser=None) -> list:
    """Apply `directives` to ``parser.plant()`` (Drake's ProcessModelDirectives); return a
    ModelInstanceInfo per added model, in order (see
    `merganser.multibody.parsing.process_model_directives` for the steps).

    Parameters
    ----------
    directives : ModelDirectives
    plant : MultibodyPlant, optional
        Must be the parser's plant if both are given (pydrake's older overload); a
        Parser for it is made if only the plant is given.
    parser : Parser, optional
        Resolves the URLs (its package map) and parses the files.
    """
    if parser is None:
        if plant is None:
            raise TypeError("process_model_directives: give parser= (or plant=)")
        parser = Parser(plant)
    elif plant is not None and plant is not parser.plant():
        raise ValueError("process_model_directives: plant is not the parser's plant")
    return apply_model_directives(parser, directives)

