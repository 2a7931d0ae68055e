"""A time step so large that a body passes through the ground in one step (issue: h = 0.5 s
under "similar" or "lagged" took a box to z = -976 m silently) gives one PenetrationWarning
(a RuntimeWarning) naming the bodies, the geometries, the time step and the remedy; a
sensible time step gives none."""

import warnings

import pytest

from merganser.multibody.contact.contact_manager import PenetrationWarning
from scenes import BoxScene


@pytest.mark.parametrize("approximation", ["similar", "lagged"])
def test_falling_through_the_ground_in_one_step_warns_once(approximation):
    scene = BoxScene(approximation, time_step=0.5)
    scene.place(0.3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scene.simulator.advance_to(5.0)
    assert scene.position()[2] < -0.1             # it did go through (the model's limit)
    found = [w for w in caught if issubclass(w.category, PenetrationWarning)]
    assert len(found) == 1                        # once, not every step
    assert issubclass(found[0].category, RuntimeWarning)
    message = str(found[0].message)
    for part in ("'box' (body 'box')", "'ground' (body 'world')", "time step of 0.5 s",
                 f"'{approximation}'", "reduce the time step", "deeper than the geometry's "
                 "own size 0.1 m"):
        assert part in message, (part, message)
    assert found[0].filename == __file__          # located at the caller's line


def test_a_resting_box_with_a_small_time_step_does_not_warn():
    scene = BoxScene("similar")
    scene.place(0.05)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PenetrationWarning)
        scene.simulator.advance_to(0.3)
    assert abs(scene.position()[2] - 0.05) < 1e-3
