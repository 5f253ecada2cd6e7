"""French and English: a catalogue per language and ``_()`` for templates and views.

Messages are written in English in the code; ``FR`` maps each to French. The language comes
from the ``lang`` cookie (the switch) or else the browser's Accept-Language. The core's error
messages are English sentences: ``translate_error`` maps their known shapes to French.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Flask, g, has_request_context, request

LANGUAGES = {"en": "English", "fr": "Français"}
DEFAULT_LANGUAGE = "en"
COOKIE = "lang"

FR: dict[str, str] = {}  # filled below the functions, one entry per message

CATALOGUES: dict[str, dict[str, str]] = {"en": {}, "fr": FR}


def current_language() -> str:
    if not has_request_context():
        return DEFAULT_LANGUAGE
    if "lang" not in g:
        chosen = request.cookies.get(COOKIE)
        if chosen not in LANGUAGES:
            chosen = request.accept_languages.best_match(list(LANGUAGES), DEFAULT_LANGUAGE)
        g.lang = chosen
    return g.lang


def gettext(message: str, **values: object) -> str:
    """The message in the current language, with ``{name}`` fields filled in."""
    text = CATALOGUES[current_language()].get(message, message)
    return text.format(**values) if values else text


_ = gettext


def plural(count: int, one: str, many: str, **values: object) -> str:
    return gettext(one if count == 1 else many, count=count, **values)


# --- the core's messages --------------------------------------------------------------------

def _names_fr(text: str) -> str:
    return text.replace(" and ", " et ")


# (pattern on the English message, French replacement); the first match wins.
_ERRORS_FR: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(p), r) for p, r in (
        (r"^(?P<r>.+) \((?P<id>[^)]+)\) is already claimed by (?P<o>.+)\.$",
         r"\g<r> est déjà prise par \g<o>."),
        (r"^(?P<p>.+) already owns the other lane of (?P<r>.+): one player may never own both "
         r"lanes of a double route\.$",
         r"\g<p> a déjà l'autre voie de \g<r> : un joueur ne peut jamais prendre les deux voies "
         r"d'une route double."),
        (r"^With (?P<n>\d+) players only one lane of (?P<r>.+) may be used, and (?P<o>.+) has "
         r"claimed it\.$",
         r"À \g<n> joueurs, une seule voie de \g<r> est utilisable, et \g<o> l'a prise."),
        (r"^(?P<p>.+) has (?P<n>\d+) trains? left and cannot claim (?P<r>.+) \(length "
         r"(?P<l>\d+)\)\.$",
         r"Il reste \g<n> wagon(s) à \g<p> : pas assez pour \g<r> (longueur \g<l>)."),
        (r"^(?P<r>.+) is not claimed\.$", r"\g<r> n'est pas prise."),
        (r"^There is no station in (?P<c>.+)\.$", r"Il n'y a pas de gare à \g<c>."),
        (r"^(?P<p>.+) holds no ticket (?P<t>.+)\.$", r"\g<p> n'a pas de billet \g<t>."),
        (r"^Stations are used only on Europe; this game is (?P<v>.+)\.$",
         r"Les gares n'existent qu'en Europe ; cette partie est \g<v>."),
        (r"^(?P<c>.+) already has a station \((?P<h>.+)'s\): one station per city\.$",
         r"\g<c> a déjà une gare (celle de \g<h>) : une gare par ville."),
        (r"^(?P<p>.+) has already placed all (?P<n>\d+) stations\.$",
         r"\g<p> a déjà posé ses \g<n> gares."),
        (r"^A ticket joins two different cities, not (?P<a>.+) and (?P=a)\.$",
         r"Un billet relie deux villes différentes, pas \g<a> et \g<a>."),
        (r"^(?P<t>.+) is not a ticket of the (?P<v>.+) deck: give its points to add it as a "
         r"custom ticket\.$",
         r"\g<t> n'est pas un billet de la pioche \g<v> : donnez ses points pour l'ajouter "
         r"comme billet personnalisé."),
        (r"^A ticket is worth at least 1 point, not (?P<n>-?\d+)\.$",
         r"Un billet vaut au moins 1 point, pas \g<n>."),
        (r"^A ticket is worth at most 99 points, not (?P<n>-?\d+)\.$",
         r"Un billet vaut au plus 99 points, pas \g<n>."),
        (r"^(?P<p>.+) already holds the ticket (?P<t>.+)\.$", r"\g<p> a déjà le billet \g<t>."),
        (r"^A player can take only one Europe Express card\.$",
         "Un joueur ne peut prendre qu'une carte Europe Express."),
        (r"^There are only (?P<n>\d+) Europe Express cards\.$",
         r"Il n'y a que \g<n> cartes Europe Express."),
        (r"^(?P<p>.+) has no continuous path of their own routes between (?P<a>.+) and "
         r"(?P<b>.+), so cannot hold a Europe Express card\.$",
         r"\g<p> n'a pas de chemin continu de ses routes entre \g<a> et \g<b> : pas de carte "
         r"Europe Express."),
        (r"^Unknown (?P<k>city|route|player|variant) '(?P<n>.*)' (?P<w>.+?)\.(?: Did you mean "
         r"(?P<s>.+)\?)?$", lambda m: _unknown_fr(m)),
        (r"^(?P<v>.+) is played by (?P<a>\d+) to (?P<b>\d+) players, not (?P<n>\d+)\.$",
         r"\g<v> se joue de \g<a> à \g<b> joueurs, pas \g<n>."),
        (r"^Every player needs a name\.$", "Chaque joueur doit avoir un nom."),
        (r"^Two players are called '(?P<n>.+)': names must differ\.$",
         r"Deux joueurs s'appellent « \g<n> » : les noms doivent différer."),
        (r"^(?P<a>.+) and (?P<b>.+) both play (?P<c>\w+): each colour once\.$",
         lambda m: f"{m['a']} et {m['b']} jouent tous deux {color_name(m['c'])} : "
                   "chaque couleur une seule fois."),
        (r"^Europe Express has 4 bonus cards, not (?P<n>\d+)\.$",
         r"L'Europe Express a 4 cartes bonus, pas \g<n>."),
        (r"^Bonus card values go in descending order \(top card first\), not (?P<v>.+)\.$",
         r"Les valeurs des cartes bonus vont en décroissant (la carte du dessus d'abord), "
         r"pas \g<v>."),
        (r"^A bonus card value is a whole number from 0 to 99, not (?P<v>.+)\.$",
         r"Une carte bonus vaut un nombre entier de 0 à 99, pas \g<v>."),
        (r"^No route joins (?P<a>.+) and (?P<b>.+) on the (?P<v>.+) board\.$",
         r"Aucune route ne relie \g<a> et \g<b> sur le plateau \g<v>."),
    )
)

_KINDS_FR = {"city": "Ville inconnue", "route": "Route inconnue", "player": "Joueur inconnu",
             "variant": "Variante inconnue"}


def _unknown_fr(m: re.Match[str]) -> str:
    where = m["w"]
    where = re.sub(r"^on the (.+) board$", r"sur le plateau \1", where)
    where = where.replace("in this game", "dans cette partie")
    where = where.replace("(choose usa, europe or express)", "(choisissez usa, europe ou express)")
    text = f"{_KINDS_FR[m['k']]} « {m['n']} » {where}."
    if m["s"]:
        text += f" Vouliez-vous dire {_names_fr(m['s']).replace(' or ', ' ou ')} ?"
    return text


def translate_error(message: str) -> str:
    """A core error message in the current language (English stays as it is)."""
    if current_language() != "fr":
        return message
    for pattern, replacement in _ERRORS_FR:
        match = pattern.match(message)
        if match:
            return replacement(match) if callable(replacement) else match.expand(replacement)
    return message


_TIEBREAK_FR = (
    (re.compile(r"^(?P<n>.+) tie on (?P<t>-?\d+) points$"),
     lambda m: f"{_names_fr(m['n'])} sont à égalité avec {m['t']} points"),
    (re.compile(r"^(?P<n>.+) completed the most tickets \((?P<c>.+)\)$"),
     lambda m: f"{_names_fr(m['n'])} a réalisé le plus de billets ({m['c']})"
     if " and " not in m["n"] else
     f"{_names_fr(m['n'])} ont réalisé le plus de billets ({m['c']})"),
    (re.compile(r"^all completed (?P<n>\d+) tickets?$"),
     lambda m: f"tous ont réalisé {m['n']} billet{'s' if m['n'] != '1' else ''}"),
    (re.compile(r"^(?P<n>.+) holds? the (?P<b>.+) bonus$"),
     lambda m: f"{_names_fr(m['n'])} "
               f"{'détiennent' if ' and ' in m['n'] else 'détient'} le bonus {m['b']}"),
    (re.compile(r"^all hold the (?P<b>.+) bonus$"), lambda m: f"tous ont le bonus {m['b']}"),
    (re.compile(r"^none holds the (?P<b>.+) bonus$"),
     lambda m: f"personne n'a le bonus {m['b']}"),
)


def translate_tiebreak(sentence: str | None) -> str | None:
    """The core's tie-break sentence in the current language."""
    if sentence is None or current_language() != "fr":
        return sentence
    body, _sep, verdict = sentence.rstrip(".").rpartition(": ")
    parts = []
    for part in body.split("; "):
        for pattern, render in _TIEBREAK_FR:
            match = pattern.match(part)
            if match:
                part = render(match)
                break
        parts.append(part)
    if verdict == "they share the win":
        verdict = "ils se partagent la victoire"
    else:
        verdict = re.sub(r"^(.+) wins$", r"\1 gagne", verdict)
    return " ; ".join(parts) + " : " + verdict + "."


COLOR_NAMES = ("red", "blue", "green", "yellow", "black", "white", "orange", "pink", "gray")


def color_name(color: str) -> str:
    return gettext(color)


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(
        _=gettext, plural=plural, current_language=current_language, LANGUAGES=LANGUAGES,
        color_name=color_name, translate_error=translate_error,
        translate_tiebreak=translate_tiebreak,
    )


FR.update({
    # colours
    "red": "rouge", "blue": "bleu", "green": "vert", "yellow": "jaune", "black": "noir",
    "white": "blanc", "orange": "orange", "pink": "rose", "gray": "gris",
})
