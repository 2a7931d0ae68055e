"""Makes the shared test helpers in this folder (robot_models) importable from every test
directory."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
