"""Refresh the vendored htmx: ``python scripts/vendor_htmx.py [VERSION]``.

Takes ``dist/htmx.min.js`` from the npm package ``htmx.org`` (via ``npm pack``, so only the npm
registry is used) and writes ``static/vendor/htmx-<version>.min.js``; the templates name the file
through ``HTMX_VERSION`` in ``scorer/web/__init__.py``, so bump it there too. We stay on htmx 2:
htmx 4 changed attribute inheritance and out-of-band swaps that the templates rely on.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

DEFAULT_VERSION = "2.0.11"
VENDOR = Path(__file__).resolve().parent.parent / "static" / "vendor"


def vendor(version: str) -> Path:
    """Download htmx ``version`` with npm and copy its minified build into static/vendor."""
    with tempfile.TemporaryDirectory() as tmp:
        name = subprocess.run(
            ["npm", "pack", f"htmx.org@{version}", "--silent"],
            cwd=tmp, check=True, capture_output=True, text=True,
        ).stdout.strip().splitlines()[-1]
        with tarfile.open(Path(tmp) / name) as tar:
            member = tar.extractfile("package/dist/htmx.min.js")
            if member is None:
                raise SystemExit(f"htmx.org@{version} has no dist/htmx.min.js")
            data = member.read()
    VENDOR.mkdir(parents=True, exist_ok=True)
    for old in VENDOR.glob("htmx-*.min.js"):
        old.unlink()
    target = VENDOR / f"htmx-{version}.min.js"
    target.write_bytes(data)
    return target


if __name__ == "__main__":
    print(vendor(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_VERSION))
