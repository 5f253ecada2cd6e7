"""Several photos of one board read as one: each lane's readings (one per photo) combined into
one reading with a confidence, and each city's stations likewise.

A lane is asked (the review lists it to check) when its reading is less sure than
``VisionConfig.doubt_below``, or is of a colour no player has. Combining never asks more lanes
than the photo that asks the fewest alone: another photo is there to settle doubt, not to add
to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import replace

from scorer.boards import Board
from scorer.vision.classify import LaneResult
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.stations import StationResult


def is_asked(reading: LaneResult, colors: Collection[str] | None = None,
             config: VisionConfig = DEFAULT) -> bool:
    """Whether the review asks about this reading: less sure than ``doubt_below``, or of a
    colour none of ``colors`` (the colours in play, when given) is."""
    stray = colors is not None and reading.owner is not None and reading.owner not in colors
    return reading.confidence < config.doubt_below or stray


def combine_lanes(
    photos: Sequence[Sequence[LaneResult]], colors: Collection[str] | None = None,
    config: VisionConfig = DEFAULT, board: Board | None = None,
) -> tuple[LaneResult, ...]:
    """One reading per lane from the readings of several photos of one board (every lane read
    on any photo, in the order the first photo read them).

    - Sure readings (not ``is_asked``) that agree settle the lane, as sure as the surest.
    - A lane doubtful on some photos and sure on others takes the sure reading.
    - Sure readings that disagree are asked: the surest one's owner is shown, the other owner
      second, the confidence the gap between the two (under ``doubt_below``, both being above).
    - A lane doubtful on every photo keeps the surest doubtful reading, another photo's
      likeliest reading as its second choice when it differs.
    - With the ``board``: one player never holds both lanes of a double, and pieces between
      the two lanes are seen on either from different angles; when the two lanes come out
      the same colour, each settled by another photo, the less sure is asked (its surest
      reading of another colour shown, that colour second), like a disagreement.

    The guarantee: no more lanes are asked than on the photo that asks the fewest alone. The
    lanes doubtful on every photo are asked on each photo, so only the disagreements can break
    it; when they would, the surest readings settle the excess disagreements, surest first,
    with ``doubt_below`` as their confidence (sure enough not to be asked, and no surer).
    """
    if not photos:
        return ()
    order = list(dict.fromkeys(r.route for photo in photos for r in photo))
    by_photo = [{r.route: r for r in photo} for photo in photos]
    combined: dict[str, LaneResult] = {}
    conflicts: list[tuple[LaneResult, LaneResult]] = []  # (surest, surest other owner)
    for route in order:
        reads = [photo[route] for photo in by_photo if route in photo]
        sure = sorted((r for r in reads if not is_asked(r, colors, config)),
                      key=lambda r: -r.confidence)
        if not sure:
            combined[route] = _surest_doubt(reads)
            continue
        rival = next((r for r in sure if r.owner != sure[0].owner), None)
        if rival is None:
            combined[route] = sure[0]
            continue
        conflicts.append((sure[0], rival))
        combined[route] = replace(sure[0], confidence=sure[0].confidence - rival.confidence,
                                  second=rival.owner or "empty")
    if board is not None:
        conflicts += _one_colour_per_double(combined, by_photo, board, colors, config)
    fewest = min(sum(is_asked(r, colors, config) for r in photo) for photo in photos)
    excess = sum(is_asked(r, colors, config) for r in combined.values()) - fewest
    for surest, rival in sorted(conflicts, key=lambda pair: (-pair[0].confidence,
                                                             pair[1].confidence))[:max(excess, 0)]:
        combined[surest.route] = replace(surest, confidence=config.doubt_below,
                                         second=rival.owner or "empty")
    return tuple(combined[route] for route in order)


def _one_colour_per_double(
    combined: dict[str, LaneResult], by_photo: Sequence[dict[str, LaneResult]], board: Board,
    colors: Collection[str] | None, config: VisionConfig,
) -> list[tuple[LaneResult, LaneResult]]:
    """Both lanes of a double settled to one colour: the less sure one asked, shown with its
    surest reading of another colour (empty when none). Returns these lanes as disagreements
    (the colour's reading, the other) for the guarantee to settle, surest first."""
    asked = []
    for route_id, result in combined.items():
        route = board.routes.get(route_id)
        for sibling in board.siblings(route) if route is not None else ():
            other = combined.get(sibling.id)
            if (sibling.id < route_id or other is None or result.owner is None
                    or other.owner != result.owner or is_asked(result, colors, config)
                    or is_asked(other, colors, config)):
                continue
            weak = min(result, other, key=lambda r: r.confidence)
            rest = [photo[weak.route] for photo in by_photo if weak.route in photo
                    and photo[weak.route].owner != weak.owner]
            shown = (max(rest, key=lambda r: r.confidence) if rest
                     else replace(weak, owner=None, likely="empty"))
            combined[weak.route] = replace(shown, confidence=min(shown.confidence,
                                                                 weak.confidence / 2),
                                           second=weak.owner)
            asked.append((weak, combined[weak.route]))
    return asked


def _surest_doubt(reads: Sequence[LaneResult]) -> LaneResult:
    """A lane doubtful on every photo: the surest reading, another photo's likeliest reading
    second when it differs (two photos that see it differently offer both)."""
    surest = max(reads, key=lambda r: r.confidence)
    other = next((r.likely for r in reads if r.likely != surest.likely), surest.second)
    return replace(surest, second=other)


def combine_stations(photos: Sequence[Sequence[StationResult]]) -> tuple[StationResult, ...]:
    """One station reading per city: a city has a station when at least half the photos show
    one (with two photos, either: the review lists every station to correct, and a station
    missed costs its owner as much as one invented), of the owner most photos show (the
    first photo's on a tie)."""
    seen: dict[str, Counter[str]] = {}
    for photo in photos:
        for station in photo:
            seen.setdefault(station.city, Counter())[station.owner] += 1
    return tuple(StationResult(city, owners.most_common(1)[0][0])
                 for city, owners in seen.items() if 2 * owners.total() >= len(photos))
