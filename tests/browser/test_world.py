"""A right-to-left page and a CJK page, in a real browser: the language issue's new scripts.

A copy of the project gets Hebrew (right-to-left), Arabic (right-to-left, its own digits
none: CLDR's Arabic writes Latin ones), Traditional Chinese (a script subtag, CJK
glyphs) and Japanese (no spaces between sentences, "〜") through `catalog init`, their theme chrome prefilled from Material and a few
headings translated, and is built strictly and served like the published site.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from support import copy_project
from support.newlang import build_site, fill

from rulesdoc.i18n import catalogs
from rulesdoc.site.local_server import serving

from . import axe_gate
from .conftest import Problems, site_languages, watched_page
from .test_accessibility import open_page
from .test_layout import EXAMPLES_JS, NARROW, WIDTHS_JS, _platform_fonts, phone_layout_problems
from .test_readme_images import CALCULATOR_VIEW, MAX_BYTES, README_IMAGES, calculator_picture

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

WORDS: dict[str, dict[str, str | tuple[str, ...]]] = {
    "he": {"Counting points": "ספירת נקודות", "In short": "בקצרה", "Permanent link": "קישור קבוע",
           "Made with %(name)s": "נבנה עם %(name)s", "404 - Not found": "404 - הדף לא נמצא",
           "Rami help": "עזרה ברמי"},
    "ar": {"Counting points": "حساب النقاط", "In short": "باختصار", "Permanent link": "رابط دائم",
           "Made with %(name)s": "صُنع باستخدام %(name)s", "404 - Not found": "404 - الصفحة غير موجودة",
           "Rami help": "مساعدة رامي",
           # The top of the scoring page, for the README's picture of it on a phone.
           "%(points)s point": ("%(points)s نقطة", "%(points)s نقطة", "%(points)s نقطة", "%(points)s نقاط",
                                "%(points)s نقطة", "%(points)s نقطة"),
           "The winner of the round scores zero points. Every other player scores the value of the cards left in their hand: the joker %(joker)s, the ace %(ace)s, the face cards %(face)s.":
               "الفائز في الجولة يسجّل صفر نقاط. ويسجّل كل لاعب آخر قيمة الأوراق المتبقية في يده: الجوكر %(joker)s، والآص %(ace)s، والصور %(face)s.",
           "The aim is to score as few points as possible: when someone reaches the target, the lowest total wins.":
               "الهدف هو تسجيل أقل عدد ممكن من النقاط: عندما يبلغ أحد اللاعبين الهدف، يفوز صاحب أدنى مجموع.",
           "The cards left in hand": "الأوراق المتبقية في اليد", "Card": "الورقة", "Points": "النقاط",
           "Joker": "الجوكر", "Ace": "الآص", "Jack, queen, king": "الولد والبنت والشايب",
           "Two to ten": "من 2 إلى 10", "the card's value": "قيمة الورقة",
           "Value of the cards left in hand at the end of the round": "قيمة الأوراق المتبقية في اليد عند نهاية الجولة",
           "Note: in hand, the ace and the joker cost more than when they are laid down.":
               "ملاحظة: الآص والجوكر في اليد أغلى منهما عند إنزالهما على الطاولة.",
           "An ace that was worth only one point at the low end of a sequence costs %(ace)s if it stays in hand.":
               "الآص الذي لا يساوي إلا نقطة واحدة في بداية السلسلة يكلّف %(ace)s إذا بقي في اليد.",
           # The calculator (test_the_calculator_runs_right_to_left); the rest of it for the README's
           # picture, with the round it shows (test_readme_calculator_in_arabic).
           "Number of players": "عدد اللاعبين", "Player %(number)s": "اللاعب %(number)s",
           "%(card)s costs dearly if it stays in hand.": "%(card)s يكلّف كثيرًا إذا بقي في اليد.",
           "Score your round": "احسب نقاط جولتك",
           "Enter each player's cards left in hand and who went out: the points show below, counted by the rules on this page.":
               "أدخل الأوراق المتبقية في يد كل لاعب ومن أنهى الجولة: تظهر النقاط أدناه، محسوبة وفق القواعد في هذه الصفحة.",
           "Has opened": "فتح", "Cards left in hand": "الأوراق المتبقية في اليد", "empty hand": "يد فارغة",
           "Card to add": "الورقة المراد إضافتها", "Add": "أضف", "Remove %(card)s": "أزل %(card)s",
           "Who went out?": "من أنهى الجولة؟", "Nobody: the round is blocked": "لا أحد: الجولة مغلقة",
           "Hand rummy": "رامي باليد", "Round points": "نقاط الجولة",
           # ... and where the page's own texts hold those words (check refuses English left in them).
           "Hand rummy with three players": "رامي باليد مع ثلاثة لاعبين",
           "%(sum)s, capped at %(cap)s (the fixed cap)": "%(sum)s، بحد أقصى %(cap)s (الحد الثابت)",
           "Round points are added up. The target rises with the number of players: %(per_opponent)s point per opponent.":
               tuple(f"تُجمع نقاط الجولات. يرتفع الهدف مع عدد اللاعبين: %(per_opponent)s {word} لكل خصم."
                     for word in ("نقطة", "نقطة", "نقطة", "نقاط", "نقطة", "نقطة")),
           "%(seat)s pays half the target: their hand value plus the surcharge is more than that.":
               "%(seat)s يدفع نصف الهدف: قيمة يده مع الغرامة الإضافية أكبر من ذلك.",
           "%(sum)s, capped at %(cap)s (half the target)": "%(sum)s، بحد أقصى %(cap)s (نصف الهدف)",
           "Keep the game": "تدوين نقاط اللعبة", "Add this round to the game": "أضف هذه الجولة إلى اللعبة",
           "New game": "لعبة جديدة", "Round %(number)s": "الجولة %(number)s", "Total": "المجموع",
           "The game ends when a player reaches %(target)s.": "تنتهي اللعبة عندما يبلغ أحد اللاعبين %(target)s.",
           "ace of clubs": "آص سباتي", "king of hearts": "شايب كبة", "king of spades": "شايب بستوني",
           "queen of diamonds": "بنت ديناري", "jack of clubs": "ولد سباتي", "nine of hearts": "تسعة كبة"},
    "zh-Hant": {"Counting points": "計算分數", "In short": "簡而言之", "Permanent link": "永久連結",
                "Made with %(name)s": "使用 %(name)s 製作", "404 - Not found": "404 - 找不到頁面",
                "Rami help": "拉米說明"},
    # Japanese: "〜" (a range, "2〜10") and sentences that follow one another without a space.
    "ja": {"Counting points": "点数の数え方", "In short": "要点", "Permanent link": "固定リンク",
           "Made with %(name)s": "%(name)s で作成", "404 - Not found": "404 - ページが見つかりません",
           "Rami help": "ラミーのヘルプ", "Two to ten": "2〜10", "%(points)s point": ("%(points)s点",),
           "The cards left in hand": "手札に残ったカード", "Card": "カード", "Points": "点数",
           "Joker": "ジョーカー", "Ace": "エース", "Jack, queen, king": "ジャック、クイーン、キング",
           "the card's value": "カードの数字", "Value of the cards left in hand at the end of the round":
               "ラウンド終了時に手札に残ったカードの点数",
           "The winner of the round scores zero points. Every other player scores the value of the cards left in their hand: the joker %(joker)s, the ace %(ace)s, the face cards %(face)s.":
               "ラウンドの勝者は0点です。ほかのプレイヤーは手札に残ったカードの点数を得点します。ジョーカーは%(joker)s、エースは%(ace)s、絵札は%(face)s。",
           "Note: in hand, the ace and the joker cost more than when they are laid down.":
               "注：エースとジョーカーは、場に出したときより手札に残したときのほうが高くつきます。",
           "An ace that was worth only one point at the low end of a sequence costs %(ace)s if it stays in hand.":
               "シーケンスの端で1点として使えるエースも、手札に残ると%(ace)s点になります。",
           "The aim is to score as few points as possible: when someone reaches the target, the lowest total wins.":
               "点数はできるだけ少なくするのが目標です。誰かが目標点に達したら、合計点の最も低い人が勝ちです。",
           "Every opponent pays the value of the cards left in their hand.":
               "相手は全員、手札に残ったカードの点数を払います。",
           # The calculator's sentence for one dear card (the page's example names two).
           "%(card)s costs dearly if it stays in hand.": "%(card)sは手札に残ると高くつきます。"},
}  # fmt: skip


@pytest.fixture(scope="session")
def world_site(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("world") / "project")
    for code, words in WORDS.items():
        fill(catalogs.init(project / "locales", code), theme="keep", words=words)
    site = project.parent / "site"
    result = build_site(project, site)
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{result.stdout}{result.stderr}", pytrace=False)
    return site


@pytest.fixture(scope="session")
def world_url(world_site: Path) -> Iterator[str]:
    with serving(world_site) as url:
        yield url


DIRECTION_JS = """() => {
    const box = s => { const e = document.querySelector(s); if (!e) return null;
                       const r = e.getBoundingClientRect(); return {left: r.left, right: r.right}; };
    return {html: document.documentElement.dir, body: getComputedStyle(document.body).direction,
            heading: getComputedStyle(document.querySelector("article h1")).textAlign,
            nav: box(".md-sidebar--primary"), content: box(".md-content"),
            chip: document.querySelector(".rd-card").dir};
}"""


@pytest.mark.parametrize("code", ["he", "ar"])
def test_a_right_to_left_page_runs_right_to_left(
    page: Page, problems: Problems, world_url: str, artifacts: Path, code: str
) -> None:
    page.goto(f"{world_url}{code}/scoring.html", wait_until="networkidle")
    found = page.evaluate(DIRECTION_JS)
    assert found["html"] == "rtl" and found["body"] == "rtl"
    assert found["heading"] in ("start", "right")
    # Material's right-to-left layout: the navigation is on the right of the content.
    assert found["nav"]["left"] >= found["content"]["left"], found
    assert found["chip"] == "auto"  # a card chip is isolated: it neither reorders nor is reordered
    assert page.locator("article h1").inner_text().startswith(WORDS[code]["Counting points"])
    page.screenshot(path=str(artifacts / f"scoring-{code}-rtl.png"), full_page=True)
    problems.assert_none()


CALCULATOR_JS = """() => {
    const box = s => document.querySelector(s).getBoundingClientRect();
    return {form: getComputedStyle(document.querySelector("#rd-calc form")).direction,
            label: box("label[for=rd-calc-players]"), select: box("#rd-calc-players"),
            isolated: document.querySelector("li[data-seat='1'] .rd-calc-sum bdi")?.textContent ?? null};
}"""


def test_the_calculator_runs_right_to_left(
    page: Page, problems: Problems, world_url: str, artifacts: Path
) -> None:
    """Arabic: the form from the right, its names in Arabic, its sum isolated in its own order."""
    page.goto(f"{world_url}ar/scoring.html", wait_until="networkidle")
    page.select_option("#rd-calc-players", "2")
    page.uncheck("#rd-calc-opened-1")
    for card in ["9H", "8C"]:  # never opened: 9 + 8 and the surcharge, under the cap of 50
        page.select_option("#rd-calc-card-1", card)
        page.click("#rd-calc-add-1")
    row = page.locator("#rd-calc-result li[data-seat='1']")
    assert row.locator("strong").inner_text() == "اللاعب 2"
    assert row.locator(".rd-calc-points").inner_text() == "42"
    found = page.evaluate(CALCULATOR_JS)
    assert found["form"] == "rtl"
    assert found["label"]["left"] > found["select"]["left"], found  # the label reads first: on the right
    assert found["isolated"] == "9 + 8 + 25 = 42"  # the sum keeps its own order
    page.locator("#rd-calc").screenshot(path=str(artifacts / "calculator-ar-rtl.png"))
    problems.assert_none()


def test_readme_calculator_in_arabic(
    browser: Browser, problems: Problems, world_url: str, artifacts: Path
) -> None:
    """The README's right-to-left picture: the Danish picture's round (test_readme_images.py), in
    Arabic: the second of two players never opened and is capped at half the target."""
    with watched_page(browser, problems, **CALCULATOR_VIEW) as page:
        page.goto(f"{world_url}ar/scoring.html", wait_until="networkidle")
        page.select_option("#rd-calc-players", "2")
        page.uncheck("#rd-calc-opened-1")
        for card in ["KH", "KS", "QD", "JC", "9H"]:
            page.select_option("#rd-calc-card-1", card)
            page.click("#rd-calc-add-1")
        row = page.locator("#rd-calc-result li[data-seat='1']")
        assert row.locator(".rd-calc-points").inner_text() == "50"
        assert (
            row.locator(".rd-calc-sum").inner_text()
            == "10 + 10 + 10 + 10 + 9 + 25 = 74، بحد أقصى 50 (نصف الهدف)"
        )
        assert page.locator("#rd-calc h2").inner_text() == "احسب نقاط جولتك"
        calculator_picture(page, artifacts, "calculator-ar")
    problems.assert_none()


def test_the_calculator_in_use_on_a_phone_right_to_left(
    browser: Browser, problems: Problems, world_url: str
) -> None:
    """360 px, Arabic: six players, hands of several cards, a game sheet: nothing scrolls sideways
    (a right-to-left page that overflows does so to the left: scrollX is checked too)."""
    with watched_page(browser, problems, viewport={"width": NARROW, "height": 800}) as page:
        page.goto(f"{world_url}ar/scoring.html", wait_until="networkidle")
        page.select_option("#rd-calc-players", "6")
        for seat, cards in enumerate([["QD", "10S", "JK"], ["KH", "KS", "QD", "JC", "9H"], ["AH", "AS"]], 1):
            for card in cards:
                page.select_option(f"#rd-calc-card-{seat}", card)
                page.click(f"#rd-calc-add-{seat}")
        for seat in (4, 5):
            page.select_option(f"#rd-calc-card-{seat}", "2C")
            page.click(f"#rd-calc-add-{seat}")
        page.click("#rd-calc-add-round")
        assert page.locator("#rd-calc-sheet tbody tr").count() == 1
        at = page.evaluate("({width: document.documentElement.scrollWidth, x: scrollX})")
        assert at["width"] <= NARROW and at["x"] == 0, f"the page is {at} at {NARROW} px"
    problems.assert_none()


def test_arabic_renders_in_a_real_font(page: Page, problems: Problems, world_url: str) -> None:
    page.goto(f"{world_url}ar/scoring.html", wait_until="networkidle")
    letters = ["ب", "ح", "ع", "ﻻ"]
    widths = page.evaluate(WIDTHS_JS, letters)
    assert all(width > 0 for width in widths) and len({round(w, 1) for w in widths}) > 1, (
        f"Arabic letters {widths}: boxes, no Arabic font? ({_platform_fonts(page, 'article h1')})"
    )
    problems.assert_none()


def test_a_cjk_page_renders_in_a_real_font(
    page: Page, problems: Problems, world_url: str, artifacts: Path
) -> None:
    page.goto(f"{world_url}zh-Hant/scoring.html", wait_until="networkidle")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert page.locator("article h1").inner_text().startswith("計算分數")
    assert page.get_attribute("input.md-search__input", "placeholder") == "搜尋"  # Material's, prefilled
    letters = ["計", "一", "數", "說"]
    widths = page.evaluate(WIDTHS_JS, letters)
    fonts = _platform_fonts(page, "article h1")
    # A missing glyph is a box; the fonts list names what drew the heading.
    assert all(width > 0 for width in widths), widths
    assert any("WenQuanYi" in font or "Micro Hei" in font for font in fonts), fonts
    page.screenshot(path=str(artifacts / "scoring-zh-Hant.png"), full_page=True)
    problems.assert_none()


def test_searching_chinese_finds_a_word_inside_a_sentence(page: Page, world_url: str) -> None:
    """No spaces between CJK words: the index is tokenized per character, so a word inside a
    heading still finds it."""
    page.goto(f"{world_url}zh-Hant/scoring.html", wait_until="networkidle")
    box = page.locator(".md-search__input")
    box.click()
    box.fill("分數")
    box.press("End")  # Material reads the query on keyup
    try:
        page.wait_for_selector(".md-search-result__item", timeout=10_000)
    except Exception:
        pytest.fail(f"no result: {page.locator('.md-search-result__meta').inner_text()!r}", pytrace=False)
    titles = page.locator(".md-search-result__item").all_inner_texts()
    assert any("計算分數" in title for title in titles), titles


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_accessibility_gate_holds_for_the_new_scripts(
    browser: Browser, problems: Problems, world_site: Path, world_url: str, scheme: str
) -> None:
    """axe-core's WCAG 2.1 AA rules on every page of the right-to-left and CJK languages."""
    languages = [language for language in site_languages(world_site) if language.tag in WORDS]
    assert {language.tag for language in languages} == set(WORDS)
    found: list[str] = []
    with watched_page(browser, problems, color_scheme=scheme) as page:
        for language in languages:
            for path in language.pages(world_site):
                open_page(page, world_url + path, scheme)
                result = axe_gate.run(page)
                assert "color-contrast" in result.applied, path
                found += result.lines(f"{path} ({scheme})")
    assert not found, "\n".join(found)
    problems.assert_none()


# Every character a page shows, from its text (the theme's icons are drawn, not written).
TEXT_JS = """() => document.body.innerText + document.title"""
FONT_FOLDERS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))


@functools.cache
def installed_characters() -> frozenset[int]:
    """Every character some installed font has a glyph for (fontTools reads their cmaps)."""
    from fontTools.ttLib import TTCollection, TTFont

    covered: set[int] = set()
    for folder in FONT_FOLDERS:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            suffix = path.suffix.lower()
            if suffix not in (".ttf", ".otf", ".ttc", ".otc"):
                continue
            fonts = TTCollection(path).fonts if suffix in (".ttc", ".otc") else [TTFont(path, lazy=True)]
            for font in fonts:
                cmap = font.getBestCmap() if "cmap" in font else None
                covered.update(cmap or ())
    return frozenset(covered)


def test_every_character_of_the_new_scripts_pages_has_a_glyph(
    page: Page, problems: Problems, world_site: Path, world_url: str
) -> None:
    """No missing-glyph box: the installed fonts cover every character the pages show ("〜" was
    one: the CJK font first installed for the tests lacks it)."""
    covered = installed_characters()
    missing: dict[str, set[str]] = {}
    for language in site_languages(world_site):
        if language.tag not in WORDS:
            continue
        for path in language.pages(world_site):
            page.goto(world_url + path, wait_until="networkidle")
            text = page.evaluate(TEXT_JS)
            gaps = {ch for ch in text if not ch.isspace() and ch.isprintable() and ord(ch) not in covered}
            if gaps:
                missing[path] = gaps
    assert not missing, {path: "".join(sorted(chars)) for path, chars in missing.items()}
    problems.assert_none()


def test_japanese_sentences_follow_one_another_without_a_space(page: Page, world_url: str) -> None:
    page.goto(f"{world_url}ja/scoring.html", wait_until="networkidle")
    text = page.locator("article").inner_text()
    assert "目標です。誰か" in text  # inside one message
    assert "。点数はできるだけ" in text, text[:400]  # two messages, one after the other


# How wide the page is, and where the language menu is when open (its box, or null).
PHONE_JS = """() => {
    const menu = document.querySelector(".md-select__inner");
    const r = menu && menu.getBoundingClientRect();
    return {pageWidth: document.documentElement.scrollWidth, innerWidth, scrollX,
            menu: r && [r.left, r.top, r.right, r.bottom]};
}"""


def mirrored(found: Any, width: float) -> Any:
    """A right-to-left page's boxes ([left, top, right, bottom]) as in a mirror: its line starts
    on the left then, so that the left-to-right checks of the layout apply."""
    if isinstance(found, list) and len(found) == 4 and all(isinstance(x, (int, float)) for x in found):
        return [width - found[2], found[1], width - found[0], found[3]]
    if isinstance(found, list):
        return [mirrored(item, width) for item in found]
    if isinstance(found, dict):
        return {key: mirrored(value, width) for key, value in found.items()}
    return found


@pytest.mark.parametrize("code", ["ar", "ja"])
def test_no_sideways_scrolling_on_a_phone_right_to_left_or_cjk(
    browser: Browser, problems: Problems, world_site: Path, world_url: str, artifacts: Path, code: str
) -> None:
    """At 360 px no page scrolls sideways, with the language menu shut or open (it opens
    inwards from its button, at the header's end in either direction), and the worked examples
    read as blocks."""
    language = next(language for language in site_languages(world_site) if language.tag == code)
    found: list[str] = []
    with watched_page(
        browser, problems, viewport={"width": NARROW, "height": 640}, device_scale_factor=1
    ) as page:
        for path in language.pages(world_site):
            page.goto(world_url + path, wait_until="networkidle")
            shut = page.evaluate(PHONE_JS)
            page.locator(".md-select .md-header__button").focus()
            opened = page.evaluate(PHONE_JS)
            for state, at in (("shut", shut), ("open", opened)):
                if at["pageWidth"] > at["innerWidth"] + 1 or at["scrollX"] != 0:
                    found.append(
                        f"{path}, menu {state}: {at['pageWidth']} px wide, scrolled by {at['scrollX']}"
                    )
            menu = opened["menu"]
            if menu is None or menu[0] < -1 or menu[2] > opened["innerWidth"] + 1:
                found.append(f"{path}: the open language menu {menu} is not within the screen")
            if path.endswith("scoring.html"):
                page.locator(".md-select .md-header__button").blur()
                layout = page.evaluate(EXAMPLES_JS)
                if page.evaluate("document.documentElement.dir") == "rtl":
                    layout = mirrored(layout, layout["innerWidth"])
                found += phone_layout_problems(layout, f"{path} at {NARROW} px")
                page.evaluate("window.scrollTo(0, 0)")  # the page's top: its heading, "In short", a table
                page.wait_for_timeout(300)  # Material's header reacts to the scroll
                shot = artifacts / f"readme-phone-{code}.png"
                page.screenshot(path=shot)
    assert not found, "\n".join(found)
    assert shot.stat().st_size <= MAX_BYTES, f"{shot.name} is too big to commit"
    if os.environ.get("RULESDOC_README_IMAGES") == "1":  # the README's pictures (test_readme_images.py)
        shutil.copyfile(shot, README_IMAGES / f"phone-{code}.png")
    assert (README_IMAGES / f"phone-{code}.png").is_file(), (
        f"run with RULESDOC_README_IMAGES=1 to create docs/readme/phone-{code}.png"
    )
    problems.assert_none()
