"""The command line starts light: ``qiyuan --help`` and the commands that do not need them load neither the rating
engine's libraries (NumPy, polars), nor Django, nor the verification kit — each command imports what it uses
(the office's commands Django, ``verify-edition`` the kit). Every hall or office command a person types, and every
process the concurrency tests start, pays the start-up."""

from __future__ import annotations

import subprocess
import sys

from qiyuan.cli.kit import LAYER_NAMES
from qiyuan.kit.verify import LAYERS

HEAVY = ("numpy", "polars", "django", "qiyuan.kit.verify", "qiyuan.rating.fast", "openpyxl", "reportlab")


def test_the_command_line_starts_without_the_heavy_libraries():
    script = ("import sys; from qiyuan.cli import app; "
              f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []


def test_verify_edition_names_every_layer_of_the_kit_in_its_order():
    assert tuple(LAYER_NAMES) == LAYERS
