"""The scoring page's calculator: what its script needs, as one JSON document for the page.

The script (``generator/site/calculator.mjs``) scores with the export bundle's ``scoring.mjs``
and words the result with the same messages as the worked examples. Its texts are messages of
the partial ``templates/_calculator.j2`` (so ``catalog extract`` finds them, the status page
counts them and ``check`` reports what a catalog lacks), asked for here as plain text: the
script places them with ``textContent``, never as markup, and marks an English fallback
``lang="en"`` as the page does. A project without the partial has no calculator.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.cards import ALL_CARDS, JOKER_CODE, Suit
from rulesdoc.engine.model import Reason, Rules
from rulesdoc.errors import RulesdocError
from rulesdoc.i18n.markup import json_for_script
from rulesdoc.i18n.translate import CARD_CONTEXT, Translator, english_card_name
from rulesdoc.localedata.cldr import Formatter
from rulesdoc.pages.template_errors import template_error
from rulesdoc.pages.view import MAX_PIPS
from rulesdoc.spec.rules_data import rule_values

CALCULATOR_TEMPLATE = "_calculator.j2"

Message = str | dict[str, str]  # the language's text, or {"en": text}: the English fallback


class PlainMessages:
    """Gettext for the partial: plain text, an English fallback said as ``{"en": text}``.

    Installed as the partial's own ``_``/``gettext``/``ngettext``/``pgettext``/``npgettext``
    (render variables shadow the page's); keyword arguments (placeholders) are left for the
    script to fill. A plural message counted by a range is one text per number in it, in order
    (``ngettext(s, p, seat_counts)``): a loop of the template's own would cost a first build
    more to compile than the rest of the partial.
    """

    def __init__(self, translate: Translator) -> None:
        self.translate = translate

    def _message(self, found: tuple[str, bool]) -> Message:
        text, fallback = found
        return {"en": text} if fallback else text

    def gettext(self, message: str, **_placeholders: object) -> Message:
        return self._message(self.translate.plain_marked(message))

    def ngettext(
        self, singular: str, plural: str, n: int | range, **_placeholders: object
    ) -> Message | list[Message]:
        return self.npgettext(None, singular, plural, n)

    def pgettext(self, context: str, message: str, **_placeholders: object) -> Message:
        return self._message(self.translate.plain_marked(message, context))

    def npgettext(
        self, context: str | None, singular: str, plural: str, n: int | range, **_placeholders: object
    ) -> Message | list[Message]:
        if isinstance(n, range):
            return [self._plural(context, singular, plural, count) for count in n]
        return self._plural(context, singular, plural, n)

    def _plural(self, context: str | None, singular: str, plural: str, n: int) -> Message:
        return self._message(self.translate.plain_marked(singular, context, plural, n))


@dataclass(frozen=True)
class CapWords:
    """Which words of a capped never-opened player these rules can need: the fixed cap, and the
    target share said as "the target", "half the target" or a percentage, exact or rounded down,
    each only where it binds at some number of players (a page says nothing the rules never do)."""

    fixed: bool
    whole: bool
    half: bool
    half_rounded: bool
    share: bool
    share_rounded: bool


@functools.lru_cache(maxsize=4)  # the same rules for every language of a build
def cap_words(rules: Rules) -> CapWords:
    binding = [(n, engine.never_opened_cap(rules, n)[1]) for n in rules.player_counts]
    share_counts = [n for n, reason in binding if reason is Reason.CAPPED_TARGET_SHARE]
    rounded = any(engine.target_share_rounded(rules, n) for n in share_counts)
    exact = any(not engine.target_share_rounded(rules, n) for n in share_counts)
    kind = fraction_kind(rules)
    return CapWords(
        fixed=any(reason is Reason.CAPPED_FIXED for _, reason in binding),
        whole=kind == "whole" and bool(share_counts),
        half=kind == "half" and exact,
        half_rounded=kind == "half" and rounded,
        share=kind == "share" and exact,
        share_rounded=kind == "share" and rounded,
    )


@functools.lru_cache(maxsize=4)
def share_rounded(rules: Rules) -> tuple[bool, ...]:
    """Whether the target share is rounded down, for each number of players from zero."""
    return tuple(engine.target_share_rounded(rules, n) for n in range(rules.players_max + 1))


def dear_kinds(rules: Rules) -> int:
    """How many kinds of card cost more than a face card under these rules (joker, ace, pips)."""
    values = rules.card_values
    worth = [values.joker, values.ace, *range(MAX_PIPS, 1, -1)]
    return sum(value > values.face for value in worth)


def fraction_kind(rules: Rules) -> str:
    """Which words say the target share: "the target", "half the target", or a percentage."""
    fraction = rules.cap_target_fraction
    return "whole" if fraction == 1 else "half" if fraction * 2 == 1 else "share"


# Each card kind's code and the msgid of its name, in the deck's order: the same in every language.
_CARD_NAMES = tuple((card.code, english_card_name(card)) for card in ALL_CARDS)


def cards(plain: PlainMessages) -> list[list[Message]]:
    """Every card kind of the deck, in the deck's order: its code and its name as the worked
    examples name it. Its look comes once per suit (:func:`suit_faces`): the page carries 53 cards
    in every language, and their symbols and colours are the same in all of them."""
    return [[code, plain.pgettext(CARD_CONTEXT, name)] for code, name in _CARD_NAMES]


def suit_faces() -> dict[str, list[str]]:
    """How a card looks, by its suit's letter (the last of its code) or the joker's code: its
    symbol and its colour's name (the chip's style, ``rd-red``)."""
    faces = {suit.value: [suit.symbol, "red" if suit.is_red else "black"] for suit in Suit}
    return faces | {JOKER_CODE: ["★", "joker"]}


def calculator_data(
    env: jinja2.Environment, templates: Path, rules: Rules, translate: Translator, fmt: Formatter
) -> str | None:
    """The calculator's JSON for the page (safe inside ``<script>``), or None without the partial."""
    if not (templates / CALCULATOR_TEMPLATE).is_file():
        return None
    plain = PlainMessages(translate)
    try:
        module = env.get_template(CALCULATOR_TEMPLATE).make_module({
            "_": plain.gettext, "gettext": plain.gettext, "ngettext": plain.ngettext,
            "pgettext": plain.pgettext, "npgettext": plain.npgettext,
            # A sentence naming seats has a form for each number of them (one to all but one),
            # its own message for one seat.
            "seat_counts": range(1, rules.players_max),
            "several_seats": range(2, rules.players_max),
            # ... and one naming dear kinds of card beside the dearest: up to all the others.
            "others_counts": range(1, dear_kinds(rules)),
            "caps": cap_words(rules),
        })  # fmt: skip
        messages: Any = module.messages  # type: ignore[attr-defined]
    except RulesdocError:
        raise
    except Exception as error:  # the partial is project input, like a page
        raise template_error(error, templates, CALCULATOR_TEMPLATE) from None
    language = translate.language
    data = {
        "lang": language.tag,
        "dir": language.direction,
        "rules": rule_values(rules, with_examples=False),
        "numbers": fmt.integer_format(),
        "list": dict(fmt.locale.list_patterns["standard"]),  # how the page joins names (Babel's)
        "fraction": fraction_kind(rules),
        "share": fmt.percent(rules.cap_target_fraction),
        "share_rounded": share_rounded(rules),
        "cards": cards(plain),
        "suits": suit_faces(),
        "messages": messages,
    }
    return json_for_script(data)
