"""Detector benchmark: lanes right, corner error, time and peak memory per labelled photo.

    .venv/bin/python benchmarks/detect.py [DIR ...] [--stress] [--locate-only]

Defaults to sample_photos/ and ../shared/dev_photos/ (when present). ``--stress`` measures
the harder rendered set in test-output/stress/ (git-ignored; make it with
``scripts/render_samples.py --out test-output/stress --seed 1 --stress 30``);
``--locate-only`` times decode + board location only and prints the confidence.

Each photo runs in its own subprocess so that its peak memory (ru_maxrss) is its own; time
is the median of ``--repeat`` runs of ``detect`` on the bytes (decode to result, as ``elapsed_ms``).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIRS = [ROOT / "sample_photos", ROOT.parent / "shared" / "dev_photos"]
STRESS_DIR = ROOT / "test-output" / "stress"
sys.path.insert(0, str(ROOT))
from scorer.vision.config import DEFAULT  # noqa: E402

DOUBT_BELOW = DEFAULT.doubt_below  # lanes read less surely are listed first, to check


def measure_locate(photo: Path, label: Path, repeat: int) -> dict:
    """Run in the child: decode + locate only; corner error and confidence."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from scorer.boards import load_board
    from scorer.vision import BoardNotFound
    from scorer.vision.decode import decode_scaled
    from scorer.vision.geometry import corner_error
    from scorer.vision.locate import locate

    truth = json.loads(label.read_text(encoding="utf-8"))
    board = load_board(truth["map"])
    data = photo.read_bytes()
    times, found = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        try:
            image, scale = decode_scaled(data, 2000)
            found = locate(image, board)
        except BoardNotFound as exc:
            return {"photo": photo.name, "error": str(exc),
                    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
        times.append((time.perf_counter() - t) * 1000)
    return {
        "photo": photo.name,
        "corner_error": corner_error(found.corners / scale, np.array(truth["corners"])),
        "confidence": found.confidence,
        "ms": statistics.median(times),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


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


def measure_one(photo: Path, label: Path, repeat: int, weights: Path | None = None) -> dict:
    """Run in the child: detect ``repeat`` times, compare the last result with the labels."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from scorer.boards import load_board
    from scorer.vision import BoardNotFound, detect
    from scorer.vision.geometry import corner_error
    from scorer.vision.model import load_model

    truth = json.loads(label.read_text(encoding="utf-8"))
    board = load_board(truth["map"])
    data = photo.read_bytes()
    times, detection, error = [], None, None
    for _ in range(repeat):
        t = time.perf_counter()
        try:
            detection = detect(data, board, model=load_model(weights) if weights else None)
        except BoardNotFound as exc:
            error = str(exc)
            break
        times.append((time.perf_counter() - t) * 1000)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if detection is None:
        return {"photo": photo.name, "error": error, "peak_mb": peak_mb}
    expected = truth.get("routes", {})
    doubtful = set(truth.get("doubtful", ()))
    right = wrong_claims = flagged = wrong_flagged = 0
    mistakes, readings = [], []
    for lane in detection.routes:
        want = None if lane.route in doubtful else expected.get(lane.route)
        flagged += lane.confidence < DOUBT_BELOW
        readings.append([round(lane.confidence, 4), int(lane.owner == want)])
        if lane.owner == want:
            right += 1
        else:
            mistakes.append(f"{lane.route}:{want}->{lane.owner}({lane.confidence:.2f})")
            wrong_claims += lane.owner is not None
            wrong_flagged += lane.confidence < DOUBT_BELOW
    colours = colour_counts(board, truth, {lane.route: lane.owner for lane in detection.routes})
    empty_board = not any(expected.values())
    want_stations = {(st["city"], st["owner"]) for st in truth.get("stations", ())}
    got_stations = {(st.city, st.owner) for st in detection.stations}
    return {
        "photo": photo.name,
        "map": truth["map"],
        "stations": [len(want_stations & got_stations), len(got_stations - want_stations),
                     len(want_stations - got_stations)],
        "lanes": len(detection.routes),
        "right": right,
        "wrong_claims": wrong_claims,
        "flagged": [flagged, wrong_flagged],
        "corner_error": corner_error(np.array(detection.corners), np.array(truth["corners"])),
        "confidence": detection.confidence,
        "ms": statistics.median(times),
        "peak_mb": peak_mb,
        "mistakes": mistakes,
        "readings": readings,
        # every lane: [route, true owner, read owner, confidence, likely, second] (--rows)
        "lanes_read": [[lane.route, None if lane.route in doubtful else expected.get(lane.route),
                        lane.owner, round(lane.confidence, 4), lane.likely, lane.second]
                       for lane in detection.routes],
        "colours": colours,
        "invented": ([sum(lane.owner is not None for lane in detection.routes),
                      sum(board.routes[lane.route].length for lane in detection.routes
                          if lane.owner is not None)] if empty_board else None),
    }


def colour_counts(board, truth: dict, read: dict[str, str | None]) -> dict[str, list[int]]:
    """Per piece colour: [spaces holding a piece of it whose lane is read as it, true pieces
    of it, spaces of the lanes read as it] -- "trains counted right" is the first over the
    larger of the other two, so missed and invented pieces both count and cannot cancel."""
    out: dict[str, list[int]] = {}
    spaces = truth.get("spaces", {})
    for route_id, route in board.routes.items():
        given = spaces.get(route_id) or [truth.get("routes", {}).get(route_id)] * route.length
        got = read.get(route_id)
        for colour in given:
            if colour:
                row = out.setdefault(colour, [0, 0, 0])
                row[1] += 1
                row[0] += got == colour
        if got:
            out.setdefault(got, [0, 0, 0])[2] += route.length
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dirs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verbose", action="store_true", help="list every wrong lane")
    parser.add_argument("--stress", action="store_true",
                        help=f"measure {STRESS_DIR.relative_to(ROOT)}/ (the harder renders)")
    parser.add_argument("--locate-only", action="store_true",
                        help="decode + locate only: corner error, confidence, time")
    parser.add_argument("--loo", type=Path, metavar="DIR",
                        help="leave-one-photo-out: read each photo of DIR (the real photos) with "
                             "a model trained without it: the generalisation figure")
    parser.add_argument("--train", nargs="*", type=Path, metavar="DIR",
                        help="with --loo: training folders (default: sample_photos/ and DIR)")
    parser.add_argument("--members", type=int,
                        help="with --loo: networks per model (quicker, rougher runs)")
    parser.add_argument("--only", default="",
                        help="with --loo: only the photos whose name holds this")
    parser.add_argument("--lso", type=Path, metavar="DIR",
                        help="leave-one-source-out: read each board's real photos of DIR with a "
                             "model trained on the renders and the other boards' real photos "
                             "only (another board, table and camera)")
    parser.add_argument("--harder", type=Path, metavar="DIR",
                        help="with --lso: also read these variants of the real photos (other "
                             "light and phones: benchmarks/locate_real.py --save DIR) with the "
                             "model that did not see their board")
    parser.add_argument("--models", type=Path, metavar="DIR",
                        help="with --lso: keep each source's model here and reuse it when "
                             "present (to measure changes to the reading, not the training)")
    parser.add_argument("--rows", type=Path, metavar="FILE",
                        help="also write every photo's measures (its wrong lanes, readings and "
                             "confidences) to FILE as JSON, to study them")
    parser.add_argument("--one", nargs=2, type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--weights", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one and args.weights:
        print(json.dumps(measure_one(*args.one, args.repeat, args.weights)))
        return 0
    if args.lso:
        return leave_one_source_out(args.lso, args.harder, args.models, args.repeat,
                                    args.verbose, args.members, args.only, args.rows)
    if args.loo:
        return leave_one_out(args.loo, args.train, args.repeat, args.verbose, args.members,
                             args.only)
    if args.one:
        measure = measure_locate if args.locate_only else measure_one
        print(json.dumps(measure(*args.one, args.repeat)))
        return 0
    if args.stress and not STRESS_DIR.is_dir():
        parser.error(f"no {STRESS_DIR}: render it first (see the module docstring)")
    dirs = args.dirs or ([STRESS_DIR] if args.stress
                         else [d for d in DEFAULT_DIRS if d.is_dir()])
    for folder in dirs:
        rows = []
        for photo, label in labelled(folder):
            out = subprocess.run(
                [sys.executable, __file__, "--one", str(photo), str(label),
                 "--repeat", str(args.repeat), *(["--locate-only"] if args.locate_only else [])],
                capture_output=True, text=True, check=False,
            )
            if out.returncode:
                rows.append({"photo": photo.name, "error": out.stderr.strip()[-300:]})
            else:
                rows.append(json.loads(out.stdout))
        if args.locate_only:
            report_locate(folder, rows, args.verbose)
        else:
            report(folder, rows, args.verbose, per_colour=True)
            report_reliability(rows)
        report_confidence(rows)
    return 0


def report_locate(folder: Path, rows: list[dict], verbose: bool) -> None:
    print(f"\n{folder} ({len(rows)} photos, locate only)")
    print(f"{'photo':40} {'corner err':>10} {'conf':>5} {'ms':>7} {'peak MB':>8}")
    for r in rows:
        if "error" in r:
            print(f"{r['photo']:40} FAILED: {r['error']}")
            continue
        print(f"{r['photo']:40} {100 * r['corner_error']:9.2f}% {r['confidence']:5.2f} "
              f"{r['ms']:7.0f} {r['peak_mb']:8.0f}")
    done = [r for r in rows if "error" not in r]
    if done:
        errors = [100 * r["corner_error"] for r in done]
        print(f"{'OVERALL':40} {max(errors):8.2f}%* {'':5} "
              f"{statistics.median(r['ms'] for r in done):7.0f} "
              f"{max(r['peak_mb'] for r in done):8.0f}")
        print(f"  found {len(done)}/{len(rows)} boards; * worst corner error, median "
              f"{statistics.median(errors):.2f}%; within 1%: {sum(e < 1 for e in errors)}")


def report_confidence(rows: list[dict]) -> None:
    """Is the confidence honest? Compare it on the right (< 1 %) and wrong corners."""
    rated = [r for r in rows if "confidence" in r]
    good = [r["confidence"] for r in rated if r["corner_error"] < 0.01]
    bad = [r["confidence"] for r in rated if r["corner_error"] >= 0.01]
    if rated:
        print(f"  confidence: right corners {min(good, default=float('nan')):.2f}-"
              f"{max(good, default=float('nan')):.2f}, wrong corners "
              f"{', '.join(f'{c:.2f}' for c in bad) or 'none'}")


def leave_one_out(folder: Path, train: list[Path] | None, repeat: int, verbose: bool,
                  members: int | None = None, only: str = "") -> int:
    """Each photo of ``folder`` read by a model trained on every other labelled photo but its
    re-shots (the same map with the same pieces: the same labels).

    The shipped model has seen the real dev photos, so its score on them says little about
    photos it has never seen; this is the honest figure for those.
    """
    dirs = train or [ROOT / "sample_photos", folder]
    pairs = labelled(folder)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cache, weights = Path(tmp) / "features.npz", Path(tmp) / "weights.json"
        for photo, label in pairs:
            if only not in photo.name:
                continue
            train_without(dirs, folder, reshots(photo, label, pairs), cache, weights, members)
            rows.append(read_with(photo, label, repeat, weights))
    report(Path(f"{folder} leave-one-photo-out"), rows, verbose, per_colour=True)
    report_reliability(rows)
    return 0


def leave_one_source_out(folder: Path, harder: Path | None, models: Path | None, repeat: int,
                         verbose: bool, members: int | None = None, only: str = "",
                         rows_out: Path | None = None) -> int:
    """Each board's real photos of ``folder`` (a source: its board, table and camera) read by
    a model trained on the renders and the other sources' real photos only, so no photo is
    read by a model that saw it or a re-shot of it; ``harder`` variants of those photos are
    read by the same models."""
    def with_maps(pairs: list[tuple[Path, Path]]) -> list[tuple[Path, Path, str]]:
        return [(photo, label, json.loads(label.read_text(encoding="utf-8"))["map"])
                for photo, label in pairs]

    own = with_maps(labelled(folder))
    tested = [(folder, own)] + ([(harder, with_maps(labelled(harder)))] if harder else [])
    results: dict[Path, list[dict]] = {d: [] for d, _ in tested}
    with tempfile.TemporaryDirectory() as tmp:
        keep = models or Path(tmp)
        keep.mkdir(parents=True, exist_ok=True)
        for source in sorted({board for _, _, board in own}):
            weights = keep / f"without-{source}.json"
            if not weights.is_file():
                train_without([ROOT / "sample_photos", folder], folder,
                              [p.name for p, _, board in own if board == source],
                              keep / "features.npz", weights, members)
            for tested_dir, tested_pairs in tested:
                results[tested_dir] += [read_with(photo, label, repeat, weights)
                                        for photo, label, board in tested_pairs
                                        if board == source and only in photo.name]
    for tested_dir, _ in tested:
        rows = sorted(results[tested_dir], key=lambda r: r["photo"])
        report(Path(f"{tested_dir} leave-one-source-out"), rows, verbose, per_colour=True)
        report_reliability(rows)
        report_pairs(rows)
    if rows_out:
        rows_out.write_text(json.dumps({str(d): r for d, r in results.items()}), encoding="utf-8")
    return 0


def train_without(dirs: list[Path], real: Path, exclude: list[str], cache: Path, out: Path,
                  members: int | None) -> None:
    """Train a model on ``dirs`` (``real``'s photos as real ones) without the ``exclude`` photos,
    written to ``out``; ``cache`` keeps the features between runs."""
    subprocess.run(
        [sys.executable, "-m", "scorer.vision.train", *map(str, dirs), "--real", str(real),
         "--exclude", *exclude, "--cache", str(cache), "--out", str(out),
         *(["--members", str(members)] if members else [])],
        cwd=ROOT, check=True, capture_output=True,
    )


def read_with(photo: Path, label: Path, repeat: int, weights: Path) -> dict:
    """``measure_one`` of the photo with the model ``weights``, in a child of its own."""
    out = subprocess.run(
        [sys.executable, __file__, "--one", str(photo), str(label),
         "--repeat", str(repeat), "--weights", str(weights)],
        capture_output=True, text=True, check=False,
    )
    if out.returncode:
        return {"photo": photo.name, "error": out.stderr.strip()[-300:]}
    return json.loads(out.stdout)


def report_pairs(rows: list[dict]) -> None:
    """Two variants of one photo that differ only by their last "_1" / "_2" (locate_real.py's
    two glare spots, or two burnt-out reflections, in different places) read into one review
    (``scorer.vision.combine``, as "Add another photo" does): lanes asked and right by each
    photo alone and by the two together, and wrong and not asked."""
    sys.path.insert(0, str(ROOT))
    from review import lane_figures  # benchmarks/review.py --pairs counts its pairs alike

    from scorer.boards import load_board
    from scorer.vision.classify import LaneResult
    from scorer.vision.combine import combine_lanes

    by_name = {r["photo"]: r for r in rows if "error" not in r and "lanes_read" in r}
    pairs = [(r, by_name[name.replace("_1.", "_2.")]) for name, r in by_name.items()
             if "_1." in name and name.replace("_1.", "_2.") in by_name]
    if not pairs:
        return
    print(f"\n  two photos, one review ({len(pairs)} pairs: the variants ending _1 and _2), "
          "asked / right / wrong and not asked, first, second, together:")
    totals = [[0, 0, 0] for _ in range(3)]
    lanes = 0
    for first, second in pairs:
        truth = {lane[0]: lane[1] for lane in first["lanes_read"]}
        reads = [[LaneResult(lane[0], lane[2], lane[3], lane[4], lane[5])
                  for lane in r["lanes_read"]] for r in (first, second)]
        together = combine_lanes(reads, board=load_board(first["map"]))
        line = []
        for k, read in enumerate([*reads, together]):
            figures = lane_figures(read, truth)
            for i, v in enumerate(figures):
                totals[k][i] += v
            line.append("{:3d} {:3d} {:2d}".format(*figures))
        lanes += len(truth)
        print(f"    {first['photo'][:-6]:52} " + " | ".join(line))
    print("    all pairs: " + " | ".join(
        f"asked {100 * a / lanes:.1f} %, right {100 * r / lanes:.1f} %, missed {m}"
        for a, r, m in totals))


RELIABILITY_BINS = (0.0, 0.5, 0.75, 0.9, 0.95, 0.99, 1.0001)


def report_reliability(rows: list[dict]) -> None:
    """Does a confidence mean what it says? The lanes by confidence bin with the share of them
    read wrong, and how often a reading the review does not ask about is wrong."""
    readings = [lane for r in rows if "error" not in r for lane in r["readings"]]
    if not readings:
        return
    print("  reliability: confidence -> lanes, wrong among them")
    for low, high in zip(RELIABILITY_BINS[:-1], RELIABILITY_BINS[1:], strict=True):
        inside = [ok for c, ok in readings if low <= c < high]
        if inside:
            wrong = len(inside) - sum(inside)
            print(f"    {low:.2f}-{min(high, 1.0):.2f}: {len(inside):5d} lanes, {wrong:4d} wrong "
                  f"({100 * wrong / len(inside):5.1f} %)")
    sure = [ok for c, ok in readings if c >= DOUBT_BELOW]
    wrong = len(sure) - sum(sure)
    print(f"  a confident reading (>= {DOUBT_BELOW}, not asked) is wrong {wrong} times in "
          f"{len(sure)} ({100 * wrong / max(len(sure), 1):.2f} %)")


def colour_line(counts: dict[str, list[int]]) -> str:
    """Each piece colour's trains counted right (see ``colour_counts``), in one line."""
    return ", ".join(f"{c} {100 * n / max(t, g, 1):.1f} % ({n}/{max(t, g)})"
                     for c, (n, t, g) in sorted(counts.items()))


def reshots(photo: Path, label: Path, pairs: list[tuple[Path, Path]]) -> list[str]:
    """``photo`` and every photo of the same board with the same pieces on it (its labels'
    map and routes alike): a model that saw a re-shot has seen the photo's pieces."""
    def layout(path: Path) -> tuple:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data["map"], sorted((k, v) for k, v in data.get("routes", {}).items() if v)
    mine = layout(label)
    return [p.name for p, lab in pairs if p == photo or layout(lab) == mine]


def report(folder: Path, rows: list[dict], verbose: bool, per_colour: bool = False) -> None:
    print(f"\n{folder} ({len(rows)} photos)")
    print(f"{'photo':36} {'lanes right':>11} {'to check':>8} {'missed':>6} {'corner err':>10} "
          f"{'ms':>6} {'peak MB':>7}")
    done = [r for r in rows if "error" not in r]
    for r in rows:
        if "error" in r:
            print(f"{r['photo']:36} FAILED: {r['error']}")
            continue
        missed = r["lanes"] - r["right"] - r["flagged"][1]
        print(f"{r['photo']:36} {100 * r['right'] / r['lanes']:10.1f}% "
              f"{100 * r['flagged'][0] / r['lanes']:7.1f}% {missed:6d} "
              f"{100 * r['corner_error']:9.2f}% {r['ms']:6.0f} {r['peak_mb']:7.0f}"
              + (f"  empty board: {r['invented'][0]} lanes ({r['invented'][1]} trains) invented"
                 if r.get("invented") else ""))
        if per_colour and r.get("colours"):
            print("    trains counted right: " + colour_line(r["colours"]))
        if verbose and r["mistakes"]:
            print("    " + ", ".join(r["mistakes"]))
    if not done:
        return
    lanes = sum(r["lanes"] for r in done)
    right = sum(r["right"] for r in done)
    errors = [r["corner_error"] for r in done]
    flagged, wrong_flagged = (sum(r["flagged"][i] for r in done) for i in range(2))
    print(f"{'OVERALL':36} {100 * right / lanes:10.1f}% {100 * flagged / lanes:7.1f}% "
          f"{lanes - right - wrong_flagged:6d} {100 * max(errors):8.2f}%* "
          f"{statistics.median(r['ms'] for r in done):6.0f} "
          f"{max(r['peak_mb'] for r in done):7.0f}")
    print(f"  found {len(done)}/{len(rows)} boards; * worst corner error, within 1 %: "
          f"{sum(e < 0.01 for e in errors)}; ms = median; wrong claims (a lane given to a colour "
          f"that is not on it): {sum(r['wrong_claims'] for r in done)}")
    # doubtful lanes are scored on their owner like the others: a half-covered or mixed
    # lane reads as no owner, right only where the truth is empty or half covered
    worst = max(r["lanes"] - r["right"] - r["flagged"][1] for r in done)
    print(f"  to check (confidence < {DOUBT_BELOW}, the review's list): {flagged} lanes, "
          f"{wrong_flagged} of them wrong; missed (wrong and not listed): "
          f"{lanes - right - wrong_flagged}, at most {worst} on one photo")
    pooled: dict[str, list[int]] = {}
    for r in done:
        for colour, counts in r.get("colours", {}).items():
            row = pooled.setdefault(colour, [0, 0, 0])
            for i in range(3):
                row[i] += counts[i]
    if pooled:
        print("  trains counted right: " + colour_line(pooled))
    empty = [r for r in done if r.get("invented") is not None]
    if empty:
        print(f"  empty boards: {sum(r['invented'][0] for r in empty)} lanes "
              f"({sum(r['invented'][1] for r in empty)} trains) invented on {len(empty)}")
    tp, fp, fn = (sum(r["stations"][i] for r in done) for i in range(3))
    if tp + fp + fn:
        print(f"  stations: {tp} right, {fp} extra, {fn} missed")


if __name__ == "__main__":
    raise SystemExit(main())
