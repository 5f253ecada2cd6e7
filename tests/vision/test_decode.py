import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from scorer.boards import load_board
from scorer.vision import BoardNotFound, ImageRejected, VisionConfig, decode, detect


def encode(image: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    image.save(buf, fmt, **kw)
    return buf.getvalue()


def gradient(w=64, h=48) -> Image.Image:
    x = np.linspace(0, 255, w, dtype=np.uint8)
    return Image.fromarray(np.dstack([np.tile(x, (h, 1))] * 3))


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_common_formats_decode_to_bgr(fmt):
    image = Image.new("RGB", (40, 30), (255, 0, 0))
    out = decode(encode(image, fmt))
    assert out.shape == (30, 40, 3)
    assert out[15, 20, 2] > 200 and out[15, 20, 0] < 60  # red is the last channel in BGR


def test_heic_decodes():
    pillow_heif = pytest.importorskip("pillow_heif")
    try:
        data = encode(Image.new("RGB", (64, 48), (0, 0, 255)), "HEIF")
    except (OSError, KeyError, ValueError) as exc:  # no HEVC encoder in this libheif
        pytest.skip(f"cannot encode HEIF here: {exc}")
    assert pillow_heif is not None
    assert decode(data).shape == (48, 64, 3)


def test_exif_orientation_is_applied():
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to view
    data = encode(gradient(64, 48), "JPEG", exif=exif.tobytes())
    assert decode(data).shape == (64, 48, 3)


def test_a_big_jpeg_is_decoded_smaller_when_asked():
    data = encode(gradient(1600, 1200), "JPEG")
    out = decode(data, long_side=400)
    assert 400 <= out.shape[1] < 800


@pytest.mark.parametrize("data", [b"", b"hello, this is a text file\n" * 40, bytes(range(256)) * 8])
def test_what_is_not_an_image_is_rejected(data):
    with pytest.raises(ImageRejected):
        decode(data)


def test_a_truncated_jpeg_is_rejected():
    data = encode(gradient(640, 480), "JPEG", quality=95)
    with pytest.raises(ImageRejected, match="truncated|damaged"):
        decode(data[: len(data) // 2])


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_other_truncated_formats_are_rejected(fmt):
    data = encode(gradient(640, 480).convert("RGB"), fmt)
    with pytest.raises(ImageRejected):
        decode(data[: len(data) // 2])


@pytest.mark.parametrize("keep", [4, 200])
def test_a_jpeg_cut_near_its_header_is_rejected_even_when_shrunk(keep):
    data = encode(gradient(1600, 1200), "JPEG")
    with pytest.raises(ImageRejected):
        decode(data[:keep], long_side=400)


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims a size but holds one scrap of pixel data: tiny file, huge image."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(bytes(64))) + chunk(b"IEND", b""))


@pytest.mark.parametrize("size", [(8000, 7000), (20000, 20000)])
def test_more_than_fifty_megapixels_is_refused_as_too_large_from_the_header(size):
    with pytest.raises(ImageRejected, match="too large"):
        decode(png_header(*size))


def test_huge_dimensions_are_rejected_before_decoding():
    data = encode(Image.new("L", (7200, 7200)), "PNG")
    with pytest.raises(ImageRejected, match="megapixels"):
        decode(data)


def test_too_many_bytes_are_rejected():
    with pytest.raises(ImageRejected, match="too large"):
        decode(b"\xff\xd8" + b"0" * 2048, config=VisionConfig(max_bytes=1024))


@pytest.mark.parametrize("fmt", ["WEBP"])  # GIF is not a photo format: refused unread
def test_animated_images_are_rejected(fmt):
    frames = [Image.new("RGB", (32, 32), c) for c in ((255, 0, 0), (0, 255, 0))]
    data = encode(frames[0], fmt, save_all=True, append_images=frames[1:], duration=100)
    with pytest.raises(ImageRejected, match="Animated"):
        decode(data)


def test_a_phone_jpeg_with_an_appended_gain_map_is_a_still_photo():
    # MPO: Android "Ultra HDR" and many phones append a second image to the JPEG
    photo, gain_map = gradient(64, 48).convert("RGB"), Image.new("RGB", (32, 24), (90, 90, 90))
    data = encode(photo, "MPO", save_all=True, append_images=[gain_map])
    assert Image.open(io.BytesIO(data)).format == "MPO"
    assert decode(data).shape == (48, 64, 3)


def test_an_animated_png_is_rejected():
    frames = [Image.new("RGB", (32, 32), c) for c in ((255, 0, 0), (0, 0, 255))]
    data = encode(frames[0], "PNG", save_all=True, append_images=frames[1:])
    with pytest.raises(ImageRejected, match="Animated"):
        decode(data)


def test_a_photo_without_a_board_is_not_found():
    rng = np.random.default_rng(7)  # fur-like noise: a cat, not a board
    noise = rng.normal(120, 40, (60, 80, 3)).clip(0, 255).astype(np.uint8)
    fur = Image.fromarray(noise).resize((1200, 900), Image.BICUBIC)
    with pytest.raises(BoardNotFound):
        detect(encode(fur, "JPEG"), load_board("usa"))


def test_a_black_photo_is_too_dark():
    with pytest.raises(BoardNotFound, match="dark"):
        detect(encode(Image.new("RGB", (800, 600)), "JPEG"), load_board("usa"))


def test_rejection_is_a_scorer_error_for_the_cli_and_web():
    from scorer.errors import ScorerError

    assert issubclass(ImageRejected, BoardNotFound) and issubclass(BoardNotFound, ScorerError)
