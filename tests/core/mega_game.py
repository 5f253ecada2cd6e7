"""A four-player USA 1910 Mega Game, every figure worked out by hand from rules.md.

Route points by length (rules.md): 1→1, 2→2, 3→4, 4→7, 5→10, 6→15. Ticket values are those
of the Mega deck (scorer/boards/decks/usa-1910.json, deck "mega"), given nowhere in the game
file: the set's deck must supply them. Every player's routes form one simple chain (no city
twice), so the longest path is the whole chain, and a ticket is completed exactly when both
its cities are on the chain.

Ann (red), 10 routes, 26 trains, a chain Vancouver–Seattle–Portland–San Francisco–Los
Angeles–Las Vegas–Salt Lake City–Denver–Kansas City–Saint Louis–Chicago:
  lengths 1 1 5 3 2 3 3 4 2 2 → 1+1+10+4+2+4+4+7+2+2 = 37 route points, 45-26 = 19 left
  done: Seattle–Las Vegas 10, Vancouver–Denver 11, Salt Lake City–Kansas City 7,
        Denver–Saint Louis 6, Salt Lake City–Chicago 11, Vancouver–Portland 2 (Mystery
        Train), Seattle–Los Angeles 9 (reprint)                            = +56, 7 done
  failed: Las Vegas–Miami 21, Denver–Pittsburgh 11 (reprint)               = −32
  longest 26 (tied with Cat: +10), Globetrotter (7, tied with Bob: +15)
  total 37 + 56 − 32 + 10 + 15 = 86
Bob (blue), 9 routes, 23 trains, Miami–Atlanta–Raleigh–Washington–New York–Boston–
Montréal–Toronto–Sault St. Marie–Duluth:
  lengths 5 2 2 2 2 2 3 2 3 → 10+2+2+2+2+2+4+2+4 = 30, 22 left
  done: Washington–Atlanta 4, New York–Miami 10, Montréal–Raleigh 7, Boston–Washington 4
        (Mystery Train), Sault St. Marie–Miami 12, New York–Atlanta 6 (reprint),
        Montréal–Atlanta 9 (reprint)                                       = +52, 7 done
  failed: Kansas City–Boston 11                                            = −11
  longest 23: no bonus; Globetrotter +15
  total 30 + 52 − 11 + 15 = 86
Cat (green), 8 routes, 26 trains, Los Angeles–El Paso–Houston–New Orleans–Atlanta–
Nashville–Little Rock–Dallas–Oklahoma City:
  lengths 6 6 2 4 1 3 2 2 → 15+15+2+7+1+4+2+2 = 48, 19 left
  done: Los Angeles–Atlanta 15, Los Angeles–Oklahoma City 9                = +24, 2 done
  failed: Duluth–Houston 8 (reprint), Omaha–New Orleans 8, Pittsburgh–New Orleans 8,
          Chicago–New Orleans 7 (reprint), Montréal–New Orleans 13 (reprint) = −44
  longest 26: +10
  total 48 + 24 − 44 + 10 = 38
Dan (yellow), 6 routes, 22 trains, Seattle–Calgary–Helena–Omaha–Chicago–Pittsburgh–New York:
  lengths 4 4 5 4 3 2 → 7+7+10+7+4+2 = 37, 23 left
  done: Chicago–New York 5, Seattle–New York 20 (reprint, lowered from 22)   = +25, 2 done
  failed: Winnipeg–Omaha 6 (Mystery Train), Calgary–Nashville 14, Duluth–El Paso 10
          (reprint), Chicago–Santa Fe 9 (reprint), Helena–Los Angeles 8 (reprint) = −47
  longest 22: no bonus
  total 37 + 25 − 47 = 15
31 tickets. Ann and Bob tie on 86 with 7 tickets each; Ann holds the longest-path card, Bob
doesn't: Ann wins (the Globetrotter step is not reached).
"""

CHAINS = {
    "Ann": ["seattle--vancouver", "portland--seattle", "portland--san-francisco",
            "los-angeles--san-francisco", "las-vegas--los-angeles", "las-vegas--salt-lake-city",
            "denver--salt-lake-city", "denver--kansas-city", "kansas-city--saint-louis",
            "chicago--saint-louis"],
    "Bob": ["atlanta--miami", "atlanta--raleigh", "raleigh--washington", "new-york--washington",
            "boston--new-york", "boston--montreal", "montreal--toronto", "sault-st-marie--toronto",
            "duluth--sault-st-marie"],
    "Cat": ["el-paso--los-angeles", "el-paso--houston", "houston--new-orleans",
            "atlanta--new-orleans", "atlanta--nashville", "little-rock--nashville",
            "dallas--little-rock", "dallas--oklahoma-city"],
    "Dan": ["calgary--seattle", "calgary--helena", "helena--omaha", "chicago--omaha",
            "chicago--pittsburgh", "new-york--pittsburgh"],
}

# (player, from, to, points by the Mega deck, completed)
TICKETS = [
    ("Ann", "Seattle", "Las Vegas", 10, True),
    ("Ann", "Vancouver", "Denver", 11, True),
    ("Ann", "Salt Lake City", "Kansas City", 7, True),
    ("Ann", "Denver", "Saint Louis", 6, True),
    ("Ann", "Salt Lake City", "Chicago", 11, True),
    ("Ann", "Vancouver", "Portland", 2, True),
    ("Ann", "Seattle", "Los Angeles", 9, True),
    ("Ann", "Las Vegas", "Miami", 21, False),
    ("Ann", "Denver", "Pittsburgh", 11, False),
    ("Bob", "Washington", "Atlanta", 4, True),
    ("Bob", "New York", "Miami", 10, True),
    ("Bob", "Montréal", "Raleigh", 7, True),
    ("Bob", "Boston", "Washington", 4, True),
    ("Bob", "Sault St. Marie", "Miami", 12, True),
    ("Bob", "New York", "Atlanta", 6, True),
    ("Bob", "Montréal", "Atlanta", 9, True),
    ("Bob", "Kansas City", "Boston", 11, False),
    ("Cat", "Los Angeles", "Atlanta", 15, True),
    ("Cat", "Los Angeles", "Oklahoma City", 9, True),
    ("Cat", "Duluth", "Houston", 8, False),
    ("Cat", "Omaha", "New Orleans", 8, False),
    ("Cat", "Pittsburgh", "New Orleans", 8, False),
    ("Cat", "Chicago", "New Orleans", 7, False),
    ("Cat", "Montréal", "New Orleans", 13, False),
    ("Dan", "Chicago", "New York", 5, True),
    ("Dan", "Seattle", "New York", 20, True),
    ("Dan", "Winnipeg", "Omaha", 6, False),
    ("Dan", "Calgary", "Nashville", 14, False),
    ("Dan", "Duluth", "El Paso", 10, False),
    ("Dan", "Chicago", "Santa Fe", 9, False),
    ("Dan", "Helena", "Los Angeles", 8, False),
]

# name: (route points, trains left, ticket points, completed, longest path, longest bonus,
#        Globetrotter, total), all from the docstring's sums
EXPECTED = {
    "Ann": (37, 19, 56 - 32, 7, 26, 10, 15, 86),
    "Bob": (30, 22, 52 - 11, 7, 23, 0, 15, 86),
    "Cat": (48, 19, 24 - 44, 2, 26, 10, 0, 38),
    "Dan": (37, 23, 25 - 47, 2, 22, 0, 0, 15),
}
TIEBREAK = ("Ann and Bob tie on 86 points; both completed 7 tickets; "
            "Ann holds the Longest path bonus: Ann wins.")

GAME = {
    "variant": "usa-mega",
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
                {"name": "Cat", "color": "green"}, {"name": "Dan", "color": "yellow"}],
    # Claims in turns, round robin, as a table would make them.
    "claims": [
        {"player": name, "route": route}
        for turn in range(max(len(chain) for chain in CHAINS.values()))
        for name, chain in CHAINS.items() if turn < len(chain)
        for route in [chain[turn]]
    ],
    # No points: every one of them comes from the Mega deck.
    "tickets": [{"player": p, "from": a, "to": b} for p, a, b, _points, _done in TICKETS],
}
