"""The same table in French: a French phone, or the language switch, gets French pages."""

import re

from playwright.sync_api import expect


def test_a_french_phone_plays_a_whole_game_in_french(new_table, shot):
    table = new_table(locale="fr-FR")
    phone = table.page
    phone.goto("/")
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    expect(phone.locator("[data-new-game]")).to_have_text("Nouvelle partie")
    shot(phone, "accueil")

    phone.locator("[data-new-game]").tap()
    expect(phone.locator("form.new-game legend").first).to_have_text("Carte et règles")
    expect(phone.locator('form.new-game button[type="submit"]')).to_have_text(
        "Commencer la partie")
    shot(phone, "nouvelle-partie")
    game_id = table.new_game("europe", [("Anne", "red"), ("Bruno", "blue")])

    expect(phone.locator("[data-results-link]")).to_have_text("Résultats")
    expect(phone.locator("[data-undo]")).to_contain_text("Annuler")
    expect(phone.locator(".modes")).to_contain_text("Gares")
    expect(table.player_button("Anne")).to_contain_text("45 wagons")

    table.tap_lane("frankfurt--paris")
    expect(table.message()).to_contain_text(
        "Anne prend Frankfurt–Paris (orange) : +4 points, il reste 42 wagons.")
    shot(phone, "anne-prend-frankfurt-paris")

    table.select("Bruno")
    table.tap_lane("frankfurt--paris--2")
    error = table.message().locator("[data-error]")
    expect(error).to_contain_text("À 2 joueurs, une seule voie")
    shot(phone, "voie-fermee")

    table.tap_lane("berlin--frankfurt")
    expect(table.lane("berlin--frankfurt")).to_have_class(re.compile(r"\bown-blue\b"))
    phone.locator("[data-undo]").tap()
    expect(table.message()).to_contain_text("Annulé : Bruno prend Berlin–Frankfurt (noir).")
    expect(table.lane("berlin--frankfurt")).not_to_have_class(re.compile(r"\bown\b"))
    shot(phone, "annule")

    phone.locator("[data-results-link]").tap()
    phone.wait_for_url(f"**/games/{game_id}/results")
    expect(phone.locator("h1")).to_have_text("Résultats")
    expect(phone.locator("[data-winners]")).to_have_text("Anne gagne !")
    expect(phone.locator('[data-show-path="Anne"]')).to_have_text("Voir le plus long chemin")
    totals = {p["name"]: p["total"] for p in table.score(game_id)["players"]}
    for name, total in totals.items():
        expect(phone.locator(f'[data-player="{name}"] [data-total]')).to_have_attribute(
            "data-total", str(total))
    shot(phone, "resultats")
    assert phone.problems == []


def test_the_language_switch_turns_an_english_phone_french_and_back(phone, table, shot):
    game_id = table.new_game("usa", [("Ann", "red"), ("Bob", "blue")])
    expect(phone.locator("[data-results-link]")).to_have_text("Results")

    phone.locator('form.lang button[value="fr"]').tap()
    expect(phone.locator("[data-results-link]")).to_have_text("Résultats")
    assert f"/games/{game_id}" in phone.url
    expect(phone.locator('form.lang button[value="fr"]')).to_have_attribute(
        "aria-pressed", "true")
    shot(phone, "switched-to-french")

    phone.goto("/")  # the choice is remembered across pages
    expect(phone.locator("[data-new-game]")).to_have_text("Nouvelle partie")

    phone.locator('form.lang button[value="en"]').tap()
    expect(phone.locator("[data-new-game]")).to_have_text("New game")


def test_a_tie_is_explained_in_french_on_the_results(new_table, shot):
    table = new_table(locale="fr-FR")
    game_id = table.api_game({
        "variant": "europe",
        "players": [{"name": "Anne", "color": "red"}, {"name": "Bruno", "color": "blue"}],
    })
    table.page.goto(f"/games/{game_id}/results")
    expect(table.page.locator("[data-winners]")).to_contain_text("Anne, Bruno")
    tiebreak = table.page.locator("[data-tiebreak]")
    expect(tiebreak).to_contain_text("Anne et Bruno sont à égalité avec 12 points")
    expect(tiebreak).to_contain_text("ils se partagent la victoire")
    assert " and " not in tiebreak.inner_text()
    shot(table.page, "egalite")
