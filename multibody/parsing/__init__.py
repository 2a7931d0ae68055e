"""multibody.parsing: load URDF, SDFormat and MJCF models into a MultibodyPlant.

`Parser` is the entry point; `PackageMap` resolves ``package://``/``model://`` URIs
(Drake's own files: `find_resource_or_throw`);
model directives (``.dmd.yaml``: `ModelDirectives`, `load_model_directives`,
`process_model_directives`) assemble scenes; `CollisionFilterGroups` lists the groups read;
errors are `ParseError` (a ValueError) and warnings `ParseWarning`, both with
file:line; `ImportReport` lists what happened to every element; `GeometryRecord`s hold
the parsed visual/collision geometry; `parse_hydrodynamics_parameters` reads the
``<hydro>`` blocks of a URDF.
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    "merganser.multibody.hydrodynamics.body_hydro_data": ("BodyHydroData",),
    ".diagnostics": ("ParseError", "ParseWarning"),
    ".geometry_records": ("GeometryRecord", "SHAPE_TYPES"),
    ".helpers": (
        "get_joint_child_body_names", "get_joint_parent_body_names", "get_joint_position_starts",
        "get_joint_velocity_starts",
    ),
    ".hydrodynamics": ("parse_hydrodynamics_parameters",),
    ".import_report": ("ImportReport", "ReportEntry", "STATUSES"),
    ".collision_filter_groups": ("CollisionFilterGroups",),
    ".model_directives": "*",
    ".drake_resources": ("drake_resource_root", "find_resource_or_throw"),
    ".package_map": ("PackageMap", "UnresolvedUriError"),
    ".parser": ("Parser", "process_model_directives"),
    ".process_model_directives": (
        "ModelInstanceInfo", "flatten_model_directives", "get_scoped_frame_by_name",
        "get_scoped_frame_by_name_maybe",
    ),
})
