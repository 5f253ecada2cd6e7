"""The sample-photo renderer (a script, not a package module), loaded once for the tests."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@cache
def load_renderer():
    spec = importlib.util.spec_from_file_location(
        "render_samples", ROOT / "scripts" / "render_samples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module
