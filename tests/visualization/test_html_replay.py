"""The exported HTML replay in a real browser (headless Chromium, software WebGL): the page
loads offline, the canvas is not blank, the scene holds the expected objects, and the time
slider moves the recorded box (1 m along x between t = 0 and t = 1 s).

Needs Debian's ``chromium`` on PATH (``.ci/run`` installs it); skipped otherwise.
"""

import json
import re
import shutil
import subprocess

import numpy as np
import pytest

import viz_scene

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="headless browser test: chromium is not on PATH "
                                       "(apt-get install chromium)")
FLAGS = ["--headless", "--no-sandbox", "--disable-dev-shm-usage", "--enable-unsafe-swiftshader",
         "--use-angle=swiftshader", "--mute-audio", "--no-first-run",
         "--virtual-time-budget=1500"]
WIDTH, HEIGHT = 480, 360


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    diagram, meshcat, visualizer = viz_scene.build()
    meshcat.set_camera_pose([0.5, -2.5, 1.5], [0.5, 0.0, 0.0])
    visualizer.start_recording()
    diagram.simulate(1.0)
    visualizer.stop_recording()
    visualizer.publish_recording()
    return meshcat.save_static_html(tmp_path_factory.mktemp("replay") / "toy.html")


def chromium(*args, timeout=90):
    result = subprocess.run([CHROMIUM, *FLAGS, *args], capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def screenshot(html, tmp_path, t, name):
    png = tmp_path / f"{name}.png"
    chromium(f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={png}",
             f"{html.as_uri()}#t={t}")
    from PIL import Image
    return np.asarray(Image.open(png).convert("RGB"), dtype=float)


def red_centroid_x(image):
    r, g, b = image[..., 0], image[..., 1], image[..., 2]
    mask = (r > 150) & (g < 80) & (b < 80)
    assert mask.sum() > 100, "the red box is not on the screenshot"
    return np.nonzero(mask)[1].mean()


def test_page_is_self_contained(replay):
    text = replay.read_text()
    assert "MeshCat" in text and "THREE" in text          # viewer and three.js inline
    assert not re.search(r'<script[^>]+src=', text)      # no external scripts
    assert "http://" not in text.split("<script>")[0]     # nothing fetched by the head


def test_scene_lists_the_expected_objects(replay):
    dom = chromium("--dump-dom", replay.as_uri())
    assert 'data-merganser-ready="1"' in dom
    match = re.search(r'<pre id="merganser-scene-objects"[^>]*>(.*?)</pre>', dom, re.S)
    objects = json.loads(match.group(1))
    assert "/merganser/illustration/toy/mover/red_box" in objects
    assert "/merganser/illustration/toy/world/green_ball" in objects


def test_canvas_is_not_blank_and_shows_the_geometry(replay, tmp_path):
    image = screenshot(replay, tmp_path, 0.0, "start")
    assert image.shape[:2] == (HEIGHT, WIDTH)
    assert image.reshape(-1, 3).std(axis=0).min() > 5.0        # not a uniform canvas
    r, g, b = image[..., 0], image[..., 1], image[..., 2]
    assert ((g > 120) & (r < 80) & (b < 80)).sum() > 50        # the green ball is drawn
    red_centroid_x(image)


def test_time_slider_moves_the_recorded_box(replay, tmp_path):
    x_start = red_centroid_x(screenshot(replay, tmp_path, 0.0, "t0"))
    x_end = red_centroid_x(screenshot(replay, tmp_path, 1.0, "t1"))
    # The box slides 1 m toward +x, which is to the right for this camera.
    assert x_end - x_start > 40.0
