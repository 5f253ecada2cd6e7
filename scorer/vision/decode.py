"""Stage 1: bytes of an uploaded photo to a BGR array, upright, refusing what is not a photo."""

from __future__ import annotations

import io
import math
import warnings

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError, features

from scorer.messages import N_
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

# The only formats that reach a decoder, by their first bytes: a phone's photo is one of these.
# Pillow knows some forty more, and some run outside programs (EPS and PDF run Ghostscript,
# with no time limit) or have large attack surfaces for no photo's sake; those are refused
# before Pillow sees them, and Pillow is told to try these formats only (``formats=``).
NOT_A_PHOTO = N_("This file is not an image we can read (JPEG, PNG, WebP, HEIC).")
_ISO_BRANDS = {  # ISO base media file (``ftyp`` box): HEIF from phones, AVIF when supported
    b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1",
    b"mif2", b"avif", b"avis",
}
_AVIF = "AVIF" in Image.OPEN or features.check("avif")


def photo_format(head: bytes) -> tuple[str, ...]:
    """The Pillow formats a file may be opened as, from its first 16 bytes; () when it is
    none of the photo formats accepted (the caller refuses it without decoding anything)."""
    if head.startswith(b"\xff\xd8\xff"):
        return ("JPEG",)  # Pillow opens an MPO (JPEG with a gain map) through JPEG too
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return ("PNG",)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return ("WEBP",)
    if head[4:8] == b"ftyp" and head[8:12] in _ISO_BRANDS:
        return ("HEIF", "AVIF") if _AVIF else ("HEIF",)
    return ()


# The most megapixels per format, from what decoding one at that size takes at its worst in
# the detection's child (benchmarks/decode_memory.py: a flat colour, the smallest file for the
# most pixels; the detector's decode and the review's photos), beyond what the child held
# before, at 50 megapixels: baseline JPEG 119 MB (decoded reduced, libjpeg's DCT scaling), a
# progressive 4:4:4 JPEG 334 MB (libjpeg keeps all its coefficients), PNG 211, AVIF 446, HEIC
# 353, a HEIC grid of 512 px tiles 399; WebP, lossless or not, 770 MB (15.4 MB a megapixel:
# Pillow's decoder holds the whole RGBA frame twice), hence 30 megapixels for WebP (463 MB).
# Every photo fits DECODE_BOUND_MB. Checked from the file's header, before anything is
# decoded; ``config.max_megapixels`` caps them all.
DECODE_BOUND_MB = 480
FORMAT_MEGAPIXELS = {"JPEG": 50.0, "MPO": 50.0, "PNG": 50.0, "WEBP": 30.0, "AVIF": 50.0,
                     "HEIF": 50.0}
_FORMAT_NAMES = {"JPEG": "JPEG", "MPO": "JPEG", "PNG": "PNG", "WEBP": "WebP", "AVIF": "AVIF",
                 "HEIF": "HEIC"}


def megapixel_limit(fmt: str | None, config: VisionConfig = DEFAULT) -> float:
    """The most megapixels a photo of Pillow format ``fmt`` may have."""
    return min(config.max_megapixels, FORMAT_MEGAPIXELS.get(fmt or "", 30.0))


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
        raise ImageRejected("The file is too large ({size:.0f} MB, at most {limit:.0f} MB).",
                            size=len(data) / 2**20, limit=config.max_bytes / 2**20)
    formats = photo_format(data[:16])
    if not formats:
        raise ImageRejected(NOT_A_PHOTO)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=formats)
            width, height = image.size
            limit = megapixel_limit(image.format, config)
            if width * height > limit * 1e6:
                raise ImageRejected(
                    "The image is too large ({width}x{height} px, at most {limit:.0f} "
                    "megapixels as {format}).", width=width, height=height,
                    limit=limit, format=_FORMAT_NAMES.get(image.format or "", "?"))
            if getattr(image, "is_animated", False) and image.format not in _STILL_MULTI_FRAME:
                raise ImageRejected("Animated images are not accepted: send a still photo.")
            orientation = image.getexif().get(0x0112, 1)
            if orientation in _TRANSPOSED:
                width, height = height, width
            if long_side and max(width, height) > long_side:
                _shrink_while_decoding(image, long_side / max(width, height))
            image.load()
            # Reduced first, turned upright after, and only when it needs turning: each copy
            # of a 48-megapixel photo is 144 MB, and at most SCAN_WORKERS decode at once.
            factor = _reduce_factor(image.size, long_side)
            if image.getexif().get(0x0112, 1) != 1:
                image = ImageOps.exif_transpose(image.reduce(factor) if factor > 1 else image)
            elif factor > 1:
                image = image.reduce(factor)
            rgb = image if image.mode == "RGB" else image.convert("RGB")
    except ImageRejected:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageRejected("The image is too large (at most {limit:.0f} megapixels).",
                            limit=config.max_megapixels) from None
    except UnidentifiedImageError:
        raise ImageRejected(NOT_A_PHOTO) from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ImageRejected("The image is damaged or truncated ({error}).",
                            error=str(exc)) from None
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
