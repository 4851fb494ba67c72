"""The scoring page's calculator in Chromium: the page's own scorer against every conformance
vector, a reader entering rounds in Danish and Hindi, and numbers written as the page writes them.

Expected values come from the Python engine (the vectors), from the catalogs' texts filled in by
hand, and from Babel (the page's numbers): none from the script under test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from support import ROOT

from rulesdoc.catalog import po
from rulesdoc.export.conformance import conformance
from rulesdoc.i18n.translate import catalog_path, discover_languages
from rulesdoc.localedata.cldr import Formatter
from rulesdoc.spec.rules import load_rules

from . import axe_gate, expected
from .conftest import Problems, site_languages, watched_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

# The page's own scorer: the module its calculator script imports, resolved from that script's URL
# (the same module instance the page runs), and the rules the page embeds.
RUN_VECTORS_JS = """async vectors => {
    const script = document.querySelector('script[src$="rulesdoc/calculator.mjs"]');
    const { score } = await import(new URL("scoring.mjs", script.src).href);
    const rules = JSON.parse(document.getElementById("rd-calc-data").textContent).rules;
    return vectors.map(vector => ({ id: vector.id, got: score(rules, vector.input) }));
}"""

FORMAT_JS = """async numbers => {
    const script = document.querySelector('script[src$="rulesdoc/calculator.mjs"]');
    const { formatNumber } = await import(script.src);
    const format = JSON.parse(document.getElementById("rd-calc-data").textContent).numbers;
    return numbers.map(n => formatNumber(n, format));
}"""

# A message the catalog lacks comes as {"en": text}: placed as text in an element marked English,
# as the page marks its own fallbacks (generator/i18n/translate.py FALLBACK_OPEN).
FALLBACK_JS = """async () => {
    const script = document.querySelector('script[src$="rulesdoc/calculator.mjs"]');
    const { Words } = await import(script.src);
    const words = new Words(JSON.parse(document.getElementById("rd-calc-data").textContent));
    const holder = document.createElement("p");
    holder.append(words.say({ en: "<b>Player</b> %(number)s" }, { number: "7" }), " ", words.say("Spiller %(number)s", { number: "2" }));
    return holder.innerHTML;
}"""

NUMBERS = [0, 5, 74, 999, 1000, 2500, 12500, 123456, 1234567]


def scoring_page(page: Page, site_url: str, code: str) -> None:
    response = page.goto(expected.page_url(site_url, code), wait_until="networkidle")
    assert response is not None and response.ok
    page.locator("#rd-calc form").wait_for()


def message(code: str, msgid: str, context: str | None = None) -> str:
    """A catalog's translation, as its translator wrote it (a plural message: its first form)."""
    loaded = po.load(catalog_path(ROOT / "locales", code), ROOT)
    found = loaded.catalog.get(msgid, context)
    assert found is not None and found.string, f"{code}: no translation of {msgid!r}"
    text = found.string[0] if isinstance(found.string, tuple) else found.string
    return " ".join(text.split())


def add_cards(page: Page, seat: int, codes: list[str]) -> None:
    for code in codes:
        page.select_option(f"#rd-calc-card-{seat}", code)
        page.click(f"#rd-calc-add-{seat}")


def enter_the_capped_danish_round(page: Page) -> str:
    """Two players, player 1 went out (the default), player 2 never opened and holds 49 points:
    capped at half the seed target, the line as the Danish catalog writes it (returned)."""
    page.select_option("#rd-calc-players", "2")
    page.uncheck("#rd-calc-opened-1")
    add_cards(page, 1, ["KH", "KS", "QD", "JC", "9H"])
    line = message("da", "%(sum)s, capped at %(cap)s (half the target)")
    want = line.replace("%(sum)s", "10 + 10 + 10 + 10 + 9 + 25 = 74").replace("%(cap)s", "50")
    assert seat_result(page, 1) == ("50", want)
    return want


def seat_result(page: Page, seat: int) -> tuple[str, str]:
    """A seat's shown points and its arithmetic line ("" where none shows)."""
    row = page.locator(f"#rd-calc-result li[data-seat='{seat}']")
    points = row.locator(".rd-calc-points").inner_text().strip()
    sums = row.locator(".rd-calc-sum")
    return points, (sums.inner_text().strip() if sums.count() else "")


def test_every_conformance_vector_through_the_page_module(
    page: Page, problems: Problems, site_url: str
) -> None:
    vectors: list[dict[str, Any]] = conformance(load_rules(ROOT / "rules.yaml", ROOT))["vectors"]
    assert len(vectors) >= 50
    scoring_page(page, site_url, "en")
    results = page.evaluate(RUN_VECTORS_JS, vectors)
    wrong = [
        f"{vector['id']}: expected {vector['expected']}, got {result['got']}"
        for vector, result in zip(vectors, results, strict=True)
        if json.loads(json.dumps(result["got"])) != vector["expected"]
    ]
    assert not wrong, "\n".join(wrong)
    problems.assert_none()


@pytest.mark.parametrize("code", ["en", "da", "hi", "pt"])
def test_numbers_as_the_page_writes_them(page: Page, site_url: str, code: str) -> None:
    language = next(lang for lang in discover_languages(ROOT / "locales", ROOT) if lang.code == code)
    babel = Formatter(language.locale)
    scoring_page(page, site_url, code)
    assert page.evaluate(FORMAT_JS, NUMBERS) == [babel.number(n) for n in NUMBERS]


def test_an_english_fallback_is_marked_and_stays_text(page: Page, site_url: str) -> None:
    scoring_page(page, site_url, "da")
    assert page.evaluate(FALLBACK_JS) == (
        '<span lang="en" class="rd-untranslated" dir="ltr">&lt;b&gt;Player&lt;/b&gt; 7</span> Spiller 2'
    )


# The worked examples' table: its first row, the example "an ace, a joker and a five are left".
FIRST_EXAMPLE_JS = """() => {
    const row = [...document.querySelectorAll("article table")].find(t => t.querySelector(".rd-hand")).tBodies[0].rows[0];
    return {situation: row.cells[0].innerText, sums: [...row.cells[2].querySelectorAll(".rd-sum")].map(s => s.innerText.trim())};
}"""


@pytest.mark.parametrize("code", ["da", "hi", "nl"])
def test_the_first_worked_example_reads_the_same_in_the_calculator(
    page: Page, site_url: str, code: str
) -> None:
    """The same round (the winner out; an opponent holds AH JK 5C): the same sentence, the same sum."""
    scoring_page(page, site_url, code)
    example = page.evaluate(FIRST_EXAMPLE_JS)
    add_cards(page, 1, ["AH", "JK", "5C"])
    sentence = page.locator("#rd-calc-result .rd-calc-sentences").inner_text()
    assert sentence and sentence in example["situation"], (sentence, example["situation"])
    assert seat_result(page, 1) == ("36", "11 + 20 + 5 = 36")
    assert example["sums"] == ["11 + 20 + 5 = 36"]


def test_several_seats_in_a_sentence_take_their_articles_in_portuguese(page: Page, site_url: str) -> None:
    """Three players, two never opened and over the cap: one sentence names both, each with the
    article the catalog gives a seat inside a sentence, the first one a capital."""
    scoring_page(page, site_url, "pt")
    page.select_option("#rd-calc-players", "3")
    for seat in (1, 2):
        page.uncheck(f"#rd-calc-opened-{seat}")
        add_cards(page, seat, ["KH", "KS", "QD", "QC", "JH", "JS", "9D", "8C"])  # 77 + 25 > 100
    seat = message("pt", "Player %(number)s", "seat in a sentence")
    assert seat.startswith("o ")
    names = f"{seat.replace('%(number)s', '2')} e {seat.replace('%(number)s', '3')}"
    sentence = message(
        "pt", "%(seats)s each pay the fixed cap: their hand value plus the surcharge is more than that."
    ).replace("%(seats)s", names)
    said = page.locator("#rd-calc-result .rd-calc-sentences").inner_text()
    assert said == sentence[:1].upper() + sentence[1:], said  # "O Jogador 2 e o Jogador 3 pagam…"


def test_a_reader_scores_a_round_in_danish(page: Page, problems: Problems, site_url: str) -> None:
    scoring_page(page, site_url, "da")
    assert page.locator("#rd-calc h2").inner_text() == message("da", "Score your round")
    enter_the_capped_danish_round(page)
    assert seat_result(page, 0) == ("0", "")
    sentence = message(
        "da", "%(seat)s pays half the target: their hand value plus the surcharge is more than that."
    )
    assert page.locator("#rd-calc-result .rd-calc-sentences").inner_text() == sentence.replace(
        "%(seat)s", message("da", "Player %(number)s", "seat in a sentence").replace("%(number)s", "2")
    )
    # Card names are the chips' names of the worked examples ("hjerter konge").
    chip = page.locator("#rd-calc-hand-1 [data-card='KH']")
    assert message("da", "king of hearts", "card") in chip.inner_text()
    # A third ace of hearts: two decks hold two. The reason shows in Danish, in the live region.
    add_cards(page, 1, ["AH", "AH", "AH"])
    result = page.locator("#rd-calc-result")
    assert result.get_attribute("aria-live") == "polite"
    assert result.inner_text().strip() == message(
        "da", "This round is not possible: two decks hold every card only twice."
    )
    assert axe_gate.run(page).lines("da/scoring.html, a round refused") == []
    # Removing one of them scores the round again: 49 + 22 + 25 = 96, still capped at 50.
    page.locator("#rd-calc-hand-1 li").filter(has=page.locator("[data-card='AH']")).first.locator(
        "button"
    ).click()
    assert seat_result(page, 1)[0] == "50"
    problems.assert_none()


def test_a_reader_keeps_a_game_in_hindi(page: Page, problems: Problems, site_url: str) -> None:
    scoring_page(page, site_url, "hi")
    # Three players: player 2 goes out; player 1 opened (5 + 6); player 3 never opened (a joker).
    page.select_option("#rd-calc-players", "3")
    page.check("#rd-calc-out-1")
    add_cards(page, 0, ["5C", "6D"])
    page.uncheck("#rd-calc-opened-2")
    add_cards(page, 2, ["JK"])
    assert seat_result(page, 0) == ("11", "5 + 6 = 11")
    assert seat_result(page, 1) == ("0", "")
    assert seat_result(page, 2) == ("45", "20 + 25 = 45")
    # Hand rummy needs nobody else opened: player 1 did, so the round is refused, in Hindi.
    page.check("#rd-calc-rummy")
    want = message("hi", "This round is not possible: with hand rummy, nobody else has opened.")
    assert page.locator("#rd-calc-result").inner_text().strip() == want
    page.uncheck("#rd-calc-opened-0")
    assert [seat_result(page, seat)[0] for seat in range(3)] == ["200", "0", "200"]
    # The round in the game: 200 for players 1 and 3 reaches the target of 200 for three players,
    # and player 2's 0 is the one lowest total: player 2 wins.
    page.click("#rd-calc-add-round")
    totals = page.locator("#rd-calc-sheet tfoot td").all_inner_texts()
    assert totals == ["200", "0", "200"]
    won = message("hi", "The game is over: %(player)s wins with the lowest total.")
    player = message("hi", "Player %(number)s").replace("%(number)s", "2")
    assert page.locator("#rd-calc-sheet .rd-calc-status").inner_text() == won.replace("%(player)s", player)
    # One more round after the end is refused, and the sheet keeps its one round.
    page.click("#rd-calc-add-round")
    assert message("hi", "The game is over: start a new game.") in page.locator("#rd-calc-sheet").inner_text()
    assert page.locator("#rd-calc-sheet tbody tr").count() == 1
    assert axe_gate.run(page).lines("hi/scoring.html, a game kept") == []
    problems.assert_none()


def test_a_tie_for_the_lowest_total_plays_one_more_round_in_dutch(
    page: Page, problems: Problems, site_url: str
) -> None:
    scoring_page(page, site_url, "nl")
    # A blocked round of three: players 1 and 2 tie for the lowest hand (a two each) and score 0;
    # player 3 never opened: 60 + 20 + 25 = 105, over the fixed cap of 100 (half the target of
    # 200 is 100 too: the fixed cap is the one named).
    page.select_option("#rd-calc-players", "3")
    page.check("#rd-calc-out-none")
    add_cards(page, 0, ["2C"])
    add_cards(page, 1, ["2D"])
    page.uncheck("#rd-calc-opened-2")
    add_cards(page, 2, ["KH", "KS", "QD", "QH", "JC", "JD", "JK"])
    capped = message("nl", "%(sum)s, capped at %(cap)s (the fixed cap)")
    sum_line = "10 + 10 + 10 + 10 + 10 + 10 + 20 + 25 = 105"
    assert seat_result(page, 2) == ("100", capped.replace("%(sum)s", sum_line).replace("%(cap)s", "100"))
    lowest = message("nl", "%(sum)s, the lowest hand value")
    assert seat_result(page, 0) == ("0", lowest.replace("%(sum)s", "2"))
    tie = message(
        "nl",
        "Nobody went out: the players tied for the lowest hand value all win the blocked round and score zero.",
    )
    assert page.locator("#rd-calc-result .rd-calc-sentences").inner_text().startswith(tie)
    # Twice: player 3 reaches the target (200), players 1 and 2 tie at 0: one more round.
    page.click("#rd-calc-add-round")
    assert page.locator("#rd-calc-sheet .rd-calc-status").count() == 0  # 100 is short of 200
    page.click("#rd-calc-add-round")
    assert page.locator("#rd-calc-sheet tfoot td").all_inner_texts() == ["0", "0", "200"]
    caption = message("nl", "The game ends when a player reaches %(target)s.").replace("%(target)s", "200")
    assert page.locator("#rd-calc-sheet caption").inner_text() == caption
    want = message(
        "nl", "The target is reached, but several players tie for the lowest total: one more round is played."
    )
    assert page.locator("#rd-calc-sheet .rd-calc-status").inner_text() == want
    # A new game empties the sheet.
    page.click("#rd-calc-new-game")
    assert page.locator("#rd-calc-sheet").inner_text().strip() == message("nl", "No round yet.")
    problems.assert_none()


def test_in_use_on_a_phone_nothing_scrolls_sideways(
    browser: Browser, problems: Problems, site_url: str
) -> None:
    """360 px, Portuguese (long card names), six players, a hand of many cards, a game sheet."""
    with watched_page(browser, problems, viewport={"width": 360, "height": 800}) as page:
        scoring_page(page, site_url, "pt")
        page.select_option("#rd-calc-players", "6")
        hands = [
            ["QD", "10S", "JK"],
            ["QH", "10H", "JK"],
            ["KD", "9S", "JK"],
            ["KC", "9C", "JK"],
            ["AH", "AS", "8D"],
        ]
        for seat, cards in enumerate(hands, 1):
            add_cards(page, seat, cards)
        page.click("#rd-calc-add-round")
        assert page.locator("#rd-calc-sheet tfoot td").all_inner_texts() == [
            "0",
            "40",
            "40",
            "39",
            "39",
            "30",
        ]
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page is {width} px wide at 360 px"
    problems.assert_none()


def calculator_state(page: Page) -> dict[str, Any]:
    """What the reader sees: the calculator's text and its controls' values."""
    return {
        "text": page.locator("#rd-calc").inner_text(),
        "players": page.input_value("#rd-calc-players"),
        "checked": page.eval_on_selector_all("#rd-calc input:checked", "inputs => inputs.map(i => i.id)"),
    }


def test_the_round_and_the_game_live_in_the_address(page: Page, problems: Problems, site_url: str) -> None:
    scoring_page(page, site_url, "da")
    before = page.evaluate("history.length")
    # A game of one round (player 2 out, player 3 never opened), then a round on the form.
    page.select_option("#rd-calc-players", "3")
    page.check("#rd-calc-out-1")
    add_cards(page, 0, ["5C", "6D"])
    page.uncheck("#rd-calc-opened-2")
    add_cards(page, 2, ["JK"])
    page.click("#rd-calc-add-round")
    add_cards(page, 0, ["KH", "10S"])
    page.check("#rd-calc-rummy")
    shown = calculator_state(page)
    assert page.evaluate("history.length") == before  # replaced, not pushed
    address = page.url
    assert "#calc=" in address, address
    page.reload(wait_until="networkidle")
    page.locator("#rd-calc form").wait_for()
    assert calculator_state(page) == shown
    assert page.locator("#rd-calc-sheet tfoot td").all_inner_texts() == ["11", "0", "45"]
    # The link shared: a new page shows the same round and game.
    other = page.context.new_page()
    problems.watch(other)
    other.goto(address, wait_until="networkidle")
    other.locator("#rd-calc form").wait_for()
    assert calculator_state(other) == shown
    other.close()
    problems.assert_none()


def test_a_link_pasted_into_the_open_page_shows_its_round(
    page: Page, problems: Problems, site_url: str
) -> None:
    """A #calc= address entered while the page is open (only its fragment changes: no reload,
    no load event) shows that round and game; a heading's fragment or a broken state does not
    touch the form."""
    scoring_page(page, site_url, "da")
    page.select_option("#rd-calc-players", "3")
    add_cards(page, 1, ["KH", "9C"])
    add_cards(page, 2, ["5C"])
    page.click("#rd-calc-add-round")
    page.uncheck("#rd-calc-opened-2")
    add_cards(page, 2, ["JK"])
    shared, shown = page.url, calculator_state(page)
    assert "#calc=" in shared
    page.click("#rd-calc-new-game")
    page.select_option("#rd-calc-players", "2")
    assert calculator_state(page) != shown
    page.evaluate("window.rdSamePage = true")  # gone if the page loads again
    page.goto(shared)  # as a reader pastes the link into the address bar
    page.wait_for_function("document.querySelectorAll('#rd-calc-sheet tbody tr').length === 1")
    assert page.evaluate("window.rdSamePage") is True
    assert calculator_state(page) == shown
    assert page.locator("#rd-calc-sheet tfoot td").all_inner_texts() == ["0", "19", "5"]
    assert seat_result(page, 2) == ("50", "5 + 20 + 25 = 50")
    # The form works on after it is drawn again: a card entered updates the result and the address.
    add_cards(page, 1, ["2H"])
    assert seat_result(page, 1) == ("21", "10 + 9 + 2 = 21")
    assert page.url != shared and "#calc=" in page.url
    entered = calculator_state(page)
    heading = page.evaluate("document.querySelector('article h2[id]').id")
    for fragment in (f"#{heading}", "#calc=1~0-oXX-o", "#calc=2~0-o-o"):
        page.evaluate("fragment => { location.hash = fragment; }", fragment)
        page.wait_for_function("fragment => location.hash === fragment", arg=fragment)
        assert calculator_state(page) == entered, fragment
    assert page.evaluate("window.rdSamePage") is True
    problems.assert_none()


HOSTILE_FRAGMENTS = [
    "#calc=1~0-o<img src=x onerror=document.title='x'>-o",
    "#calc=1~0-o-o" + "~0-o-o" * 600,  # more rounds than a game keeps
    "#calc=1~0-o" + ".AH" * 3000,  # longer than an address is read
    "#calc=1~0-o" + ".KH" * 109 + "-o",  # more cards than two decks
    "#calc=2~0-o-o",  # a version this page does not know
    "#calc=1~7-o-o",  # out: a seat the round does not have
    "#calc=1~0" + "-o" * 9,  # more players than the rules allow
    "#calc=1~0-oXX-o",  # no such card
    "#calc=1~0-x-o",
    "#calc=1",
    "#calc=%E0%A4%A",
    "#calc=1~__proto__-o-o~constructor",
]


def test_a_fragment_not_a_state_leaves_an_empty_calculator(
    page: Page, problems: Problems, site_url: str
) -> None:
    scoring_page(page, site_url, "en")
    empty = calculator_state(page)
    url = expected.page_url(site_url, "en")
    # The page's own fragment (a heading) is left alone until the reader changes the round.
    heading = page.evaluate("document.querySelector('article h2[id]').id")
    page.goto(f"{url}#{heading}", wait_until="networkidle")
    page.locator("#rd-calc form").wait_for()
    assert page.evaluate("location.hash") == f"#{heading}"
    assert calculator_state(page) == empty
    for fragment in HOSTILE_FRAGMENTS:
        page.goto("about:blank")
        page.goto(url + fragment, wait_until="networkidle")
        page.locator("#rd-calc form").wait_for()
        assert calculator_state(page) == empty, fragment
        assert page.locator("#rd-calc img").count() == 0
        assert page.title() != "x"
    problems.assert_none()


CONTROLS = "#rd-calc select, #rd-calc input, #rd-calc button"


def shown(page: Page, selector: str) -> list[bool]:
    return [item.is_visible() for item in page.locator(selector).all()]


def test_printing_prints_the_score_sheet_not_the_controls(page: Page, site_url: str) -> None:
    scoring_page(page, site_url, "nl")
    page.emulate_media(media="print")
    assert shown(page, "#rd-calc") == [False]  # no round in the game: nothing of it on paper
    page.emulate_media(media="screen")
    add_cards(page, 1, ["KH", "9C"])
    page.click("#rd-calc-add-round")
    assert all(shown(page, CONTROLS)) and shown(page, ".rd-calc-intro") == [True]
    page.emulate_media(media="print")
    assert not any(shown(page, CONTROLS)), "a control prints"
    assert shown(page, ".rd-calc-intro") == [False]
    assert not any(shown(page, ".rd-calc-round")), "the round on the form prints"
    assert shown(page, "#rd-calc-sheet table") == [True]
    assert page.locator("#rd-calc-sheet tfoot td").all_inner_texts() == ["0", "19"]
    assert shown(page, "#rd-calc-game-heading") == [True]


# Which of the calculator's two scripts the page runs: the module (over http) or the classic one.
RAN_JS = """() => ({
    module: document.querySelectorAll('script[type=module][src$="rulesdoc/calculator.mjs"]').length,
    classic: document.querySelectorAll('script[src$="rulesdoc/calculator-classic.js"]').length,
})"""


def test_opened_from_disk_the_calculator_scores_a_round_and_nothing_fails(
    page: Page, problems: Problems, site_url: str, built_site: Path
) -> None:
    scoring_page(page, site_url, "da")
    assert page.evaluate(RAN_JS) == {"module": 1, "classic": 0}  # over http: the page's module
    # Opened from disk (origin null: Chromium refuses module scripts), in Danish.
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto((built_site / "da" / "scoring.html").as_uri(), wait_until="load")
    page.locator("#rd-calc form").wait_for()
    assert page.evaluate(RAN_JS) == {"module": 0, "classic": 1}
    assert page.locator("#rd-calc form").count() == 1  # started once
    want = enter_the_capped_danish_round(page)
    # The address keeps the round there too.
    page.reload(wait_until="load")
    page.locator("#rd-calc form").wait_for()
    assert seat_result(page, 1) == ("50", want)
    page.wait_for_timeout(500)  # Material's sitemap and search requests start after the load
    # No request leaves the disk, and none fails: not the calculator's, nor the theme's (its
    # language switcher's sitemaps and its search index, which a file:// page cannot load).
    assert asked and [url for url in asked if not url.startswith("file://")] == []
    problems.assert_none()
    # The switcher still leads to the same page in another language, and the round stays behind.
    page.locator(".md-select .md-header__button").focus()
    page.locator(".md-select a[hreflang='nl']").click()
    page.wait_for_url("**/nl/scoring.html")
    assert page.url == (built_site / "nl" / "scoring.html").as_uri()
    page.locator("#rd-calc form").wait_for()
    problems.assert_none()


# The focused element and whether a reader sees where focus is: an outline, as the stylesheet
# draws for :focus-visible (a keyboard's focus), not "none" and not zero wide.
FOCUS_JS = """() => {
    const active = document.activeElement;
    const style = getComputedStyle(active);
    return {id: active.id, className: active.classList[0] ?? "", visible: active.matches(":focus-visible")
            && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0};
}"""


def focused(page: Page) -> str:
    """The focused control's id (or class), asserted to show its focus ring."""
    found = page.evaluate(FOCUS_JS)
    assert found["visible"], f"no visible focus on {found}"
    return str(found["id"] or found["className"])


def tab_to(page: Page, target: str, limit: int = 400) -> int:
    """Tab until the control ``target`` (an id) has focus; how many presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == target:
            return presses
    raise AssertionError(f"#{target} not reached in {limit} presses of Tab")


def test_by_keyboard_alone_with_visible_focus(page: Page, problems: Problems, site_url: str) -> None:
    """From the top of the page, Tab, arrows, Space and Enter alone: three players, a card for
    player 2, player 3 never opened with a joker, the round into the game, a card removed."""
    scoring_page(page, site_url, "da")
    tab_to(page, "rd-calc-players")
    assert focused(page) == "rd-calc-players"
    page.keyboard.press("ArrowDown")  # a closed select steps to the next option: 3 players
    assert page.input_value("#rd-calc-players") == "3"
    # The seats' controls follow in reading order, each with its focus ring.
    order = []
    for _ in range(3):
        page.keyboard.press("Tab")
        order.append(focused(page))
    assert order == ["rd-calc-opened-0", "rd-calc-card-0", "rd-calc-add-0"]
    page.keyboard.press("Tab")
    assert focused(page) == "rd-calc-opened-1"
    page.keyboard.press("Tab")
    page.keyboard.press("End")  # the picker's last card
    last = page.eval_on_selector(
        "#rd-calc-card-1", "select => select.options[select.options.length - 1].value"
    )
    assert page.input_value("#rd-calc-card-1") == last
    page.keyboard.press("Tab")
    assert focused(page) == "rd-calc-add-1"
    page.keyboard.press("Enter")
    assert page.locator(f"#rd-calc-hand-1 [data-card='{last}']").count() == 1
    page.keyboard.press("Tab")  # the card's remove button, named for the card
    assert focused(page) == "rd-calc-remove"
    page.keyboard.press("Tab")
    assert focused(page) == "rd-calc-opened-2"
    page.keyboard.press("Space")
    assert not page.is_checked("#rd-calc-opened-2")
    page.keyboard.press("Tab")
    page.keyboard.press("Home")  # the picker's first card
    first = page.eval_on_selector("#rd-calc-card-2", "select => select.options[0].value")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert page.locator(f"#rd-calc-hand-2 [data-card='{first}']").count() == 1
    # Who went out: a radio group, one Tab stop, arrows move the choice (player 1 stays).
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focused(page) == "rd-calc-out-0"
    points = [seat_result(page, seat)[0] for seat in range(3)]
    assert points[0] == "0" and points[1] != "0" and points[2] != "0", points
    tab_to(page, "rd-calc-add-round", limit=5)
    assert focused(page) == "rd-calc-add-round"
    page.keyboard.press("Enter")
    assert page.locator("#rd-calc-sheet tfoot td").all_inner_texts() == points
    # Removing a card by keyboard leaves focus on that seat's picker, not lost on the page.
    page.focus(f"#rd-calc-hand-1 li:has([data-card='{last}']) button")
    page.keyboard.press("Enter")
    assert page.locator(f"#rd-calc-hand-1 [data-card='{last}']").count() == 0
    assert page.evaluate("document.activeElement.id") == "rd-calc-card-1"
    problems.assert_none()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_in_use_no_accessibility_violation_in_any_language(
    browser: Browser, problems: Problems, site_url: str, built_site: Path, scheme: str
) -> None:
    """Every language the site offers, the calculator in use: a capped seat's sum and sentence,
    a game of one round, then a round refused: axe finds nothing (WCAG 2.0/2.1 A and AA)."""
    languages = site_languages(built_site)
    found: list[str] = []
    with watched_page(browser, problems, color_scheme=scheme) as page:
        for language in languages:
            code = language.root.rstrip("/") or "en"
            scoring_page(page, site_url, code)
            page.select_option("#rd-calc-players", "3")
            add_cards(page, 1, ["5C", "6D"])
            page.uncheck("#rd-calc-opened-2")
            add_cards(page, 2, ["KH", "KS", "QD", "QC", "JH", "JS", "9D", "8C"])
            page.click("#rd-calc-add-round")
            assert page.locator("#rd-calc-sheet tbody tr").count() == 1, code
            found += axe_gate.run(page).lines(f"{code}/scoring.html ({scheme}), a round and a game")
            add_cards(page, 1, ["5C", "5C"])  # a third five of clubs: refused
            assert page.locator("#rd-calc-result .rd-calc-error").count() == 1, code
            found += axe_gate.run(page).lines(f"{code}/scoring.html ({scheme}), a round refused")
    assert not found, "\n".join(found)
    problems.assert_none()


def test_without_javascript_the_page_is_as_before(
    browser: Browser, problems: Problems, site_url: str
) -> None:
    """No script: the calculator's block is empty and takes no room, no control shows, and the
    data block is not read as text; the worked examples and the rest of the page are there."""
    with watched_page(browser, problems, java_script_enabled=False) as page:
        page.goto(expected.page_url(site_url, "da"), wait_until="load")
        block = page.locator("#rd-calc")
        assert block.count() == 1 and block.evaluate("div => div.childElementCount") == 0
        assert block.evaluate("div => div.getBoundingClientRect().height") == 0
        assert page.locator("article select, article input, article button").count() == 0
        text = page.locator("article").inner_text()
        assert '"rules"' not in text and message("da", "Score your round") not in text
        assert message("da", "Round endings computed by the app") in text  # the examples' caption
        assert message("da", "The end of the game") in text  # the section after the calculator
    problems.assert_none()
