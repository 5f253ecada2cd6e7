"""A four-player Europe 1912 Mega game to its end, every figure worked out by hand from rules.md.

Route points by length (rules.md): 1→1, 2→2, 3→4, 4→7, 6→15, 8→21. Ticket values are those of
the Mega deck (scorer/boards/decks/europe-1912.json, deck "mega"), given nowhere in the game
file: the set's deck must supply them. Every player's routes form one simple chain (no city
twice), so the longest path is the whole chain, and a ticket is completed exactly when both its
cities are on the chain or joined to it by the one route a station borrows. Four players: both
lanes of a double may be used. Each station not placed scores 4.

Ann (red), 12 routes, 43 trains, a chain Cadiz–Lisboa–Madrid–Pamplona–Paris–Frankfurt–Berlin–
Warszawa–Kyiv–Budapest–Sarajevo–Athina–Brindisi:
  lengths 2 3 3 4 3 3 4 4 6 3 4 4 → 2+4+4+7+4+4+7+7+15+4+7+7 = 72 route points, 45-43 = 2 left
  (the final round is triggered)
  station in Smolensk, borrowing Dan's Kyiv–Smolensk (Ann is at Kyiv): 1 placed, 2 × 4 = +8
  done: Pamplona–Kyiv 18 (new long), Madrid–Athina 16 (new), Frankfurt–Smolensk 13 (with the
        station), Cadiz–Frankfurt 13 (new), Paris–Berlin 7 (new)              = +67, 5 done
  failed: Zagrab–Brindisi 6, Madrid–Moskva 25 (new)                          = −31
  longest 43, the longest of all: European Express +10
  total 72 + 67 − 31 + 8 + 10 = 126
Bob (blue), 8 routes, 31 trains, Edinburgh–London–Amsterdam–Essen–Kobenhavn–Stockholm–
Petrograd–Moskva–Kharkov:
  lengths 4 2 3 3 3 8 4 4 → 7+2+4+4+4+21+7+7 = 56, 14 left
  station in London, borrowing Carl's Dieppe–London (the only other route there that anyone
  owns): +8
  done: Edinburgh–Essen 9 (new), Dieppe–Kobenhavn 9 (new, with the station), London–Moskva 19
        (new)                                                                 = +37, 3 done
  failed: Kyiv–Petrograd 6, Amsterdam–Rostov 19 (new long), Stockholm–Wilno 12 (new) = −37
  longest 31: no bonus
  total 56 + 37 − 37 + 8 = 64
Carl (green), 10 routes, 33 trains, London–Dieppe–Bruxelles–Paris–Marseille–Roma–Palermo–
Smyrna–Angora–Erzurum–Sochi:
  lengths 2 2 2 4 4 4 6 3 3 3 → 2+2+2+7+7+7+15+4+4+4 = 54, 12 left
  no station: 3 × 4 = +12
  done: London–Sochi 20 (new long), Paris–Angora 17 (new; 13 on older data), Roma–Angora 11
        (new), London–Roma 10 (new), Sochi–Smyrna 9 (new)                      = +67, 5 done
  failed: Brest–Marseille 7                                                    = −7
  longest 33: no bonus
  total 54 + 67 − 7 + 12 = 126
Dan (yellow), 9 routes, 29 trains, Riga–Wilno–Smolensk–Kyiv–Kharkov–Rostov–Sevastopol–
Constantinople–Bucuresti–Sofia:
  lengths 4 3 3 4 2 4 4 3 2 → 7+4+4+7+2+7+7+4+2 = 44, 16 left
  station in Kyiv, borrowing Ann's Kyiv–Warszawa (Warszawa–Sevastopol); station in Sochi,
  where only Carl's Erzurum–Sochi is owned, which joins nothing of Dan's: it borrows nothing.
  2 placed: 1 × 4 = +4
  done: Warszawa–Sevastopol 12 (new, with the Kyiv station), Riga–Kharkov 10 (new),
        Smolensk–Rostov 8, Sofia–Kyiv 6 (new), Riga–Bucuresti 10               = +46, 5 done
  failed: Riga–Brindisi 17 (new long), Kyiv–Sochi 8                           = −25
  longest 29: no bonus
  total 44 + 46 − 25 + 4 = 69
26 tickets. Ann and Carl tie on 126 with 5 completed tickets each; Carl placed no station, Ann
one: Carl wins (the European Express step, Ann's, is not reached). Ranking: Carl, Ann, Dan, Bob.

Played without the longest-path bonus (a setup choice), Ann has 116 and Carl wins outright.
"""

CHAINS = {
    "Ann": ["cadiz--lisboa", "lisboa--madrid", "madrid--pamplona", "pamplona--paris",
            "frankfurt--paris", "berlin--frankfurt", "berlin--warszawa", "kyiv--warszawa",
            "budapest--kyiv", "budapest--sarajevo", "athina--sarajevo", "athina--brindisi"],
    "Bob": ["edinburgh--london", "amsterdam--london", "amsterdam--essen", "essen--kobenhavn",
            "kobenhavn--stockholm", "petrograd--stockholm", "moskva--petrograd",
            "kharkov--moskva"],
    "Carl": ["dieppe--london", "bruxelles--dieppe", "bruxelles--paris", "marseille--paris",
             "marseille--roma", "palermo--roma", "palermo--smyrna", "angora--smyrna",
             "angora--erzurum", "erzurum--sochi"],
    "Dan": ["riga--wilno", "smolensk--wilno", "kyiv--smolensk", "kharkov--kyiv",
            "kharkov--rostov", "rostov--sevastopol", "constantinople--sevastopol",
            "bucuresti--constantinople", "bucuresti--sofia"],
}
COLORS = {"Ann": "red", "Bob": "blue", "Carl": "green", "Dan": "yellow"}
STATIONS = [("Ann", "Smolensk"), ("Bob", "London"), ("Dan", "Kyiv"), ("Dan", "Sochi")]
# (player, from, to, deck value, completed): the values are the Mega deck's, never given
TICKETS = [
    ("Ann", "Pamplona", "Kyiv", 18, True),
    ("Ann", "Madrid", "Athina", 16, True),
    ("Ann", "Frankfurt", "Smolensk", 13, True),
    ("Ann", "Cadiz", "Frankfurt", 13, True),
    ("Ann", "Paris", "Berlin", 7, True),
    ("Ann", "Zagrab", "Brindisi", 6, False),
    ("Ann", "Madrid", "Moskva", 25, False),
    ("Bob", "Edinburgh", "Essen", 9, True),
    ("Bob", "Dieppe", "Kobenhavn", 9, True),
    ("Bob", "London", "Moskva", 19, True),
    ("Bob", "Kyiv", "Petrograd", 6, False),
    ("Bob", "Amsterdam", "Rostov", 19, False),
    ("Bob", "Stockholm", "Wilno", 12, False),
    ("Carl", "London", "Sochi", 20, True),
    ("Carl", "Paris", "Angora", 17, True),
    ("Carl", "Roma", "Angora", 11, True),
    ("Carl", "London", "Roma", 10, True),
    ("Carl", "Sochi", "Smyrna", 9, True),
    ("Carl", "Brest", "Marseille", 7, False),
    ("Dan", "Warszawa", "Sevastopol", 12, True),
    ("Dan", "Riga", "Kharkov", 10, True),
    ("Dan", "Smolensk", "Rostov", 8, True),
    ("Dan", "Sofia", "Kyiv", 6, True),
    ("Dan", "Riga", "Bucuresti", 10, True),
    ("Dan", "Riga", "Brindisi", 17, False),
    ("Dan", "Kyiv", "Sochi", 8, False),
]


def _claims_in_turns() -> list[tuple[str, str]]:
    """The claims as a table makes them: one route per player in turn, Ann first."""
    turns = []
    for index in range(max(len(chain) for chain in CHAINS.values())):
        turns += [(name, chain[index]) for name, chain in CHAINS.items() if index < len(chain)]
    return turns


CLAIMS = _claims_in_turns()

GAME = {
    "variant": "europe-1912-mega",
    "players": [{"name": name, "color": color} for name, color in COLORS.items()],
    "claims": [{"player": player, "route": route} for player, route in CLAIMS],
    "stations": [{"player": player, "city": city} for player, city in STATIONS],
    "tickets": [{"player": p, "from": a, "to": b} for p, a, b, _points, _done in TICKETS],
}

# route points, trains left, ticket points, tickets completed, stations placed, station points,
# longest path, longest bonus, total
EXPECTED = {
    "Ann": (72, 2, 36, 5, 1, 8, 43, 10, 126),
    "Bob": (56, 14, 0, 3, 1, 8, 31, 0, 64),
    "Carl": (54, 12, 60, 5, 0, 12, 33, 0, 126),
    "Dan": (44, 16, 21, 5, 2, 4, 29, 0, 69),
}
# Each station and the route it borrows (None: none helps).
BORROWS = {
    "Ann": {"Smolensk": "kyiv--smolensk"},
    "Bob": {"London": "dieppe--london"},
    "Carl": {},
    "Dan": {"Kyiv": "kyiv--warszawa", "Sochi": None},
}
RANKING = ["Carl", "Ann", "Dan", "Bob"]
TIEBREAK = ("Carl and Ann tie on 126 points; both completed 5 tickets; Carl placed the fewest "
            "stations (Carl 0, Ann 1): Carl wins.")
# Without the longest-path bonus: only Ann's total changes, and there is no tie.
TOTALS_WITHOUT_BONUS = {"Ann": 116, "Bob": 64, "Carl": 126, "Dan": 69}
