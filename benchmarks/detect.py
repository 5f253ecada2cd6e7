"""Detector benchmark: lanes right, corner error, time and peak memory per labelled photo.

    .venv/bin/python benchmarks/detect.py [DIR ...]

Defaults to sample_photos/ and ../shared/dev_photos/ (when present). Each photo runs in its
own subprocess so that its peak memory (ru_maxrss) is its own; time is the median of
``--repeat`` runs of ``detect`` on the bytes (decode to result, as ``elapsed_ms``).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIRS = [ROOT / "sample_photos", ROOT.parent / "shared" / "dev_photos"]


def labelled(folder: Path) -> list[tuple[Path, Path]]:
    pairs = []
    for label in sorted(folder.glob("*.json")):
        data = json.loads(label.read_text(encoding="utf-8"))
        if "corners" not in data or "map" not in data:
            continue
        photo = label.parent / data.get("photo", label.stem + ".jpg")
        if photo.is_file():
            pairs.append((photo, label))
    return pairs


def measure_one(photo: Path, label: Path, repeat: int) -> dict:
    """Run in the child: detect ``repeat`` times, compare the last result with the labels."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from scorer.boards import load_board
    from scorer.vision import BoardNotFound, detect
    from scorer.vision.geometry import corner_error

    truth = json.loads(label.read_text(encoding="utf-8"))
    board = load_board(truth["map"])
    data = photo.read_bytes()
    times, detection, error = [], None, None
    for _ in range(repeat):
        t = time.perf_counter()
        try:
            detection = detect(data, board)
        except BoardNotFound as exc:
            error = str(exc)
            break
        times.append((time.perf_counter() - t) * 1000)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if detection is None:
        return {"photo": photo.name, "error": error, "peak_mb": peak_mb}
    expected = truth.get("routes", {})
    doubtful = set(truth.get("doubtful", ()))
    right = wrong_claims = 0
    mistakes = []
    for lane in detection.routes:
        want = None if lane.route in doubtful else expected.get(lane.route)
        if lane.owner == want:
            right += 1
        else:
            mistakes.append(f"{lane.route}:{want}->{lane.owner}")
            wrong_claims += lane.owner is not None
    want_stations = {(st["city"], st["owner"]) for st in truth.get("stations", ())}
    got_stations = {(st.city, st.owner) for st in detection.stations}
    return {
        "photo": photo.name,
        "stations": [len(want_stations & got_stations), len(got_stations - want_stations),
                     len(want_stations - got_stations)],
        "lanes": len(detection.routes),
        "right": right,
        "wrong_claims": wrong_claims,
        "corner_error": corner_error(np.array(detection.corners), np.array(truth["corners"])),
        "ms": statistics.median(times),
        "peak_mb": peak_mb,
        "mistakes": mistakes,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dirs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verbose", action="store_true", help="list every wrong lane")
    parser.add_argument("--one", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure_one(*args.one, args.repeat)))
        return 0
    dirs = args.dirs or [d for d in DEFAULT_DIRS if d.is_dir()]
    for folder in dirs:
        rows = []
        for photo, label in labelled(folder):
            out = subprocess.run(
                [sys.executable, __file__, "--one", str(photo), str(label),
                 "--repeat", str(args.repeat)],
                capture_output=True, text=True, check=False,
            )
            if out.returncode:
                rows.append({"photo": photo.name, "error": out.stderr.strip()[-300:]})
            else:
                rows.append(json.loads(out.stdout))
        report(folder, rows, args.verbose)
    return 0


def report(folder: Path, rows: list[dict], verbose: bool) -> None:
    print(f"\n{folder} ({len(rows)} photos)")
    print(f"{'photo':40} {'lanes right':>12} {'corner err':>10} {'ms':>7} {'peak MB':>8}")
    done = [r for r in rows if "error" not in r]
    for r in rows:
        if "error" in r:
            print(f"{r['photo']:40} FAILED: {r['error']}")
            continue
        print(f"{r['photo']:40} {100 * r['right'] / r['lanes']:11.1f}% "
              f"{100 * r['corner_error']:9.2f}% {r['ms']:7.0f} {r['peak_mb']:8.0f}")
        if verbose and r["mistakes"]:
            print("    " + ", ".join(r["mistakes"]))
    if done:
        lanes = sum(r["lanes"] for r in done)
        right = sum(r["right"] for r in done)
        errors = [r["corner_error"] for r in done]
        print(f"{'OVERALL':40} {100 * right / lanes:11.1f}% "
              f"{100 * max(errors):8.2f}%* {statistics.median(r['ms'] for r in done):7.0f} "
              f"{max(r['peak_mb'] for r in done):8.0f}")
        print(f"  found {len(done)}/{len(rows)} boards; * worst corner error; ms = median; "
              f"wrong claims (a lane given to a colour that is not on it): "
              f"{sum(r['wrong_claims'] for r in done)}")
        tp, fp, fn = (sum(r["stations"][i] for r in done) for i in range(3))
        if tp + fp + fn:
            print(f"  stations: {tp} right, {fp} extra, {fn} missed")


if __name__ == "__main__":
    raise SystemExit(main())
