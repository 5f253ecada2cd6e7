"""Several photos of one board combined: sure readings settle, doubt is asked, and two photos
never ask more than one."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.boards import load_board
from scorer.vision.classify import LaneResult
from scorer.vision.combine import combine_lanes, combine_stations, is_asked
from scorer.vision.config import DEFAULT
from scorer.vision.stations import StationResult

SURE, DOUBT = 0.95, 0.3
USA = load_board("usa")
# two doubles of the USA board: lanes a player never holds both of
DOUBLES = ["denver--salt-lake-city", "denver--salt-lake-city--2", "new-york--washington",
           "new-york--washington--2"]


def lane(route: str, owner: str | None, confidence: float, second: str = "empty") -> LaneResult:
    return LaneResult(route, owner, confidence, owner or "empty", second)


def by_route(results) -> dict[str, LaneResult]:
    return {r.route: r for r in results}


def asked(results, colors=None) -> set[str]:
    return {r.route for r in results if is_asked(r, colors)}


def test_sure_readings_that_agree_settle_the_lane_as_sure_as_the_surest():
    got = by_route(combine_lanes([[lane("a", "red", 0.9)], [lane("a", "red", 0.97)]]))
    assert got["a"].owner == "red" and got["a"].confidence == 0.97


def test_a_lane_doubtful_on_one_photo_takes_the_sure_reading_of_the_other():
    got = by_route(combine_lanes([[lane("a", None, DOUBT, "yellow"), lane("b", "blue", SURE)],
                                  [lane("a", "yellow", SURE), lane("b", None, 0.1)]]))
    assert got["a"].owner == "yellow" and not is_asked(got["a"])
    assert got["b"].owner == "blue" and not is_asked(got["b"])


def test_a_sure_disagreement_is_asked_showing_the_surest_and_the_other_second():
    # three lanes sure on both and one doubtful on both: each photo alone asks one lane
    first = [lane("a", "red", 0.99), lane("b", None, DOUBT), lane("c", "blue", SURE)]
    second = [lane("a", None, 0.8), lane("b", None, DOUBT), lane("c", "blue", SURE)]
    got = by_route(combine_lanes([first, second]))
    assert got["b"].confidence == DOUBT  # doubtful on both: asked
    # the disagreement would make two asked against one alone: the surest reading settles it
    assert got["a"].owner == "red" and got["a"].confidence == DEFAULT.doubt_below
    assert got["a"].second == "empty"
    assert asked(got.values()) == {"b"}


def test_a_disagreement_within_the_bound_stays_asked():
    first = [lane("a", "red", 0.99), lane("b", None, DOUBT), lane("c", None, DOUBT),
             lane("d", "blue", SURE)]
    second = [lane("a", "green", 0.8), lane("b", None, DOUBT), lane("c", "red", SURE),
              lane("d", None, DOUBT)]
    got = by_route(combine_lanes([first, second]))
    assert is_asked(got["a"]) and got["a"].owner == "red" and got["a"].second == "green"
    assert abs(got["a"].confidence - 0.19) < 1e-9
    assert (got["c"].owner, got["d"].owner) == ("red", "blue")
    assert asked(got.values()) == {"a", "b"}  # as many as each photo alone: two


def test_the_surest_disagreements_are_settled_first():
    lanes = ["a", "b", "c"]
    first = [lane("a", "red", 0.99), lane("b", "red", 0.8), lane("c", "red", 0.9)]
    second = [lane("a", None, 0.9), lane("b", None, 0.9), lane("c", None, 0.9),
              lane("d", None, DOUBT)]
    first.append(lane("d", None, DOUBT))
    got = by_route(combine_lanes([first, second]))
    assert asked(got.values()) == {"d"}  # one asked alone: every disagreement settled
    assert [got[r].owner for r in lanes] == ["red", None, "red"]  # the surest reading of each


def test_a_lane_doubtful_on_every_photo_offers_what_the_other_photo_sees_second():
    got = combine_lanes([[lane("a", None, 0.2, "red")], [lane("a", None, 0.5, "blue")]])
    assert got[0].confidence == 0.5 and got[0].owner is None
    assert got[0].second == "blue"
    got = combine_lanes([[lane("a", None, 0.2, "red")],
                         [LaneResult("a", "green", 0.4, "green", "empty")]])
    assert got[0].owner == "green" and got[0].second == "empty"


def test_a_colour_no_player_has_is_asked_and_never_settles_a_lane():
    got = combine_lanes([[lane("a", "green", 0.99)], [lane("a", None, 0.5, "red")]],
                        colors={"red", "blue"})
    assert is_asked(got[0], {"red", "blue"}) and not is_asked(got[0])


def test_one_photo_is_read_as_it_is():
    photo = [lane("a", "red", 0.9), lane("b", None, 0.2, "blue")]
    assert combine_lanes([photo]) == tuple(photo)
    assert combine_lanes([]) == ()


def test_one_colour_settled_on_both_lanes_of_a_double_asks_the_less_sure_one():
    """Pieces between the lanes of a double: one photo sees them on the first lane, the other
    on the second; each photo alone asks the lane it doubts."""
    one, two = DOUBLES[:2]
    first = [lane(one, "green", 0.99), lane(two, None, 0.43, "green"), lane("x", None, DOUBT)]
    second = [lane(one, None, 0.38, "green"), lane(two, "green", 0.9), lane("x", None, DOUBT)]
    got = by_route(combine_lanes([first, second], board=USA))
    assert got[one].owner == "green" and not is_asked(got[one])
    assert got[two].owner is None and is_asked(got[two]) and got[two].second == "green"
    # without the board nothing says so: both lanes green
    assert by_route(combine_lanes([first, second]))[two].owner == "green"


def test_a_double_asked_past_the_bound_is_settled_as_read():
    """Photos that read both lanes of a double green, surely, ask nothing alone: nor do they
    together (the review's own check then says one player never owns both)."""
    one, two = DOUBLES[:2]
    photo = [lane(one, "green", 0.99), lane(two, "green", 0.9)]
    got = by_route(combine_lanes([photo, photo], board=USA))
    assert not asked(got.values())
    assert got[one].owner == "green" and got[two].owner == "green"


OWNERS = st.sampled_from([None, "red", "blue", "green"])
READING = st.tuples(OWNERS, st.floats(0.0, 1.0), st.sampled_from(["empty", "red", "yellow"]))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(
    st.lists(READING, min_size=n, max_size=n), min_size=1, max_size=4)),
    st.sampled_from([None, {"red", "blue"}]), st.booleans())
def test_photos_combined_never_ask_more_lanes_than_the_photo_asking_fewest(photos, colors,
                                                                         doubles):
    readings = [[LaneResult(DOUBLES[i], owner, confidence, owner or "empty", second)
                 for i, (owner, confidence, second) in enumerate(photo)] for photo in photos]
    got = combine_lanes(readings, colors, board=USA if doubles else None)
    assert len(asked(got, colors)) <= min(len(asked(photo, colors)) for photo in readings)
    if doubles:
        return
    # a lane sure and alike on every photo that reads it sure stays settled, as read
    for result in got:
        reads = [photo[DOUBLES.index(result.route)] for photo in readings]
        sure = {r.owner for r in reads if not is_asked(r, colors)}
        if len(sure) == 1:
            assert not is_asked(result, colors) and result.owner in sure
        if not sure:
            assert is_asked(result, colors)


def test_a_station_seen_on_half_the_photos_or_more_is_kept_of_the_likeliest_owner():
    photos = [[StationResult("Paris", "red"), StationResult("Wien", "blue")],
              [StationResult("Paris", "red"), StationResult("Roma", "green")],
              [StationResult("Paris", "blue"), StationResult("Wien", "blue")]]
    assert set(combine_stations(photos)) == {StationResult("Paris", "red"),
                                             StationResult("Wien", "blue")}
    tie = [[StationResult("Madrid", "red")], [StationResult("Madrid", "green")]]
    assert combine_stations(tie) == (StationResult("Madrid", "red"),)  # the first photo's
