"""MJCF (MuJoCo XML) subset -> MultibodyPlant, following Drake's MuJoCo parser.

Supported: ``<compiler angle eulerseq meshdir autolimits inertiafromgeom>``,
``<default>`` classes, ``<asset><mesh>``/``<material rgba>``, ``<worldbody>`` geoms
(anchored) and nested ``<body pos quat|axisangle|euler|xyaxes|zaxis childclass>`` with

- ``<inertial pos [orientation] mass diaginertia|fullinertia>``, or (no inertial, or
  ``inertiafromgeom="true"``) the sum of the geoms' solid mass properties;
- ``<joint type="hinge|slide|ball|free" pos axis range limited damping ref armature>``
  (hinge/slide/ball become revolute/prismatic/BallQuaternion joints (nq 4, nv 3 as in
  MuJoCo, though v is w_FM_F where MuJoCo's is w_FM_M) whose frames sit at ``pos`` in the
  body; several joints in one body are chained through massless bodies
  ``<body><k>``; ``free``/``<freejoint>`` leaves the body free, at its default pose; no
  joint welds the body to its parent);
- ``<geom type="sphere|box|capsule|cylinder|ellipsoid|plane|mesh" size fromto pos ...
  mass density rgba friction contype conaffinity group>`` (records: visual and
  collision, ``contype=conaffinity=0`` visual only, ``group > 2`` collision only);
- ``<actuator><motor joint gear ctrlrange forcerange>`` (actuator with effort limit the
  smaller of the control and force ranges; ``gear`` is the gear ratio, used for
  reflected inertia with the joint's ``armature`` as Drake does; the armature of a joint
  no actuator carries, of any type, is the joint's own armature).

``<include>``, ``<frame>`` and ``<asset><model>`` with ``<attach>`` are resolved first
(`mjcf_composition`); ``<equality>`` and fixed ``<tendon>`` map to the plant's constraints
(`mjcf_equality`). Anything else is reported as ignored (warning).
"""

from __future__ import annotations

import os

import numpy as np

from merganser.geometry import RigidTransform
from merganser.multibody.math import SpatialInertia
from merganser.multibody.parsing.link_inertia import add_link_body, link_spatial_inertia
from merganser.multibody.parsing.mjcf_actuators import parse_mjcf_actuators, parse_mjcf_range
from merganser.multibody.parsing.mjcf_composition import compose_mjcf
from merganser.multibody.parsing.mjcf_defaults import MjcfDefaults
from merganser.multibody.parsing.mjcf_equality import parse_mjcf_equality, parse_mjcf_tendons
from merganser.multibody.parsing.mjcf_frames import CompilerSettings, angle_axis_rotation, parse_mjcf_pose
from merganser.multibody.parsing.mjcf_geometry import MjcfAssets, parse_mjcf_geom
from merganser.multibody.parsing.mjcf_inertia import MESH_INERTIA_MODES
from merganser.multibody.parsing.mjcf_mesh_data import (
    builtin_mesh_obj, hfield_obj, inline_mesh_obj,
)
from merganser.multibody.parsing.package_map import UnresolvedUriError
from merganser.multibody.parsing.poses import pose_from_rotation, pose_from_translation
from merganser.multibody.parsing.urdf_joints import joint_frame
from merganser.multibody.tree import (
    BallQuaternionJoint, PrismaticJoint, QuaternionFloatingJoint, RevoluteJoint,
)

__all__ = ["parse_mjcf"]


class _MjcfParser:
    """State of one MJCF parse (compiler settings, defaults, assets, joint armatures)."""

    def __init__(self, doc, ws):
        self.doc, self.ws, self.plant = doc, ws, ws.plant
        self.compiler = CompilerSettings()
        self.defaults = MjcfDefaults()
        self.assets = MjcfAssets()
        self.armature: dict[int, float] = {}
        self.X_W: dict[str, np.ndarray] = {"world": np.eye(4)}
        self.sites: dict[str, tuple] = {}
        self.joint_ref: dict[str, float] = {}
        self.tendons: dict = {}
        self.geom_names: dict[str, int] = {}
        self.mi = None

    # ------------------------------------------------------------------ top level
    def parse(self) -> list[int]:
        doc, root = self.doc, self.doc.root
        if doc.tag(root) != "mujoco":
            doc.error(root, f"an MJCF file must have a <mujoco> root element, got "
                            f"<{doc.tag(root)}>")
        name = doc.attr(root, "model", None)
        if not name:
            name = "MujocoModel"
            doc.defaulted(root, "no 'model' attribute: the model is named 'MujocoModel'")
        self.mi = self.ws.add_model_instance(doc, root, name)
        doc.mark(root, message=f"model instance {self.mi}")
        compose_mjcf(doc)
        for el in root.iter():
            if isinstance(el.tag, str) and doc.tag(el) in ("flexcomp", "composite", "flex"):
                doc.error(el, f"<{doc.tag(el)}> (deformable bodies) is not supported; the "
                              f"model's degrees of freedom would be missing")
        for el in doc.elements(root, "compiler"):
            self._compiler(el)
        for el in doc.elements(root, "default"):
            self.defaults.parse(doc, el)
        for el in doc.elements(root, "asset"):
            self._assets(el)
        for el in doc.elements(root, "worldbody"):
            self._worldbody(el)
        defaults = lambda e, tag: self._apply_defaults(e, tag, "")  # noqa: E731
        for el in doc.elements(root, "tendon"):
            self.tendons.update(parse_mjcf_tendons(doc, el, defaults))
        for el in doc.elements(root, "equality"):
            parse_mjcf_equality(doc, el, self.plant, self.mi, pose_of_body=self._pose_of_body,
                                site_of=self.sites.get, joint_ref=self.joint_ref,
                                tendons=self.tendons, apply_defaults=defaults)
        for el in doc.elements(root, "actuator"):
            parse_mjcf_actuators(doc, el, self.plant, self.mi, armature=self.armature,
                                 autolimits=self.compiler.autolimits, apply_defaults=defaults)
        for index, value in self.armature.items():     # carried by no actuator
            self.plant.get_joint(index).set_default_armature(value)
        return [self.mi]

    def _unused_body_name(self, name):
        """`name`, or `name` with underscores appended until no body of the model has it
        (generated names must not collide: ``body2`` + joint 0 vs the 21st body)."""
        while self.plant.has_body_named(name, self.mi):
            name += "_"
        return name

    def _pose_of_body(self, name):
        if name not in self.X_W:
            self.doc.error(self.doc.root, f"an <equality> names body '{name}', which does "
                                          f"not exist")
        return self.X_W[name]

    def _compiler(self, el):
        doc, c = self.doc, self.compiler
        doc.mark(el)
        angle = doc.attr(el, "angle", "degree")
        if angle not in ("degree", "radian"):
            doc.error(el, f"compiler angle must be 'degree' or 'radian', got {angle!r}")
        c.degrees = angle == "degree"
        seq = doc.attr(el, "eulerseq", "xyz")
        if len(seq) != 3 or any(ch not in "xyzXYZ" for ch in seq):
            doc.error(el, f"compiler eulerseq must be 3 of the letters xyzXYZ, got {seq!r}")
        c.eulerseq = seq
        c.meshdir = doc.attr(el, "meshdir", None) or doc.attr(el, "assetdir", "")
        c.autolimits = doc.parse_bool(el, doc.attr(el, "autolimits", "true"), "autolimits")
        c.inertiafromgeom = doc.attr(el, "inertiafromgeom", "auto")
        if c.inertiafromgeom not in ("auto", "true", "false"):
            doc.error(el, f"inertiafromgeom must be auto, true or false, got "
                          f"{c.inertiafromgeom!r}")
        if doc.parse_bool(el, doc.attr(el, "exactmeshinertia", "false"), "exactmeshinertia"):
            c.mesh_inertia = "exact"
        coordinate = doc.attr(el, "coordinate", "local")
        if coordinate != "local":
            doc.error(el, f"compiler coordinate={coordinate!r} is not supported (only local)")

    def _assets(self, el):
        doc = self.doc
        doc.mark(el)
        for mesh in doc.elements(el, "mesh"):
            self._mesh_asset(mesh)
        for hfield in doc.elements(el, "hfield"):
            doc.mark(hfield)
            file = doc.attr(hfield, "file", None)
            name = doc.attr(hfield, "name", None) or (
                os.path.splitext(os.path.basename(file))[0] if file else "")
            if not name:
                doc.error(hfield, "an <hfield> without 'file' needs a 'name'")
            path = None if file is None else self._asset_file(hfield, name, file)
            self.assets.hfields[name] = (hfield_obj(doc, hfield, name, path),
                                         doc.attr_vector(hfield, "size", 4, positive=True))
        for material in doc.elements(el, "material"):
            doc.mark(material)
            name = doc.attr(material, "name")
            self.assets.materials[name] = doc.attr_vector(
                material, "rgba", 4, default=np.array([1.0, 1.0, 1.0, 1.0]))

    def _mesh_asset(self, mesh):
        """One ``<mesh>``: a file, inline data, a built-in (`mjcf_mesh_data`); a plugin's
        signed distance field is refused."""
        doc = self.doc
        self._apply_defaults(mesh, "mesh", "")
        doc.mark(mesh)
        if doc.has(mesh, "vertex"):
            name = doc.attr(mesh, "name")
            if doc.has(mesh, "file"):
                doc.error(mesh, f"mesh '{name}' has both 'file' and 'vertex'")
            path = inline_mesh_obj(doc, mesh, name)
        elif doc.has(mesh, "builtin"):
            name = doc.attr(mesh, "name")
            path = builtin_mesh_obj(doc, mesh, name)
        elif doc.child(mesh, "plugin") is not None:
            doc.error(mesh, f"mesh '{doc.attr(mesh, 'name', '')}' is made by an engine plugin "
                            f"(signed distance field), which is not supported")
        else:
            file = doc.attr(mesh, "file")
            name = doc.attr(mesh, "name", None) or os.path.splitext(os.path.basename(file))[0]
            path = self._asset_file(mesh, name, file)
        scale = doc.attr_vector(mesh, "scale", 3, default=np.ones(3))
        mode = doc.attr(mesh, "inertia", self.compiler.mesh_inertia)
        if mode not in MESH_INERTIA_MODES:
            doc.error(mesh, f"mesh '{name}': inertia must be one of "
                            f"{list(MESH_INERTIA_MODES)}, got {mode!r}")
        self.assets.meshes[name] = (path, scale, mode)

    def _asset_file(self, el, name, file):
        """The resolved path of an asset's `file` (relative to ``meshdir``)."""
        base = os.path.join(self.doc.base_dir, self.compiler.meshdir)
        try:
            return self.ws.package_map.resolve(file, base)
        except UnresolvedUriError as err:
            self.doc.error(el, f"{self.doc.tag(el)} '{name}': cannot resolve {file!r}: {err}")

    # ------------------------------------------------------------------ bodies
    def _worldbody(self, el):
        doc = self.doc
        doc.mark(el)
        world = self.plant.world_body()
        for k, geom in enumerate(doc.elements(el, "geom")):
            self._apply_defaults(geom, "geom", "")
            records, _ = self._geometry(geom, k, "world", False)
            self.ws.report.geometries.extend(records)
        for body in doc.elements(el, "body"):
            self._body(body, world, np.eye(4), "")

    def _apply_defaults(self, el, tag, child_class):
        class_name = self.doc.attr(el, "class", None) or child_class or "main"
        self.defaults.apply(self.doc, el, tag, class_name)

    def _body(self, el, parent, X_WP, parent_class):
        doc, plant = self.doc, self.plant
        name = doc.attr(el, "name", None) or self._unused_body_name(f"body{plant.num_bodies()}")
        child_class = doc.attr(el, "childclass", None) or parent_class
        doc.mark(el)
        mode = self.compiler.inertiafromgeom
        inertial = doc.child(el, "inertial")
        if inertial is None and mode == "false":
            doc.error(el, f"body '{name}' has no <inertial> and inertiafromgeom is false")
        from_geoms = inertial is None or mode == "true"
        records, geom_inertias = [], []
        for k, geom in enumerate(doc.elements(el, "geom")):
            self._apply_defaults(geom, "geom", child_class)
            recs, inertia = self._geometry(geom, k, name, from_geoms)
            records += recs
            if inertia is not None:
                geom_inertias.append(inertia)
        if from_geoms:
            if inertial is not None:
                doc.ignore(inertial, "inertiafromgeom is true: <inertial> is ignored")
            M = SpatialInertia.zero()
            for Mg in geom_inertias:
                M = M + Mg
            doc.defaulted(el, f"body '{name}': mass properties from its geoms "
                              f"(mass {M.get_mass():.6g} kg)")
        else:
            M = self._inertial(inertial, name)
        X_PB = parse_mjcf_pose(doc, el, self.compiler)
        X_WB = X_WP @ X_PB
        self.X_W[name] = X_WB
        for site in doc.elements(el, "site"):
            if site.get("name"):
                self.sites[site.get("name")] = (name, np.array(
                    [float(x) for x in (site.get("pos") or "0 0 0").split()][:3]))
        body = add_link_body(doc, el, plant, name, self.mi, M)
        self.ws.report.geometries.extend(records)
        self._joints(el, name, parent, body, X_PB, X_WB, child_class)
        for child in doc.elements(el, "body"):
            self._body(child, body, X_WB, child_class)

    def _inertial(self, el, name):
        doc = self.doc
        doc.mark(el)
        X_BF = parse_mjcf_pose(doc, el, self.compiler)
        mass = doc.attr_float(el, "mass")
        if doc.has(el, "diaginertia"):
            I = np.diag(doc.attr_vector(el, "diaginertia", 3))
            R = X_BF[:3, :3]
        elif doc.has(el, "fullinertia"):
            v = doc.attr_vector(el, "fullinertia", 6)
            I = np.array([[v[0], v[3], v[4]], [v[3], v[1], v[5]], [v[4], v[5], v[2]]])
            R = np.eye(3)
        else:
            doc.error(el, f"body '{name}': <inertial> needs 'diaginertia' or 'fullinertia'")
        return link_spatial_inertia(doc, el, name, mass, X_BF[:3, 3], I, R)

    # ------------------------------------------------------------------ joints
    def _joints(self, el, name, parent, body, X_PB, X_WB, child_class):
        doc, plant = self.doc, self.plant
        joints = doc.elements(el, "joint")
        free = doc.elements(el, "freejoint")
        if free:
            for f in free:
                doc.mark(f, message="free body")
            if joints or parent is not plant.world_body():
                doc.error(free[0], f"body '{name}': a free joint must be the only joint of a "
                                   f"body whose parent is the world")
            plant.set_default_free_body_pose(body, X_WB)
            return
        if not joints:
            with doc.at(el, f"body '{name}'"):
                plant.weld_frames(parent.body_frame(), body.body_frame(), X_PB)
            return
        last = parent
        for k, joint_el in enumerate(joints):
            self._apply_defaults(joint_el, "joint", child_class)
            kind = doc.attr(joint_el, "type", "hinge")
            if kind == "free":
                doc.mark(joint_el, message="free body")
                if len(joints) > 1 or parent is not plant.world_body():
                    doc.error(joint_el, f"body '{name}': a free joint must be the only joint of "
                                        f"a body whose parent is the world")
                self._free_joint(joint_el, body, X_WB)
                return
            # MuJoCo places every joint of a body in the body's own frame: joint k moves
            # the body (as moved by joints 0..k-1) about its anchor. The massless bodies
            # that chain them coincide with the body at the zero configuration, so only
            # the first joint's parent frame carries X_PB.
            X_PC = X_PB if k == 0 else np.eye(4)
            if k < len(joints) - 1:
                with doc.at(joint_el, f"body '{name}'"):
                    child = plant.add_rigid_body(self._unused_body_name(f"{name}{k}"), self.mi,
                                                 SpatialInertia.zero())
                self._joint(joint_el, kind, last, child, X_PC)
                last = child
            else:
                self._joint(joint_el, kind, last, body, X_PC)

    def _free_joint(self, el, body, X_WB):
        """A ``<joint type="free">``: the body is left free (Drake's floating joint added at
        finalize) unless the joint has armature or damping, which MuJoCo applies to all
        six dofs; then it is an explicit QuaternionFloatingJoint carrying both (both are
        isotropic, so they are the same in MuJoCo's coordinates and Drake's)."""
        doc, plant = self.doc, self.plant
        armature = doc.attr_float(el, "armature", 0.0, minimum=0.0)
        damping = doc.attr_float(el, "damping", 0.0, minimum=0.0)
        if not armature and not damping:
            plant.set_default_free_body_pose(body, X_WB)
            return
        name = doc.attr(el, "name", None) or f"world-{body.name()}"
        with doc.at(el, f"joint '{name}'"):
            joint = plant.add_joint(QuaternionFloatingJoint(
                name, plant.world_frame(), body.body_frame(), damping, damping))
            joint.set_default_pose(RigidTransform(X_WB))
            joint.set_default_armature(armature)

    def _joint(self, el, kind, parent, child, X_PC):
        doc, plant, c = self.doc, self.plant, self.compiler
        name = doc.attr(el, "name", None) or f"{parent.name()}-{child.name()}"
        doc.mark(el, message=f"{kind} joint")
        X_CJ = pose_from_translation(doc.attr_vector(el, "pos", 3, default=np.zeros(3)))
        X_PJ = X_PC @ X_CJ
        axis = doc.attr_vector(el, "axis", 3, default=np.array([0.0, 0.0, 1.0]))
        if np.linalg.norm(axis) < 1e-12:
            doc.error(el, f"joint '{name}' has a zero axis")
        axis = axis / np.linalg.norm(axis)
        damping = doc.attr_float(el, "damping", 0.0, minimum=0.0)
        limited, lo, hi = parse_mjcf_range(doc, el, "range", "limited", c.autolimits)
        ref = doc.attr_float(el, "ref", 0.0)
        armature = doc.attr_float(el, "armature", 0.0, minimum=0.0)
        mi = self.mi
        with doc.at(el, f"joint '{name}'"):
            if kind == "ball":
                if limited:
                    doc.warn(el, f"ball joint '{name}': 'range' is not supported and is ignored")
                F = joint_frame(plant, parent, X_PJ, name, "parent", mi)
                M = joint_frame(plant, child, X_CJ, name, "child", mi)
                joint = plant.add_joint(BallQuaternionJoint(name, F, M, damping))
            elif kind == "slide":
                X_CJ = X_CJ @ pose_from_translation(ref * axis)
                F = joint_frame(plant, parent, X_PJ, name, "parent", mi)
                M = joint_frame(plant, child, X_CJ, name, "child", mi)
                joint = plant.add_joint(PrismaticJoint(name, F, M, axis, damping=damping))
                if limited:
                    joint.set_position_limits([lo], [hi])
                joint.set_default_positions([ref])
                self.joint_ref[name] = ref
            elif kind == "hinge":
                ref = c.to_radians(ref)
                X_CJ = X_CJ @ pose_from_rotation(angle_axis_rotation(ref, axis))
                F = joint_frame(plant, parent, X_PJ, name, "parent", mi)
                M = joint_frame(plant, child, X_CJ, name, "child", mi)
                joint = plant.add_joint(RevoluteJoint(name, F, M, axis, damping))
                if limited:
                    joint.set_position_limits([c.to_radians(lo)], [c.to_radians(hi)])
                joint.set_default_positions([ref])
                self.joint_ref[name] = ref
            else:
                doc.error(el, f"joint '{name}' has unknown type '{kind}'; expected hinge, "
                              f"slide, ball or free")
        if armature:
            self.armature[joint.index()] = armature
        if doc.attr_float(el, "stiffness", 0.0) != 0.0:
            doc.warn(el, f"joint '{name}': 'stiffness' is not supported and is ignored")

    def _geometry(self, el, index, body_name, with_inertia):
        name = self.doc.attr(el, "name", None)
        if name is not None:
            if name in self.geom_names:
                self.doc.error(el, f"geom name '{name}' is used twice (first at line "
                                   f"{self.geom_names[name]}); MJCF geom names are unique")
            self.geom_names[name] = self.doc.line(el)
        return parse_mjcf_geom(self.doc, el, index, body_name=body_name, model_instance=self.mi,
                               compiler=self.compiler, assets=self.assets,
                               with_inertia=with_inertia)


def parse_mjcf(doc, ws, parent_model_name: str | None = None) -> list[int]:
    """Add the ``<mujoco>`` model of `doc` to ``ws.plant``; return [model_instance]."""
    return _MjcfParser(doc, ws).parse()
