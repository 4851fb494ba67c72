"""``rulesdoc score --format text``: scored rounds and games as tables a person reads.

English only and plain text (for a terminal): the pages are where rules are explained in
every language; this shows what the engine decided, seat by seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdoc.engine.model import Reason, Round
from rulesdoc.engine.scoring import Game, RoundResult

RULE_WORDS = {
    Reason.WINNER: "went out",
    Reason.HAND_VALUE: "cards in hand",
    Reason.NEVER_OPENED: "never opened: hand + surcharge",
    Reason.CAPPED_FIXED: "never opened: the fixed cap",
    Reason.CAPPED_TARGET_SHARE: "never opened: the target-share cap",
    Reason.HAND_RUMMY: "hand rummy penalty",
    Reason.BLOCKED_WINNER: "lowest hand (blocked round)",
}
_HEADINGS = ("Seat", "Opened", "Cards", "Hand", "Score", "Rule")
_RIGHT_ALIGNED = {0, 3, 4}  # numbers


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if column in _RIGHT_ALIGNED else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def round_lines(situation: Round, result: RoundResult) -> list[str]:
    rows = [_HEADINGS]
    for hand, player in zip(situation.hands, result.players, strict=True):
        rows.append(
            (
                str(player.seat),
                "yes" if hand.opened else "no",
                " ".join(card.code for card in hand.cards) or "-",
                str(player.hand_value),
                str(player.score),
                RULE_WORDS[player.reason],
            )
        )
    kind = "blocked round, " if situation.went_out is None else ""
    return [*_table(rows), f"({kind}{situation.players} players, game target {result.target})"]


def round_block(situation: Round, result: RoundResult, number: int | None = None) -> str:
    """One round's table, under its number when it is one of several."""
    lines = round_lines(situation, result)
    return "\n".join(lines if number is None else [f"Round {number}", *lines])


def game_end_block(game: Game) -> str:
    """The totals after the last round, and whether the game is over."""
    totals = ", ".join(f"seat {seat} {total}" for seat, total in enumerate(game.totals))
    if game.finished:
        verdict = f"The game is over: seat {game.winner} wins with the lowest total."
    elif game.extra_round:
        lowest = min(game.totals)
        tied = " and ".join(str(seat) for seat, total in enumerate(game.totals) if total == lowest)
        verdict = f"The target is reached, but seats {tied} tie for the lowest total: one more round."
    else:
        verdict = f"No total has reached the target of {game.target}: the game goes on."
    return f"Totals: {totals} (target {game.target})\n{verdict}"


# Blocks are separated by an empty line; `score` writes them one at a time (rulesdoc.score.writing).
BLOCK_SEPARATOR = "\n\n"
