"""A reader that stops early (``scorer ... | head -c 10``) must cause no traceback."""

import json
import os
import subprocess
import sys

import pytest

GAME = {
    "variant": "europe",
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
    "claims": [{"player": "Ann", "route": "paris--zurich"}],
}


def run_with_stdout_closed(*args: str) -> subprocess.CompletedProcess:
    """Run python with stdout a pipe whose reading end is already closed, as after ``head``."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, *args], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=60, check=False)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("flags", [[], ["--text"]])
def test_score_into_a_closed_pipe_ends_without_a_traceback(tmp_path, flags):
    game = tmp_path / "game.json"
    game.write_text(json.dumps(GAME))
    done = run_with_stdout_closed("-m", "scorer", "score", str(game), *flags)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr
    assert done.returncode == 141


@pytest.mark.parametrize("entry", [["-m", "scorer"], ["-m", "scorer.vision.cli"]])
def test_detect_into_a_closed_pipe_ends_without_a_traceback(tmp_path, entry):
    args = ["detect"] if entry[-1] == "scorer" else []
    done = run_with_stdout_closed(*entry, *args, str(tmp_path / "no-such.jpg"), "--map", "usa")
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr
    assert done.returncode == 141
