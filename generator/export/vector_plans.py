"""The generated conformance vectors: every rule and edge, planned in a fixed order.

Each plan names a situation (or a game) by what it shows, and deals its hands under the
current values with :mod:`rulesdoc.export.dealing`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.cards import ALL_CARDS, Card, Rank, Suit, parse_card
from rulesdoc.engine.model import Hand, Round, Rules
from rulesdoc.export.dealing import (
    BLOCKED_ALL_TIED,
    BLOCKED_LOWEST,
    BLOCKED_NEVER_OPENED,
    BLOCKED_TIE,
    FILLERS,
    NEVER_OPENED_HANDS,
    OPENED_HANDS,
    Dealer,
    Plan,
    Unbuildable,
    cap_words,
    deal_hands,
    one_round,
)


def _card_value_plans(rules: Rules) -> Iterator[Plan]:
    """Each rank and the joker alone in a loser's hand: every card value."""
    n = rules.players_min
    suits = list(Suit)
    cards = [Card(rank, suits[index % len(suits)]) for index, rank in enumerate(Rank)]
    for card in (*cards, *ALL_CARDS[-1:]):
        code = card.code

        def deal(dealer: Dealer, code: str = code) -> Round:
            others = deal_hands(dealer, FILLERS[: n - 2])
            return Round((Hand(()), Hand(dealer.cards(code)), *others), went_out=0)

        yield Plan(f"round/card-value/{code}", f"{n} players: the loser holds {code} only", one_round(deal))


def _player_count_plans(rules: Rules, n: int) -> Iterator[Plan]:
    prefix = f"round/{n}-players"
    last = n - 1

    def hand_values(dealer: Dealer) -> Round:
        losers = deal_hands(dealer, OPENED_HANDS[: n - 1])
        return Round((*losers, Hand(())), went_out=last)

    yield Plan(
        f"{prefix}/hand-values",
        f"{n} players, seat {last} went out: every opponent had opened and pays the cards in hand",
        one_round(hand_values),
    )

    cap, _ = engine.never_opened_cap(rules, n)
    surcharge = rules.never_opened_surcharge
    for delta, name, words in (
        (-1, "below-cap", "one below"),
        (0, "at-cap", "exactly"),
        (1, "above-cap", "one above"),
    ):
        value = cap + delta - surcharge

        def never_opened(dealer: Dealer, value: int = value) -> Round:
            if value < 1:
                raise Unbuildable(
                    f"with the surcharge of {surcharge}, every never-opened hand is above the cap"
                )
            hand = Hand(dealer.worth(value), opened=False)
            others = [
                Hand(dealer.cards(code), opened=seat % 2 == 0) for seat, code in enumerate(FILLERS[: n - 2])
            ]
            return Round((Hand(()), hand, *others), went_out=0)

        yield Plan(
            f"{prefix}/never-opened/{name}",
            f"{n} players: seat 1 never opened and holds {value}; with the surcharge of {surcharge} "
            f"that is {words} the cap: {cap_words(rules, n)}; seats 2 and up alternate opened and not",
            one_round(never_opened),
        )

    out = n // 2

    def hand_rummy(dealer: Dealer) -> Round:
        losers = deal_hands(dealer, NEVER_OPENED_HANDS[: n - 1], opened=False)
        return Round((*losers[:out], Hand(()), *losers[out:]), went_out=out, hand_rummy=True)

    yield Plan(
        f"{prefix}/hand-rummy",
        f"{n} players, hand rummy by seat {out}: every opponent (none had opened) pays "
        f"{rules.hand_rummy_penalty}, whatever they hold",
        one_round(hand_rummy),
    )

    def blocked(
        codes: Sequence[str], never_opened_seats: Sequence[int]
    ) -> Callable[[Dealer], Sequence[Round]]:
        def deal(dealer: Dealer) -> Round:
            hands = deal_hands(dealer, codes[:n])
            return Round(
                tuple(Hand(h.cards, seat not in never_opened_seats) for seat, h in enumerate(hands)),
                went_out=None,
            )

        return one_round(deal)

    yield Plan(
        f"{prefix}/blocked/lowest-wins",
        f"{n} players, a blocked round: seat 1 holds the lowest hand (5) and wins; the others pay "
        "as in any round, seat 0 (never opened, 9) with the surcharge and caps",
        blocked(BLOCKED_LOWEST, [0]),
    )
    tied = "both players tie" if n == 2 else "seats 0 and 1 tie"
    yield Plan(
        f"{prefix}/blocked/tie",
        f"{n} players, a blocked round: {tied} for the lowest hand (5): every tied player wins and scores 0",
        blocked(BLOCKED_TIE, []),
    )
    if n > 2:
        yield Plan(
            f"{prefix}/blocked/all-tied",
            f"{n} players, a blocked round: every hand is worth 6: everybody wins and scores 0",
            blocked(BLOCKED_ALL_TIED, []),
        )
    yield Plan(
        f"{prefix}/blocked/never-opened-lowest",
        f"{n} players, a blocked round: seat 0 never opened but holds the lowest raw value (4): "
        "the surcharge does not count for the lowest hand, seat 0 wins",
        blocked(BLOCKED_NEVER_OPENED, [0]),
    )


def _two_decks_plans(rules: Rules) -> Iterator[Plan]:
    n = rules.players_min

    def round_of(loser: str, went_out: int | None = 0) -> Callable[[Dealer], Sequence[Round]]:
        def deal(dealer: Dealer) -> Round:
            first = Hand(()) if went_out == 0 else Hand(dealer.cards("7H"))
            return Round((first, Hand(dealer.cards(loser)), *deal_hands(dealer, FILLERS[: n - 2])), went_out)

        return one_round(deal)

    yield Plan(
        "round/two-decks/two-copies-in-a-hand", f"{n} players: QS twice in one hand", round_of("QS QS")
    )
    yield Plan(
        "round/two-decks/two-copies-in-two-hands",
        f"{n} players, a blocked round: 7H in two hands",
        round_of("7H 2C", went_out=None),
    )
    yield Plan(
        "round/two-decks/four-jokers", f"{n} players: four jokers in one hand", round_of("JK JK JK JK")
    )
    yield Plan(
        "round/invalid/three-copies", f"{n} players: QS three times", round_of("QS QS QS"), error="copies"
    )
    yield Plan(
        "round/invalid/five-jokers", f"{n} players: five jokers", round_of("JK JK JK JK JK"), error="jokers"
    )


def _invalid_round_plans(rules: Rules) -> Iterator[Plan]:
    """Impossible rounds, each with exactly one fault, so any order of checks finds the same one."""
    n = rules.players_min

    def plan(name: str, description: str, error: str, deal: Callable[[Dealer], Round]) -> Plan:
        return Plan(f"round/invalid/{name}", description, one_round(deal), error=error)

    def fillers(dealer: Dealer, count: int, opened: bool = True) -> list[Hand]:
        return deal_hands(dealer, FILLERS[:count], opened)

    def seats(count: int, went_out: int = 0) -> Callable[[Dealer], Round]:
        return lambda d: Round((Hand(()), *fillers(d, count - 1)), went_out)

    def winner(hand: Hand) -> Callable[[Dealer], Round]:
        return lambda d: Round((hand, *fillers(d, n - 1)), 0)

    yield plan("too-few-players", f"{n - 1} player(s), below players.min", "players", seats(n - 1))
    yield plan(
        "too-many-players",
        f"{rules.players_max + 1} players, above players.max",
        "players",
        seats(rules.players_max + 1),
    )
    yield plan("seat-out-of-range", f"{n} players, went_out is seat {n}", "seat", seats(n, went_out=n))
    yield plan(
        "winner-holds-cards",
        "the seat that went out holds 5C",
        "winner_holds_cards",
        winner(Hand((parse_card("5C"),))),
    )
    yield plan(
        "winner-never-opened",
        "the seat that went out never opened",
        "winner_not_opened",
        winner(Hand((), opened=False)),
    )
    yield plan(
        "empty-hand",
        "seat 1 holds no cards but did not go out",
        "empty_hand",
        lambda d: Round((Hand(()), Hand(()), *fillers(d, n - 2)), 0),
    )
    yield plan(
        "hand-rummy-blocked",
        "hand rummy in a blocked round",
        "hand_rummy_blocked",
        lambda d: Round(tuple(fillers(d, n, opened=False)), None, hand_rummy=True),
    )
    yield plan(
        "hand-rummy-opened",
        "hand rummy, but seat 1 had opened",
        "hand_rummy_opened",
        lambda d: Round((Hand(()), *fillers(d, 1), *fillers(d, n - 2, opened=False)), 0, hand_rummy=True),
    )


def _game_plans(rules: Rules) -> Iterator[Plan]:
    """Games: short of the target, exactly at it (reaching means ≥), a tie that asks for an extra round."""

    def losing(went_out: int, losses: Mapping[int, int], seats: int) -> Round:
        """Seat ``went_out`` goes out, each seat of ``losses`` holds exactly that much, the others 2."""
        dealer = Dealer(rules)  # every round is dealt from full decks
        hands = [
            Hand(()) if seat == went_out else Hand(dealer.worth(losses.get(seat, 2))) for seat in range(seats)
        ]
        return Round(tuple(hands), went_out)

    def all_tied(seats: int) -> Round:
        """A blocked round in which everybody scores 0: it never ends a game."""
        return Round(tuple(deal_hands(Dealer(rules), BLOCKED_ALL_TIED[:seats])), None)

    def game(
        seats: int, *specs: tuple[int, Mapping[int, int]], least: int = 0
    ) -> Callable[[Dealer], Sequence[Round]]:
        def deal(_: Dealer) -> Sequence[Round]:
            if seats > rules.players_max:
                raise Unbuildable(f"needs {seats} players; players.max is {rules.players_max}")
            if engine.target(rules, seats) < least:
                raise Unbuildable(f"needs a target of at least {least}")
            return tuple(losing(out, losses, seats) for out, losses in specs)

        return deal

    n = rules.players_min
    goal = engine.target(rules, n)
    prefix = f"game/{n}-players"
    # Seat 0 goes out every round: its total 0 is the one lowest when seat 1 reaches the target.
    exactly = ((0, {1: goal // 2}), (0, {1: goal - goal // 2}))
    yield Plan(
        f"{prefix}/not-reached",
        f"{n} players, one round: seat 1 totals {goal - 1}, one below the target of {goal}: the game goes on",
        game(n, (0, {1: goal - 1}), least=3),  # the other losers' 2 points stay below it too
        game=True,
    )
    yield Plan(
        f"{prefix}/reaches-target-exactly",
        f"{n} players, two rounds: seat 1 totals exactly the target of {goal} (reaching means ≥): "
        "the game ends and the lowest total wins",
        game(n, *exactly),
        game=True,
    )

    def hand_rummy(dealer: Dealer) -> Sequence[Round]:
        others = deal_hands(dealer, NEVER_OPENED_HANDS[: n - 1], opened=False)
        return (Round((Hand(()), *others), went_out=0, hand_rummy=True),)

    yield Plan(
        f"{prefix}/hand-rummy",
        f"{n} players, the first round is a hand rummy: each opponent pays {rules.hand_rummy_penalty} "
        f"against a target of {goal}",
        hand_rummy,
        game=True,
    )
    yield Plan("game/invalid/no-rounds", "a game without rounds", lambda _: (), game=True, error="no_rounds")

    def players_changed(_: Dealer) -> Sequence[Round]:
        if n + 1 > rules.players_max:
            raise Unbuildable("players.min equals players.max: no other player count is allowed")
        return (all_tied(n), all_tied(n + 1))

    yield Plan(
        "game/invalid/players-changed",
        f"round 1 (a blocked round that scores nothing) has {n} players, round 2 has {n + 1}",
        players_changed,
        game=True,
        error="players_changed",
    )
    yield Plan(
        "game/invalid/round-after-end",
        f"{n} players: the rounds of {prefix}/reaches-target-exactly, then one more",
        game(n, *exactly, (0, {})),
        game=True,
        error="round_after_end",
    )

    # A tie for the lowest total needs three players: with two, one of them scores 0 each round.
    three = max(3, n)
    goal3 = engine.target(rules, three)
    prefix3 = f"game/{three}-players"
    low = 2
    # Seats 0 and 2 lose 2 each, seat 1 reaches the target; seats beyond 2 lose 2 twice (4).
    tie = ((0, {1: goal3 // 2, 2: low}), (2, {0: low, 1: goal3 - goal3 // 2}))
    yield Plan(
        f"{prefix3}/several-reach",
        f"{three} players, one round: seats 1 and 2 both reach the target of {goal3}; the lowest total wins",
        game(three, (0, {1: goal3, 2: goal3 + 1})),
        game=True,
    )
    yield Plan(
        f"{prefix3}/extra-round",
        f"{three} players, two rounds: seat 1 reaches the target of {goal3} while seats 0 and 2 tie "
        f"for the lowest total ({low}): one more round",
        game(three, *tie, least=low + 1),
        game=True,
    )
    yield Plan(
        f"{prefix3}/extra-round-played",
        f"{prefix3}/extra-round, then the extra round: seat 0 goes out, the tie is broken",
        game(three, *tie, (0, {1: 2, 2: 3}), least=low + 1),
        game=True,
    )

    def tied_again(dealer: Dealer) -> Sequence[Round]:
        played = game(three, *tie, least=low + 1)(dealer)
        blocked = Dealer(rules)
        hands = (Hand(blocked.cards("2C")), Hand(blocked.cards("9D")), Hand(blocked.cards("2D")))
        return (*played, Round(hands + tuple(Hand(blocked.worth(9)) for _ in range(three - 3)), None))

    yield Plan(
        f"{prefix3}/extra-round-tied-again",
        f"{prefix3}/extra-round, then a blocked extra round in which seats 0 and 2 tie again (2 each): "
        "still no winner, one more round",
        tied_again,
        game=True,
    )


def planned_vectors(rules: Rules) -> list[Plan]:
    """The generated set, in a fixed order: cards, every player count, two decks, refusals, games."""
    plans = list(_card_value_plans(rules))
    for n in rules.player_counts:
        plans.extend(_player_count_plans(rules, n))
    plans.extend(_two_decks_plans(rules))
    plans.extend(_invalid_round_plans(rules))
    plans.extend(_game_plans(rules))
    return plans
