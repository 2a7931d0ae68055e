"""MJCF model composition before parsing: ``<include>``, ``<frame>`` and ``<attach>``.

The document tree is rewritten in place, so that the parser sees one flat model:

- ``<include file>`` is replaced by the children of the included file's root element
  (recursively; a file that includes itself, directly or through others, is a
  ParseError naming the chain). Paths are relative to the including file. Elements keep
  their own file and line for messages (`XmlDocument.set_origin`).
- ``<replicate count offset euler sep>`` becomes `count` frames holding copies of its
  children, copy i at the pose accumulated i times from (offset, euler) as MuJoCo does,
  every name in copy i suffixed with ``sep`` and i (zero-padded to the digits of
  count); actuators, tendons and equalities on joints of the replicated subtree are
  copied along.
- ``<frame pos quat|axisangle|euler|xyaxes|zaxis childclass>`` (in ``<worldbody>`` or a
  ``<body>``) is dissolved: the poses of its bodies, geoms, sites and nested frames are
  composed with the frame's and the children move up to the frame's parent (its
  ``childclass`` becomes the ``class`` or ``childclass`` of those that have none).
- ``<asset><model name file>`` loads another MJCF model (name: its ``<mujoco model>``);
  ``<attach model body prefix>`` inside a body is replaced by a copy of that model's body
  subtree, every name and reference prefixed with ``prefix`` (as MuJoCo does). The
  attached model's default classes (its main class as ``<prefix>main``, given to the
  attached root as ``childclass``), meshes and materials (files made absolute), and the
  actuators, tendons and equalities whose joints are all attached come along. Both
  models must use the same ``<compiler angle eulerseq>`` (else a ParseError).
  ``<attach model frame prefix>`` copies a ``<frame>`` (and its contents) instead, and
  ``<attach model prefix>`` (neither body nor frame) the model's whole ``<worldbody>``
  in a new frame, as MuJoCo does. Without ``model`` it is a self-attachment: a body or
  frame of this model is copied, prefixed, with the actuators, tendons and equalities on
  its joints; defaults and assets are shared (not prefixed).
"""

from __future__ import annotations

import copy
import os

import numpy as np

from merganser.geometry import RotationMatrix
from merganser.multibody.parsing.mjcf_defaults import ORIENTATIONS
from merganser.multibody.parsing.mjcf_frames import CompilerSettings, parse_mjcf_pose
from merganser.multibody.parsing.xml_document import XmlDocument

__all__ = ["compose_mjcf"]

# Attributes that hold names (definitions or references) and are prefixed by <attach>.
_NAME_ATTRS = ("name", "joint", "joint1", "joint2", "body", "body1", "body2", "site",
               "site1", "site2", "tendon", "tendon1", "tendon2", "mesh", "material",
               "texture", "hfield", "class", "childclass", "target", "objname", "geom",
               "geom1", "geom2", "actuator", "jointinparent", "cranksite", "slidersite",
               "refsite")
_POSED = ("body", "geom", "site", "frame", "camera", "light", "inertial")


def compose_mjcf(doc) -> None:
    """Expand includes, dissolve frames and resolve attachments in `doc` (in place)."""
    _expand_includes(doc, doc.root, doc.base_dir, [doc.file_name])
    compiler = _compiler(doc, doc.root)
    models = _load_models(doc, compiler)
    for attach in [el for el in doc.root.iter() if doc.tag(el) == "attach"]:
        _attach(doc, attach, models)
    for rep in [el for el in doc.root.iter() if doc.tag(el) == "replicate"][::-1]:
        _replicate(doc, rep, compiler)
    for frame in [el for el in doc.root.iter() if doc.tag(el) == "frame"][::-1]:
        _dissolve_frame(doc, frame, compiler)


def _compiler(doc, root):
    c = CompilerSettings()
    for el in doc.elements(root, "compiler"):
        c.degrees = el.get("angle", "degree").strip() != "radian"
        c.eulerseq = el.get("eulerseq", "xyz").strip()
    return c


# ---------------------------------------------------------------------- include
def _expand_includes(doc, root, base_dir, chain):
    for inc in [el for el in root.iter() if doc.tag(el) == "include"]:
        file = doc.attr(inc, "file")
        path = os.path.normpath(os.path.join(base_dir, file))
        if path in chain or os.path.abspath(path) in map(os.path.abspath, chain):
            doc.error(inc, f"<include file={file!r}> includes itself: "
                           f"{' -> '.join(chain + [path])}")
        try:
            sub = XmlDocument.load(doc.diagnostics, path=path)
        except Exception as err:
            doc.error(inc, f"<include file={file!r}>: {err}")
        for el in sub.root.iter():
            doc.set_origin(el, path)
        _expand_includes(doc, sub.root, base_dir, chain + [path])
        parent = inc.getparent()
        position = list(parent).index(inc)
        doc.mark(inc, message=f"included {path}")
        for k, child in enumerate(list(sub.root)):
            parent.insert(position + k, child)
        parent.remove(inc)


# ---------------------------------------------------------------------- frame
def _pose_attrs(X):
    pos = " ".join(repr(float(x)) for x in X[:3, 3])
    quat = " ".join(repr(float(x)) for x in RotationMatrix(X[:3, :3]).to_quaternion())
    return pos, quat


def _dissolve_frame(doc, frame, compiler):
    X_PF = parse_mjcf_pose(doc, frame, compiler)
    parent = frame.getparent()
    position = list(parent).index(frame)
    doc.mark(frame, message="frame dissolved into its children's poses")
    for k, child in enumerate(list(frame)):
        if isinstance(child.tag, str) and doc.tag(child) in _POSED:
            if child.get("fromto") is not None:
                p = np.array([float(x) for x in child.get("fromto").split()])
                a = X_PF[:3, :3] @ p[:3] + X_PF[:3, 3]
                b = X_PF[:3, :3] @ p[3:] + X_PF[:3, 3]
                child.set("fromto", " ".join(repr(float(x)) for x in (*a, *b)))
            else:
                X = X_PF @ parse_mjcf_pose(doc, child, compiler)
                for name in ORIENTATIONS:
                    child.attrib.pop(name, None)
                child.set("pos", _pose_attrs(X)[0])
                child.set("quat", _pose_attrs(X)[1])
        childclass = frame.get("childclass")
        if childclass and isinstance(child.tag, str):     # unless the child has its own
            key = {"body": "childclass", "frame": "childclass", "geom": "class",
                   "site": "class", "joint": "class", "camera": "class",
                   "light": "class"}.get(doc.tag(child))
            if key is not None and child.get(key) is None:
                child.set(key, childclass)
        parent.insert(position + k, child)
    doc.consume(frame, "childclass")
    parent.remove(frame)


# ---------------------------------------------------------------------- replicate
_LOCAL_REFS = tuple(a for a in _NAME_ATTRS if a not in ("class", "childclass", "mesh",
                                                        "material", "texture", "hfield"))


def _suffix_names(root, suffix):
    for el in root.iter():
        if isinstance(el.tag, str):
            for key in _LOCAL_REFS:
                if key in el.attrib:
                    el.set(key, el.attrib[key] + suffix)


def _replicate(doc, rep, compiler):
    count = int(doc.attr_float(rep, "count", minimum=1))
    if count > 100000:
        doc.error(rep, f"replicate count {count} is too large (at most 100000)")
    offset = doc.attr_vector(rep, "offset", 3, default=np.zeros(3))
    euler = doc.attr_vector(rep, "euler", 3, default=np.zeros(3))
    sep = doc.attr(rep, "sep", "")
    doc.mark(rep, message=f"replicated {count} times")
    joints = _joints_of(doc, rep)
    step = np.eye(4)
    step[:3, :3] = _euler_rotation(doc, rep, euler, compiler)
    step[:3, 3] = offset
    digits = len(str(count))
    X = np.eye(4)
    frames = []
    for i in range(count):
        R_i = _euler_rotation(doc, rep, i * euler, compiler)
        pos, quat = _pose_attrs(np.block([[R_i, X[:3, 3:4]], [np.zeros((1, 3)), np.ones((1, 1))]]))
        frame = rep.makeelement("frame", {"pos": pos, "quat": quat})
        frame.sourceline = rep.sourceline
        doc.set_origin(frame, doc.file_of(rep))
        for child in rep:
            if isinstance(child.tag, str):
                c = copy.deepcopy(child)
                _copy_origin(doc, child, c)
                frame.append(c)
        _suffix_names(frame, f"{sep}{i:0{digits}d}")
        frames.append(frame)
        X = X @ step
    parent = rep.getparent()
    position = list(parent).index(rep)
    for k, frame in enumerate(frames):
        parent.insert(position + k, frame)
    parent.remove(rep)
    if not joints:
        return
    for tag in ("actuator", "tendon", "equality", "contact"):
        for section in doc.elements(doc.root, tag):
            for child in list(section):
                if not isinstance(child.tag, str):
                    continue
                refs = _refs(doc, child)
                if refs and refs <= joints:
                    position = list(section).index(child)
                    for i in range(count):
                        c = copy.deepcopy(child)
                        _copy_origin(doc, child, c)
                        _suffix_names(c, f"{sep}{i:0{digits}d}")
                        section.insert(position + i, c)
                    section.remove(child)


def _euler_rotation(doc, el, euler, compiler):
    from merganser.multibody.parsing.mjcf_frames import euler_rotation

    return euler_rotation(compiler.to_radians(np.asarray(euler, dtype=float)), compiler.eulerseq)


def _copy_origin(doc, src, dst):
    for a, b in zip(src.iter(), dst.iter()):
        doc.set_origin(b, doc.file_of(a))
        b.sourceline = a.sourceline


# ---------------------------------------------------------------------- attach
def _load_models(doc, compiler):
    models = {}
    for asset in doc.elements(doc.root, "asset"):
        for el in doc.elements(asset, "model"):
            file = doc.attr(el, "file")
            path = os.path.normpath(os.path.join(doc.base_dir, file))
            try:
                sub = XmlDocument.load(doc.diagnostics, path=path)
            except Exception as err:
                doc.error(el, f"<model file={file!r}>: {err}")
            if doc.tag(sub.root) != "mujoco":
                doc.error(el, f"<model file={file!r}> is not an MJCF file (root "
                              f"<{doc.tag(sub.root)}>)")
            _expand_includes(doc, sub.root, sub.base_dir, [doc.file_name, path])
            sub_compiler = _compiler(sub, sub.root)
            if (sub_compiler.degrees, sub_compiler.eulerseq) != (compiler.degrees,
                                                                 compiler.eulerseq):
                doc.error(el, f"<model file={file!r}> uses another <compiler angle eulerseq> "
                              f"than this model; attaching it is not supported")
            for sub_el in sub.root.iter():
                doc.set_origin(sub_el, path)
            name = el.get("name") or sub.root.get("model") or os.path.splitext(
                os.path.basename(file))[0]
            models[name] = (sub, path)
            doc.mark(el, message=f"model '{name}' from {path}")
    return models


def _prefix_names(doc, root, prefix, attrs=_NAME_ATTRS):
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for key in attrs:
            if key in el.attrib:
                el.set(key, prefix + el.attrib[key])


def _joints_of(doc, el):
    return {j.get("name") for j in el.iter() if isinstance(j.tag, str)
            and doc.tag(j) in ("joint", "freejoint") and j.get("name")}


def _refs(doc, el):
    return {el.get(a) for a in ("joint", "joint1", "joint2") if el.get(a)} | {
        j.get("joint") for j in el.iter() if isinstance(j.tag, str) and doc.tag(j) == "joint"
        and j is not el and j.get("joint")}


def _attach_source(doc, attach, sub, model_name, body_name, frame_name):
    """The element of `sub` that `attach` copies: the named body or frame, else (neither
    given) a new ``<frame>`` holding the sub-model's whole ``<worldbody>``."""
    src = sub.root
    if body_name is not None or frame_name is not None:
        tag, name = ("body", body_name) if body_name is not None else ("frame", frame_name)
        found = [el for el in src.iter() if isinstance(el.tag, str) and doc.tag(el) == tag
                 and el.get("name") == name]
        if not found:
            doc.error(attach, f"<attach>: model '{model_name}' has no {tag} named {name!r}")
        return found[0]
    frame = attach.makeelement("frame", {})
    frame.sourceline = attach.sourceline
    doc.set_origin(frame, doc.file_of(attach))
    for world in sub.elements(src, "worldbody"):
        for child in world:
            if isinstance(child.tag, str):
                c = copy.deepcopy(child)
                _copy_origin(doc, child, c)
                frame.append(c)
    return frame


def _attach(doc, attach, models):
    """Replace `attach` by a prefixed copy of a body or frame of an ``<asset><model>``,
    or of its whole world body, or (no ``model``: self-attachment) of this model's body
    or frame, with the actuators, tendons and equalities on its joints."""
    model_name = doc.attr(attach, "model", None)
    body_name, frame_name = doc.attr(attach, "body", None), doc.attr(attach, "frame", None)
    prefix = doc.attr(attach, "prefix", "")
    if body_name is not None and frame_name is not None:
        doc.error(attach, "<attach> takes 'body' or 'frame', not both")
    if model_name is None:
        if body_name is None and frame_name is None:
            doc.error(attach, "<attach> without 'model' (self-attachment) needs 'body' or "
                              "'frame'")
        source = _attach_source(doc, attach, doc, "(this model)", body_name, frame_name)
        if any(el is attach for el in source.iter()):
            doc.error(attach, f"<attach> copies the {doc.tag(source)} that contains it")
        _attach_copy(doc, attach, source, prefix, None, "")
        return
    if model_name not in models:
        doc.error(attach, f"<attach model={model_name!r}>: no <asset><model> of that name; "
                          f"known: {sorted(models)}")
    sub, path = models[model_name]
    source = _attach_source(doc, attach, sub, model_name, body_name, frame_name)
    _attach_copy(doc, attach, source, prefix, sub, path)


def _attach_copy(doc, attach, source, prefix, sub, path):
    """Put the prefixed copy of `source` in place of `attach`; `sub` (None: this model)
    is the document it comes from, whose defaults and assets come along."""
    subtree = copy.deepcopy(source)
    _copy_origin(doc, source, subtree)
    root = doc.root
    if sub is None:
        joints = _joints_of(doc, subtree)
        extra = []
        for tag in ("actuator", "tendon", "equality", "contact"):
            for section in doc.elements(root, tag):
                for child in list(section):
                    if isinstance(child.tag, str) and _refs(doc, child) and \
                            _refs(doc, child) <= joints:
                        c = copy.deepcopy(child)
                        _copy_origin(doc, child, c)
                        _prefix_names(doc, c, prefix, _LOCAL_REFS)
                        extra.append((section, c))
        _prefix_names(doc, subtree, prefix, _LOCAL_REFS)
        for section, c in extra:
            section.append(c)
        attach.getparent().replace(attach, subtree)
        doc.mark(subtree, message=f"attached {doc.tag(source)} '{source.get('name')}' of "
                                  f"this model with prefix '{prefix}'")
        return
    body_name = source.get("name")
    model_name = sub.root.get("model")
    src = sub.root
    sub_dir = os.path.dirname(os.path.abspath(path))
    sub_meshdir = ""
    for c in sub.elements(src, "compiler"):
        sub_meshdir = c.get("meshdir") or c.get("assetdir") or sub_meshdir
    joints = _joints_of(doc, subtree)
    # Defaults: the attached model's main class becomes <prefix>main.
    extra = []
    for d in sub.elements(src, "default"):
        d0, d = d, copy.deepcopy(d)
        _copy_origin(doc, d0, d)
        _prefix_names(doc, d, prefix)
        d.set("class", prefix + "main")
        extra.append(("default", d))
    for tag in ("asset", "actuator", "tendon", "equality", "contact"):
        for section in sub.elements(src, tag):
            section0, section = section, copy.deepcopy(section)
            _copy_origin(doc, section0, section)
            for child in list(section):
                if not isinstance(child.tag, str):
                    section.remove(child)
                    continue
                if tag == "asset" and doc.tag(child) == "model":
                    section.remove(child)
                    continue
                if tag != "asset" and not _refs(doc, child) <= joints:
                    section.remove(child)
                    continue
                if tag == "asset" and child.get("file"):
                    child.set("file", os.path.join(sub_dir, sub_meshdir, child.get("file")))
            _prefix_names(doc, section, prefix)
            extra.append((tag, section))
    _prefix_names(doc, subtree, prefix)
    if subtree.get("childclass") is None and any(t == "default" for t, _ in extra):
        subtree.set("childclass", prefix + "main")
    for tag, section in extra:
        if tag == "default":
            main = doc.child(root, "default")
            if main is None:
                main = root.makeelement("default", {})
                root.insert(0, main)
            main.append(section)
        else:
            root.append(section)
    parent = attach.getparent()
    parent.replace(attach, subtree)
    doc.mark(subtree, message=f"attached {doc.tag(source)} '{body_name}' of model "
                              f"'{model_name}' with prefix '{prefix}'")
