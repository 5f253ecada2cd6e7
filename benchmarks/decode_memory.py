"""Memory and time of decoding one uploaded photo per format, at the pixel limit (issue 26).

``python benchmarks/decode_memory.py [--megapixels 50] [--formats JPEG,PNG,...]``

Builds a worst-case file per format (a flat colour: the smallest file for the most pixels),
``--megapixels`` in a 4:3 frame (or at the format's own limit with ``--at-limit``): a baseline
JPEG, a progressive 4:4:4 JPEG (libjpeg keeps every coefficient of a progressive file, so the
reduced decode does not save it), a PNG, a lossless and a lossy WebP, an AVIF, a HEIC and a
HEIC grid (tiles put together by libheif). Each file is decoded as a detection child decodes
it (``scorer.vision.decode.decode_scaled(data, 2000)``, then the review's photos: the
rectified view's, the kept and the corners page's) in a fresh process, and the most that
process held beyond what it held before (VmHWM) and the time are printed. A file the
decoder refuses says so (the per-format limits of ``scorer.vision.decode``).
"""

from __future__ import annotations

import argparse
import io
import math
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hardening.hostile_photos import FORMATS, worst_case  # noqa: E402


def _status(key: str) -> int:
    """kB of /proc/self/status: VmRSS now, VmHWM the most this process held (not ru_maxrss,
    which keeps the parent's from before the exec: this script's, with its large images)."""
    return next(int(line.split()[1]) for line in Path("/proc/self/status").read_text()
                .splitlines() if line.startswith(key + ":"))


def _child(path: str) -> None:
    """In a fresh process: decode as a detection child does, print MB and seconds."""
    import importlib

    from scorer.vision import upright_jpeg
    from scorer.vision.decode import decode_scaled

    decode = importlib.import_module("scorer.vision.decode")  # the package's decode() hides it

    if os.environ.get("DECODE_MEMORY_NO_LIMITS"):  # --no-limits: what the limits are from
        decode.FORMAT_MEGAPIXELS.update(dict.fromkeys(decode.FORMAT_MEGAPIXELS, 1e3))
    from scorer.vision.errors import ImageRejected

    data = Path(path).read_bytes()
    from PIL import Image

    small = io.BytesIO()
    Image.new("RGB", (64, 64)).save(small, "JPEG")
    decode_scaled(small.getvalue(), 2000)  # the decoders' libraries loaded first
    before = _status("VmRSS")
    start = time.perf_counter()
    try:
        image, _scale = decode_scaled(data, 2000)  # the detector's
        shape = image.shape
        del image
        upright_jpeg(data, 2400, 92, exact=True)  # the photo kept for the review
        upright_jpeg(data, 1600, 80)  # the corners page's
        outcome = f"{shape[1]}x{shape[0]}"
    except ImageRejected as exc:
        outcome = f"refused: {exc}"[:80]
    took = time.perf_counter() - start
    peak = _status("VmHWM")
    print(f"{(peak - before) / 1024:.0f} {peak / 1024:.0f} {took:.2f} {outcome}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megapixels", type=float, default=50.0)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--no-limits", action="store_true",
                        help="decode past the per-format limits (up to max_megapixels)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child)
        return
    import tempfile

    import pillow_heif
    from PIL import Image

    pillow_heif.register_heif_opener()
    Image.MAX_IMAGE_PIXELS = None
    height = int(math.sqrt(args.megapixels * 1e6 * 3 / 4))
    width = int(args.megapixels * 1e6 / height)
    print(f"{width} x {height} ({width * height / 1e6:.1f} megapixels); load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'format':18} {'file':>9} {'decode MB':>10} {'process MB':>11} {'seconds':>8}  "
          "outcome")
    with tempfile.TemporaryDirectory() as work:
        for kind in args.formats.split(","):
            data = worst_case(kind, width, height)
            path = Path(work) / kind
            path.write_bytes(data)
            env = {**os.environ, "DECODE_MEMORY_NO_LIMITS": "1" if args.no_limits else ""}
            out = subprocess.run([sys.executable, __file__, "--child", str(path)],
                                 capture_output=True, text=True, check=False, env=env)
            if out.returncode:
                print(f"{kind:18} failed: {out.stderr.strip().splitlines()[-1:]}")
                continue
            grew, total, took, outcome = out.stdout.split(" ", 3)
            print(f"{kind:18} {len(data) / 1024:>7.0f} kB {grew:>10} {total:>11} {took:>8}  "
                  f"{outcome.strip()}")


if __name__ == "__main__":
    main()
