"""Training samples: spaces read beside their printed place are labelled with what lies there."""

import json
from pathlib import Path

import numpy as np

from scorer.boards import load_board
from scorer.vision.classify import sibling_side
from scorer.vision.model import CLASSES, average, fit, fit_ensemble, load_model, softmax
from scorer.vision.sample import space_table
from scorer.vision.train import (
    UNCLEAR,
    glare_spot,
    main,
    measure,
    phone_look,
    shadow,
    shifted_labels,
    space_labels,
)

USA = load_board("usa")
SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"
RED = CLASSES.index("red")


def lane_of(route_id: str) -> np.ndarray:
    routes, _, owner_of = space_table(USA)
    return owner_of == next(i for i, r in enumerate(routes) if r.id == route_id)


def red_on(route_id: str) -> np.ndarray:
    """Space classes with only ``route_id`` claimed, by red."""
    return np.where(lane_of(route_id), RED, 0)


def shifted(labels: np.ndarray, route_id: str, shift: float, towards_sibling: bool = False):
    """``shifted_labels`` of ``route_id``'s spaces moved ``shift`` px across (towards its
    double's other lane or away from it); every other space stays in place."""
    routes, _, owner_of = space_table(USA)
    side = sibling_side(USA)[next(i for i, r in enumerate(routes) if r.id == route_id)]
    amount = np.zeros(len(owner_of))
    amount[lane_of(route_id)] = shift * (side if towards_sibling else -side)
    return shifted_labels(USA, labels, amount)[lane_of(route_id)]


def test_a_space_at_its_printed_place_keeps_its_class():
    labels = red_on("chicago--pittsburgh")
    assert np.array_equal(shifted_labels(USA, labels, np.zeros(len(labels))), labels)


def test_a_piece_a_little_beside_the_patch_is_still_the_piece():
    assert set(shifted(red_on("chicago--pittsburgh"), "chicago--pittsburgh", 6.0)) == {RED}


def test_a_patch_half_on_a_piece_is_left_out():
    assert set(shifted(red_on("chicago--pittsburgh"), "chicago--pittsburgh", 12.0)) == {UNCLEAR}


def test_an_empty_lane_read_towards_its_claimed_double_is_left_out_not_called_empty():
    labels = red_on("chicago--pittsburgh")
    towards = shifted(labels, "chicago--pittsburgh--2", 15.0, towards_sibling=True)
    away = shifted(labels, "chicago--pittsburgh--2", 15.0)
    assert set(towards) == {UNCLEAR}
    assert set(away) == {0}


def test_an_empty_lane_far_from_any_piece_is_empty_wherever_it_is_read():
    labels = red_on("chicago--pittsburgh")
    for shift in (-15.0, -9.0, 0.0, 9.0, 15.0):
        assert set(shifted(labels, "los-angeles--san-francisco", shift)) == {0}


def test_measure_reads_the_printed_places_then_shifted_ones_with_their_classes():
    label = SAMPLES / "usa-01.json"
    data = json.loads(label.read_text(encoding="utf-8"))
    rows, classes = measure(label.with_suffix(".jpg"), data, 1, 2, np.random.default_rng(0))
    assert rows.shape[:2] == classes.shape == (3, len(space_labels(USA, data)))
    assert np.array_equal(classes[0], space_labels(USA, data))
    for k in (1, 2):  # shifted readings: some left out, every claimed class still present
        assert (classes[k] == UNCLEAR).any()
        assert set(classes[k][classes[k] != UNCLEAR]) <= set(classes[0])


def test_a_glare_spot_mixes_white_in_most_at_its_centre_and_lifts_the_dark_most():
    image = np.full((300, 400, 3), 180, np.uint8)
    image[::2, :] = 30  # dark and light rows side by side everywhere
    corners = np.array([[50.0, 40.0], [350.0, 40.0], [350.0, 260.0], [50.0, 260.0]])
    lit = glare_spot(image, corners, np.random.default_rng(3)).astype(float)
    lift = lit - image
    assert (lift >= 0).all()
    dark, light = lift[::2].mean(axis=2), lift[1::2].mean(axis=2)
    assert dark.max() > 0.3 * (250 - 30)  # the spot's centre is a strong veil
    assert np.all(dark >= light - 1)  # white lifts the dark more than the light
    assert dark.min() < 0.5 * dark.max()  # a spot, not the whole photo lit alike


def test_measure_puts_a_glare_spot_on_the_last_variants_only():
    label = SAMPLES / "usa-01.json"
    data = json.loads(label.read_text(encoding="utf-8"))
    plain, classes = measure(label.with_suffix(".jpg"), data, 2, 0, np.random.default_rng(0))
    glared, glared_classes = measure(label.with_suffix(".jpg"), data, 2, 0,
                                     np.random.default_rng(0), glare=1)
    assert np.array_equal(classes, glared_classes)  # a veil changes no space's class
    assert np.array_equal(plain[0], glared[0])
    assert not np.allclose(plain[1], glared[1])


def test_an_ensemble_is_one_network_reading_the_average_of_its_members_logits():
    rng = np.random.default_rng(1)
    x = rng.normal(0, 1, (300, 5)).astype(np.float32)
    y = (x[:, 0] > 0).astype(int) + 2 * (x[:, 1] > 0.5)
    whole = fit_ensemble(x, y, members=3, hidden=8, steps=60)
    members = [fit(x, y, seed=s, hidden=8, steps=60) for s in range(3)]

    def logits(net):
        hidden = np.maximum(((x - net.mean) / net.std) @ net.w1 + net.b1, 0.0)
        return hidden @ net.w2 + net.b2

    expected = softmax(np.mean([logits(m) for m in members], axis=0))
    assert whole.w1.shape == (5, 24)
    assert np.allclose(whole.probabilities(x), expected, atol=1e-5)
    assert not np.allclose(members[0].probabilities(x), expected, atol=1e-3)


def logits_of(net, x: np.ndarray) -> np.ndarray:
    hidden = np.maximum(((x - net.mean) / net.std) @ net.w1 + net.b1, 0.0)
    return hidden @ net.w2 + net.b2


def test_nets_trained_on_other_draws_average_their_logits_though_standardised_apart():
    rng = np.random.default_rng(2)
    draws = [rng.normal(centre, scale, (300, 4)).astype(np.float32)
             for centre, scale in ((0.0, 1.0), (3.0, 5.0))]
    nets = [fit(x, (x[:, 0] > x[:, 0].mean()).astype(int), hidden=6, steps=40) for x in draws]
    assert not np.allclose(nets[0].mean, nets[1].mean)
    x = np.vstack(draws)
    expected = softmax(np.mean([logits_of(n, x) for n in nets], axis=0))
    bag = average(nets)
    assert bag.w1.shape == (4, 12)
    assert np.allclose(bag.probabilities(x), expected, atol=1e-5)


def test_training_averages_a_model_of_each_draw_of_the_copies(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    for suffix in (".jpg", ".json"):
        (photos / f"usa-01{suffix}").write_bytes((SAMPLES / f"usa-01{suffix}").read_bytes())
    common = [str(photos), "--variants", "2", "--shifted", "0", "--members", "1",
              "--cache", str(tmp_path / "features.npz")]
    for draws, seed in ((1, 0), (1, 1), (2, 0)):
        main([*common, "--draws", str(draws), "--seed", str(seed),
              "--out", str(tmp_path / f"d{draws}s{seed}.json")])
    one, other, both = (load_model(tmp_path / f"{name}.json") for name in ("d1s0", "d1s1", "d2s0"))
    assert both.w1.shape[1] == one.w1.shape[1] + other.w1.shape[1]
    x = np.random.default_rng(0).normal(one.mean, one.std, (50, len(one.mean)))
    expected = softmax(np.mean([logits_of(n, x) for n in (one, other)], axis=0))
    assert not np.allclose(one.probabilities(x), other.probabilities(x), atol=1e-3)
    assert np.allclose(both.probabilities(x), expected, atol=1e-4)


def test_another_phones_look_casts_exposes_and_blurs_but_keeps_the_picture():
    image = np.zeros((120, 160, 3), np.uint8)
    image[:, :80] = 200  # a light grey half, a dark one, and a red square
    image[:, 80:] = 60
    image[40:80, 20:60] = (40, 40, 200)
    looks = [phone_look(image, np.random.default_rng(seed)).astype(float) for seed in range(8)]
    for look in looks:
        assert look.shape == image.shape
        # the layout stays: lightness follows the original's (a shadow over part of it aside)
        assert np.corrcoef(look.mean(axis=2).ravel(), image.mean(axis=2).ravel())[0, 1] > 0.8
    grey = np.array([look[:, 100:140].reshape(-1, 3).mean(axis=0) for look in looks])
    casts = grey[:, 2] / grey[:, 0]  # red over blue on the grey: a white balance off
    assert casts.max() - casts.min() > 0.1
    assert grey.mean(axis=1).max() > 1.3 * grey.mean(axis=1).min()  # another exposure
    edge = [np.abs(np.diff(look[100, 70:90].mean(axis=1))).max() for look in looks]
    assert min(edge) < 0.8 * (200 - 60)  # some of them blurred across the edge


def test_a_shadow_darkens_part_of_the_picture_and_leaves_the_rest():
    yy, xx = np.mgrid[0:300, 0:400].astype(np.float32)
    for seed in range(6):
        light = shadow(xx, yy, np.random.default_rng(seed))
        assert light.shape == (300, 400, 3)
        assert light.max() > 0.97  # some of the picture stays lit
        assert light.min() < 0.87  # and some lies in the shade, 0.4-0.85 of the light
        assert light.min() > 0.35


def test_training_reads_a_phone_copys_tone_as_it_is():
    """A copy through a steep tone curve (gamma 3) is measured for training with its print as
    dark as the copy has it, where the detector lifts it back: the model learns the tones
    phones make."""
    from dataclasses import replace

    from scorer.vision.classify import board_lab
    from scorer.vision.config import DEFAULT
    from scorer.vision.decode import decode_scaled
    from scorer.vision.sample import _print_points
    from scorer.vision.train import _MEASURED

    label = json.loads((SAMPLES / "usa-01.json").read_text())
    image, scale = decode_scaled((SAMPLES / "usa-01.jpg").read_bytes(), 2000)
    steep = np.clip(255 * (image / 255.0) ** 3.0, 0, 255).astype(np.uint8)
    corners = np.asarray(label["corners"]) * scale
    trained = board_lab(steep, USA, corners, _MEASURED)[..., 0].ravel()
    detected = board_lab(steep, USA, corners, replace(_MEASURED, tone_deadband=0.15))
    at = _print_points(USA, detected.shape[:2], DEFAULT.rectify_scale)
    # the print's lower quartile of lightness: lifted by the detector, not for training
    assert np.percentile(trained[at], 25) < np.percentile(detected[..., 0].ravel()[at], 25) - 5
