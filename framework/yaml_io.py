"""Typed YAML loading and saving of configs (pydrake.common.yaml).

``yaml_load_typed(schema=Config, data=text)`` reads a YAML mapping into a new ``Config``,
field by field, as Drake's ``LoadYamlFile`` does; ``yaml_dump_typed(config)`` writes one.
A schema is any of

- a dataclass (its fields' type hints are the schema);
- a ``ConfigModel`` (a pydantic model: merganser's SimulatorConfig, MultibodyPlantConfig,
  ...): the YAML value of each field is validated by the model itself;
- a class with ``__fields__``, a tuple of :class:`YamlField` (name, type) read and written
  as attributes, Drake's DefAttributesUsingSerialize (``Rgba`` has one field, ``rgba``,
  whose setter checks 3 or 4 elements in [0, 1]);
- ``dict[str, T]`` of one of those.

Drake's merge rules hold: a field the YAML leaves out keeps its default
(``allow_schema_with_no_yaml``), a YAML key the schema lacks is an error unless
``allow_yaml_with_no_schema``, a sequence replaces the old list, a mapping updates the old
dict (``retain_map_defaults``), ``Optional[T]`` takes ``null``, a ``Union[A, B]`` reads a
mapping as ``A`` unless it carries a ``!B`` tag. Scalars convert only without loss: an int
becomes a float, a float with no fraction an int, ``"true"``/``"false"`` a bool, a
string a number; anything else is an error. An enum field takes its member's name. Every
error is a :class:`YamlLoadError` (a RuntimeError, as Drake raises) naming the field.
"""

import collections.abc
import copy
import dataclasses
import enum
import math
import types
import typing
from pathlib import Path

import numpy as np

__all__ = ["YamlField", "YamlLoadError", "yaml_dump", "yaml_dump_typed", "yaml_load",
           "yaml_load_typed"]

_SCALARS = (bool, int, float, str, bytes)


class YamlLoadError(RuntimeError, ValueError):
    """YAML data that does not fit its schema (a RuntimeError, as Drake raises)."""


class YamlField(typing.NamedTuple):
    """One serialized attribute of a ``__fields__`` schema: its name and type."""

    name: str
    type: object


def _yaml():
    import yaml
    return yaml


def _loader():
    """A SafeLoader that keeps a mapping's ``!Tag`` as its ``_tag`` key."""
    yaml = _yaml()

    class Loader(yaml.SafeLoader):
        pass

    def tagged(loader, tag, node):
        if not isinstance(node, yaml.MappingNode):
            raise YamlLoadError(f"yaml_load: the tag {tag!r} is allowed on a mapping only")
        value = loader.construct_mapping(node, deep=True)
        return {"_tag": tag, **value}
    Loader.add_multi_constructor("!", tagged)
    return Loader


def yaml_load(*, data=None, filename=None):
    """The plain Python data (dicts, lists, scalars) of a YAML document.

    Parameters
    ----------
    data : str, optional
        The YAML text.
    filename : str or Path, optional
        A YAML file; give exactly one of `data` and `filename`.

    Returns
    -------
    object
        The document; a mapping with a ``!Tag`` gets the key ``_tag``.
    """
    if (data is None) == (filename is None):
        raise ValueError("yaml_load: give exactly one of data= and filename=, got "
                         f"{'both' if data is not None else 'neither'}")
    if filename is not None:
        data = Path(filename).read_text()
    if not isinstance(data, str):
        raise TypeError(f"yaml_load: data must be a str, got {type(data).__name__}")
    try:
        return _yaml().load(data, Loader=_loader())
    except _yaml().YAMLError as exc:
        raise YamlLoadError(f"yaml_load: the YAML does not parse: {exc}") from None


def yaml_dump(data, *, filename=None):
    """The YAML text of plain Python data (written to `filename` when given): mappings
    in block style, a sequence of scalars on one line (``limits: [1.0, 2.0]``).

    Parameters
    ----------
    data : object
        Dicts, lists and scalars.
    filename : str or Path, optional
        Where to write the text.

    Returns
    -------
    str or None
        The text, or None when it was written to `filename`.
    """
    yaml = _yaml()

    class Dumper(yaml.SafeDumper):
        pass

    def sequence(dumper, value):   # a list of scalars on one line, as Drake writes it
        flow = all(not isinstance(v, (list, tuple, dict)) for v in value)
        return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)
    Dumper.add_representer(list, sequence)
    text = yaml.dump(data, Dumper=Dumper, default_flow_style=False, sort_keys=False)
    if filename is None:
        return text
    Path(filename).write_text(text)
    return None


def _is_pydantic(schema):
    return isinstance(schema, type) and hasattr(schema, "model_fields") and hasattr(
        schema, "model_validate")


def _fields(schema):
    """{name: type} of a schema class, or None when it is none."""
    if not isinstance(schema, type):
        return None
    if dataclasses.is_dataclass(schema):
        hints = typing.get_type_hints(schema)
        return {f.name: hints.get(f.name, f.type) for f in dataclasses.fields(schema)}
    if _is_pydantic(schema):
        return {name: field.annotation for name, field in schema.model_fields.items()}
    fields = vars(schema).get("__fields__") or getattr(schema, "__fields__", None)
    if isinstance(fields, tuple) and all(isinstance(f, YamlField) for f in fields):
        return {f.name: f.type for f in fields}
    return None


def _optional_of(t):
    """T when `t` is ``Optional[T]``, else None."""
    if typing.get_origin(t) in (typing.Union, types.UnionType):
        args = typing.get_args(t)
        if len(args) == 2 and args[1] is type(None):
            return args[0]
    return None


def _name(t):
    return getattr(t, "__name__", str(t))


def _scalar(node, t, where):
    """`node` as the scalar type `t` when that loses nothing, else YamlLoadError."""
    if isinstance(node, (list, dict)):
        raise YamlLoadError(f"yaml_load_typed: {where}: expected a {_name(t)}, got a YAML "
                            f"{'sequence' if isinstance(node, list) else 'mapping'}")
    if type(node) is t:
        return node
    if type(node) is int and t is float:
        return float(node)
    if type(node) is float and t is int and node.is_integer():
        return int(node)
    if isinstance(node, str) and t in (int, float):
        try:
            return t(node)
        except ValueError:
            pass
    if isinstance(node, str) and t is bool and node in ("true", "false"):
        return node == "true"
    raise YamlLoadError(f"yaml_load_typed: {where}: expected a {_name(t)}, got {node!r} "
                        f"({type(node).__name__})")


def _fresh(t, node):
    """A default value of type `t` to merge `node` into."""
    if t is np.ndarray:
        return np.full(len(node), math.nan) if isinstance(node, list) else np.zeros(0)
    origin = typing.get_origin(t)
    if origin in (typing.Union, types.UnionType):
        return None
    if origin is not None:
        return origin()
    if t in (typing.Any, object) or (isinstance(t, type) and issubclass(t, enum.Enum)):
        return None
    return t()


def _convert(options, node, t, old, where):
    """The value of type `t` that the YAML `node` makes, merged into `old`."""
    if t in (typing.Any, object):
        return node
    if t in _SCALARS:
        return _scalar(node, t, where)
    inner = _optional_of(t)
    if inner is not None:
        if node is None:
            return None
        return _convert(options, node, inner, old if old is not None else _fresh(inner, node),
                        where)
    if t is Path:
        if not isinstance(node, str):
            raise YamlLoadError(f"yaml_load_typed: {where}: expected a path str, got {node!r}")
        return Path(node)
    if t is np.ndarray:
        try:
            return np.array(node, dtype=float)
        except (TypeError, ValueError):
            raise YamlLoadError(f"yaml_load_typed: {where}: expected numbers, got "
                                f"{node!r}") from None
    if isinstance(t, type) and issubclass(t, enum.Enum):
        if isinstance(node, str) and node in t.__members__:
            return t.__members__[node]
        try:
            return t(node)
        except ValueError:
            raise YamlLoadError(f"yaml_load_typed: {where}: {node!r} is no {t.__name__}; "
                                f"valid: {', '.join(t.__members__)}") from None
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin in (list, collections.abc.Sequence):
        if not isinstance(node, list):
            raise YamlLoadError(f"yaml_load_typed: {where}: expected a YAML sequence, got "
                                f"{node!r}")
        return [_convert(options, item, args[0], _fresh(args[0], item), f"{where}[{i}]")
                for i, item in enumerate(node)]
    if origin in (dict, collections.abc.Mapping):
        if not isinstance(node, dict):
            raise YamlLoadError(f"yaml_load_typed: {where}: expected a YAML mapping, got "
                                f"{node!r}")
        merged = copy.deepcopy(old) if options["retain_map_defaults"] and isinstance(
            old, dict) else {}
        for key, item in node.items():
            base = merged[key] if key in merged else _fresh(args[1], item)
            merged[key] = _convert(options, item, args[1], base, f"{where}[{key!r}]")
        return merged
    if origin in (typing.Union, types.UnionType):
        return _convert_union(options, node, args, old, where)
    if origin is not None:
        raise YamlLoadError(f"yaml_load_typed: {where}: the generic type {t} is not supported")
    if _fields(t) is None:
        raise YamlLoadError(f"yaml_load_typed: {where}: {t!r} is no schema (a dataclass, a "
                            f"ConfigModel or a class with __fields__)")
    if not isinstance(node, dict):
        raise YamlLoadError(f"yaml_load_typed: {where}: expected a YAML mapping for "
                            f"{_name(t)}, got {node!r}")
    target = copy.deepcopy(old) if isinstance(old, t) else t()
    _merge(options, node, target, t, where)
    return target


def _convert_union(options, node, args, old, where):
    if not isinstance(node, dict):
        if type(node) in args:
            return node
        try:
            return _convert(options, node, args[0], old, where)
        except YamlLoadError:
            raise YamlLoadError(
                f"yaml_load_typed: {where}: {node!r} fits none of "
                f"{', '.join(_name(a) for a in args)}") from None
    chosen = args[0]
    if "_tag" in node:
        node = dict(node)
        tag = node.pop("_tag").lstrip("!")
        chosen = next((a for a in args if _name(typing.get_origin(a) or a) == tag), None)
        if chosen is None:
            raise YamlLoadError(f"yaml_load_typed: {where}: the tag !{tag} is none of "
                                f"{', '.join(_name(a) for a in args)}")
    base = old if isinstance(old, typing.get_origin(chosen) or chosen) else _fresh(chosen, node)
    return _convert(options, node, chosen, base, where)


def _merge(options, node, target, schema, where):
    """Write the YAML mapping `node` into `target`, an instance of `schema`."""
    fields = _fields(schema)
    unknown = [key for key in node if key not in fields]
    if unknown and not options["allow_yaml_with_no_schema"]:
        raise YamlLoadError(f"yaml_load_typed: {where}: the fields {unknown} are unknown to "
                            f"the schema {_name(schema)}; valid fields: {', '.join(fields)}")
    optional = {name for name, t in fields.items() if _optional_of(t) is not None}
    missing = [name for name in fields if name not in node and name not in optional]
    if missing and not options["allow_schema_with_no_yaml"]:
        raise YamlLoadError(f"yaml_load_typed: {where}: the fields {missing} are missing in "
                            f"the YAML data")
    pydantic = _is_pydantic(schema)
    for name, t in fields.items():
        if name not in node and (name not in optional or options["allow_schema_with_no_yaml"]):
            continue
        item, at = node.get(name), f"{where}.{name}"
        old = target[name] if isinstance(target, dict) else getattr(target, name)
        if pydantic and not (isinstance(item, dict) and _fields(type(old)) is not None):
            value = item       # the model validates its own fields
        else:
            value = _convert(options, item, t, old, at)
        try:
            if isinstance(target, dict):
                target[name] = value
            else:
                setattr(target, name, value)
        except (RuntimeError, ValueError, TypeError) as exc:
            raise YamlLoadError(f"yaml_load_typed: {at}: {exc}") from exc


def yaml_load_typed(*, schema=None, data=None, filename=None, child_name=None, defaults=None,
                    allow_yaml_with_no_schema=False, allow_schema_with_no_yaml=True,
                    retain_map_defaults=True):
    """Read a YAML mapping into a new object of type `schema` (Drake's LoadYamlFile).

    Parameters
    ----------
    schema : type, optional
        A dataclass, a ConfigModel, a class with ``__fields__`` or ``dict[str, T]`` of
        one; ``type(defaults)`` when omitted.
    data : str, optional
        The YAML text.
    filename : str or Path, optional
        A YAML file; give exactly one of `data` and `filename`.
    child_name : str, optional
        Read the document's top-level key `child_name` instead of the whole document.
    defaults : object, optional
        The values the YAML updates (copied); default: ``schema()``.
    allow_yaml_with_no_schema : bool
        Ignore YAML keys the schema lacks instead of raising.
    allow_schema_with_no_yaml : bool
        Let fields the YAML leaves out keep their defaults (else raise).
    retain_map_defaults : bool
        A YAML mapping updates a dict field's entries instead of replacing the dict.

    Returns
    -------
    object
        The new `schema` instance.

    Raises
    ------
    YamlLoadError
        (a RuntimeError) The data does not fit the schema; the message names the field.
    """
    if schema is None:
        if defaults is None:
            raise ValueError("yaml_load_typed: give schema= or defaults=, got neither")
        schema = type(defaults)
    options = {"allow_yaml_with_no_schema": allow_yaml_with_no_schema,
               "allow_schema_with_no_yaml": allow_schema_with_no_yaml,
               "retain_map_defaults": retain_map_defaults}
    document = yaml_load(data=data, filename=filename)
    if child_name is not None:
        if not isinstance(document, dict) or child_name not in document:
            raise YamlLoadError(f"yaml_load_typed: child_name {child_name!r} is not a key of "
                                f"the document's root")
        document = document[child_name]
    if not isinstance(document, dict):
        raise YamlLoadError(f"yaml_load_typed: the YAML root must be a mapping, got "
                            f"{type(document).__name__}")
    if typing.get_origin(schema) in (dict, collections.abc.Mapping):
        return _convert(options, document, schema, copy.deepcopy(defaults), "root")
    if _fields(schema) is None:
        raise TypeError(f"yaml_load_typed: schema must be a dataclass, a ConfigModel, a class "
                        f"with __fields__ or dict[str, T], got {schema!r}")
    target = copy.deepcopy(defaults) if defaults is not None else schema()
    _merge(options, document, target, schema, _name(schema))
    return target


def _to_node(value):
    """Plain YAML data of a field value."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_to_node(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_node(v) for k, v in value.items()}
    fields = _fields(type(value))
    if fields is not None:
        return {name: _to_node(getattr(value, name)) for name in fields
                if getattr(value, name) is not None}
    return value


def yaml_dump_typed(data, *, schema=None, child_name=None, defaults=None, filename=None):
    """The YAML text of a schema object (Drake's SaveYamlFile), the inverse of
    :func:`yaml_load_typed`.

    Parameters
    ----------
    data : object
        A dataclass, ConfigModel or ``__fields__`` object (or a dict of them).
    schema : type, optional
        Its schema; default ``type(data)``.
    child_name : str, optional
        Nest the document under this top-level key.
    defaults : object, optional
        Leave out the fields whose value equals this object's.
    filename : str or Path, optional
        Write the text there instead of returning it.

    Returns
    -------
    str or None
        The text, or None when written to `filename`.
    """
    schema = type(data) if schema is None else schema
    if not isinstance(data, dict) and _fields(schema) is None:
        raise TypeError(f"yaml_dump_typed: data must be a dataclass, a ConfigModel or a class "
                        f"with __fields__, got {type(data).__name__}")
    node = _to_node(data)
    if defaults is not None:
        base = _to_node(defaults)
        node = {k: v for k, v in node.items() if base.get(k, object()) != v}
    if child_name is not None:
        node = {child_name: node}
    return yaml_dump(node, filename=filename)
