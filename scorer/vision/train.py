"""Train the space classifier from labelled photos: ``python -m scorer.vision.train DIR...``.

A labelled photo is ``name.jpg`` (or .png/.webp) with ``name.json`` beside it holding
``map``, ``corners`` and ``spaces`` (route id -> colour or null per space; routes left out
are empty). Each photo is measured several times with jittered corners and colour casts, so
the model learns to tolerate both; and several times more with every space read beside its
printed position, as the detector reads every lane (``lane_offsets``), labelled with what
lies there. Every reading but the first is made as another phone under another light might
take the photo (``phone_look``): on a board, table and camera left out of training that read
96.4 % of lanes right instead of 93.4 %. A real photo's readings are not moved (its pieces
sit off their spaces); some of them are made under a glare spot instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from scorer.boards import Board, load_board
from scorer.vision.classify import board_lab
from scorer.vision.config import DEFAULT
from scorer.vision.decode import decode_scaled
from scorer.vision.model import CLASSES, WEIGHTS, average, fit_ensemble
from scorer.vision.sample import space_axes, space_features, space_table

# a point this far along a space from its centre (art px; spaces follow each other every
# ~66 px) and this far across it shows that space's piece (a piece is ~16 px wide; offsets
# are whole multiples of 3 px)...
HALF_LENGTH = 30.0
ON_SPACE = 6.5
# ... and a point this far along and across from every claimed space shows bare paper or print
CLEAR = (38.0, 18.0)
# what lies in between (half on a piece) is left out of training
UNCLEAR = -1
# the glare spots of training are taken off as the first measure finds them, weaker than they
# are (``config.broad_veil``): a model that learns washed-out pieces reads the others better.
# Colours are measured as they are (``config.print_spread``): the renders' print is greyer
# than a real board's (Europe 1.7-3.3 against 9.3-10.6), stretched their pieces would train
# as colours no photo shows; the detector stretches a dull photo's towards what training saw.
# A phone-look copy's tone is read as it is (``config.tone_deadband`` 1): lifted back, the
# copies of every tone train alike and the model tolerates none of the tone the detector's
# lift leaves. Models trained without each board (LSO, 2 networks) read its real photos
# 98.7 % lifted, 99.5 % as they are; their variants without glare 40 -> 3 lanes wrong and
# not asked, the phones' 22 -> 8, glare 20 -> 17
_MEASURED = replace(DEFAULT, broad_veil=False, print_spread=(), tone_deadband=1.0)
# the share of readings made under a shadow (``phone_look``)
SHADOWED = 0.3


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


def shifted_labels(board: Board, labels: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """The class under each space's patch moved ``shift`` art px across it (``labels``: the
    class of each space in ``space_table`` order): the piece of a space it lies on, empty when
    no claimed space is near, ``UNCLEAR`` in between."""
    _, spaces, _ = space_table(board)
    along, across = space_axes(board)
    point = spaces[:, :2] + across * shift[:, None]
    d = point[:, None, :] - spaces[None, :, :2]  # (shifted points, spaces, 2)
    u = np.abs(np.einsum("ijk,jk->ij", d, along))
    v = np.abs(np.einsum("ijk,jk->ij", d, across))
    on = (u <= HALF_LENGTH) & (v <= ON_SPACE)
    out = np.full(len(point), UNCLEAR)
    hit = on.any(axis=1)
    out[hit] = labels[np.where(on, v, np.inf)[hit].argmin(axis=1)]
    far_u, far_v = CLEAR
    near_piece = ((u <= far_u) & (v <= far_v) & (labels[None, :] > 0)).any(axis=1)
    out[~hit & ~near_piece] = 0
    return out


def glare_spot(image: np.ndarray, corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` under a lamp's soft bright spot somewhere on the board: a share of white,
    highest at the spot's centre, mixed into every colour."""
    h, w = image.shape[:2]
    low, high = corners.min(axis=0), corners.max(axis=0)
    at = low + rng.uniform(0.1, 0.9, 2) * (high - low)
    sigma = rng.uniform(0.04, 0.2) * float(np.linalg.norm(high - low))
    yy, xx = np.ogrid[0:h, 0:w]
    spot = np.exp(-((xx - at[0]) ** 2 + (yy - at[1]) ** 2) / (2 * sigma ** 2))
    share = (rng.uniform(0.3, 0.75) * spot).astype(np.float32)[..., None]
    return np.clip(image * (1 - share) + 250 * share, 0, 255).astype(np.uint8)


def phone_look(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` as another phone under another light might take it: a white balance off by a
    gain per channel, another exposure and tone curve (gamma), more or less saturation,
    light falling off to one side, sometimes a shadow (``shadow``), a little blur and sensor
    noise, JPEG at some quality."""
    img = image.astype(np.float32) / 255.0
    img = img * rng.uniform(0.75, 1.25, 3) * rng.uniform(0.6, 1.2)
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.uniform() < SHADOWED:
        img = img * shadow(xx, yy, rng)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * xx / w + np.sin(angle) * yy / h)
    img = img * (1.0 + rng.uniform(-0.35, 0.35) * (ramp - ramp.mean()))[..., None]
    img = np.clip(img, 0, 1) ** rng.uniform(0.7, 1.4)
    grey = img.mean(axis=2, keepdims=True)
    img = np.clip(grey + rng.uniform(0.7, 1.3) * (img - grey), 0, 1)
    sigma = rng.uniform(0, 1.6)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img * 255 + rng.normal(0, rng.uniform(0, 5), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    _, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 92))])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR)


def shadow(xx: np.ndarray, yy: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A shadow's light per pixel and channel, (H, W, 3): a phone, a head or an arm between
    the lamp and part of the board, its edge wavy and more or less sharp, the shade a little
    off in colour (lit by the room, not the lamp)."""
    h, w = xx.shape
    angle = rng.uniform(0, 2 * np.pi)
    n = np.array([np.cos(angle), np.sin(angle)], np.float32)
    along = (xx - w / 2) * -n[1] + (yy - h / 2) * n[0]
    size = float(np.hypot(h, w))
    edge = ((xx - w / 2) * n[0] + (yy - h / 2) * n[1] - rng.uniform(-0.3, 0.3) * size
            + 0.04 * size * np.sin(along / (rng.uniform(0.08, 0.2) * size) + rng.uniform(0, 6)))
    inside = 0.5 + 0.5 * np.tanh(edge / (rng.uniform(0.002, 0.03) * size))
    shade = rng.uniform(0.4, 0.85) * rng.uniform(0.92, 1.08, 3).astype(np.float32)
    return (1 - inside[..., None] * (1 - shade)).astype(np.float32)


def measure(photo: Path, data: dict, variants: int, shifted: int, rng: np.random.Generator,
            glare: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows (variants + shifted, spaces, features) and their classes (UNCLEAR: left
    out): ``variants`` readings at the printed positions (all but the first with jittered
    corners and another phone's look, ``phone_look``; the last ``glare`` of them also under a
    glare spot), then ``shifted`` more with every space read at a random offset of
    ``lane_offsets`` across it."""
    board = load_board(data["map"])
    image, scale = decode_scaled(photo.read_bytes(), 2000)
    corners = np.asarray(data["corners"], dtype=np.float64) * scale
    diag = np.linalg.norm(corners[0] - corners[2])
    labels = space_labels(board, data)
    _, across = space_axes(board)
    rows, classes = [], []
    for k in range(variants + shifted):
        img, c, offset = image, corners, None
        if k:
            c = corners + rng.normal(0, 0.0015 * diag, corners.shape)
            img = phone_look(image, rng)
            if variants - glare <= k < variants:
                img = glare_spot(img, c, rng)
        if k < variants:
            classes.append(labels)
        else:
            shift = rng.choice(np.asarray(DEFAULT.lane_offsets), len(across))
            offset = across * shift[:, None]
            classes.append(shifted_labels(board, labels, shift))
        rows.append(space_features(board_lab(img, board, c, _MEASURED), board, offset=offset))
    return np.stack(rows), np.stack(classes)


def cached_measure(photos, counts: list[tuple[int, int, int]], cache: Path | None,
                   seed: int = 0):
    """``measure`` of each photo with its (variants, shifted, glare), its copies drawn from
    ``seed`` (one generator through the photos), kept in ``cache`` under that seed."""
    rng = np.random.default_rng(seed)
    store = dict(np.load(cache)) if cache and cache.is_file() else {}
    measured = []
    for (photo, data), (variants, shifted, glare) in zip(photos, counts, strict=True):
        key = f"{photo.resolve()}|{variants}|{shifted}|look-shade|s{seed}"
        key += f"|g{glare}" if glare else ""
        if key + "|x" not in store:
            store[key + "|x"], store[key + "|y"] = measure(photo, data, variants, shifted, rng,
                                                           glare)
        measured.append((load_board(data["map"]), store[key + "|x"], store[key + "|y"]))
    if cache:
        np.savez(cache, **store)
    return measured


def training_set(measured) -> tuple[np.ndarray, np.ndarray]:
    """All measured rows with a clear class, and their classes."""
    x = np.vstack([rows[classes != UNCLEAR] for _, rows, classes in measured])
    y = np.concatenate([classes[classes != UNCLEAR] for _, _, classes in measured])
    return x, y


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--variants", type=int, default=6)
    parser.add_argument("--shifted", type=int, default=5,
                        help="readings of each photo with every space read beside its place")
    parser.add_argument("--cache", type=Path, help="keep measured features in this .npz")
    parser.add_argument("--real", type=Path,
                        help="a folder of real photos, measured --real-variants times each "
                             "(the detector is judged on real photos)")
    parser.add_argument("--real-variants", type=int, default=10)
    parser.add_argument("--real-glare", type=int, default=5,
                        help="readings of each real photo under a glare spot, on top of "
                             "--real-variants")
    parser.add_argument("--members", type=int, default=5,
                        help="networks trained from different seeds on each draw, averaged")
    parser.add_argument("--draws", type=int, default=1,
                        help="copies of every photo drawn this many times, from seeds --seed "
                             "and on; a model trained on each draw, all averaged")
    parser.add_argument("--seed", type=int, default=0,
                        help="the first draw's seed (the copies' looks, jitter and shifts)")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--exclude", nargs="*", default=[],
                        help="photo file names to leave out (leave-one-photo-out runs)")
    args = parser.parse_args(argv)
    photos = [(p, d) for p, d in labelled_photos(args.dirs) if p.name not in args.exclude]
    real = args.real.resolve() if args.real else None
    # real pieces sit a few px off their spaces, so a shifted reading of a real photo has no
    # reliable label: real photos are read at the printed places only
    counts = [(args.real_variants + args.real_glare, 0, args.real_glare)
              if p.parent.resolve() == real else (args.variants, args.shifted, 0)
              for p, _ in photos]
    models = []
    for seed in range(args.seed, args.seed + args.draws):
        x, y = training_set(cached_measure(photos, counts, args.cache, seed))
        models.append(fit_ensemble(x, y, args.members))
    args.out.write_text(json.dumps(average(models).to_json()), encoding="utf-8")
    print(f"trained on {len(photos)} photos, {len(x)} spaces x {args.draws} draws -> {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
