"""The view model: plain data per page and language, every number and decision made.

Templates only place text; every ``if`` they need on a value is a flag here,
decided from the spec and the engine (``fraction_is_half``, ``share_cap_counts``), and
every example's explanation is a tuple of :class:`Reason`, one sentence each.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.cards import Card
from rulesdoc.engine.model import Example, Reason, Rules
from rulesdoc.i18n.markup import attribute
from rulesdoc.i18n.stats import CatalogStats
from rulesdoc.i18n.translate import CARD_CONTEXT, Translator, english_card_name, unmarked
from rulesdoc.localedata.cldr import Formatter


@dataclass(frozen=True)
class CardChip:
    """A card as shown in an example: its suit symbol and its localized name."""

    code: str
    name: str  # escaped for Markdown/HTML text
    symbol: str
    colour: str  # "red", "black" or "joker"
    label: str = ""  # the name as plain text, escaped once for the attribute (not the Markdown-escaped name)

    @property
    def html(self) -> str:
        return (
            # dir="auto" isolates the chip: on a right-to-left page it neither reorders nor is reordered.
            f'<span class="rd-card rd-{self.colour}" dir="auto" role="img"'
            f' aria-label="{attribute(self.label or unmarked(self.name))}" data-card="{self.code}">'
            f'<span class="rd-suit" aria-hidden="true">{self.symbol}</span> {self.name}</span>'
        )


class SeatKind(enum.Enum):
    """How a seat is labelled: the winner, an opponent (numbered after the winner), or, in a
    blocked round where nobody went out, a player numbered by seat."""

    WINNER = "winner"
    OPPONENT = "opponent"
    PLAYER = "player"


@dataclass(frozen=True)
class SeatView:
    """One seat of an example. The template words its label from kind, number and opened,
    and the words of its arithmetic from reason."""

    kind: SeatKind
    number: int  # opponent or player number, from 1
    opened: bool
    cards: tuple[CardChip, ...]
    score: str  # formatted
    reason: Reason
    sum: str  # the engine's terms added up, formatted: "11 + 20 + 5 = 36"; one term alone: "5"
    shows_sum: bool  # the arithmetic says more than the score (not for a winner who went out)


# Kinds of card a sentence may call dear, named by their code in rules.yaml (the template
# names them). Face cards never are: dear means worth more than a face card.
JOKER_KIND = "JK"
MAX_PIPS = 10  # the ten: the dearest card that counts its pips


@dataclass(frozen=True)
class ExampleView:
    title: str
    note: str | None  # the user's own words from rules.yaml: nothing checks them
    seats: tuple[SeatView, ...]
    explanations: tuple[Reason, ...]  # one sentence each, in reading order
    hand_value_alone: bool  # every loser simply pays their hand: no special rule in play
    hand_payers: int  # how many seats pay their hand value (reason HAND_VALUE)
    dearest: tuple[str, ...]  # card kinds ("JK", "A", "10"...) worth more than a face card, dearest
    # first, left in the hands that pay their value; said instead of the plain hand-value sentence
    blocked_tie: bool  # a blocked round won by several players tied for the lowest hand
    share_rounded: bool  # the engine rounded this round's target share down to whole points

    def seats_with(self, reason: Reason) -> tuple[SeatView, ...]:
        """The seats a rule decided, in page order: the never-opened sentences name them."""
        return tuple(seat for seat in self.seats if seat.reason is reason)


@dataclass(frozen=True)
class TargetRow:
    players: str
    target_value: int


@dataclass(frozen=True)
class Facts:
    """Numbers of the spec, formatted, and the decisions that depend on them."""

    joker: int
    ace: int
    face: int
    ace_low: int
    penalty: int
    surcharge: int
    cap: int
    fraction: Fraction
    per_opponent: int
    fraction_is_half: bool  # say "half the target" only while the value is 1/2
    fraction_is_whole: bool  # say "the target", not "100 % of the target"
    share_rounds: bool  # at some allowed player count the engine rounds the target share down
    ace_low_is_one: bool  # say "only one point" only while the value is 1
    ace_costs_more_in_hand: bool  # than laid low in a sequence
    joker_costs_more_in_hand: bool  # than any card it can stand for when laid down
    share_cap_counts: tuple[int, ...]  # player counts where the target share is the lower cap
    share_cap_only_two: bool  # ... exactly "with two players"
    share_cap_always: bool  # ... every allowed count, and more than one: "whatever the number"
    share_cap_players: str  # those counts as alternatives, in the catalog's words: "to eller tre"
    equal_cap_counts: tuple[int, ...]  # player counts where both caps are equal (the fixed one applies)
    equal_cap_players: str  # those counts as alternatives
    fixed_cap_counts: tuple[int, ...]  # player counts where the fixed cap is the lower one
    targets: tuple[TargetRow, ...]


def player_counts(counts: tuple[int, ...], translate: Translator, fmt: Formatter) -> str:
    """Player counts as alternatives in running text: each in the catalog's word for it ("to eller
    tre", "dua atau tiga"), or as a number where the catalog has no word."""
    words = [translate.count_word(n) or fmt.number(n) for n in counts]
    return fmt.list(words, style="or")


def facts(rules: Rules, translate: Translator, fmt: Formatter) -> Facts:
    counts = tuple(rules.player_counts)
    share_counts = tuple(
        n for n in counts if engine.never_opened_cap(rules, n)[1] is Reason.CAPPED_TARGET_SHARE
    )
    # The engine names the fixed cap when both are equal: the page says they are equal.
    equal_counts = tuple(n for n in counts if engine.target_share(rules, n) == rules.never_opened_cap)
    fixed_counts = tuple(n for n in counts if n not in share_counts and n not in equal_counts)
    values = rules.card_values
    return Facts(
        joker=values.joker,
        ace=values.ace,
        face=values.face,
        ace_low=rules.ace_low,
        penalty=rules.hand_rummy_penalty,
        surcharge=rules.never_opened_surcharge,
        cap=rules.never_opened_cap,
        fraction=rules.cap_target_fraction,
        per_opponent=rules.target_per_opponent,
        fraction_is_half=rules.cap_target_fraction == Fraction(1, 2),
        fraction_is_whole=rules.cap_target_fraction == 1,
        share_rounds=any(engine.target_share_rounded(rules, n) for n in counts),
        ace_low_is_one=rules.ace_low == 1,
        ace_costs_more_in_hand=values.ace > rules.ace_low,
        # A joker laid down counts as the card it stands for: at most an ace, a face card or a ten.
        joker_costs_more_in_hand=values.joker > max(values.ace, values.face, MAX_PIPS),
        share_cap_counts=share_counts,
        share_cap_only_two=share_counts == (2,),
        share_cap_always=share_counts == counts and len(counts) > 1,
        share_cap_players=player_counts(share_counts, translate, fmt),
        equal_cap_counts=equal_counts,
        equal_cap_players=player_counts(equal_counts, translate, fmt),
        fixed_cap_counts=fixed_counts,
        targets=tuple(TargetRow(fmt.number(n), engine.target(rules, n)) for n in counts),
    )


def card_chip(card: Card, translate: Translator) -> CardChip:
    english = english_card_name(card)
    name, label = translate.pgettext(CARD_CONTEXT, english), translate.plain(english, CARD_CONTEXT)
    if card.suit is None:
        return CardChip(card.code, name, "★", "joker", label)
    return CardChip(card.code, name, card.suit.symbol, "red" if card.suit.is_red else "black", label)


# The order sentences are said in: the rule that overrides the hands first, then the hands.
EXPLANATION_ORDER = (
    Reason.HAND_RUMMY,
    Reason.BLOCKED_WINNER,
    Reason.HAND_VALUE,
    Reason.NEVER_OPENED,
    Reason.CAPPED_FIXED,
    Reason.CAPPED_TARGET_SHARE,
)


def dearest_kinds(rules: Rules, cards: list[Card]) -> tuple[str, ...]:
    """The kinds among ``cards`` that cost more than a face card, dearest first.

    Equal values keep the order joker, ace, ten down to two: the order of the value table.
    """
    kinds: dict[str, tuple[int, int]] = {}
    for card in cards:
        value = engine.card_value(rules, card)
        if value > rules.card_values.face:
            kind, place = _kind(card)
            kinds[kind] = (-value, place)
    return tuple(sorted(kinds, key=kinds.__getitem__))


def _kind(card: Card) -> tuple[str, int]:
    """A card's kind, as the template names it, and its place in the value table's order."""
    if card.rank is None:
        return JOKER_KIND, 0
    pips = card.rank.pips
    return card.rank.value, 1 if pips is None else 2 + MAX_PIPS - pips  # the ace, then ten to two


def arithmetic(player: engine.PlayerResult, fmt: Formatter) -> str:
    """The terms of a score added up: each card's value, then the surcharge; "5" for one term."""
    terms = player.card_values + ((player.surcharge,) if player.surcharge else ())
    shown = " + ".join(fmt.number(term) for term in terms)
    return shown if len(terms) == 1 else f"{shown} = {fmt.number(player.charged)}"


def shows_arithmetic(player: engine.PlayerResult) -> bool:
    """Whether the arithmetic line tells the reader more than the score beside it."""
    if player.reason is Reason.WINNER:
        return False  # went out with an empty hand: the label says it
    if player.reason is Reason.HAND_VALUE:
        return len(player.card_values) > 1  # one card paid as it is: "5" under 5 says nothing
    return True


def example_view(rules: Rules, example: Example, translate: Translator, fmt: Formatter) -> ExampleView:
    situation = example.situation
    result = engine.score_round(rules, situation)
    blocked = situation.went_out is None
    seats = []
    opponent = 1
    for hand, player in zip(situation.hands, result.players, strict=True):
        if blocked:
            kind, number = SeatKind.PLAYER, player.seat + 1
        elif player.seat == situation.went_out:
            kind, number = SeatKind.WINNER, 0
        else:
            kind, number, opponent = SeatKind.OPPONENT, opponent, opponent + 1
        seats.append(
            SeatView(
                kind=kind,
                number=number,
                opened=hand.opened,
                cards=tuple(card_chip(card, translate) for card in hand.cards),
                score=fmt.number(player.score),
                reason=player.reason,
                sum=arithmetic(player, fmt),
                shows_sum=shows_arithmetic(player),
            )
        )
    # The winner comes first, as readers expect, then the opponents in seat order.
    seats.sort(key=lambda s: s.kind is not SeatKind.WINNER)
    reasons = {p.reason for p in result.players}
    alone = reasons <= {Reason.WINNER, Reason.BLOCKED_WINNER, Reason.HAND_VALUE}
    # Only where hand value alone decides do the dearest cards explain the scores.
    paying = [
        card
        for hand, player in zip(situation.hands, result.players, strict=True)
        if player.reason is Reason.HAND_VALUE
        for card in hand.cards
    ]
    dearest = dearest_kinds(rules, paying) if alone else ()
    explanations = tuple(
        reason
        for reason in EXPLANATION_ORDER
        if reason in reasons
        # A blocked round has no opponents to "pay the value of their hand": its own sentence
        # says who won; the hands are worth a sentence only to name the dear cards.
        and not (reason is Reason.HAND_VALUE and blocked and alone and not dearest)
    )
    return ExampleView(
        title=translate.gettext(example.title),
        note=translate.gettext(example.note) if example.note else None,
        seats=tuple(seats),
        explanations=explanations,
        hand_value_alone=alone,
        hand_payers=sum(p.reason is Reason.HAND_VALUE for p in result.players),
        dearest=dearest,
        blocked_tie=blocked and len(result.winners) > 1,
        share_rounded=engine.target_share_rounded(rules, situation.players),
    )


@dataclass(frozen=True)
class PageContext:
    """Everything a page template may use, for one language."""

    facts: Facts
    examples: tuple[ExampleView, ...]
    fmt: Formatter
    status: tuple[CatalogStats, ...]  # every language's count, for the status page's table
    # The page's own language's count with its waiting messages placed, for the status page's
    # list; None for the source language, whose status page links to each language's list.
    status_here: CatalogStats | None = None
    # The enums themselves, so a template compares ``seat.reason == reasons.HAND_RUMMY``:
    # a misspelt member raises under StrictUndefined, where a misspelt string is silently false.
    reasons: type[Reason] = Reason
    seat_kinds: type[SeatKind] = SeatKind


def page_context(
    rules: Rules,
    translate: Translator,
    fmt: Formatter,
    status: tuple[CatalogStats, ...] = (),
    status_here: CatalogStats | None = None,
) -> PageContext:
    return PageContext(
        facts=facts(rules, translate, fmt),
        examples=tuple(example_view(rules, example, translate, fmt) for example in rules.examples),
        fmt=fmt,
        status=status,
        status_here=status_here,
    )
