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


def takes_singular(count: int) -> bool:
    """Whether ``count`` takes the singular: in English only 1, in French 0 and 1 too
    (« 0 wagon », « 1 wagon », « 2 wagons »)."""
    return abs(count) <= 1 if current_language() == "fr" else abs(count) == 1


def plural(count: int, one: str, many: str, **values: object) -> str:
    """The singular or plural message for ``count`` (given to it as ``{count}``)."""
    return gettext(one if takes_singular(count) else many, count=count, **values)


# --- the core's messages --------------------------------------------------------------------

def _names_fr(text: str) -> str:
    return text.replace(" and ", " et ")


# (pattern on the English message, French replacement); the first match wins.
_ERRORS_FR: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(p), r) for p, r in (
        (r"^(?P<r>[^(]+?)(?: \((?P<c>\w+)\))? is already claimed by (?P<o>.+)\.$",
         lambda m: f"{m['r']}{' (' + gettext(m['c']) + ')' if m['c'] else ''} est déjà prise "
                   f"par {m['o']}."),
        (r"^(?P<p>.+) already owns the other lane of (?P<r>.+): one player may never own both "
         r"lanes of a double route\.$",
         r"\g<p> a déjà l'autre voie de \g<r> : un joueur ne peut jamais prendre les deux voies "
         r"d'une route double."),
        (r"^With (?P<n>\d+) players only one lane of (?P<r>.+) may be used, and (?P<o>.+) has "
         r"claimed it\.$",
         r"À \g<n> joueurs, une seule voie de \g<r> est utilisable, et \g<o> l'a prise."),
        (r"^(?P<p>.+) has (?P<n>\d+) trains? left and cannot claim (?P<r>.+) \(length "
         r"(?P<l>\d+)\)\.$",
         lambda m: f"Il reste {m['n']} wagon{'' if int(m['n']) <= 1 else 's'} à {m['p']} : "
                   f"pas assez pour {m['r']} (longueur {m['l']})."),
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
        (r"^(?P<p>.+)'s ticket (?P<t>.+) is worth at least 1 point, not (?P<n>-?\d+)\.$",
         r"Le billet \g<t> de \g<p> vaut au moins 1 point, pas \g<n>."),
        (r"^(?P<p>.+)'s ticket (?P<t>.+) is worth at most 99 points, not (?P<n>-?\d+)\.$",
         r"Le billet \g<t> de \g<p> vaut au plus 99 points, pas \g<n>."),
        (r"^This game holds (?P<n>\d+) steps, more than any table makes: export it and import "
         r"the file to go on\.$",
         r"Cette partie compte \g<n> étapes, plus qu'aucune table n'en fait : exportez-la et "
         r"importez le fichier pour continuer."),
        (r"^(?P<p>.+) already holds (?P<n>\d+) tickets: no table keeps more \(ticket (?P<t>.+) "
         r"not added\)\.$",
         r"\g<p> a déjà \g<n> billets : aucune table n'en garde plus (billet \g<t> non "
         r"ajouté)."),
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
        # The photo reader's reasons (scorer.vision: BoardNotFound, ImageRejected)
        (r"^No board found in the photo: take it from above, the whole board in the frame\.$",
         "Aucun plateau trouvé sur la photo : prenez-la de dessus, le plateau entier dans le "
         "cadre."),
        (r"^The photo is too dark: add light or avoid shadows on the board\.$",
         "La photo est trop sombre : ajoutez de la lumière ou évitez les ombres sur le plateau."),
        (r"^The photo is too blurred: hold still and let the camera focus\.$",
         "La photo est trop floue : tenez le téléphone immobile et laissez-le faire la mise au "
         "point."),
        (r"^Corners must be four x,y points: top-left, top-right, bottom-right, bottom-left\.$",
         "Les coins sont quatre points x,y : haut gauche, haut droite, bas droite, bas gauche."),
        (r"^The four corners given do not outline a board \(not a convex quadrilateral in the "
         r"order top-left, top-right, bottom-right, bottom-left\)\.$",
         "Les quatre coins donnés ne dessinent pas un plateau (pas un quadrilatère convexe dans "
         "l'ordre haut gauche, haut droite, bas droite, bas gauche)."),
        (r"^The file is empty: not an image\.$", "Le fichier est vide : ce n'est pas une image."),
        (r"^The file is too large \((?P<n>\d+) MB, at most (?P<m>\d+) MB\)\.$",
         r"Le fichier est trop gros (\g<n> Mo, au plus \g<m> Mo)."),
        (r"^The image is too large \((?P<w>\d+)x(?P<h>\d+) px, at most (?P<m>\d+) "
         r"megapixels\)\.$",
         r"L'image est trop grande (\g<w>x\g<h> px, au plus \g<m> mégapixels)."),
        (r"^The image is too large \(at most (?P<m>\d+) megapixels\)\.$",
         r"L'image est trop grande (au plus \g<m> mégapixels)."),
        (r"^Animated images are not accepted: send a still photo\.$",
         "Les images animées ne sont pas acceptées : envoyez une photo fixe."),
        (r"^This file is not an image we can read \(JPEG, PNG, WebP, HEIC\)\.$",
         "Ce fichier n'est pas une image lisible (JPEG, PNG, WebP, HEIC)."),
        (r"^The image is damaged or truncated \((?P<e>.*)\)\.$",
         r"L'image est abîmée ou tronquée (\g<e>)."),
        (r"^The image is too small to show a board\.$",
         "L'image est trop petite pour montrer un plateau."),
    )
)

_KINDS_FR = {"city": "Ville inconnue", "route": "Route inconnue", "player": "Joueur inconnu",
             "variant": "Variante inconnue"}


def _unknown_fr(m: re.Match[str]) -> str:
    where = m["w"]
    where = re.sub(r"^on the (.+) board$", r"sur le plateau \1", where)
    where = where.replace("in this game", "dans cette partie")
    where = re.sub(r"^\(choose (.+) or (.+)\)$", r"(choisissez \1 ou \2)", where)
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


_EVERY_FR = {"all": "tous", "both": "tous les deux"}

_TIEBREAK_FR = (
    (re.compile(r"^(?P<n>.+) tie on (?P<t>-?\d+) points$"),
     lambda m: f"{_names_fr(m['n'])} sont à égalité avec {m['t']} points"),
    (re.compile(r"^(?P<n>.+) completed the most tickets \((?P<c>.+)\)$"),
     lambda m: f"{_names_fr(m['n'])} a réalisé le plus de billets ({m['c']})"
     if " and " not in m["n"] else
     f"{_names_fr(m['n'])} ont réalisé le plus de billets ({m['c']})"),
    (re.compile(r"^(?P<e>all|both) completed (?P<n>\d+) tickets?$"),
     lambda m: f"{_EVERY_FR[m['e']]} ont réalisé {m['n']} billet"
               f"{'s' if int(m['n']) > 1 else ''}"),
    (re.compile(r"^(?P<n>.+) placed the fewest stations \((?P<c>.+)\)$"),
     lambda m: f"{_names_fr(m['n'])} "
               f"{'ont' if ' and ' in m['n'] else 'a'} posé le moins de gares ({m['c']})"),
    (re.compile(r"^(?P<e>all|both) placed (?P<n>\d+) stations?$"),
     lambda m: f"{_EVERY_FR[m['e']]} ont posé {m['n']} gare{'s' if int(m['n']) > 1 else ''}"),
    (re.compile(r"^(?P<e>all|both) hold the (?P<b>.+) bonus$"),
     lambda m: f"{_EVERY_FR[m['e']]} ont le bonus {gettext(m['b'])}"),
    (re.compile(r"^(?:none|neither) holds the (?P<b>.+) bonus$"),
     lambda m: f"personne n'a le bonus {gettext(m['b'])}"),
    (re.compile(r"^(?P<n>.+) holds? the (?P<b>.+) bonus$"),
     lambda m: f"{_names_fr(m['n'])} "
               f"{'détiennent' if ' and ' in m['n'] else 'détient'} le bonus {gettext(m['b'])}"),
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


def signed(points: int) -> str:
    """Points with their sign, a real minus sign, and a bare 0."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def color_name(color: str) -> str:
    return gettext(color)


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(
        _=gettext, plural=plural, signed=signed, current_language=current_language,
        LANGUAGES=LANGUAGES, color_name=color_name, translate_error=translate_error,
        translate_tiebreak=translate_tiebreak,
    )


FR.update({
    # colours
    "red": "rouge", "blue": "bleu", "green": "vert", "yellow": "jaune", "black": "noir",
    "white": "blanc", "orange": "orange", "pink": "rose", "gray": "gris",
})

FR.update({
    # pages and partials
    " (optional)": " (facultatif)",
    "(read only)": "(lecture seule)",
    "A game needs a name.": "Une partie doit avoir un nom.",
    "Add": "Ajouter",
    "Add a ticket for": "Ajouter un billet pour",
    "Add for": "Ajouter pour",
    "Already done: the game had changed.": "Déjà fait : la partie avait changé.",
    "Back to the games": "Retour aux parties",
    "Bonus card values are whole numbers.":
        "Les valeurs des cartes bonus sont des nombres entiers.",
    "Card {n}": "Carte {n}",
    "Choose Stations or Ticket above the map to use cities.":
        "Choisissez Gares ou Billet au-dessus de la carte pour utiliser les villes.",
    "Choose Ticket above the map to pick a ticket's cities.":
        "Choisissez Billet au-dessus de la carte pour désigner les villes d'un billet.",
    "Choose {variants}.": "Choisissez {variants}.",
    "Claim for {player}": "Prendre pour {player}",
    "Claimed by {owner}.": "Prise par {owner}.",
    "Custom ticket": "Billet personnalisé",
    "Deck tickets from {city}": "Billets de la pioche depuis {city}",
    "Delete the game": "Supprimer la partie",
    "Delete “{name}”?": "Supprimer « {name} » ?",
    "Delete…": "Supprimer…",
    "Europe Express card": "Carte Europe Express",
    "Europe Express cards": "Cartes Europe Express",
    "Europe Express order taken from the claims again.":
        "Ordre de l'Europe Express repris des prises de routes.",
    "Europe Express order: {order}.": "Ordre de l'Europe Express : {order}.",
    "Europe Express order: {order} (was: {before}).":
        "Ordre de l'Europe Express : {order} (avant : {before}).",
    "No final round any more: every player has 3 trains or more.":
        "Plus de dernier tour : chaque joueur a 3 wagons ou plus.",
    "nobody": "personne",
    "or": "ou",
    "most: {n}": "le plus : {n}",
    "USA 1910 Mega Game": "USA 1910 Méga-partie",
    "USA 1910 Big Cities": "USA 1910 Grandes villes",
    "Export (JSON)": "Exporter (JSON)",
    "Final round": "Dernier tour",
    "Final round triggered by {names}.": "Dernier tour déclenché par {names}.",
    "Final round! {names} has {n} trains or fewer: everyone plays one last turn.":
        "Dernier tour ! {names} n'a plus que {n} wagons ou moins : chacun joue un dernier tour.",
    "Final round! {names} have {n} trains or fewer: everyone plays one last turn.":
        "Dernier tour ! {names} n'ont plus que {n} wagons ou moins : chacun joue un dernier "
        "tour.",
    "Follow this game on another phone": "Suivre cette partie sur un autre téléphone",
    "From": "De",
    "Game": "Partie",
    "Game imported.": "Partie importée.",
    "Game name (optional)": "Nom de la partie (facultatif)",
    "Game renamed.": "Partie renommée.",
    "Game “{name}” deleted.": "Partie « {name} » supprimée.",
    "Games": "Parties",
    "Give both cities of the ticket.": "Donnez les deux villes du billet.",
    "Import": "Importer",
    "Import a game file": "Importer un fichier de partie",
    "JSON file": "Fichier JSON",
    "Keep it": "La garder",
    "Winner: {names}": "Gagnant : {names}",
    "Let another phone tap too": "Laisser un autre téléphone jouer aussi",
    "London – Constantinople (Istanbul). Card values: {values}.":
        "London – Constantinople (Istanbul). Valeurs des cartes : {values}.",
    "Longest path": "Plus long chemin",
    "Globetrotter": "Globe-trotter",
    "Longest path of {name}": "Plus long chemin de {name}",
    "European Express": "European Express",
    "Europe Express": "Europe Express",
    "Map": "Carte",
    "Map and rules": "Carte et règles",
    "Move down": "Descendre",
    "Move up": "Monter",
    "Name": "Nom",
    "New game": "Nouvelle partie",
    "No deck ticket matches “{query}”.": "Aucun billet de la pioche ne correspond à « {query} ».",
    "No game yet: start one above, or import a game file.":
        "Pas encore de partie : commencez-en une ci-dessus, ou importez un fichier de partie.",
    "No route claimed: no path yet.": "Aucune route prise : pas encore de chemin.",
    "No ticket yet.": "Pas encore de billet.",
    "Nobody has joined London and Constantinople yet.":
        "Personne n'a encore relié London et Constantinople.",
    "Not started": "Pas commencée",
    "Nothing claimed yet.": "Rien n'a encore été pris.",
    "Nothing to redo.": "Rien à rétablir.",
    "Nothing to undo.": "Rien à annuler.",
    "Or choose Ticket above the map and tap two cities.":
        "Ou choisissez Billet au-dessus de la carte et touchez deux villes.",
    "Order set by hand.": "Ordre fixé à la main.",
    "Order taken from the claims.": "Ordre tiré des prises de routes.",
    "Player": "Joueur",
    "Player {n}": "Joueur {n}",
    "Players ({a} to {b})": "Joueurs ({a} à {b})",
    "Photo": "Photo",
    "Points": "Points",
    "Points must be a whole number, not {value}.":
        "Les points sont un nombre entier, pas {value}.",
    "Recent players:": "Joueurs récents :",
    "Redo": "Rétablir",
    "Refresh": "Actualiser",
    "Release it": "La libérer",
    "Remove": "Retirer",
    "Remove the station": "Retirer la gare",
    "Rename": "Renommer",
    "Results": "Résultats",
    "Route points": "Points de routes",
    "Routes": "Routes",
    "Scan the code or open the link: the board, the counters and the tickets follow live; "
    "nobody can change anything there.":
        "Scannez le code ou ouvrez le lien : le plateau, les compteurs et les billets suivent "
        "en direct ; personne ne peut rien y changer.",
    "Score your Ticket to Ride game at the table":
        "Comptez les points de vos Aventuriers du Rail à table",
    "Search": "Chercher",
    "Search the deck": "Chercher dans la pioche",
    "City: den, paris…": "Ville : den, paris…",
    "Share": "Partager",
    "Shared win: {names}.": "Victoire partagée : {names}.",
    "Show the longest path": "Voir le plus long chemin",
    "Start the game": "Commencer la partie",
    "Station": "Gare",
    "Station for {player}": "Gare pour {player}",
    "Station in {city} removed (Undo brings it back).":
        "Gare de {city} retirée (Annuler la remet).",
    "Stations": "Gares",
    "Stations kept: {n} × {points}": "Gares gardées : {n} × {points}",
    "Stations left": "Gares restantes",
    "Stations use:": "Les gares utilisent :",
    "Take the order from the claims": "Reprendre l'ordre des prises de routes",
    "Tap a lane to claim it for {name}; tap it again to release it.":
        "Touchez une voie pour la donner à {name} ; touchez-la encore pour la libérer.",
    "Tap a city to place a station for {name}; tap it again to remove it.":
        "Touchez une ville pour y poser une gare de {name} ; touchez-la encore pour la retirer.",
    "Tap the two cities of a ticket to give it to {name}.":
        "Touchez les deux villes d'un billet pour le donner à {name}.",
    "The game and its whole history are removed for good; its links stop working.":
        "La partie et tout son historique sont effacés pour de bon ; ses liens ne marcheront "
        "plus.",
    "This is not a game file: {reason} Was it copied whole?":
        "Ce n'est pas un fichier de partie : {reason} A-t-il été copié en entier ?",
    "Choose a game file or paste one first.":
        "Choisissez d'abord un fichier de partie, ou collez-en un.",
    "The value of each bonus card, top card first.":
        "La valeur de chaque carte bonus, celle du dessus d'abord.",
    "This link can change the game: give it only to players at the table.":
        "Ce lien permet de modifier la partie : ne le donnez qu'aux joueurs à table.",
    "This player cannot move that way.": "Ce joueur ne peut pas aller dans ce sens.",
    "Ticket": "Billet",
    "Ticket cancelled.": "Billet annulé.",
    "Ticket {a}–{b} removed (Undo brings it back).": "Billet {a}–{b} retiré (Annuler le remet).",
    "Tickets": "Billets",
    "To": "À",
    "Total": "Total",
    "Train colour": "Couleur des wagons",
    "Trains left": "Wagons restants",
    "Undo": "Annuler",
    "Undone: {action}.": "Annulé : {action}.",
    "Redone: {action}.": "Rétabli : {action}.",
    "What a tap does": "Ce que fait une touche",
    "Whole board": "Tout le plateau",
    "Which lane?": "Quelle voie ?",
    "Copied": "Copié",
    "This link works only on this computer: the other phones cannot open {address}. Start "
    "Terminus with make run (it serves the Wi-Fi), then open the address it prints.":
        "Ce lien ne marche que sur cet ordinateur : les autres téléphones ne peuvent pas ouvrir "
        "{address}. Lancez Terminus avec make run (il sert le Wi-Fi), puis ouvrez l'adresse "
        "qu'il affiche.",
    "Patterns for colour-blind players: {state}": "Motifs pour daltoniens : {state}",
    "on": "oui",
    "off": "non",
    "Copy": "Copier",
    "On the score track": "Sur la piste de score",
    "Station in {city}: borrows {route}": "Gare de {city} : emprunte {route}",
    "Station in {city}: borrows nothing": "Gare de {city} : n'emprunte rien",
    "Summary to paste in a chat": "Résumé à coller dans une discussion",
    "nothing": "rien",
    "score track": "piste de score",
    "{space}, behind the start": "{space}, derrière le départ",
    "{space}, after {count} full lap": "{space}, après {count} tour complet",
    "{space}, after {count} full laps": "{space}, après {count} tours complets",
    "left lane": "voie de gauche",
    "right lane": "voie de droite",
    "upper lane": "voie du haut",
    "lower lane": "voie du bas",
    "held by {names}": "déjà chez {names}",
    "Cancel": "Annuler",
    "Winner": "Gagnant",
    "Zoom": "Zoom",
    "Zoom in": "Zoomer",
    "Zoom out": "Dézoomer",
    "completed": "réalisé",
    "Tickets completed": "Billets réalisés",
    "deck": "pioche",
    "ferry": "ferry",
    "not yet": "pas encore",
    "or paste it": "ou collez-le",
    "path of {count} train": "chemin de {count} wagon",
    "path of {count} trains": "chemin de {count} wagons",
    "{count} train": "{count} wagon",
    "{count} trains": "{count} wagons",
    "train": "wagon",
    "pt": "pt",
    "station": "gare",
    "{count} station": "{count} gare",
    "{count} stations": "{count} gares",
    "{count} space": "{count} case",
    "{count} spaces": "{count} cases",
    "{count} point": "{count} point",
    "{count} points": "{count} points",
    "+{count} point": "+{count} point",
    "+{count} points": "+{count} points",
    "{count} train left": "il reste {count} wagon",
    "{count} trains left": "il reste {count} wagons",
    "{player} claims {route}: {points}, {left}.": "{player} prend {route} : {points}, {left}.",
    "pts": "pts",
    "station in {city} removed": "gare de {city} retirée",
    "stations": "gares",
    "the Europe Express order": "l'ordre de l'Europe Express",
    "tied": "ex æquo",
    "trains": "wagons",
    "tunnel": "tunnel",
    "with the station in {cities}": "grâce à la gare de {cities}",
    "{a}–{b} is not in the deck: enter its points in Custom ticket.":
        "{a}–{b} n'est pas dans la pioche : entrez ses points dans Billet personnalisé.",
    "{a}–{b} players": "{a} à {b} joueurs",
    "{bonus} bonus": "Bonus {bonus}",
    "{city} has {holder}'s station: select {holder} to remove it.":
        "{city} a la gare de {holder} : choisissez {holder} pour la retirer.",
    "{city}: now tap the ticket's other city.":
        "{city} : touchez maintenant l'autre ville du billet.",
    "{count} action": "{count} action",
    "{count} actions": "{count} actions",
    "{count} player": "{count} joueur",
    "{count} players": "{count} joueurs",
    "{count} route": "{count} route",
    "{count} routes": "{count} routes",
    "{count} ticket completed": "{count} billet réalisé",
    "{count} tickets completed": "{count} billets réalisés",
    "{count} ticket failed": "{count} billet raté",
    "{count} tickets failed": "{count} billets ratés",
    "{name} wins!": "{name} gagne !",
    "{player} claims {route}": "{player} prend {route}",
    "{player} has a station here.": "{player} a une gare ici.",
    "{player} places a station in {city}.": "{player} pose une gare à {city}.",
    "{player} takes the ticket {a}–{b}.": "{player} prend le billet {a}–{b}.",
    "{player}'s station in {city}": "gare de {player} à {city}",
    "{player}'s ticket {a}–{b}": "billet {a}–{b} de {player}",
    "{player}'s ticket {a}–{b} removed": "billet {a}–{b} de {player} retiré",
    "{route} belongs to {owner}: select {owner} to release it.":
        "{route} appartient à {owner} : choisissez {owner} pour la libérer.",
    "{route} released": "{route} libérée",
    "{route} released (Undo brings it back).": "{route} libérée (Annuler la remet).",
    # errors of the web layer (common.py)
    "The request could not be read.": "La requête est illisible.",
    "This request is not allowed.": "Cette requête n'est pas permise.",
    "Nothing here: the game may have been deleted, or the link is incomplete.":
        "Rien ici : la partie a peut-être été supprimée, ou le lien est incomplet.",
    "This address does not take this kind of request.":
        "Cette adresse n'accepte pas ce genre de requête.",
    "Too much data: a game file is a few kilobytes at most.":
        "Trop de données : un fichier de partie fait au plus quelques kilo-octets.",
    "Send the game as JSON (Content-Type: application/json).":
        "Envoyez la partie en JSON (Content-Type: application/json).",
    "This page has expired: reload it and try again.":
        "Cette page a expiré : rechargez-la et recommencez.",
    "Requests from another site are refused.": "Les requêtes venant d'un autre site sont refusées.",
    "The request holds a NUL character, which no field takes: type the text again.":
        "La requête contient un caractère NUL, qu'aucun champ n'accepte : retapez le texte.",
    "The game name is too long ({n} characters, at most {max}).":
        "Le nom de la partie est trop long ({n} caractères, au plus {max}).",
    "The game name holds a control character (U+{code}): type it again.":
        "Le nom de la partie contient un caractère de contrôle (U+{code}) : retapez-le.",
    "Nothing here: the link may be incomplete or out of date.":
        "Rien ici : le lien est peut-être incomplet ou périmé.",
    "This cannot be done any more: go back and look again.":
        "Ce n'est plus possible : revenez en arrière et regardez de nouveau.",
    "The server failed on this page: go back to the games and try again.":
        "Le serveur a échoué sur cette page : revenez aux parties et réessayez.",
    "This page could not be shown.": "Cette page n'a pas pu être affichée.",
    # the headings of the error pages
    "Game not found": "Partie introuvable",
    "Page not found": "Page introuvable",
    "Page expired": "Page expirée",
    "Something is wrong with this request": "Cette requête est incorrecte",
    "Not allowed": "Non autorisé",
    "Not possible here": "Impossible ici",
    "Not possible any more": "Plus possible",
    "Too much data": "Trop de données",
    "Wrong kind of data": "Mauvais type de données",
    "Something went wrong": "Quelque chose s'est mal passé",
    "Error {status}": "Erreur {status}",
    "The body is not valid JSON.": "Le contenu n'est pas du JSON valide.",
    "The JSON holds text that is not valid Unicode (a lone surrogate).":
        "Le JSON contient du texte qui n'est pas de l'Unicode valide (un demi-code isolé).",
    "No connection: that tap was not recorded. Try again.":
        "Pas de connexion : cette touche n'a pas été enregistrée. Réessayez.",
    "The server failed: that tap was not recorded. Try again.":
        "Le serveur a échoué : cette touche n'a pas été enregistrée. Réessayez.",
})


FR.update({
    # the records page and the results' exports (records.py, bgstats.py)
    "Records": "Records",
    "Records of the table": "Records de la table",
    "The finished games made or opened on this device.":
        "Les parties terminées créées ou ouvertes sur cet appareil.",
    "Every game of this server (you are on the machine that runs it).":
        "Toutes les parties de ce serveur (vous êtes sur la machine qui le fait tourner).",
    "A game counts once its final round is triggered (a player down to 2 trains or fewer).":
        "Une partie compte une fois son dernier tour déclenché (un joueur à 2 wagons ou moins).",
    "No finished game yet.": "Aucune partie terminée pour l'instant.",
    "Best score per rule set": "Meilleur score par règle",
    "Players": "Joueurs",
    "Rule set": "Règle",
    "Wins": "Victoires",
    "Average": "Moyenne",
    "Best": "Meilleur",
    "Most tickets completed in a game": "Plus de billets réalisés en une partie",
    "Download the records (CSV)": "Télécharger les records (CSV)",
    "{count} game counted": "{count} partie comptée",
    "{count} games counted": "{count} parties comptées",
    "{count} game not finished is left out": "{count} partie non terminée n'est pas comptée",
    "{count} games not finished are left out": "{count} parties non terminées ne sont pas comptées",
    "{count} win": "{count} victoire",
    "{count} wins": "{count} victoires",
    "{count} game": "{count} partie",
    "{count} games": "{count} parties",
    "Log this game in BG Stats": "Enregistrer la partie dans BG Stats",
    "The game is not finished: it counts in the records and goes to BG Stats once its final "
    "round is triggered.":
        "La partie n'est pas terminée : elle comptera dans les records et pourra aller dans "
        "BG Stats une fois son dernier tour déclenché.",
    "Results and summary": "Résultats et résumé",
})
