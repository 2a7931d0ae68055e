"""Typed YAML loading and saving (pydrake.common.yaml's yaml_load_typed / yaml_dump_typed):
Drake's merge rules on dataclasses, ConfigModels and dicts of them."""

import dataclasses
import enum
import typing
from pathlib import Path

import numpy as np
import pytest

from merganser.framework import (SimulatorConfig, YamlLoadError, yaml_dump_typed, yaml_load,
                                 yaml_load_typed)


class Mode(enum.Enum):
    kFast = 1
    kSlow = 2


@dataclasses.dataclass
class Gains:
    kp: float = 1.0
    kd: float = 0.1


@dataclasses.dataclass
class Other:
    label: str = ""


@dataclasses.dataclass
class Controller:
    name: str = "pid"
    rate: int = 100
    enabled: bool = True
    gains: Gains = dataclasses.field(default_factory=Gains)
    limits: list[float] = dataclasses.field(default_factory=lambda: [1.0, 2.0])
    offsets: dict[str, float] = dataclasses.field(default_factory=lambda: {"a": 1.0})
    note: typing.Optional[str] = "default"
    mode: Mode = Mode.kFast
    target: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(2))
    path: Path = Path("x")
    choice: typing.Union[Gains, Other] = dataclasses.field(default_factory=Gains)


def test_fields_the_yaml_leaves_out_keep_their_defaults():
    c = yaml_load_typed(schema=Controller, data="rate: 50\ngains: {kp: 3}")
    assert c.rate == 50 and c.name == "pid"
    assert c.gains == Gains(kp=3.0, kd=0.1)
    assert isinstance(c.gains.kp, float)


def test_sequences_replace_and_mappings_update():
    c = yaml_load_typed(schema=Controller, data="limits: [5]\noffsets: {b: 2}")
    assert c.limits == [5.0]
    assert c.offsets == {"a": 1.0, "b": 2.0}
    c = yaml_load_typed(schema=Controller, data="offsets: {b: 2}", retain_map_defaults=False)
    assert c.offsets == {"b": 2.0}


def test_optional_enum_array_path_and_bool_conversions():
    c = yaml_load_typed(schema=Controller, data=(
        "note: null\nmode: kSlow\ntarget: [1, 2, 3]\npath: /tmp/a\nenabled: 'false'\n"
        "rate: 7.0"))
    assert c.note is None
    assert c.mode is Mode.kSlow
    np.testing.assert_array_equal(c.target, [1.0, 2.0, 3.0])
    assert c.path == Path("/tmp/a")
    assert c.enabled is False
    assert c.rate == 7 and isinstance(c.rate, int)


def test_union_reads_the_first_alternative_unless_tagged():
    assert yaml_load_typed(schema=Controller, data="choice: {kp: 2}").choice == Gains(kp=2.0)
    c = yaml_load_typed(schema=Controller, data="choice: !Other {label: hi}")
    assert c.choice == Other(label="hi")
    with pytest.raises(YamlLoadError, match=r"Controller\.choice: the tag !Nope is none of"):
        yaml_load_typed(schema=Controller, data="choice: !Nope {label: hi}")


def test_lossy_conversions_and_unknown_fields_raise_naming_the_field():
    with pytest.raises(RuntimeError, match=r"Controller\.rate: expected a int, got 2\.5"):
        yaml_load_typed(schema=Controller, data="rate: 2.5")
    with pytest.raises(YamlLoadError, match=r"Controller\.name: expected a str, got 3"):
        yaml_load_typed(schema=Controller, data="name: 3")
    with pytest.raises(YamlLoadError, match=r"the fields \['bogus'\] are unknown.*valid fields: name"):
        yaml_load_typed(schema=Controller, data="bogus: 1")
    c = yaml_load_typed(schema=Controller, data="bogus: 1\nrate: 3", allow_yaml_with_no_schema=True)
    assert c.rate == 3
    with pytest.raises(YamlLoadError, match=r"the fields \['kd'\] are missing"):
        yaml_load_typed(schema=Gains, data="kp: 1", allow_schema_with_no_yaml=False)
    with pytest.raises(YamlLoadError, match="'kSlowest' is no Mode; valid: kFast, kSlow"):
        yaml_load_typed(schema=Controller, data="mode: kSlowest")


def test_defaults_child_name_and_dict_schema():
    base = Controller(rate=9)
    c = yaml_load_typed(defaults=base, data="top:\n  name: lqr", child_name="top")
    assert (c.name, c.rate) == ("lqr", 9)
    assert base.name == "pid"       # defaults are copied
    gains = yaml_load_typed(schema=dict[str, Gains], data="left: {kp: 2}\nright: {kd: 3}")
    assert gains == {"left": Gains(kp=2.0), "right": Gains(kd=3.0)}
    with pytest.raises(YamlLoadError, match="root must be a mapping, got list"):
        yaml_load_typed(schema=Gains, data="[1, 2]")
    with pytest.raises(ValueError, match="give schema= or defaults="):
        yaml_load_typed(data="kp: 1")


def test_config_model_validates_its_own_fields():
    config = yaml_load_typed(schema=SimulatorConfig,
                             data="integration_scheme: runge_kutta2\nmax_step_size: 0.01")
    assert config == SimulatorConfig(integration_scheme="runge_kutta2", max_step_size=0.01)
    with pytest.raises(YamlLoadError, match="SimulatorConfig.integration_scheme"):
        yaml_load_typed(schema=SimulatorConfig, data="integration_scheme: nope")


def test_dump_typed_round_trips_and_omits_defaults():
    c = Controller(rate=5, gains=Gains(kp=2.0), note=None, mode=Mode.kSlow)
    text = yaml_dump_typed(c)
    assert "note" not in text and "mode: kSlow" in text
    # a None optional is left out, so only a load that resets what the YAML omits reads None
    back = yaml_load_typed(schema=Controller, data=text, allow_schema_with_no_yaml=False)
    assert (back.rate, back.gains, back.note, back.mode) == (5, Gains(kp=2.0), None, Mode.kSlow)
    assert yaml_load(data=yaml_dump_typed(c, defaults=Controller())) == {
        "rate": 5, "gains": {"kp": 2.0, "kd": 0.1}, "mode": "kSlow"}
    assert yaml_dump_typed(SimulatorConfig(accuracy=0.01), defaults=SimulatorConfig(),
                           child_name="sim") == "sim:\n  accuracy: 0.01\n"
