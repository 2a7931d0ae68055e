"""multibody.parsing: load URDF, SDFormat and MJCF models into a MultibodyPlant.

`Parser` is the entry point; `PackageMap` resolves ``package://``/``model://`` URIs;
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
from merganser.multibody.parsing.package_map import PackageMap, UnresolvedUriError
from merganser.multibody.parsing.parser import Parser

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
