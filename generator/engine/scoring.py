"""The scoring engine: pure functions from rules and situations to scores and reasons.

Nothing here knows about languages, templates or MkDocs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rulesdoc.engine.cards import Card, check_copies
from rulesdoc.engine.model import Reason, Round, Rules
from rulesdoc.errors import Location, RulesdocError


class GameError(RulesdocError):
    """A round that cannot be part of the game; ``round_number`` counts from 1."""

    def __init__(self, message: str, round_number: int) -> None:
        super().__init__(message)
        self.round_number = round_number


@dataclass(frozen=True)
class PlayerResult:
    """A seat's score, the rule that decided it, and the terms it was worked out from.

    ``card_values`` and ``surcharge`` are kept so a page can show the arithmetic
    ("11 + 20 + 5 = 36") from the engine's own numbers rather than redo it.
    """

    seat: int
    hand_value: int  # raw value of the cards left in hand: the sum of card_values
    score: int
    reason: Reason
    card_values: tuple[int, ...]  # what each card left in hand costs, in hand order
    surcharge: int  # added to a never-opened loser's hand (before any cap); 0 for everyone else

    @property
    def charged(self) -> int:
        """Hand value plus surcharge: the score, unless a cap or the hand-rummy penalty replaced it."""
        return self.hand_value + self.surcharge


@dataclass(frozen=True)
class RoundResult:
    players: tuple[PlayerResult, ...]
    target: int

    @property
    def scores(self) -> list[int]:
        return [p.score for p in self.players]

    @property
    def winners(self) -> list[int]:
        return [p.seat for p in self.players if p.reason in (Reason.WINNER, Reason.BLOCKED_WINNER)]


@dataclass(frozen=True)
class GameResult:
    rounds: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    target: int
    finished: bool  # a total reached the target and one player is lowest
    winner: int | None
    extra_round: bool  # a total reached the target but the lowest total is tied


def card_value(rules: Rules, card: Card) -> int:
    """What a card costs when left in hand."""
    if card.rank is None:
        return rules.card_values.joker
    pips = card.rank.pips
    if pips is not None:
        return pips
    if card.rank.is_face:
        return rules.card_values.face
    return rules.card_values.ace


def hand_value(rules: Rules, cards: tuple[Card, ...]) -> int:
    return sum(card_value(rules, card) for card in cards)


def target(rules: Rules, players: int) -> int:
    """The game target: a fixed number of points per opponent."""
    return rules.target_per_opponent * (players - 1)


def target_share(rules: Rules, players: int) -> int:
    """The never-opened cap taken from the target, rounded down to whole points."""
    return math.floor(target(rules, players) * rules.cap_target_fraction)


def target_share_rounded(rules: Rules, players: int) -> bool:
    """Whether the target share lost a fraction of a point to rounding (half of 75 is 37)."""
    return target(rules, players) * rules.cap_target_fraction != target_share(rules, players)


def never_opened_cap(rules: Rules, players: int) -> tuple[int, Reason]:
    """The cap that applies to a never-opened player, and which of the two caps it is.

    When both caps are equal the fixed cap is named: it is the rule's first limit.
    """
    share = target_share(rules, players)
    if rules.never_opened_cap <= share:
        return rules.never_opened_cap, Reason.CAPPED_FIXED
    return share, Reason.CAPPED_TARGET_SHARE


def validate_round(rules: Rules, situation: Round) -> None:
    """Refuse situations that cannot happen under the rules."""
    n = situation.players
    if not rules.players_min <= n <= rules.players_max:
        raise RulesdocError(
            f"a round of {n} player{'' if n == 1 else 's'}; "
            f"Rami is played by {rules.players_min} to {rules.players_max}"
        )
    check_copies(card for hand in situation.hands for card in hand.cards)
    out = situation.went_out
    if out is not None:
        if not 0 <= out < n:
            raise RulesdocError(f"went_out is seat {out}, but seats run from 0 to {n - 1}")
        if situation.hands[out].cards:
            raise RulesdocError(f"seat {out} went out but still holds cards")
        if not situation.hands[out].opened:
            raise RulesdocError(f"seat {out} went out, so it must have opened")
    for seat, hand in enumerate(situation.hands):
        if seat != out and not hand.cards:
            raise RulesdocError(f"seat {seat} holds no cards but did not go out")
    if situation.hand_rummy:
        if out is None:
            raise RulesdocError("hand rummy needs a player who went out; a blocked round has none")
        opened = [s for s, h in enumerate(situation.hands) if s != out and h.opened]
        if opened:
            raise RulesdocError(f"hand rummy is impossible: seat {opened[0]} had already opened")


def _loser_result(
    rules: Rules, seat: int, cards: tuple[int, ...], opened: bool, players: int
) -> PlayerResult:
    """``cards``: the value of each card left in hand."""
    value = sum(cards)
    if opened:
        return PlayerResult(seat, value, value, Reason.HAND_VALUE, cards, 0)
    surcharge = rules.never_opened_surcharge
    charged = value + surcharge
    cap, cap_reason = never_opened_cap(rules, players)
    if charged > cap:
        return PlayerResult(seat, value, cap, cap_reason, cards, surcharge)
    return PlayerResult(seat, value, charged, Reason.NEVER_OPENED, cards, surcharge)


def score_round(rules: Rules, situation: Round) -> RoundResult:
    """Score one round; raises :class:`RulesdocError` for an impossible situation."""
    validate_round(rules, situation)
    n = situation.players
    card_values = [tuple(card_value(rules, card) for card in hand.cards) for hand in situation.hands]
    values = [sum(cards) for cards in card_values]
    if situation.went_out is None:
        lowest = min(values)
        is_winner = [value == lowest for value in values]
        winner_reason = Reason.BLOCKED_WINNER
    else:
        is_winner = [seat == situation.went_out for seat in range(n)]
        winner_reason = Reason.WINNER
    results = []
    for seat, (hand, cards) in enumerate(zip(situation.hands, card_values, strict=True)):
        value = sum(cards)
        if is_winner[seat]:
            results.append(PlayerResult(seat, value, 0, winner_reason, cards, 0))
        elif situation.hand_rummy:
            penalty = rules.hand_rummy_penalty
            results.append(PlayerResult(seat, value, penalty, Reason.HAND_RUMMY, cards, 0))
        else:
            results.append(_loser_result(rules, seat, cards, hand.opened, n))
    return RoundResult(tuple(results), target(rules, n))


class Game:
    """A game scored round by round, keeping only the running totals (``score`` streams its rounds).

    The game ends after the round in which a total reaches the target; the lowest total then
    wins, and a tie for lowest means one more round.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.rounds = 0
        self.players = 0
        self.target = 0
        self.totals: tuple[int, ...] = ()
        self.finished = False  # a total reached the target and one player is lowest
        self.extra_round = False  # a total reached the target but the lowest total is tied
        self.winner: int | None = None

    def add(self, situation: Round) -> RoundResult:
        """Score the next round; raises :class:`GameError` for a round the game cannot have."""
        number = self.rounds + 1
        if self.finished:
            raise GameError(f"round {number} comes after the game ended (round {number - 1})", number)
        if self.rounds == 0:
            self.players = situation.players
            self.target = target(self.rules, self.players)
            self.totals = (0,) * self.players
        elif situation.players != self.players:
            raise GameError(
                f"round {number} has {situation.players} players; the game started with {self.players}",
                number,
            )
        result = score_round(self.rules, situation)
        self.rounds = number
        self.totals = tuple(t + s for t, s in zip(self.totals, result.scores, strict=True))
        if max(self.totals) >= self.target:
            lowest = min(self.totals)
            leaders = [seat for seat, total in enumerate(self.totals) if total == lowest]
            self.finished = len(leaders) == 1
            self.extra_round = not self.finished
            self.winner = leaders[0] if self.finished else None
        return result


def score_game(rules: Rules, rounds: tuple[Round, ...]) -> GameResult:
    """Add up rounds; the game ends after the round in which a total reaches the target.

    The lowest total then wins; a tie for lowest means one more round.
    """
    if not rounds:
        raise RulesdocError("a game needs at least one round")
    game = Game(rules)
    results = tuple(game.add(situation) for situation in rounds)
    return GameResult(results, game.totals, game.target, game.finished, game.winner, game.extra_round)


def check_example_illustrates(rules: Rules) -> None:
    """Fail when an example no longer shows the rule its prose claims to show."""
    for example in rules.examples:
        try:  # every example must be a possible round, whether or not it claims a rule
            result = score_round(rules, example.situation)
        except RulesdocError as error:
            raise RulesdocError(
                f"example {example.id!r}: {error.message}", Location(rules.source, example.line)
            ) from None
        if example.illustrates is None:
            continue
        reasons = {p.reason for p in result.players}
        if example.illustrates not in reasons:
            found = ", ".join(sorted(r.value for r in reasons))
            raise RulesdocError(
                f"example {example.id!r} is meant to illustrate {example.illustrates.value!r}, "
                f"but under the current rules its scores are decided by: {found}",
                Location(rules.source, example.line),
            )
