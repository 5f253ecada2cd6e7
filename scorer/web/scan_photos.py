"""The review's photos: a review may read several photos of one board (another angle, the glare
on the other side, another phone). Each photo's reading is kept in the scan's result
(``photos``, in piece colours) with its images (``photo_name``, ``rectified_name``), and the
lanes and stations the review shows are their combination (``scorer.vision.combine``), told
in the game's players.
"""

from __future__ import annotations

from typing import Any


def photo_name(number: int) -> str:
    """The stored name of the review's photo ``number`` (1: the first, as uploaded)."""
    return "photo" if number == 1 else f"photo-{number}"


def rectified_name(number: int) -> str:
    """The stored name of photo ``number``'s rectified view, which the review draws on."""
    return "rectified.jpg" if number == 1 else f"rectified-{number}.jpg"


def photo_reading(detection: Any, scale: float = 1.0) -> dict[str, Any]:
    """One photo's reading as the scan keeps it: each lane's colour (None: empty or doubtful),
    confidence and likeliest readings, each station's colour, and how long it took.
    ``scale``: px of the photo as uploaded per px of the photo kept."""
    return {
        "routes": {r.route: {"owner": r.owner, "confidence": round(r.confidence, 4),
                             "likely": r.likely, "second": r.second}
                   for r in detection.routes},
        "stations": {s.city: s.owner for s in detection.stations},
        "elapsed_ms": detection.elapsed_ms, "scale": scale,
        "unseen": list(detection.unseen), "unseen_cities": list(detection.unseen_cities),
        "glare": round(detection.glare, 3), "burnt": list(detection.burnt),
    }


def readings(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every photo's reading of a scan's result, the first photo's first (a scan stored
    before photos were kept apart has its one reading in ``detection``; one still being read,
    none)."""
    if "photos" in result:
        return list(result["photos"])
    routes = result.get("detection", {}).get("routes")
    if not routes:
        return []
    return [{"routes": {r["id"]: {"owner": r["owner"], "confidence": r["confidence"]}
                        for r in routes},
             "stations": {s["city"]: s["owner"] for s in result["detection"]["stations"]},
             "elapsed_ms": result["detection"].get("elapsed_ms")}]


def outside_every_photo(result: dict[str, Any], what: str = "unseen") -> set[str]:
    """The lanes with a printed space outside every photo of the review (its corners placed
    by hand beyond the photo's edges): no photo shows them whole; with ``what`` =
    "unseen_cities", the cities outside every photo."""
    photos = readings(result)
    if not photos:
        return set()
    return set.intersection(*(set(photo.get(what, ())) for photo in photos))


def glared(result: dict[str, Any]) -> bool:
    """Whether every photo of the review lies partly under a glare spot (more of the board's
    spaces under its veil than ``VisionConfig.glare_photo_share``, or a lane burnt out to
    white): the lanes there are asked more and washed-out pieces may still read empty, which
    a photo from another side settles."""
    from scorer.vision.config import DEFAULT  # the detector's package: with the first scan

    photos = readings(result)
    return bool(photos) and all(photo.get("glare", 0.0) > DEFAULT.glare_photo_share
                                or photo.get("burnt") for photo in photos)


def photo_count(result: dict[str, Any]) -> int:
    """How many photos the review reads."""
    return len(readings(result))


def combined(result: dict[str, Any], game: Any) -> dict[str, Any]:
    """The ``lanes`` and ``stations`` the review shows: its photos' readings combined, each
    piece colour told as the player who has it (``scorer.vision.to_claims``)."""
    from scorer.vision import LaneResult, StationResult  # OpenCV: with the first scan
    from scorer.vision.combine import combine_lanes, combine_stations
    from scorer.vision.pipeline import claims_of

    colors = {p.color for p in game.players}
    photos = readings(result)
    lanes = combine_lanes([[LaneResult(route, read["owner"], read["confidence"],
                                       read.get("likely", read["owner"] or "empty"),
                                       read.get("second", "empty"))
                            for route, read in photo["routes"].items()] for photo in photos],
                          colors, board=game.board)
    stations = combine_stations([[StationResult(city, owner)
                                  for city, owner in photo["stations"].items()]
                                 for photo in photos])
    return claims_of(lanes, stations, {p.color: p.name for p in game.players}).to_json()

