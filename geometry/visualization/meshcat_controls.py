"""The sliders, buttons and gamepad of a Meshcat (Drake's Meshcat::AddSlider / AddButton
family and GetGamepad).

Drake's own server draws the controls in the browser, and the browser reports what the user
does as websocket messages (``{"type": "button", "name": ...}``, ``{"type": "slider",
"name": ..., "value": ...}``, ``{"type": "gamepad", "gamepad": {"index": ...,
"button_values": [...], "axes": [...]}}``). merganser's viewer (the ``meshcat`` package's,
and the HTML replay) draws no controls, so here they are values held for the program: a
slider keeps its value until `set_slider_value` moves it or a message reports a move, and
a button counts the clicks messages report (`handle_control_message`, fed by the live
server and by ``Meshcat._inject_websocket_message``). The semantics are Drake's: a slider's
value is snapped to its step from `min` and clamped to [min, max] when the program sets it
(a browser's value is taken as sent); names are unique per kind; an unknown name raises
RuntimeError listing the registered ones; a message about an unknown control is ignored.
"""

from __future__ import annotations

import copy
import math
import warnings

__all__ = ["Gamepad", "MeshcatControls"]

_NO_UI = ("merganser's Meshcat viewer shows no sliders or buttons: a slider keeps its "
          "value until set_slider_value moves it, and a button's click count stays 0 "
          "unless a websocket message reports a click")


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Gamepad:
    """The state of a gamepad as the browser reports it (Drake's Meshcat::Gamepad).

    Parameters
    ----------
    index : int or None
        The device's index; None until a browser has reported a gamepad.
    button_values : list of float
        Analog button values in [0, 1] (the standard gamepad mapping).
    axes : list of float
        Axis positions in [-1, 1] (the standard mapping: left stick x, y, right stick x, y).
    """

    __slots__ = ("index", "button_values", "axes")

    def __init__(self, *, index=None, button_values=(), axes=()):
        if index is not None and not (isinstance(index, int) and not isinstance(index, bool)):
            raise TypeError(f"Meshcat.Gamepad: index must be an int or None, got "
                            f"{type(index).__name__}")
        self.index = index
        self.button_values = [float(v) for v in button_values]
        self.axes = [float(v) for v in axes]

    def __copy__(self):
        return Gamepad(index=self.index, button_values=self.button_values, axes=self.axes)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __eq__(self, other):
        return isinstance(other, Gamepad) and (self.index, self.button_values, self.axes) == (
            other.index, other.button_values, other.axes)

    __hash__ = None

    def __repr__(self):
        return (f"Gamepad(index={self.index!r}, button_values={self.button_values!r}, "
                f"axes={self.axes!r})")


class _Slider:
    __slots__ = ("min", "max", "step", "value", "keycodes")

    def __init__(self, lo, hi, step, keycodes):
        self.min, self.max, self.step, self.keycodes = lo, hi, step, keycodes
        self.value = lo

    def snap(self, value):
        """`value` snapped to the step grid from min and clamped to [min, max]."""
        value = min(max(float(value), self.min), self.max)
        if self.step > 0.0:
            # (half away from zero, as C++'s std::round; the offset is >= 0 here)
            value = self.min + math.floor((value - self.min) / self.step + 0.5) * self.step
            value = min(value, self.max)
        return value


class MeshcatControls:
    """The sliders and buttons of one Meshcat (see the module docstring)."""

    def __init__(self):
        self._sliders = {}
        self._buttons = {}          # name -> [clicks, keycode]
        self._gamepad = Gamepad()
        self._warned = False

    # ---- messages from a browser ---------------------------------------------------------
    def handle_control_message(self, data):
        """Apply one decoded browser message about a control: a button click (the count of
        a known button goes up by one), a slider move (a known slider takes the value as
        sent) or a gamepad's state. Returns False for a message of another type (and for
        a malformed one), True otherwise (also when the control is unknown: ignored, as
        Drake does)."""
        kind = data.get("type")
        if kind == "button" and isinstance(data.get("name"), str):
            button = self._buttons.get(data["name"])
            if button is not None:
                button[0] += 1
            return True
        if kind == "slider" and isinstance(data.get("name"), str) \
                and _is_number(data.get("value")):
            slider = self._sliders.get(data["name"])
            if slider is not None:
                slider.value = float(data["value"])
            return True
        if kind == "gamepad" and isinstance(data.get("gamepad"), dict):
            pad = data["gamepad"]
            index = pad.get("index")
            values, axes = pad.get("button_values", []), pad.get("axes", [])
            if not (isinstance(index, int) and not isinstance(index, bool)) or not all(
                    isinstance(v, list) and all(_is_number(x) for x in v)
                    for v in (values, axes)):
                return False
            self._gamepad = Gamepad(index=index, button_values=values, axes=axes)
            return True
        return False

    def get_gamepad(self):
        """The last gamepad state a browser reported (a copy): ``index`` None and empty
        values before any."""
        return copy.copy(self._gamepad)

    def _warn_once(self):
        if not self._warned:
            self._warned = True
            warnings.warn(_NO_UI, UserWarning, stacklevel=3)

    @staticmethod
    def _name(fn, name):
        if not isinstance(name, str):
            raise TypeError(f"Meshcat.{fn}: name must be a str, got {type(name).__name__}")
        return name

    def _missing(self, kind, name, table):
        names = ", ".join(table)
        return RuntimeError(f"Meshcat does not have any {kind} named {name}. The registered "
                            f"{kind} names are ({names}).")

    # ---- sliders -------------------------------------------------------------------------
    def add_slider(self, name, min, max, step, value, decrement_keycode="",  # noqa: A002
                   increment_keycode=""):
        """Add a slider (pydrake's keywords); returns its value, snapped and clamped."""
        name = self._name("add_slider", name)
        if name in self._sliders:
            raise RuntimeError(f"Meshcat already has a slider named {name}.")
        lo, hi, step = float(min), float(max), float(step)
        if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
            raise ValueError(f"Meshcat.add_slider: slider {name!r}: need finite min <= max, "
                             f"got min={min!r}, max={max!r}")
        if not (math.isfinite(step) and step >= 0.0):
            raise ValueError(f"Meshcat.add_slider: slider {name!r}: step must be finite and "
                             f">= 0, got {step!r}")
        self._warn_once()
        slider = _Slider(lo, hi, step, (str(decrement_keycode), str(increment_keycode)))
        slider.value = slider.snap(value)
        self._sliders[name] = slider
        return slider.value

    def get_slider_value(self, name):
        """The slider's value."""
        slider = self._sliders.get(self._name("get_slider_value", name))
        if slider is None:
            raise self._missing("slider", name, self._sliders)
        return slider.value

    def set_slider_value(self, name, value):
        """Move the slider to `value` (snapped and clamped); returns the value set."""
        slider = self._sliders.get(self._name("set_slider_value", name))
        if slider is None:
            raise self._missing("slider", name, self._sliders)
        slider.value = slider.snap(value)
        return slider.value

    def get_slider_names(self):
        """The sliders' names, in the order they were added."""
        return list(self._sliders)

    def delete_slider(self, name, strict=True):
        """Remove the slider; returns whether it existed (a missing one raises when
        `strict`)."""
        if self._sliders.pop(self._name("delete_slider", name), None) is not None:
            return True
        if strict:
            raise self._missing("slider", name, self._sliders)
        return False

    # ---- buttons -------------------------------------------------------------------------
    def add_button(self, name, keycode=""):
        """Add a button (or reset the click count of an existing one, as Drake)."""
        name = self._name("add_button", name)
        self._warn_once()
        self._buttons[name] = [0, str(keycode)]

    def get_button_clicks(self, name):
        """The number of clicks reported since the button was added."""
        button = self._buttons.get(self._name("get_button_clicks", name))
        if button is None:
            raise self._missing("button", name, self._buttons)
        return button[0]

    def get_button_names(self):
        """The buttons' names, in the order they were added."""
        return list(self._buttons)

    def delete_button(self, name, strict=True):
        """Remove the button; returns whether it existed (a missing one raises when
        `strict`)."""
        if self._buttons.pop(self._name("delete_button", name), None) is not None:
            return True
        if strict:
            raise self._missing("button", name, self._buttons)
        return False

    def delete_added_controls(self):
        """Remove every slider and button."""
        self._sliders.clear()
        self._buttons.clear()
