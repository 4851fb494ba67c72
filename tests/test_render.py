"""The English page's shape, and what a new worked example costs the translators."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from support import PUBLISHED, ROOT, SEED_RULES, copy_project, lint_error_lines

from rulesdoc.cli.render_checked import render_all
from rulesdoc.engine import scoring as engine
from rulesdoc.engine.cards import Card, parse_card
from rulesdoc.engine.model import CardValues, Example, Hand, Reason, Round, Rules
from rulesdoc.errors import RulesdocError
from rulesdoc.i18n.translate import Translator, discover_languages
from rulesdoc.io.project import Project
from rulesdoc.localedata.cldr import Formatter
from rulesdoc.pages.render import Workspace
from rulesdoc.pages.view import ExampleView, dearest_kinds, example_view
from rulesdoc.spec.rules import load_rules


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(parse_card(code) for code in codes.split())


BLOCKED_EXAMPLE = """
  - id: blocked-round
    title: The draw pile ran out
    illustrates: blocked_winner
    situation:
      hands:
        - cards: [2C, 3D]
        - cards: [4H]
        - cards: [KS, QS]
          opened: false
"""


def test_english_page_has_the_users_sections_in_order(seed_project: Project) -> None:
    page = next(p.text for p in render_all(seed_project, ["en"]) if p.name == "scoring.md")
    headings = re.findall(r"^#+ (.+)$", page, re.M)
    assert headings == [
        "Counting points",
        "In short",
        "The cards left in hand",
        "Three special cases",
        "Hand rummy",
        "The player who never opened",
        "The blocked round",
        "Worked examples",
        "The end of the game",
    ]
    captions = re.findall(r"^/// table-caption\n(.+)\n///$", page, re.M)
    assert captions == [
        "Value of the cards left in hand at the end of the round",
        "Round endings computed by the app",
        "Game target by number of players",
    ]


def test_a_new_example_needs_only_its_title_translated(tmp_path: Path, seed_root: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(SEED_RULES.read_text("utf-8") + BLOCKED_EXAMPLE, "utf-8")
    project = Project(rules, seed_root / "templates", seed_root / "locales")
    workspace = Workspace.load(project)
    results = workspace.render(workspace.languages)
    pages = [p for result in results.values() for p in result.pages if p.name == "scoring.md"]
    assert sorted(p.lang for p in pages) == sorted(PUBLISHED)
    for page in pages:
        # Card names, labels and the blocked-round explanation are all in the catalogs.
        missed = [miss.key[0] for miss in results[page.lang].missed]
        assert missed == ([] if page.lang == "en" else ["The draw pile ran out"]), page.lang
        row = next(line for line in page.text.splitlines() if "The draw pile ran out" in line)
        # 2C+3D = 5, 4H = 4 (lowest: wins), KS+QS = 20 never opened: 20+25 = 45 ≤ cap 100.
        assert re.findall(r"\*\*[\u00a0 ](\d+)", row.split(" | ")[-1]) == ["5", "0", "45"]
        if page.lang == "en":  # one loser pays their hand: the sentence says "player", not "players"
            assert "The player who opened pays the value of their hand." in row
            assert (
                "<small>4, the lowest hand value</small>" in row and "<small>10 + 10 + 25 = 45</small>" in row
            )


def test_this_checkouts_pages_show_the_engines_scores(project: Project) -> None:
    """rules.yaml as it is, whatever its values and examples: each example's row, in every
    language, shows the scores the engine computes from it."""
    rules = load_rules(project.rules)
    languages = {language.code: language for language in discover_languages(project.locales)}
    pages = [page for page in render_all(project) if page.name == "scoring.md"]
    assert sorted(page.lang for page in pages) == sorted(PUBLISHED)
    for page in pages:
        number = Formatter(languages[page.lang].locale).number
        rows = [line for line in page.text.splitlines() if line.startswith("| **")]
        assert len(rows) == len(rules.examples), page.lang
        for row, example in zip(rows, rules.examples, strict=True):
            shown = re.findall(r'class="rd-points"[^>]*>\*\*[^*]+\*\*[\u00a0 ](.+?)</span>', row)
            expected = [number(score) for score in engine.score_round(rules, example.situation).scores]
            assert shown == expected, (page.lang, example.id)


# ---------------------------------------------------------------- explanations: reasons, not free text


def english_view(rules: Rules, example: Example) -> ExampleView:
    language = discover_languages(ROOT / "locales")[0]
    return example_view(rules, example, Translator.load(language), Formatter(language.locale))


def blocked_example() -> Example:
    hands = (Hand(cards("2C 3D")), Hand(cards("4H")), Hand(cards("KS QS"), opened=False))
    return Example("blocked-round", "The draw pile ran out", Round(hands, None))


def test_each_example_is_explained_by_its_reasons_in_order() -> None:
    rules = load_rules(SEED_RULES)
    views = [english_view(rules, example) for example in rules.examples]
    HV, CF, CTS, HR = Reason.HAND_VALUE, Reason.CAPPED_FIXED, Reason.CAPPED_TARGET_SHARE, Reason.HAND_RUMMY
    assert [view.explanations for view in views] == [(HV,), (CTS,), (HV, CF), (HR,)]
    # Only where hand value alone decides do the dear cards explain: joker 20 and ace 11 > face 10.
    assert [view.dearest for view in views] == [("JK", "A"), (), (), ()]
    # A blocked round: the lowest hand wins, the opened loser pays, the closed one is surcharged.
    blocked = english_view(rules, blocked_example())
    assert blocked.explanations == (Reason.BLOCKED_WINNER, HV, Reason.NEVER_OPENED)


def test_dearest_cards_are_those_worth_more_than_a_face_card() -> None:
    rules = load_rules(SEED_RULES)
    hand = list(cards("5C AH JK 10D 2S JK KH"))
    # Standard values: joker 20, ace 11 above the face cards' 10; a ten is worth no more.
    assert dearest_kinds(rules, hand) == ("JK", "A")
    cheap_faces = dataclasses.replace(rules, card_values=CardValues(joker=1, ace=1, face=4))
    assert dearest_kinds(cheap_faces, hand) == ("10", "5")  # 10 and 5 > 4; the 2, joker and ace are not
    equal = dataclasses.replace(rules, card_values=CardValues(joker=11, ace=11, face=10))
    assert dearest_kinds(equal, hand) == ("JK", "A")  # equal values: the value table's order
    ace_first = dataclasses.replace(rules, card_values=CardValues(joker=15, ace=30, face=10))
    assert dearest_kinds(ace_first, hand) == ("A", "JK")
    assert dearest_kinds(dataclasses.replace(rules, card_values=CardValues(20, 11, 25)), hand) == ()


def explanation(page: str, title: str) -> str:
    row = next(line for line in page.splitlines() if f"**{title}**" in line)
    return row.split(" | ")[0].split("<br>", 1)[1]


def test_the_first_example_names_only_the_cards_that_are_dear(tmp_path: Path, seed_root: Path) -> None:
    text = SEED_RULES.read_text("utf-8")
    title = "An ace, a joker and a five are left"
    pages = {}
    for name, values in {"seed": (20, 11, 10), "cheap ace": (20, 1, 10), "dear faces": (20, 11, 25)}.items():
        joker, ace, face = values
        changed = re.sub(
            r"joker: 20\n  ace: 11\n  face: 10", f"joker: {joker}\n  ace: {ace}\n  face: {face}", text
        )
        changed = changed.replace("    illustrates: hand_value\n", "")
        path = tmp_path / f"{name}.yaml"
        path.write_text(changed, "utf-8")
        project = Project(path, seed_root / "templates", seed_root / "locales")
        pages[name] = next(p.text for p in render_all(project, ["en"]) if p.name == "scoring.md")
    assert (
        explanation(pages["seed"], title)
        == "The joker costs dearly if it stays in hand, and so does the ace."
    )
    assert explanation(pages["cheap ace"], title) == "The joker costs dearly if it stays in hand."
    # Nothing is dearer than a face card: the plain rule, and no word of dear cards.
    assert (
        explanation(pages["dear faces"], title)
        == "Every opponent pays the value of the cards left in their hand."
    )


def test_a_note_is_the_users_own_words_after_the_explanation(tmp_path: Path, seed_root: Path) -> None:
    rules = tmp_path / "rules.yaml"
    note = "    note: Keep *this* | in mind.\n"
    text = SEED_RULES.read_text("utf-8")
    rules.write_text(
        text.replace("    illustrates: hand_value\n", "    illustrates: hand_value\n" + note), "utf-8"
    )
    project = Project(rules, seed_root / "templates", seed_root / "locales")
    page = next(p for p in render_all(project, ["en"], strict=True) if p.name == "scoring.md")
    assert explanation(page.text, "An ace, a joker and a five are left") == (
        r"The joker costs dearly if it stays in hand, and so does the ace. Keep \*this\* \| in mind."
    )


def test_a_misspelt_reason_in_a_template_fails_the_render(tmp_path: Path) -> None:
    project_root = copy_project(tmp_path / "project")
    template = project_root / "templates" / "scoring.md.j2"
    text = template.read_text("utf-8")
    assert text.count("reason == R.HAND_RUMMY") == 2
    template.write_text(text.replace("reason == R.HAND_RUMMY", "reason == R.HAND_RUMY", 1), "utf-8")
    with pytest.raises(RulesdocError, match=r"HAND_RUMY"):
        render_all(Project.at(project_root), ["en"])


def test_the_reviews_wording_findings_stay_fixed(tmp_path: Path, seed_root: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(SEED_RULES.read_text("utf-8") + BLOCKED_EXAMPLE, "utf-8")
    pages = {
        (p.lang, p.name): p.text
        for p in render_all(Project(rules, seed_root / "templates", seed_root / "locales"), strict=False)
    }
    # Malay: the surcharge sentence says "mata" once ("ditambah mata tambahan"), not "mata tambahan
    # sebanyak 25 mata"; the rule says "ditambah 25 mata, tetapi jumlahnya", not "25 mata tambahan".
    row = next(line for line in pages["ms", "scoring.md"].splitlines() if "ditambah mata tambahan." in line)
    sentence = re.search(r"Pemain \d+ dikenakan nilai kad[^.]*\.", row)
    assert sentence is not None and sentence.group().count("mata") == 1, row
    assert "ditambah 25 mata, tetapi jumlahnya" in pages["ms", "scoring.md"]
    # Danish: "beregnes … af den samme pointberegning" said the computing twice.
    assert "pointberegning" not in pages["da", "index.md"]
    # Portuguese: the status column over percentages is "Progresso", not the masculine "Concluído".
    header = next(
        line for line in pages["pt", "translation-status.md"].splitlines() if line.startswith("| Língua")
    )
    assert header.rstrip(" |").endswith("Progresso"), header
    # The second native review: Malay ties are "seri pada"; Hindi says "तय सीमा" for the fixed
    # cap everywhere and heads the examples "गणना के उदाहरण"; a cap "caps", it does not "reduce".
    assert "seri pada nilai kad" in pages["ms", "scoring.md"]
    hindi = pages["hi", "scoring.md"]
    assert "## गणना के उदाहरण" in hindi and "तय अधिकतम सीमा" not in hindi and "अधिकतम सीमा" not in hindi
    assert "कुल अंक न" not in hindi  # "कुल अंक न 100 अंक से अधिक": अंक twice
    for lang, reduced in (
        ("ms", "dikurangkan"),
        ("da", "nedsat til"),
        ("nl", "verlaagd tot"),
        ("pt", "reduzido a"),
    ):
        assert reduced not in pages[lang, "scoring.md"], lang
    # The home page no longer says the app runs this engine: it has its own code.
    assert "same scoring engine that the app uses" not in pages["en", "index.md"]


def test_the_third_reviews_wording_findings_stay_fixed(tmp_path: Path, seed_root: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(SEED_RULES.read_text("utf-8") + BLOCKED_EXAMPLE, "utf-8")
    pages = {
        (p.lang, p.name): p.text
        for p in render_all(Project(rules, seed_root / "templates", seed_root / "locales"), strict=False)
    }
    # The home page agrees with the examples' caption ("computed by the app") instead of saying
    # that only this help's engine computes the numbers.
    assert "is what the app computes from the rules" in pages["en", "index.md"]
    assert "computed from the rules by this help" not in pages["en", "index.md"]
    # Danish: "pointmotor" is not a Danish word; the engine is a "beregningsmotor".
    assert "beregningsmotor" in pages["da", "index.md"] and "pointmotor" not in pages["da", "index.md"]
    # Dutch: help pages explain (plural), and tied players have "dezelfde" lowest value.
    assert "Deze helppagina's leggen uit" in pages["nl", "index.md"]
    assert "samen de laagste handwaarde" not in pages["nl", "scoring.md"]
    assert "dezelfde laagste handwaarde" in pages["nl", "scoring.md"]
    # Hindi: not "checked against = in opposition to"; पृष्ठ as in the theme strings, not पन्ना.
    assert "विरुद्ध" not in pages["hi", "index.md"]
    for name in ("index.md", "translation-status.md"):
        assert "पन्न" not in pages["hi", name], name
    # Malay: "berdasarkan peraturan", and no "adalah" before an adjective.
    assert "berdasarkan peraturan" in pages["ms", "index.md"]
    assert "daripada peraturan" not in pages["ms", "index.md"]
    assert "adalah sama" not in pages["ms", "scoring.md"]
    # Portuguese: "ultrapassa esse valor", never a dangling feminine "a ultrapassa".
    assert "a ultrapassa" not in pages["pt", "scoring.md"]


def test_a_sentence_opening_with_a_fallback_keeps_its_capital_and_its_direction(project_copy: Path) -> None:
    # Danish lacks "the joker": the sentence opens with the English fallback, whose mark starts
    # with "<"; the capital belongs on the text inside ("The joker costs…"), not on the "<".
    from babel.messages.pofile import read_po, write_po

    from rulesdoc.i18n.translate import FALLBACK_CLOSE, FALLBACK_OPEN

    path = project_copy / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    catalog.get("the joker", "card kind").string = ""
    with path.open("wb") as handle:
        write_po(handle, catalog)
    page = next(p for p in render_all(Project.at(project_copy), ["da"]) if p.name == "scoring.md").text
    assert f"{FALLBACK_OPEN}The joker{FALLBACK_CLOSE} koster" in page
    assert f"{FALLBACK_OPEN}the joker" not in page
    # English inside a right-to-left page reads left to right, isolated from the Arabic around it.
    assert 'dir="ltr"' in FALLBACK_OPEN


def test_capitalise_first_skips_the_fallback_mark() -> None:
    from rulesdoc.i18n.translate import FALLBACK_CLOSE, FALLBACK_OPEN, capitalise_first

    assert capitalise_first("jokeren koster") == "Jokeren koster"
    assert (
        capitalise_first(f"{FALLBACK_OPEN}the joker{FALLBACK_CLOSE}")
        == f"{FALLBACK_OPEN}The joker{FALLBACK_CLOSE}"
    )
    assert capitalise_first("") == ""
    # The screenshots' mark around a fallback: every opening tag is skipped, and only tags
    # (a catalog's "<" is escaped, so it never reaches here as one).
    assert (
        capitalise_first(f'<span data-rd-msg="3">{FALLBACK_OPEN}the')
        == f'<span data-rd-msg="3">{FALLBACK_OPEN}The'
    )
    assert capitalise_first("&lt;b&gt; x") == "&lt;b&gt; x"


def test_a_page_with_no_translated_sentence_says_it_is_all_in_english(project_copy: Path) -> None:
    from babel.messages.pofile import read_po, write_po

    path = project_copy / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    index_messages = [
        m for m in catalog if m.id and any(f == "templates/index.md.j2" for f, _ in m.locations)
    ]
    assert len(index_messages) >= 4  # the home page's heading, paragraphs and links
    for message in index_messages:
        message.string = ""
    with path.open("wb") as handle:
        write_po(handle, catalog)
    pages = {p.name: p.text for p in render_all(Project.at(project_copy), ["da"]) if p.lang == "da"}
    whole = "Denne side er endnu ikke oversat og vises på engelsk."
    parts = "Dele af denne side er endnu ikke oversat og vises på engelsk."
    assert whole in pages["index.md"] and parts not in pages["index.md"]
    # The scoring page still has Danish sentences: only its blanked heading is English.
    assert parts in pages["scoring.md"] and whole not in pages["scoring.md"]


def test_the_status_page_lists_each_untranslated_message_with_its_line_and_note(project_copy: Path) -> None:
    path = project_copy / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    text = path.read_text("utf-8")
    assert 'msgid "In short"\nmsgstr "Kort fortalt"\n' in text
    path.write_text(
        text.replace('msgid "In short"\nmsgstr "Kort fortalt"\n', 'msgid "In short"\nmsgstr ""\n'), "utf-8"
    )
    line = text.splitlines().index('msgid "In short"') + 1
    project = Project.at(project_copy)
    pages = {(p.lang, p.name): p.text for p in render_all(project, ["da", "nl"])}
    status = pages["da", "translation-status.md"]
    assert "## Tekster, der venter på en oversætter" in status
    assert "Alle sprog har oversat alle tekster." not in status
    # The catalog line to edit, the state in the page's language, and the English quoted as English.
    item = f'- locales/da/LC\\_MESSAGES/messages.po:{line} (Ikke oversat): <span lang="en" class="rd-quoted" dir="ltr">In short</span>'
    (line_shown,) = [row for row in status.splitlines() if row.startswith(item)]
    # Then where it shows (tests/test_status_links.py), then its note.
    assert line_shown[len(item) :].startswith(
        ' · [Hvor den vises](scoring.md#in-short)<br><span lang="en" class="rd-quoted" dir="ltr">Shown on the page'
    )
    # The Dutch page lists Dutch messages only (none): its Danish row links to the Danish list.
    dutch = pages["nl", "translation-status.md"]
    assert "In short" not in dutch and "locales/da/" not in dutch
    assert '| <a href="../da/translation-status.md#dansk-da" hreflang="da">Dansk</a> (`da`) |' in dutch
    # Quoting the missing English on the Danish page is no leak: check calls it no error.
    assert lint_error_lines(project) == []


def test_a_quoted_message_is_escaped_and_cannot_close_its_quote(project_copy: Path) -> None:
    from rulesdoc.i18n.markup import quote_english

    assert quote_english("</span><script>x</script> 50% [a](b)") == (
        '<span lang="en" class="rd-quoted" dir="ltr">&lt;/span&gt;&lt;script&gt;x&lt;/script&gt; 50&#37; \\[a\\](b)</span>'
    )
