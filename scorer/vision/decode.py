"""Stage 1: bytes of an uploaded photo to a BGR array, upright, refusing what is not a photo."""

from __future__ import annotations

import io
import math
import warnings

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.errors import ImageRejected

try:  # HEIC/HEIF from phones; the decoder is optional at import time only
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # pragma: no cover - a dependency of the project
    pass
# Pillow imports its common decoders on the first open: do it once here, at import time, not
# in the first photo's time (``elapsed_ms`` of a one-photo ``scorer detect`` run)
Image.preinit()

# EXIF orientations that swap width and height
_TRANSPOSED = {5, 6, 7, 8}
# formats whose extra frames are not animation: HEIF/AVIF hold thumbnails and depth, MPO is a
# JPEG with an appended gain map or depth image (many Android and iPhone photos)
_STILL_MULTI_FRAME = {"HEIF", "AVIF", "MPO"}


def decode(
    data: bytes, long_side: int | None = None, config: VisionConfig = DEFAULT
) -> np.ndarray:
    """Decode an uploaded image to an upright BGR array (EXIF orientation applied).

    With ``long_side`` the image may come back smaller (never below that long side) because
    JPEG is decoded at a reduced DCT scale, which is several times faster for phone photos.
    Raises ImageRejected for anything that is not a single still image of a sane size.
    """
    return decode_scaled(data, long_side, config)[0]


def decode_scaled(
    data: bytes, long_side: int | None = None, config: VisionConfig = DEFAULT
) -> tuple[np.ndarray, float]:
    """Like ``decode``, also returning the scale: decoded pixels per pixel of the full photo."""
    if not data:
        raise ImageRejected("The file is empty: not an image.")
    if len(data) > config.max_bytes:
        raise ImageRejected(
            f"The file is too large ({len(data) / 2**20:.0f} MB, at most "
            f"{config.max_bytes / 2**20:.0f} MB)."
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > config.max_megapixels * 1e6:
                raise ImageRejected(
                    f"The image is too large ({width}x{height} px, at most "
                    f"{config.max_megapixels:.0f} megapixels)."
                )
            if getattr(image, "is_animated", False) and image.format not in _STILL_MULTI_FRAME:
                raise ImageRejected("Animated images are not accepted: send a still photo.")
            orientation = image.getexif().get(0x0112, 1)
            if orientation in _TRANSPOSED:
                width, height = height, width
            if long_side and max(width, height) > long_side:
                _shrink_while_decoding(image, long_side / max(width, height))
            image.load()
            image = ImageOps.exif_transpose(image)
            factor = _reduce_factor(image.size, long_side)
            if factor > 1:
                image = image.reduce(factor)
            rgb = image.convert("RGB")
    except ImageRejected:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageRejected(
            f"The image is too large (at most {config.max_megapixels:.0f} megapixels)."
        ) from None
    except UnidentifiedImageError:
        raise ImageRejected(
            "This file is not an image we can read (JPEG, PNG, WebP, HEIC)."
        ) from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ImageRejected(f"The image is damaged or truncated ({exc}).") from None
    bgr = np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])
    if bgr.ndim != 3 or bgr.shape[0] < 16 or bgr.shape[1] < 16:
        raise ImageRejected("The image is too small to show a board.")
    return bgr, bgr.shape[1] / width


def _shrink_while_decoding(image: Image.Image, scale: float) -> None:
    """JPEG draft mode: let libjpeg decode at 1/2, 1/4 or 1/8 scale, never below ``scale``."""
    if image.format == "JPEG":
        w, h = image.size
        image.draft("RGB", (math.ceil(w * scale), math.ceil(h * scale)))


def _reduce_factor(size: tuple[int, int], long_side: int | None) -> int:
    if not long_side:
        return 1
    return max(1, int(max(size) / long_side))
