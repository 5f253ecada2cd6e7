"""The detector's last stage and the review's views: piece colours told as the game's players,
a detection moved to the pixels of a larger photo, the photo as JPEG upright and rectified."""

import cv2
import numpy as np

from scorer.boards import load_board
from scorer.vision import (
    Detection,
    LaneClaim,
    LaneResult,
    StationResult,
    decode,
    rectified_jpeg,
    to_claims,
    upright_jpeg,
)
from scorer.vision.geometry import art_to_photo, project

EUROPE = load_board("europe")


def detection(routes=(), stations=(), corners=((10.0, 20.0), (110.0, 20.0), (110.0, 90.0),
                                                  (10.0, 90.0))) -> Detection:
    h = art_to_photo(EUROPE, corners)
    return Detection(map="europe", corners=corners, routes=tuple(routes),
                     stations=tuple(stations), elapsed_ms=5,
                     homography=tuple(float(v) for v in (h / h[2, 2]).ravel()),
                     photo_size=(120, 100))


def test_each_piece_colour_is_read_as_the_player_who_has_it():
    claims = to_claims(detection([LaneResult("paris--zurich", "red", 0.91234),
                                  LaneResult("berlin--wien", "blue", 0.8)]),
                       {"red": "Ann", "blue": "Bob"})
    assert claims.lanes == {"paris--zurich": LaneClaim("Ann", "red", 0.91234),
                            "berlin--wien": LaneClaim("Bob", "blue", 0.8)}
    assert claims.to_json()["lanes"]["paris--zurich"] == {
        "owner": "Ann", "color": "red", "confidence": 0.912, "likely": "empty",
        "second": "empty"}


def test_a_doubtful_lane_keeps_the_crop_s_likeliest_readings_as_colours():
    claims = to_claims(detection([LaneResult("paris--zurich", None, 0.2, "yellow", "empty")]),
                       {"yellow": "Ann"})
    assert claims.lanes["paris--zurich"] == LaneClaim(None, None, 0.2, "yellow", "empty")
    assert claims.to_json()["lanes"]["paris--zurich"]["likely"] == "yellow"


def test_a_colour_no_player_has_keeps_the_colour_seen_and_no_owner():
    claims = to_claims(detection([LaneResult("paris--zurich", "green", 0.9),
                                  LaneResult("berlin--wien", None, 0.4)]), {"red": "Ann"})
    assert claims.lanes["paris--zurich"] == LaneClaim(None, "green", 0.9)
    assert claims.lanes["berlin--wien"] == LaneClaim(None, None, 0.4)


def test_a_station_of_a_colour_no_player_has_is_left_out():
    claims = to_claims(detection(stations=[StationResult("Paris", "red"),
                                           StationResult("Wien", "green")]),
                       {"red": "Ann", "blue": "Bob"})
    assert claims.stations == {"Paris": "Ann"}
    assert claims.to_json()["stations"] == {"Paris": "Ann"}


def test_a_detection_scaled_up_points_to_the_same_places_in_the_larger_photo():
    read = detection([LaneResult("paris--zurich", "red", 0.9)])
    larger = read.scaled(2.5)
    assert larger.corners == tuple((x * 2.5, y * 2.5) for x, y in read.corners)
    assert larger.photo_size == (300, 250)
    city = np.array([[EUROPE.cities["Paris"].x, EUROPE.cities["Paris"].y]])
    h, h_larger = (np.array(d.homography).reshape(3, 3) for d in (read, larger))
    assert np.allclose(project(h_larger, city), 2.5 * project(h, city))
    assert larger.routes == read.routes and read.scaled(1.0) is read


def photo_of_a_grid(width: int, height: int) -> bytes:
    image = np.full((height, width, 3), 200, np.uint8)
    image[::50] = image[:, ::50] = 0
    return cv2.imencode(".png", image)[1].tobytes()


def test_the_photo_kept_is_upright_jpeg_at_most_the_long_side_asked():
    jpeg, scale = upright_jpeg(photo_of_a_grid(1000, 600), 400, 90, exact=True)
    assert jpeg[:2] == b"\xff\xd8"
    assert decode(jpeg).shape[:2] == (240, 400) and scale == 0.4


def test_the_photo_shown_is_reduced_only_as_far_as_decoding_takes_it():
    # a whole factor that leaves the long side at least the one asked: 1000 px -> 500, not 400
    jpeg, scale = upright_jpeg(photo_of_a_grid(1000, 600), 400, 80)
    assert decode(jpeg).shape[:2] == (300, 500) and scale == 0.5


def test_the_rectified_view_puts_the_boards_corners_at_its_own():
    corners = ((100.0, 80.0), (900.0, 60.0), (940.0, 560.0), (80.0, 580.0))
    data = photo_of_a_grid(1000, 600)
    read = detection(corners=corners)
    view = decode(rectified_jpeg(data, read, EUROPE, 600))
    width, height = EUROPE.art_frame["width"], EUROPE.art_frame["height"]
    assert view.shape[:2] == (round(height * 600 / width), 600)
    # the grid's dark line at x = 500 in the photo lies where the art frame maps it
    h = np.array(read.homography).reshape(3, 3)
    top, bottom = project(np.linalg.inv(h), np.array([[500.0, 200.0], [500.0, 400.0]]))
    column = round((top[0] + bottom[0]) / 2 * 600 / width)
    row = round((top[1] + bottom[1]) / 2 * 600 / width)
    assert view[row, column - 2:column + 3].min() < 80
