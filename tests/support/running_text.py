"""Player counts in running text: words wherever the language's catalog spells them out.

The five languages write small counts as words in a sentence ("With three players", "Ved tre
spillere", "A três jogadores", "तीन खिलाड़ियों", "Bij drie spelers", "tiga pemain"): the catalog's
"player count" messages say how. Restated here from the rules and the catalogs, not from the
view model: a page under any rule values is checked two ways.

- Every sentence whose message takes ``%(players)s`` (found in the catalog's own entries) is
  looked for on the page, and what fills the placeholder holds no digit of a count the catalog
  spells out: it is the catalog's words, joined by "or".
- Every number in running text (paragraphs and the worked examples' explanations; not tables,
  headings, captions, arithmetic or card chips) is a value of the rules that is no player count,
  a seat's number ("Opponent 2"), or a count the catalog itself writes as a digit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from babel.messages.catalog import Catalog

from rulesdoc.engine.model import Rules
from rulesdoc.i18n.translate import Translator
from rulesdoc.localedata.cldr import Formatter

COUNT_CONTEXT = "player count"
# The source's words for every player count the rules can allow (two decks deal at most eight).
COUNT_WORDS = dict(enumerate(("two", "three", "four", "five", "six", "seven", "eight"), 2))
NUMBER = re.compile(r"\d+(?:[.,\u00a0\u202f]\d+)*")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def spelled_counts(rules: Rules, translate: Translator) -> dict[int, str]:
    """The player counts of these rules the catalog writes as words, with the word."""
    words = {n: translate.pgettext(COUNT_CONTEXT, COUNT_WORDS[n]) for n in rules.player_counts}
    return {n: word for n, word in words.items() if not NUMBER.search(word)}


def count_sentences(translate: Translator, template: Catalog) -> list[str]:
    """The translations of every message of the template that says a number of players
    (``%(players)s``), every plural form."""
    found = set()
    for message in template:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if not message.id or "%(players)s" not in ids[0]:
            continue
        if len(ids) == 1:
            found.add(
                translate.pgettext(message.context, ids[0]) if message.context else translate.gettext(ids[0])
            )
        else:
            found |= {translate.ngettext(ids[0], ids[1], n) for n in range(1, 9)}
    return sorted(found)


def running_text(page: str) -> Iterator[tuple[str, bool]]:
    """(text, is an example's explanation) of each stretch of running text on a page."""
    for line in page.splitlines():
        if line.startswith("| **"):  # a worked example: its first cell, after the title
            yield line.split(" | ")[0].partition("** <br>")[2], True
        elif line.strip() and not re.match(r"\s*(?:[#|/<]|\{)", line):
            yield line, False


def _filled(form: str) -> re.Pattern[str]:
    """A translation as a pattern: ``%(players)s`` captured, any other placeholder anything."""
    out, at = "", 0
    for match in PLACEHOLDER.finditer(form):
        out += re.escape(form[at : match.start()])
        out += "(?P<players>.+?)" if match.group(1) == "players" and "?P<players>" not in out else ".+?"
        at = match.end()
    out += re.escape(form[at:])
    first = out[:1]
    if first.isalpha():  # a sentence's first letter may be a capital
        out = f"[{first.lower()}{first.upper()}]{out[1:]}"
    return re.compile(r"(?<!\w)" + out)


def assert_counts_are_words(
    page: str, rules: Rules, translate: Translator, fmt: Formatter, template: Catalog, where: str
) -> None:
    """No digit stands for a player count in running text where the catalog spells it out."""
    written = {n: translate.pgettext(COUNT_CONTEXT, COUNT_WORDS[n]) for n in rules.player_counts}
    spelled = spelled_counts(rules, translate)
    if not spelled:
        return
    as_digits = {fmt.number(n) for n in spelled}
    text = [(re.sub(r"<[^>]+>", " ", t), explanation) for t, explanation in running_text(page)]
    sentences = count_sentences(translate, template)
    assert sentences, f"{where}: no message says a number of players"
    for form in sentences:
        pattern = _filled(form)
        for stretch, _ in text:
            for match in pattern.finditer(stretch):
                filled = match.group("players")
                digits = set(NUMBER.findall(filled)) & as_digits
                assert not digits, (
                    f"{where}: {digits} in {match.group()!r}: the catalog spells these counts out"
                )
                assert any(word in filled for word in written.values()), (
                    f"{where}: {filled!r} names no player count as the catalog writes it"
                )
    values = rules.card_values
    others = {values.joker, values.ace, values.face, rules.ace_low, rules.hand_rummy_penalty}
    others |= {rules.never_opened_surcharge, rules.never_opened_cap, rules.target_per_opponent}
    allowed = {fmt.number(n) for n in others} | set(NUMBER.findall(fmt.percent(rules.cap_target_fraction)))
    seats = {fmt.number(n) for n in range(1, rules.players_max + 1)}  # "Opponent 2" in an explanation
    seats |= {str(n) for n in range(1, rules.players_max + 1)}
    for stretch, explanation in text:
        for number in NUMBER.findall(stretch):
            if number in allowed or (explanation and number in seats):
                continue
            assert number not in as_digits, (
                f"{where}: {number} stands for a player count in {stretch!r}: the catalog spells it out"
            )
