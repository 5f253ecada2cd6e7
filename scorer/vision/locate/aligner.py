"""The aligner: pulls a rough outline onto the board by matching a drawing of the printed
spaces and cities to the photo (ECC), and measures how well that drawing correlates with it."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.boards import SPACE_SIZE, Board
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.geometry import art_corners, art_to_photo, is_convex_quad, project
from scorer.vision.locate.images import local_median, squared_norm, wide_blur
from scorer.vision.locate.quads import in_photo, seen_share
from scorer.vision.sample import background_points, space_table


class Aligner:
    """Pulls a rough outline onto the board by ECC (enhanced correlation) between a drawing
    of the printed spaces and cities and the photo's "not paper" image, band-passed so big
    areas (sea, table) do not pull. It converges from ~5 % of the diagonal away, where the
    content score's own polish needs < 1 %.

    "Not paper" is the distance from the paper colour under the outline, or with
    ``local_paper`` from the paper around each pixel: under a glare spot or a lamp in a dim
    room the paper is far brighter in one place than in another, and a route in the bright
    place is then nearer the one paper colour than the bright paper beside it is (the routes
    there vanish from the image).

    With ``beyond`` the board may reach past the photo's edges: the drawing is matched and
    correlated where it falls in the photo only (ECC leaves out what its warp takes from
    beyond the image), and an outline is kept while ``config.cut_min_seen`` of its spaces
    fall in the photo."""

    def __init__(self, lab: np.ndarray, board: Board, local_paper: bool = False,
                 config: VisionConfig = DEFAULT, beyond: bool = False):
        self.board, self.local_paper, self.config = board, local_paper, config
        self.beyond = beyond
        self.paper = background_points(board)[::7]
        self._features: dict[tuple, np.ndarray] = {}
        self.pyramid = [lab]  # halved until a template pixel spans a couple of photo pixels
        while min(self.pyramid[-1].shape[:2]) > 120:
            self.pyramid.append(cv2.pyrDown(self.pyramid[-1]))

    def __call__(self, corners: np.ndarray, levels) -> np.ndarray | None:
        h = art_to_photo(self.board, corners)
        moved = False
        for k, smoothing, iterations in levels:
            template = _template(self.board, k)
            down, feature = self._view(h, k)
            art_per_template = np.diag([1 / k, 1 / k, 1.0])
            warp = (down @ h @ art_per_template).astype(np.float32)
            warp /= warp[2, 2]
            try:
                _, warp = cv2.findTransformECC(
                    template, feature, warp, cv2.MOTION_HOMOGRAPHY,
                    (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, 1e-4), None,
                    smoothing)
            except cv2.error:  # diverged: this level keeps the outline it was given
                continue
            h = np.linalg.inv(down) @ warp.astype(np.float64) @ np.linalg.inv(art_per_template)
            moved = True
        if not moved:
            return None
        out = project(h, art_corners(self.board))
        # a diverged alignment can leave a convex outline mostly off the photo, where the
        # content score reads the black beyond the edges as routes on paper (it scored 150,
        # a right board 40-90, and won on a plain photo with a glare spot)
        height, width = self.pyramid[0].shape[:2]
        if not is_convex_quad(out):
            return None
        if self.beyond:
            enough = seen_share(self.board, out, width, height) >= self.config.cut_min_seen
            return out if enough else None
        return out if in_photo(out[None], width, height)[0] else None

    def _view(self, h: np.ndarray, k: float) -> tuple[np.ndarray, np.ndarray]:
        """The pyramid level where a template pixel (1/k art px) spans a couple of photo
        pixels under the art-to-photo homography h: its scaling from the photo, and its
        feature image."""
        # photo px per art px near the middle of the board
        px = float(np.sqrt(abs(np.linalg.det(h[:2, :2] / h[2, 2]))))
        level = 0
        while level + 1 < len(self.pyramid) and px / k / 2 ** (level + 1) >= 1.5:
            level += 1
        down = np.diag([0.5 ** level, 0.5 ** level, 1.0])
        return down, self._feature(self.pyramid[level], down @ h, px * 0.5 ** level, k)

    def correlation(self, corners: np.ndarray, k: float = 1 / 8) -> float:
        """Correlation of the drawing of the spaces and cities with the photo's band-passed
        "not paper" image under these corners: near 0 where the spaces are not."""
        h = art_to_photo(self.board, corners)
        template = _template(self.board, k)
        down, feature = self._view(h, k)
        warp = down @ h @ np.diag([1 / k, 1 / k, 1.0])
        seen = cv2.warpPerspective(feature, warp, template.shape[::-1],
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        a, b = seen.ravel(), template.ravel()
        if self.beyond:  # where the drawing falls in the photo
            inside = cv2.warpPerspective(np.ones(feature.shape, np.uint8), warp,
                                         template.shape[::-1],
                                         flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP).ravel()
            a, b = a[inside > 0], b[inside > 0]
            if len(a) < 2:
                return 0.0
        a, b = a - a.mean(), b - b.mean()
        norm = float(np.linalg.norm(a) * np.linalg.norm(b))
        return float(a @ b) / norm if norm > 1e-9 else 0.0  # a blank view: nothing there

    def _feature(self, lab: np.ndarray, h: np.ndarray, px: float, k: float) -> np.ndarray:
        """How far each pixel is from the paper, minus its wide surroundings."""
        if self.local_paper:
            paper = None  # the same image for every hypothesis of this size
            key: tuple = (lab.shape, round(np.log(px) * 5), k)
        else:
            p = project(h, self.paper).astype(np.float32)
            if self.beyond:  # the paper in the photo
                rows, cols = lab.shape[:2]
                p = p[(p[:, 0] >= 0) & (p[:, 0] <= cols - 1)
                      & (p[:, 1] >= 0) & (p[:, 1] <= rows - 1)]
                if len(p) == 0:
                    p = np.zeros((1, 2), np.float32)
            values = cv2.remap(lab, p[:, :1], p[:, 1:], cv2.INTER_LINEAR)[:, 0]
            paper = np.median(values, axis=0).astype(np.float32)
            # hypotheses about one board agree on its paper and size: compute each image once
            key = (lab.shape, *np.round(paper / 6.0).astype(int), round(np.log(px) * 5), k)
        if key not in self._features:
            around = (local_median(lab, self.config.align_local_paper * px) if paper is None
                      else (*paper.tolist(), 0.0))
            far = np.minimum(cv2.sqrt(squared_norm(cv2.subtract(lab, around))) / 40.0, 1.5)
            far = np.maximum(0.0, far - wide_blur(far, self.config.align_high_pass * px))
            if 0.5 * px / k > 0.7:  # no finer than the template's pixels
                far = cv2.GaussianBlur(far, (0, 0), 0.5 * px / k)
            self._features[key] = far.astype(np.float32)
        return self._features[key]

_TEMPLATES: dict[tuple[str, float], np.ndarray] = {}


def _template(board: Board, k: float) -> np.ndarray:
    """The printed spaces and city circles, white on black, at ``k`` px per art px."""
    key = (board.name, k)
    if key not in _TEMPLATES:
        w, h = round(board.art_frame["width"] * k), round(board.art_frame["height"] * k)
        out = np.zeros((h, w), np.float32)
        _, spaces, _ = space_table(board)
        length, width = SPACE_SIZE
        for x, y, angle in spaces:
            box = cv2.boxPoints(((x * k, y * k), (length * k, width * k), float(angle)))
            cv2.fillConvexPoly(out, np.round(box * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        for city in board.cities.values():
            cv2.circle(out, (round(city.x * k * 16), round(city.y * k * 16)), round(9 * k * 16),
                       1.0, -1, cv2.LINE_AA, 4)
        _TEMPLATES[key] = out
    return _TEMPLATES[key]
