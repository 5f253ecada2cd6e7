"""Image helpers the locator's stages share: scaling, Lab, wide medians and blurs."""

from __future__ import annotations

import cv2
import numpy as np


def resize_long(image: np.ndarray, long_side: int, interpolation: int = cv2.INTER_AREA,
                ) -> tuple[np.ndarray, float]:
    """``image`` scaled down to ``long_side`` px at most, and the scale it was given."""
    scale = min(1.0, long_side / max(image.shape[:2]))
    if scale == 1.0:
        return image, 1.0
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=interpolation)
    return small, scale


def blurred_lab(image: np.ndarray) -> np.ndarray:
    """The BGR image slightly blurred (sensor noise, JPEG blocks) in float Lab."""
    return cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.float32)


def local_median(lab: np.ndarray, window: float) -> np.ndarray:
    """Each channel's median over a ``window`` px wide square around each pixel (at least
    5 px). A median this wide is smooth: it is taken on 5 x 5 samples spread over the window
    and scaled back up (a wide median filter of the whole image costs more than the rest of
    the search, and OpenCV's is quick up to 5 px only)."""
    h, w = lab.shape[:2]
    # a window wider than the photo (a wild outline's scale) is the whole photo's median: its
    # samples must still fill the 5 x 5 filter, or there are none
    step = max(1, min(round(window / 5), min(h, w) // 5))
    samples = np.ascontiguousarray(np.clip(lab[step // 2::step, step // 2::step], 0, 255))
    median = cv2.medianBlur(samples.astype(np.uint8), 5).astype(np.float32)
    return cv2.resize(median, (w, h), interpolation=cv2.INTER_LINEAR)


def squared_norm(image: np.ndarray) -> np.ndarray:
    """Per pixel squared length of a 3-channel float image, as a 1-channel image."""
    return cv2.transform(cv2.multiply(image, image), np.ones((1, 3), np.float32))


def wide_blur(image: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of large ``sigma`` done at a quarter size (the same, several times
    faster)."""
    h, w = image.shape[:2]
    if sigma < 8 or min(h, w) < 64:
        return cv2.GaussianBlur(image, (0, 0), sigma)
    small = cv2.resize(image, (w // 4, h // 4), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 4), (w, h),
                      interpolation=cv2.INTER_LINEAR)
