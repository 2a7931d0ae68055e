"""The ``merganser`` command line: --help everywhere, inspect (text and JSON, checked
against the masses in the URDF read independently), simulate (drop versus hold with
gravity compensation, HTML replay), examples (list and run), and usage errors (exit code 2
naming the option or the file)."""

import base64
import json
import re
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from merganser.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "data" / "models"
ACROBOT = DATA / "drake" / "acrobot" / "Acrobot.urdf"
CART_POLE = DATA / "drake" / "cart_pole" / "cart_pole.sdf"
PANDA = DATA / "example-robot-data" / "robots" / "panda_description" / "urdf" / "panda.urdf"


def urdf_total_mass(path):
    return sum(float(m.get("value")) for m in etree.parse(str(path)).iterfind(".//inertial/mass"))


@pytest.mark.parametrize("argv", [["--help"], ["inspect", "--help"], ["simulate", "--help"],
                                  ["examples", "--help"]])
def test_help_everywhere(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 0
    assert "usage: merganser" in capsys.readouterr().out


def test_inspect_json_reports_the_acrobot(capsys):
    import json

    assert main(["inspect", str(ACROBOT), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["nq"], info["nv"], info["nu"]) == (2, 2, 1)
    assert info["total_mass"] == pytest.approx(urdf_total_mass(ACROBOT))
    assert [j["name"] for j in info["joints"]] == ["base_weld", "shoulder", "elbow"]
    assert [j["type"] for j in info["joints"]] == ["weld", "revolute", "revolute"]
    assert info["report"]["implemented"] > 0


def test_inspect_text_reports_the_panda(capsys):
    assert main(["inspect", str(PANDA)]) == 0
    out = capsys.readouterr().out
    assert "nq = 16, nv = 15, nu = 0" in out      # free base (7 + 6) + 7 arm + 2 fingers
    mass = float(out.split("total mass = ")[1].split(" kg")[0])
    assert mass == pytest.approx(urdf_total_mass(PANDA), rel=1e-5)
    assert "panda_joint1" in out and "quaternion_floating" in out
    assert "panda.urdf:47: [ignored]" in out      # warnings carry file:line


def test_missing_model_is_a_usage_error_naming_the_file(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["inspect", "no/such/robot.urdf"])
    assert exit_info.value.code == 2
    assert "argument MODEL: file 'no/such/robot.urdf' does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("argv, option", [
    (["simulate", str(ACROBOT), "--time", "-1"], "argument --time"),
    (["simulate", str(ACROBOT), "--time-step", "fast"], "argument --time-step"),
    (["simulate", str(ACROBOT), "--contact", "magic"], "argument --contact"),
    (["simulate", str(ACROBOT), "--frobnicate"], "--frobnicate"),
    (["inspect", str(ACROBOT), "--package", "nopath"], "argument --package"),
])
def test_bad_options_exit_2_naming_the_option(argv, option, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert option in capsys.readouterr().err


def _largest_change(out):
    return float(out.split("largest coordinate change ")[1].split(")")[0])


def test_hold_keeps_the_welded_panda_still_while_a_drop_moves_it(capsys):
    argv = ["simulate", str(PANDA), "--weld-base", "--time", "0.3"]
    assert main(argv) == 0
    dropped = _largest_change(capsys.readouterr().out)
    assert main(argv + ["--hold"]) == 0
    held = _largest_change(capsys.readouterr().out)
    assert dropped > 1e-2
    assert held < 1e-6


def test_hold_refuses_a_free_base(capsys):
    assert main(["simulate", str(PANDA), "--hold", "--time", "0.1"]) == 1
    assert "--hold needs a model without a free base" in capsys.readouterr().err


def test_simulate_writes_a_replay(tmp_path, capsys):
    out = tmp_path / "cart_pole.html"
    assert main(["simulate", str(CART_POLE), "--time", "0.5", "--html", str(out)]) == 0
    umsgpack = pytest.importorskip("umsgpack")
    uris = json.loads(re.search(r'id="merganser-commands">(.*?)</script>', out.read_text(),
                                re.S).group(1))           # msgpack data URIs
    commands = [umsgpack.unpackb(base64.b64decode(u.split(",", 1)[1])) for u in uris]
    assert "/merganser/illustration/plant/CartPole/Pole/pole_point_mass" in {
        c["path"] for c in commands if c["type"] == "set_object"}
    assert any(c["type"] == "set_animation" for c in commands)
    assert "replay written to" in capsys.readouterr().out


def test_examples_lists_and_runs(capsys):
    assert main(["examples"]) == 0
    listing = capsys.readouterr().out
    for name in ("acrobot_lqr", "cart_pole_lqr", "pick_and_place", "spring_damper"):
        assert f"  {name} " in listing
    assert main(["examples", "spring_damper", "--quick"]) == 0
    assert "max |x - x_exact|" in capsys.readouterr().out


def test_unknown_example_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["examples", "warp_drive"])
    assert exit_info.value.code == 2
    assert "unknown example 'warp_drive'" in capsys.readouterr().err


def test_json_masses_are_finite(capsys):
    import json

    assert main(["inspect", str(CART_POLE), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert np.all(np.isfinite([b["mass"] for b in info["bodies"]]))
    assert info["format"] == "sdf" and info["nu"] == 1


SOLO = DATA / "example-robot-data" / "robots" / "solo_description" / "robots" / "solo12.urdf"


def _final_z(out):
    return float(out.split("final position [")[1].split("]")[0].split()[2])


def test_contact_with_the_ground_stops_the_fall(capsys):
    argv = ["simulate", str(SOLO), "--time", "0.4", "--height", "0.3"]
    assert main(argv) == 0
    free_fall = _final_z(capsys.readouterr().out)
    assert free_fall == pytest.approx(0.3 - 0.5 * 9.81 * 0.4**2, abs=1e-3)
    assert main(argv + ["--contact", "point"]) == 0
    landed = _final_z(capsys.readouterr().out)
    assert 0.15 < landed < 0.4                    # standing on its legs, not through the ground


def test_free_base_without_actuators_prints_a_hint(capsys):
    assert main(["simulate", str(PANDA), "--time", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "hint: panda.urdf has a free base (panda_link0) and no actuators" in out
    assert "--weld panda_link0" in out and "--actuate" in out
    assert main(["simulate", str(PANDA), "--time", "0.05", "--weld", "panda_link0"]) == 0
    assert "hint:" not in capsys.readouterr().out


def test_weld_and_actuate_build_a_fixed_fully_actuated_panda():
    from merganser.cli.main import build_parser
    from merganser.cli.simulate_command import build_simulation

    args = build_parser().parse_args(["simulate", str(PANDA), "--weld", "panda_link0",
                                      "--actuate"])
    _, plant, free, _ = build_simulation(args)
    assert free == []
    assert (plant.num_positions(), plant.num_velocities()) == (9, 9)   # 7 arm + 2 fingers
    assert plant.num_actuators() == 9
    assert sorted(plant.get_joint_actuator(a).joint().name()
                  for a in plant.get_joint_actuator_indices()) == sorted(
        [f"panda_joint{i}" for i in range(1, 8)] + ["panda_finger_joint1", "panda_finger_joint2"])


def test_welded_panda_stays_at_its_base(capsys):
    assert main(["simulate", str(PANDA), "--time", "0.1", "--weld", "panda_link0",
                 "--actuate"]) == 0
    out = capsys.readouterr().out
    assert "final position" not in out          # no free body left
    assert _largest_change(out) > 1e-3           # the arm still swings under gravity


@pytest.mark.parametrize("body, message", [
    ("panda_link3", "--weld panda_link3: body 'panda_link3' is not free"),
    ("wing", "--weld wing: the model has no body 'wing'; free bodies: panda_link0"),
])
def test_weld_names_a_free_body(body, message, capsys):
    assert main(["simulate", str(PANDA), "--weld", body]) == 1
    assert message in capsys.readouterr().err


def test_solver_without_contact_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", str(ACROBOT), "--solver", "tamsi"])
    assert exit_info.value.code == 2
    assert "--solver tamsi selects a contact solver and needs --contact" in capsys.readouterr().err


def _steps(out):
    line = next(ln for ln in out.splitlines() if " steps, " in ln)
    steps, rejected = line.split(" steps, ")[0], line.split(" steps, ")[1].split(" rejected")[0]
    return int(steps), int(rejected), line


def test_summary_reports_steps_and_the_contact_that_set_the_smallest_step(tmp_path, capsys):
    box = tmp_path / "box.urdf"
    box.write_text("""<robot name="b"><link name="box"><inertial><mass value="1"/>
      <inertia ixx="0.002" iyy="0.002" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link></robot>""")
    assert main(["simulate", str(box), "--time", "0.1", "--height", "0.0"]) == 0
    steps, rejected, line = _steps(capsys.readouterr().out)
    assert steps > 0 and "contact drove" not in line
    # Resting on the ground at t = 0 (the box's center at z = 0 penetrates 5 cm).
    assert main(["simulate", str(box), "--time", "0.05", "--height", "0.0", "--contact",
                 "point", "--time-step", "0"]) == 0
    steps_c, rejected_c, line = _steps(capsys.readouterr().out)
    assert steps_c > steps
    assert "smallest step" in line
    assert "(contact drove the step size: world - box)" in line or \
        "(contact drove the step size: box - world)" in line


def test_inspect_counts_match_the_listed_warnings(capsys):
    assert main(["inspect", str(SOLO)]) == 0
    out = capsys.readouterr().out
    header = next(ln for ln in out.splitlines() if ln.startswith("parser warnings ("))
    warned = int(header.split("(")[1].split(" warned")[0])
    ignored = int(header.split(", ")[1].split(" ignored")[0])
    listed = out.split(header)[1].strip().splitlines()
    assert warned + ignored == len(listed) > 0
    assert sum("[ignored]" in ln for ln in listed) == ignored
    first_line = out.splitlines()[0]
    assert f"{warned} warned" in first_line and f"{ignored} ignored" in first_line


def test_warmup_compiles_once_then_loads_from_the_cache(tmp_path):
    import os
    import subprocess
    import sys

    # The JIT's cache (the install's ahead-of-time kernels would leave nothing to compile).
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), MERGANSER_AOT="0")
    argv = [sys.executable, "-m", "merganser.cli.main", "warmup", "--group", "framework"]
    cold = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    assert cold.returncode == 0, cold.stderr
    assert "merganser warmup: 100%" in cold.stderr              # the progress bar
    compiled = int(cold.stdout.split("ready: ")[1].split(" compiled")[0])
    assert compiled > 0
    warm = subprocess.run(argv + ["--no-progress"], env=env, capture_output=True, text=True,
                          timeout=600)
    assert warm.returncode == 0, warm.stderr
    assert "ready: 0 compiled" in warm.stdout
    assert "%" not in warm.stderr
