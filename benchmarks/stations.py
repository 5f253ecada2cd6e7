"""Europe stations benchmark: right, invented and missed stations per photo, on every set we have.

    .venv/bin/python benchmarks/stations.py [--sets dev,variants,sample,stress] [--fresh]

Sets: ``dev`` the real Europe photos in ../shared/dev_photos/ (europe-all-pieces-2-stations has
15 stations; its siblings have none, so every station read there is invented), ``variants``
those photos under other light, made in memory as benchmarks/locate_real.py makes them (warm
and cool casts, dark x0.5 with and without glare, a glare spot in a lit room, 1200 px at JPEG
quality 70), ``sample`` the rendered Europe photos in sample_photos/, ``stress`` the harder
renders in test-output/stress/ (``scripts/render_samples.py --out test-output/stress --seed 1
--stress 30``). A set whose photos are absent is skipped.

Each photo is read as ``scorer.vision.pipeline.detect`` reads it up to the space probabilities
(decode, locate, rectify, classify); those are kept in test-output/stations-cache/ so that a
change to the station finder is measured in seconds (``--fresh`` reads the photos again, as
needed after a change to an earlier stage). The stations are found with the game's colours
unknown, as benchmarks/detect.py reads them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from locate_real import cast, jpeg, lit  # noqa: E402

from scorer.boards import load_board  # noqa: E402
from scorer.vision.classify import board_lab, space_probabilities  # noqa: E402
from scorer.vision.config import DEFAULT  # noqa: E402
from scorer.vision.decode import decode_scaled  # noqa: E402
from scorer.vision.locate import locate  # noqa: E402
from scorer.vision.pipeline import check_exposure  # noqa: E402
from scorer.vision.stations import find_stations  # noqa: E402

DEV_PHOTOS = ROOT.parent / "shared" / "dev_photos"
CACHE = ROOT / "test-output" / "stations-cache"
EUROPE = load_board("europe")


def labelled(folder: Path) -> Iterator[tuple[str, bytes, set]]:
    for label in sorted(folder.glob("*.json")):
        truth = json.loads(label.read_text(encoding="utf-8"))
        if truth.get("map", label.stem.split("-")[0]) != "europe":
            continue
        photo = folder / truth.get("photo", label.stem + ".jpg")
        if photo.is_file():
            yield label.stem, photo.read_bytes(), stations_of(truth)


def stations_of(truth: dict) -> set[tuple[str, str]]:
    return {(st["city"], st["owner"]) for st in truth.get("stations", ())}


def light_variants(folder: Path) -> Iterator[tuple[str, bytes, set]]:
    for seed, (name, data, want) in enumerate(labelled(folder)):
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        rng = np.random.default_rng(seed)
        made = {
            "warm": cast(image, (0.72, 0.93, 1.12)),
            "cool": cast(image, (1.15, 1.0, 0.8)),
            "dark x0.5": lit(image, corners, 0.5, False, rng),
            "dark x0.5 + glare": lit(image, corners, 0.5, True, rng),
            "x0.85 + glare": lit(image, corners, 0.85, True, rng),
            "warm x0.7 + glare": lit(cast(image, (0.75, 0.95, 1.1)), corners, 0.7, True, rng),
        }
        for variant, out in made.items():
            yield f"{name} {variant}", jpeg(out), want
        s = 1200 / max(h, w)
        small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        yield f"{name} 1200 px q70", jpeg(small, 70), want


def read(name: str, data: bytes, fresh: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """The photo's rectified Lab board and space probabilities, as detect() makes them."""
    key = hashlib.sha1(data).hexdigest()[:16]
    path = CACHE / f"{key}.npz"
    if path.is_file() and not fresh:
        cached = np.load(path)
        return cached["lab"], cached["probs"]
    try:
        image, _ = decode_scaled(data, DEFAULT.work_long_side, DEFAULT)
        check_exposure(image, DEFAULT)
        found = locate(image, EUROPE, DEFAULT)
        lab = board_lab(image, EUROPE, found.art_corners, DEFAULT)
        probs = space_probabilities(lab, EUROPE, None, DEFAULT)
    except Exception as exc:  # noqa: BLE001 - a photo the detector refuses is reported, not fatal
        print(f"{name}: not read ({exc})")
        return None
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(path, lab=lab, probs=probs)
    return lab, probs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default="dev,variants,sample,stress")
    parser.add_argument("--fresh", action="store_true", help="read the photos again")
    parser.add_argument("--quiet", action="store_true", help="totals and mistakes only")
    args = parser.parse_args()
    sources = {"dev": lambda: labelled(DEV_PHOTOS), "variants": lambda: light_variants(DEV_PHOTOS),
               "sample": lambda: labelled(ROOT / "sample_photos"),
               "stress": lambda: labelled(ROOT / "test-output" / "stress")}
    overall = [0, 0, 0, 0]
    times = []
    for set_name in args.sets.split(","):
        rows = []
        for name, data, want in sources[set_name]():
            got_lab = read(name, data, args.fresh)
            if got_lab is None:
                continue
            lab, probs = got_lab
            t = time.perf_counter()
            got = {(s.city, s.owner) for s in find_stations(lab, probs, EUROPE, None, DEFAULT)}
            times.append((time.perf_counter() - t) * 1000)
            right, invented, missed = want & got, got - want, want - got
            rows.append((len(right), len(invented), len(missed), len(want)))
            notes = " ".join([f"+{c}:{o}" for c, o in sorted(invented)]
                             + [f"-{c}:{o}" for c, o in sorted(missed)])
            if not args.quiet or notes:
                print(f"{set_name:8} {name:44} right {len(right):2}/{len(want):2}  invented "
                      f"{len(invented)}  missed {len(missed)}  {notes}", flush=True)
        if not rows:
            print(f"{set_name}: no photos (skipped)")
            continue
        totals = [sum(r[i] for r in rows) for i in range(4)]
        worst = max(r[1] for r in rows)
        share = 100 * totals[0] / totals[3] if totals[3] else 100.0
        print(f"== {set_name}: {len(rows)} photos, {totals[0]}/{totals[3]} right ({share:.1f} %), "
              f"{totals[1]} invented (most on one photo {worst}), {totals[2]} missed")
        overall = [a + b for a, b in zip(overall, totals, strict=True)]
    if times:
        print(f"== all: {overall[0]}/{overall[3]} right, {overall[1]} invented, {overall[2]} "
              f"missed; find_stations median {statistics.median(times):.1f} ms, "
              f"slowest {max(times):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
