"""The paper's colour measured across the board: uneven light normalised away."""

import numpy as np

from scorer.boards import load_board
from scorer.vision.sample import (
    background_points,
    fine_light,
    normalise,
    paper_map,
    space_table,
    to_lab,
)

USA = load_board("usa")
PAPER, PIECE = 185.0, 40.0


def lit_board(light) -> np.ndarray:
    """A drawn Lab map: paper everywhere and a dark piece on every space, lit by
    ``light(x)`` (a factor on lightness across the board)."""
    h, w = int(USA.art_frame["height"]), int(USA.art_frame["width"])
    lab = np.empty((h, w, 3), np.float32)
    lab[..., 0], lab[..., 1], lab[..., 2] = PAPER, 128.0, 134.0
    _, spaces, _ = space_table(USA)
    for x, y, _angle in spaces:
        lab[int(y) - 6:int(y) + 7, int(x) - 15:int(x) + 16, 0] = PIECE
    lab[..., 0] *= light(np.arange(w, dtype=np.float32))[None, :]
    return lab


def ramp(x: np.ndarray) -> np.ndarray:
    """A lamp to the right: the left edge of the board gets 0.7 of the light, the right 1.3."""
    return 0.7 + 0.6 * x / x[-1]


def pieces_light(lab: np.ndarray) -> np.ndarray:
    _, spaces, _ = space_table(USA)
    return lab[spaces[:, 1].astype(int), spaces[:, 0].astype(int), 0]


def test_under_a_lamp_to_one_side_the_paper_is_one_colour_across_the_board():
    out = normalise(lit_board(ramp), paper_map(lit_board(ramp), USA))
    pts = background_points(USA).astype(int)
    paper = out[pts[:, 1], pts[:, 0], 0]
    assert np.percentile(np.abs(paper - PAPER), 95) < 10


def test_under_a_lamp_to_one_side_pieces_look_alike_at_both_ends_of_the_board():
    lab = lit_board(ramp)
    light = pieces_light(normalise(lab, paper_map(lab, USA)))
    assert np.percentile(np.abs(light - PIECE), 95) < 5
    # one colour for the whole photo leaves the shaded end's pieces darker than the lit end's
    whole = pieces_light(normalise(lab, np.median(paper_map(lab, USA), axis=(0, 1))))
    assert np.percentile(np.abs(whole - PIECE), 95) > 10


def test_evenly_lit_the_paper_map_is_the_photo_s_paper_colour():
    lab = lit_board(lambda x: np.ones_like(x))
    paper = paper_map(lab, USA)
    assert np.allclose(paper, [PAPER, 128.0, 134.0], atol=0.5)


def test_a_square_hidden_under_a_dark_card_is_not_taken_for_dark_paper():
    lab = lit_board(lambda x: np.ones_like(x))
    lab[300:700, 600:1100, 0] = 30.0  # a player's cards left on the board
    paper = paper_map(lab, USA, ratio=(0.6, 1.6))
    assert paper[..., 0].min() >= 0.6 * PAPER - 1e-3


def test_a_red_piece_in_a_photo_with_half_the_light_is_as_red_once_normalised():
    """Less light shrinks a colour's chroma with its lightness (both go with the cube root of
    the light in Lab): normalising by the paper gives the chroma back."""
    photo = np.uint8([[[40, 40, 200], [200, 215, 225]]])  # BGR: a red piece, the paper
    seen = []
    for gain in (1.0, 0.5):
        lab = to_lab(np.round(photo * gain).astype(np.uint8))
        seen.append(normalise(lab, lab[0, 1])[0, 0])
    # sRGB is not exactly a cube root: within 8 (the chroma shifted, not scaled: 24 apart)
    assert abs(seen[0][1] - seen[1][1]) < 8  # a*: as red
    assert abs(seen[0][2] - seen[1][2]) < 8  # b*


def shadow_edge(x: np.ndarray) -> np.ndarray:
    """A shadow over the left half of the board (a phone, an arm): 0.6 of the light there,
    its edge sharp."""
    return np.where(x < x[-1] / 2, 0.6, 1.0).astype(np.float32)


def finer_paper(lab: np.ndarray, fine: float) -> np.ndarray:
    """``paper_map`` with its lightness measured again over ``fine`` art px (0: as it is), as
    the detector reads lanes."""
    paper = paper_map(lab, USA)
    if fine > 0:
        paper[..., 0] *= fine_light(lab[..., 0], USA, 1.0, 140.0, fine)
    return paper


def test_beside_a_shadow_s_sharp_edge_the_paper_is_measured_on_its_own_side():
    lab = lit_board(shadow_edge)
    w = lab.shape[1]
    pts = background_points(USA).astype(int)
    gap = np.abs(pts[:, 0] - w / 2)
    near = (gap >= 100) & (gap < 250)  # paper 100-250 art px (1.5-4 spaces) from the edge
    for fine in (36.0, 0.0):
        out = normalise(lab, finer_paper(lab, fine))
        error = np.percentile(np.abs(out[pts[near, 1], pts[near, 0], 0] - PAPER), 90)
        # the squares' paper alone (fine 0) blends both sides of the edge: 20-30 off there
        assert (error < 10) == (fine > 0), (fine, error)


def test_the_finer_paper_leaves_an_evenly_lit_board_as_it_was():
    lab = lit_board(lambda x: np.ones_like(x))
    assert np.allclose(finer_paper(lab, 36.0), paper_map(lab, USA), atol=0.5)
