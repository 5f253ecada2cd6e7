"""Photos built to cost the most to decode for their size (issue 26): a flat colour, the
smallest file for the most pixels, per format; a HEIC grid (512 px HEVC tiles put together
by libheif, as phones write theirs) written box by box. Used by tests/hardening/
test_decode_bounds.py and benchmarks/decode_memory.py."""

from __future__ import annotations

import io
import math

FORMATS = ("JPEG", "JPEG-progressive", "PNG", "WEBP-lossless", "WEBP", "AVIF", "HEIC",
           "HEIC-grid")


def worst_case(kind: str, width: int, height: int) -> bytes:
    """A flat-coloured ``width`` x ``height`` file of ``kind`` (see FORMATS)."""
    from PIL import Image

    image = Image.new("RGB", (width, height), (90, 120, 60))
    buffer = io.BytesIO()
    if kind == "JPEG":
        image.save(buffer, "JPEG", quality=90)
    elif kind == "JPEG-progressive":
        image.save(buffer, "JPEG", quality=90, progressive=True, subsampling=0)
    elif kind == "PNG":
        image.save(buffer, "PNG")
    elif kind == "WEBP-lossless":
        image.save(buffer, "WEBP", lossless=True)
    elif kind == "WEBP":
        image.save(buffer, "WEBP", quality=80)
    elif kind == "AVIF":
        image.save(buffer, "AVIF", quality=60, speed=10)
    elif kind in ("HEIC", "HEIC-grid"):
        return heic(image, grid=kind == "HEIC-grid")
    else:
        raise ValueError(kind)
    return buffer.getvalue()


def heic(image, grid: bool) -> bytes:  # type: ignore[no-untyped-def]
    """A HEIC; with ``grid`` one whose primary image is a grid of 512 x 512 tiles, as
    phones write theirs (libheif puts them together into one image when decoding)."""
    import pillow_heif

    if not grid:
        buffer = io.BytesIO()
        pillow_heif.from_pillow(image).save(buffer, quality=50)
        return buffer.getvalue()
    return heic_grid(image.size, image.getpixel((0, 0)))


def heic_grid(size: tuple[int, int], colour: tuple[int, ...], tile: int = 512) -> bytes:
    """A HEIC whose primary item is a ``grid`` of ``tile`` px HEVC tiles (every tile the same
    flat colour, stored once per tile reference), written box by box."""
    import struct

    import pillow_heif
    from PIL import Image

    width, height = size
    columns, rows = math.ceil(width / tile), math.ceil(height / tile)
    # One HEVC tile from libheif: its hvcC and its data, read back from a one-tile HEIC.
    buffer = io.BytesIO()
    pillow_heif.from_pillow(Image.new("RGB", (tile, tile), colour)).save(buffer, quality=50)
    single = buffer.getvalue()
    hvcc, coded = _hevc_parts(single)

    def box(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", 8 + len(payload)) + kind + payload

    def full(kind: bytes, version: int, flags: int, payload: bytes) -> bytes:
        return box(kind, bytes([version]) + flags.to_bytes(3, "big") + payload)

    tiles = columns * rows
    grid_id, first = 1, 2
    ids = list(range(first, first + tiles))
    ftyp = box(b"ftyp", b"heic" + b"\0\0\0\0" + b"mif1heic")
    hdlr = full(b"hdlr", 0, 0, b"\0" * 4 + b"pict" + b"\0" * 12 + b"\0")
    pitm = full(b"pitm", 0, 0, struct.pack(">H", grid_id))
    infe = [full(b"infe", 2, 0, struct.pack(">HH", grid_id, 0) + b"grid" + b"\0")]
    infe += [full(b"infe", 2, 1, struct.pack(">HH", i, 0) + b"hvc1" + b"\0") for i in ids]
    iinf = full(b"iinf", 0, 0, struct.pack(">H", len(infe)) + b"".join(infe))
    dimg = struct.pack(">HH", grid_id, tiles) + b"".join(struct.pack(">H", i) for i in ids)
    iref = full(b"iref", 0, 0, struct.pack(">I", 8 + len(dimg)) + b"dimg" + dimg)
    grid_data = bytes([0, 1, rows - 1, columns - 1]) + struct.pack(">II", width, height)
    ispe_grid = full(b"ispe", 0, 0, struct.pack(">II", width, height))
    ispe_tile = full(b"ispe", 0, 0, struct.pack(">II", tile, tile))
    ipco = box(b"ipco", box(b"hvcC", hvcc) + ispe_tile + ispe_grid)
    # property 1 hvcC, 2 tile ispe, 3 grid ispe
    assoc = struct.pack(">I", 1 + tiles) + struct.pack(">HB", grid_id, 1) + bytes([0x03])
    for i in ids:
        assoc += struct.pack(">HB", i, 2) + bytes([0x81, 0x02])
    ipma = full(b"ipma", 0, 0, assoc)
    iprp = box(b"iprp", ipco + ipma)

    def meta(mdat_start: int) -> bytes:
        # iloc v1, offset/length 4 bytes, base offset 0: the grid's data then each tile
        # pointing at the one coded tile (stored once)
        entries = struct.pack(">HH", grid_id, 0) + struct.pack(">HH", 0, 1) + struct.pack(
            ">II", mdat_start, len(grid_data))
        for i in ids:
            entries += struct.pack(">HH", i, 0) + struct.pack(">HH", 0, 1) + struct.pack(
                ">II", mdat_start + len(grid_data), len(coded))
        iloc = full(b"iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">H", 1 + tiles)
                    + entries)
        return full(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iref + iprp)

    head = ftyp + meta(0)
    start = len(head) + 8
    return ftyp + meta(start) + box(b"mdat", grid_data + coded)


def _hevc_parts(heic_file: bytes) -> tuple[bytes, bytes]:
    """The hvcC box payload and the coded data of a one-image HEIC's primary item."""
    import struct

    def boxes(data: bytes, start: int, end: int, full: bool = False):  # type: ignore[no-untyped-def]
        at = start + (4 if full else 0)
        while at < end:
            size, kind = struct.unpack(">I4s", data[at:at + 8])
            yield kind, at + 8, at + size
            at += size

    top = {kind: (a, b) for kind, a, b in boxes(heic_file, 0, len(heic_file))}
    meta = {kind: (a, b) for kind, a, b in boxes(heic_file, *top[b"meta"], full=True)}
    iprp = {kind: (a, b) for kind, a, b in boxes(heic_file, *meta[b"iprp"])}
    ipco = {kind: (a, b) for kind, a, b in boxes(heic_file, *iprp[b"ipco"])}
    hvcc = heic_file[slice(*ipco[b"hvcC"])]
    a, _b = meta[b"iloc"]
    version = heic_file[a]
    sizes = heic_file[a + 4]
    offset_size, length_size = sizes >> 4, sizes & 15
    base_size = heic_file[a + 5] >> 4
    at = a + 6
    count = struct.unpack(">H", heic_file[at:at + 2])[0]
    at += 2
    for _ in range(count):
        at += 2  # item id
        if version in (1, 2):
            at += 2
        at += 2  # data reference index
        base = int.from_bytes(heic_file[at:at + base_size], "big")
        at += base_size
        extents = struct.unpack(">H", heic_file[at:at + 2])[0]
        at += 2
        for _e in range(extents):
            offset = int.from_bytes(heic_file[at:at + offset_size], "big")
            at += offset_size
            length = int.from_bytes(heic_file[at:at + length_size], "big")
            at += length_size
        return hvcc, heic_file[base + offset:base + offset + length]
    raise ValueError("no item")


def heic_grid_understated(size: tuple[int, int], said: tuple[int, int]) -> bytes:
    """A HEIC grid of ``size`` whose header (the grid item's ``ispe``) says ``said``: the
    pixel limit reads the header, so libheif must not put together more than it says."""
    import struct

    data = heic_grid(size, (90, 120, 60))
    first = data.find(b"ispe")
    second = data.find(b"ispe", first + 4)  # the grid's (the first is the tiles')
    return data[:second + 8] + struct.pack(">II", *said) + data[second + 16:]
