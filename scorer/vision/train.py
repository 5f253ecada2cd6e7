"""Train the space classifier from labelled photos: ``python -m scorer.vision.train DIR...``.

A labelled photo is ``name.jpg`` (or .png/.webp) with ``name.json`` beside it holding
``map``, ``corners`` and ``spaces`` (route id -> colour or null per space; routes left out
are empty). Each photo is measured several times with jittered corners and colour casts, so
the model learns to tolerate both.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from scorer.boards import load_board
from scorer.vision.classify import board_lab, lane_results
from scorer.vision.decode import decode_scaled
from scorer.vision.model import CLASSES, WEIGHTS, fit
from scorer.vision.sample import space_features, space_table


def labelled_photos(dirs: list[Path]) -> list[tuple[Path, dict]]:
    found = []
    for folder in dirs:
        for label in sorted(folder.glob("*.json")):
            data = json.loads(label.read_text(encoding="utf-8"))
            if "corners" not in data or "map" not in data:
                continue
            photo = label.parent / data.get("photo", "")
            if not photo.is_file():
                photo = next((label.with_suffix(e) for e in (".jpg", ".png", ".webp")
                              if label.with_suffix(e).is_file()), None)
            if photo:
                found.append((photo, data))
    return found


def space_labels(board, data: dict) -> np.ndarray:
    """Class index per space in ``space_table`` order (routes not listed are empty)."""
    routes, _, _ = space_table(board)
    labels = []
    spaces = data.get("spaces", {})
    for route in routes:
        given = spaces.get(route.id)
        if given is None:
            owner = data.get("routes", {}).get(route.id)
            given = [owner] * route.length
        labels += [CLASSES.index(c) if c in CLASSES else 0 for c in given]
    return np.array(labels)


def measure(photo: Path, data: dict, variants: int, rng: np.random.Generator):
    board = load_board(data["map"])
    image, scale = decode_scaled(photo.read_bytes(), 2000)
    corners = np.asarray(data["corners"], dtype=np.float64) * scale
    diag = np.linalg.norm(corners[0] - corners[2])
    rows = []
    for k in range(variants):
        img, c = image, corners
        if k:
            c = corners + rng.normal(0, 0.0015 * diag, corners.shape)
            gain = rng.uniform(0.8, 1.15, 3)
            img = np.clip(image * gain, 0, 255).astype(np.uint8)
        rows.append(space_features(board_lab(img, board, c), board))
    return board, rows, space_labels(board, data)


def cached_measure(photos, counts: list[int], rng, cache: Path | None):
    store = dict(np.load(cache)) if cache and cache.is_file() else {}
    measured = []
    for (photo, data), variants in zip(photos, counts, strict=True):
        key = f"{photo.resolve()}|{variants}"
        if key not in store:
            _, rows, _ = measure(photo, data, variants, rng)
            store[key] = np.stack(rows)
        board = load_board(data["map"])
        measured.append((board, list(store[key]), space_labels(board, data)))
    if cache:
        np.savez(cache, **store)
    return measured


def lane_accuracy(board, probs, data) -> float:
    truth = data.get("routes", {})
    results = lane_results(probs, board)
    return float(np.mean([r.owner == truth.get(r.route) for r in results]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--variants", type=int, default=6)
    parser.add_argument("--holdout", type=Path,
                        help="report leave-one-photo-out accuracy for each photo of this folder")
    parser.add_argument("--cache", type=Path, help="keep measured features in this .npz")
    parser.add_argument("--real", type=Path,
                        help="a folder of real photos, measured --real-variants times each "
                             "(the detector is judged on real photos)")
    parser.add_argument("--real-variants", type=int, default=10)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--exclude", nargs="*", default=[],
                        help="photo file names to leave out (leave-one-photo-out runs)")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    photos = [(p, d) for p, d in labelled_photos(args.dirs) if p.name not in args.exclude]
    real = args.real.resolve() if args.real else None
    measured = cached_measure(
        photos, [args.real_variants if p.parent.resolve() == real else args.variants
                 for p, _ in photos], rng, args.cache)
    if args.holdout:
        for i, (photo, data) in enumerate(photos):
            if photo.parent.resolve() != args.holdout.resolve():
                continue
            x = np.vstack([r for j, m in enumerate(measured) if j != i for r in m[1]])
            y = np.concatenate([m[2] for j, m in enumerate(measured) if j != i
                                for _ in m[1]])
            model = fit(x, y)
            board, rows, labels = measured[i]
            probs = model.probabilities(rows[0])
            space_acc = float(np.mean(probs.argmax(1) == labels))
            print(f"{photo.name}: spaces {space_acc:.3f} lanes "
                  f"{lane_accuracy(board, probs, data):.3f}", flush=True)
    x = np.vstack([r for m in measured for r in m[1]])
    y = np.concatenate([m[2] for m in measured for _ in m[1]])
    model = fit(x, y)
    args.out.write_text(json.dumps(model.to_json()), encoding="utf-8")
    print(f"trained on {len(photos)} photos, {len(x)} spaces -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
