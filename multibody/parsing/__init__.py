"""multibody.parsing: load URDF, SDFormat and MJCF models into a MultibodyPlant.

`Parser` is the entry point; `PackageMap` resolves ``package://``/``model://`` URIs;
model directives (``.dmd.yaml``: `ModelDirectives`, `load_model_directives`,
`process_model_directives`) assemble scenes; `CollisionFilterGroups` lists the groups read;
errors are `ParseError` (a ValueError) and warnings `ParseWarning`, both with
file:line; `ImportReport` lists what happened to every element; `GeometryRecord`s hold
the parsed visual/collision geometry; `parse_hydrodynamics_parameters` reads the
``<hydro>`` blocks of a URDF.
"""

from merganser.multibody.hydrodynamics.body_hydro_data import BodyHydroData
from merganser.multibody.parsing.diagnostics import ParseError, ParseWarning
from merganser.multibody.parsing.geometry_records import SHAPE_TYPES, GeometryRecord
from merganser.multibody.parsing.helpers import (
    get_joint_child_body_names,
    get_joint_parent_body_names,
    get_joint_position_starts,
    get_joint_velocity_starts,
)
from merganser.multibody.parsing.hydrodynamics import parse_hydrodynamics_parameters
from merganser.multibody.parsing.import_report import STATUSES, ImportReport, ReportEntry
from merganser.multibody.parsing.collision_filter_groups import CollisionFilterGroups
from merganser.multibody.parsing.model_directives import *  # noqa: F401,F403
from merganser.multibody.parsing.model_directives import __all__ as _directives_all
from merganser.multibody.parsing.package_map import PackageMap, UnresolvedUriError
from merganser.multibody.parsing.parser import Parser
from merganser.multibody.parsing.process_model_directives import (
    ModelInstanceInfo,
    flatten_model_directives,
    get_scoped_frame_by_name,
    get_scoped_frame_by_name_maybe,
    process_model_directives,
)

__all__ = [
    "SHAPE_TYPES",
    "CollisionFilterGroups",
    "ModelInstanceInfo",
    "flatten_model_directives",
    "get_scoped_frame_by_name",
    "get_scoped_frame_by_name_maybe",
    "process_model_directives",
    "STATUSES",
    "BodyHydroData",
    "GeometryRecord",
    "ImportReport",
    "PackageMap",
    "ParseError",
    "ParseWarning",
    "Parser",
    "ReportEntry",
    "UnresolvedUriError",
    "get_joint_child_body_names",
    "get_joint_parent_body_names",
    "get_joint_position_starts",
    "get_joint_velocity_starts",
    "parse_hydrodynamics_parameters",
] + _directives_all
