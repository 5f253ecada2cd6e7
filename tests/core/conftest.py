import pytest

from scorer.game import Game, Player

FIVE = [("Ann", "red"), ("Bob", "blue"), ("Cat", "green"), ("Dan", "yellow"), ("Eve", "black")]


@pytest.fixture
def make_game():
    """A new game of a variant with the first ``n`` of five players."""

    def make(variant: str = "usa", n: int = 2, **kwargs) -> Game:
        return Game.new(variant, [Player(*p) for p in FIVE[:n]], **kwargs)

    return make
