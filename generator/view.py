"""The view model: plain data per page and language, every number and decision made.

Templates only place text; every ``if`` they need on a value is a flag here,
decided from the spec and the engine (``fraction_is_half``, ``share_cap_counts``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from generator import engine
from generator.cards import Card
from generator.i18n import CARD_CONTEXT, CatalogStats, Formatter, Translator, english_card_name
from generator.markup import attribute
from generator.model import Example, Reason, Rules


@dataclass(frozen=True)
class CardChip:
    """A card as shown in an example: its suit symbol and its localized name."""

    code: str
    name: str  # escaped for Markdown/HTML text
    symbol: str
    colour: str  # "red", "black" or "joker"

    @property
    def html(self) -> str:
        return (
            f'<span class="rd-card rd-{self.colour}" role="img" aria-label="{attribute(self.name)}"'
            f' data-card="{self.code}"><span class="rd-suit" aria-hidden="true">{self.symbol}</span>'
            f" {self.name}</span>"
        )


@dataclass(frozen=True)
class SeatView:
    """One seat of an example. The template words its label from kind, number and opened."""

    kind: str  # "winner", "opponent" (numbered after the winner) or "player" (blocked round)
    number: int  # opponent or player number, from 1
    opened: bool
    cards: tuple[CardChip, ...]
    hand_value: int
    score: str  # formatted
    score_value: int
    reason: Reason


@dataclass(frozen=True)
class ExampleView:
    id: str
    title: str
    note: str | None
    players: int
    seats: tuple[SeatView, ...]
    reasons: frozenset[str]  # reason names present among the seats
    blocked: bool

    def has(self, reason: str) -> bool:
        return reason in self.reasons

    @property
    def hand_value_alone(self) -> bool:
        """Every loser simply pays their hand: no special rule in play."""
        return self.reasons <= {Reason.WINNER.value, Reason.HAND_VALUE.value}


@dataclass(frozen=True)
class TargetRow:
    players: str
    target: str
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
    players_min: int
    players_max: int
    fraction_is_half: bool  # say "half the target" only while the value is 1/2
    ace_low_is_one: bool  # say "only one point" only while the value is 1
    ace_costs_more_in_hand: bool
    share_cap_counts: tuple[int, ...]  # player counts where the target share is the lower cap
    share_cap_only_two: bool  # ... exactly "with two players"
    share_cap_players: str  # those counts as a list in the page's language: "3 og 4"
    targets: tuple[TargetRow, ...]


def facts(rules: Rules, fmt: Formatter) -> Facts:
    share_counts = tuple(
        n for n in rules.player_counts if engine.never_opened_cap(rules, n)[1] is Reason.CAPPED_TARGET_SHARE
    )
    return Facts(
        joker=rules.card_values.joker,
        ace=rules.card_values.ace,
        face=rules.card_values.face,
        ace_low=rules.ace_low,
        penalty=rules.hand_rummy_penalty,
        surcharge=rules.never_opened_surcharge,
        cap=rules.never_opened_cap,
        fraction=rules.cap_target_fraction,
        per_opponent=rules.target_per_opponent,
        players_min=rules.players_min,
        players_max=rules.players_max,
        fraction_is_half=rules.cap_target_fraction == Fraction(1, 2),
        ace_low_is_one=rules.ace_low == 1,
        ace_costs_more_in_hand=rules.card_values.ace > rules.ace_low,
        share_cap_counts=share_counts,
        share_cap_only_two=share_counts == (2,),
        share_cap_players=fmt.list([fmt.number(n) for n in share_counts]),
        targets=tuple(
            TargetRow(fmt.number(n), fmt.number(engine.target(rules, n)), engine.target(rules, n))
            for n in rules.player_counts
        ),
    )


def card_chip(card: Card, translate: Translator) -> CardChip:
    name = translate.pgettext(CARD_CONTEXT, english_card_name(card))
    if card.suit is None:
        return CardChip(card.code, name, "★", "joker")
    return CardChip(card.code, name, card.suit.symbol, "red" if card.suit.is_red else "black")


def example_view(rules: Rules, example: Example, translate: Translator, fmt: Formatter) -> ExampleView:
    situation = example.situation
    result = engine.score_round(rules, situation)
    blocked = situation.went_out is None
    seats = []
    opponent = 1
    for hand, player in zip(situation.hands, result.players, strict=True):
        if blocked:
            kind, number = "player", player.seat + 1
        elif player.seat == situation.went_out:
            kind, number = "winner", 0
        else:
            kind, number, opponent = "opponent", opponent, opponent + 1
        seats.append(
            SeatView(
                kind=kind,
                number=number,
                opened=hand.opened,
                cards=tuple(card_chip(card, translate) for card in hand.cards),
                hand_value=player.hand_value,
                score=fmt.number(player.score),
                score_value=player.score,
                reason=player.reason,
            )
        )
    # The winner comes first, as readers expect, then the opponents in seat order.
    seats.sort(key=lambda s: s.kind != "winner")
    return ExampleView(
        id=example.id,
        title=translate.gettext(example.title),
        note=translate.gettext(example.note) if example.note else None,
        players=situation.players,
        seats=tuple(seats),
        reasons=frozenset(p.reason.value for p in result.players),
        blocked=blocked,
    )


@dataclass(frozen=True)
class PageContext:
    """Everything a page template may use, for one language."""

    lang: str
    facts: Facts
    examples: tuple[ExampleView, ...]
    fmt: Formatter
    status: tuple[CatalogStats, ...]  # every language's catalog, for the status page


def page_context(
    rules: Rules, translate: Translator, fmt: Formatter, status: tuple[CatalogStats, ...] = ()
) -> PageContext:
    return PageContext(
        lang=translate.language.code,
        facts=facts(rules, fmt),
        examples=tuple(example_view(rules, example, translate, fmt) for example in rules.examples),
        fmt=fmt,
        status=status,
    )
