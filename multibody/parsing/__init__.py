"""multibody.parsing: load URDF, SDFormat and MJCF models into a MultibodyPlant.

`Parser` is the entry point; `PackageMap` resolves ``package://``/``model://`` URIs;
errors are `ParseError` (a ValueError) and warnings `ParseWarning`, both with
file:line; `ImportReport` lists what happened to every element; `GeometryRecord`s hold
the parsed visual/collision geometry; `parse_hydrodynamics_parameters` reads the
``<hydro>`` blocks of a URDF.
"""

from multibody.hydrodynamics.body_hydro_data import BodyHydroData
from multibody.parsing.diagnostics import ParseError, ParseWarning
from multibody.parsing.geometry_records import SHAPE_TYPES, GeometryRecord
from multibody.parsing.helpers import (
    get_joint_child_body_names,
    get_joint_parent_body_names,
    get_joint_position_starts,
    get_joint_velocity_starts,
)
from multibody.parsing.hydrodynamics import parse_hydrodynamics_parameters
from multibody.parsing.import_report import STATUSES, ImportReport, ReportEntry
from multibody.parsing.package_map import PackageMap, UnresolvedUriError
from multibody.parsing.parser import Parser

__all__ = [
    "SHAPE_TYPES",
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
]
