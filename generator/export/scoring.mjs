// scoring.mjs: the Rami scorer of the rulesdoc export bundle, for web and JavaScript apps.
//
// No dependency, no network: the rules come from the bundle's rules.json (its parsed data),
// so the same module scores under whatever values rules.yaml holds. It scores what the
// `rulesdoc score` command reads, and returns what conformance.json's vectors expect:
//
//   import { readFileSync } from "node:fs";
//   import { score } from "./scoring.mjs";
//   const rules = JSON.parse(readFileSync("rules.json", "utf8"));
//   score(rules, { hands: [{ cards: [], opened: true }, { cards: ["KH", "JK"], opened: false }],
//                  went_out: 0, hand_rummy: false });
//   // -> { scores: [0, 50], winners: [0], reasons: ["winner", "capped_target_share"],
//   //      hand_values: [0, 30], target: 100 }
//
// An impossible round or game gives { error: code }, a code of conformance.json's "errors"
// (the engine's order of checks: the first fault found is the one named). Input that is not
// a round at all (an unknown card, a field of the wrong type) throws a TypeError.

const COPIES_PER_CARD = 2; // two decks: every card twice
const JOKERS_PER_ROUND = 4; // and four jokers
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["C", "D", "H", "S"];
const JOKER = "JK";

class Refusal extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}

/** The rule values: rules.json's document, its "rules" member, or rules.yaml's data. */
function valuesOf(rules) {
  return rules && typeof rules.rules === "object" && rules.rules !== null ? rules.rules : rules;
}

/** A card's canonical code: "AH", "10S" or "JK" (ASCII, case-insensitive, trimmed). */
export function parseCard(text) {
  // ASCII only, as the engine: toUpperCase would turn the long s "ſ" into "S".
  const code = typeof text === "string" && /^[\x00-\x7f]*$/.test(text) ? text.trim().toUpperCase() : "";
  if (code === JOKER) return JOKER;
  if (RANKS.includes(code.slice(0, -1)) && SUITS.includes(code.slice(-1))) return code;
  throw new TypeError(`unknown card ${JSON.stringify(text)}: write rank (A 2-10 J Q K) then suit (C D H S), or JK`);
}

/** What a card costs when left in hand. */
export function cardValue(rules, code) {
  const values = valuesOf(rules).card_values;
  if (code === JOKER) return values.joker;
  const rank = code.slice(0, -1);
  if (rank === "A") return values.ace;
  if (rank === "J" || rank === "Q" || rank === "K") return values.face;
  return Number(rank);
}

/** The game target: a fixed number of points per opponent. */
export function target(rules, players) {
  return valuesOf(rules).target.per_opponent * (players - 1);
}

/** The never-opened cap for this many players, and which cap it is (the fixed one when equal). */
export function neverOpenedCap(rules, players) {
  const never = valuesOf(rules).never_opened;
  const share = floorProduct(target(rules, players), never.cap_target_fraction);
  return never.cap <= share ? [never.cap, "capped_fixed"] : [share, "capped_target_share"];
}

/** floor(integer x fraction), exactly from the fraction's decimal text (as the engine's Fraction):
 * 100 x 0.57 is 57, where floating point gives 56.99999999999999. */
function floorProduct(integer, fraction) {
  const text = String(fraction);
  if (!/^\d+(\.\d+)?$/.test(text)) return Math.floor(integer * fraction); // 1e-7: no decimal text
  const [whole, decimals = ""] = text.split(".");
  const numerator = BigInt(integer) * BigInt(whole + decimals);
  return Number(numerator / 10n ** BigInt(decimals.length)); // non-negative: division floors
}

function readRound(situation) {
  if (typeof situation !== "object" || situation === null || !Array.isArray(situation.hands)) {
    throw new TypeError("a round is an object with a list of hands");
  }
  const hands = situation.hands.map((hand) => ({
    cards: (hand.cards ?? []).map(parseCard),
    opened: hand.opened ?? false,
  }));
  const wentOut = situation.went_out ?? null;
  if (wentOut !== null && !Number.isInteger(wentOut)) throw new TypeError("went_out is a seat number or null");
  if (wentOut !== null && (wentOut < 0 || wentOut >= hands.length)) throw new Refusal("seat");
  return { hands, wentOut, handRummy: situation.hand_rummy ?? false };
}

function checkCopies(hands) {
  const counts = new Map();
  for (const hand of hands) for (const code of hand.cards) counts.set(code, (counts.get(code) ?? 0) + 1);
  for (const code of [...counts.keys()].sort()) {
    const limit = code === JOKER ? JOKERS_PER_ROUND : COPIES_PER_CARD;
    if (counts.get(code) > limit) throw new Refusal(code === JOKER ? "jokers" : "copies");
  }
}

function validateRound(rules, round) {
  const { players } = valuesOf(rules);
  const n = round.hands.length;
  if (n < players.min || n > players.max) throw new Refusal("players");
  checkCopies(round.hands);
  const out = round.wentOut;
  if (out !== null) {
    if (round.hands[out].cards.length) throw new Refusal("winner_holds_cards");
    if (!round.hands[out].opened) throw new Refusal("winner_not_opened");
  }
  if (round.hands.some((hand, seat) => seat !== out && !hand.cards.length)) throw new Refusal("empty_hand");
  if (round.handRummy) {
    if (out === null) throw new Refusal("hand_rummy_blocked");
    if (round.hands.some((hand, seat) => seat !== out && hand.opened)) throw new Refusal("hand_rummy_opened");
  }
}

function scoreValidRound(rules, round) {
  validateRound(rules, round);
  const values = valuesOf(rules);
  const n = round.hands.length;
  const handValues = round.hands.map((hand) => hand.cards.reduce((sum, code) => sum + cardValue(rules, code), 0));
  const lowest = Math.min(...handValues);
  const blocked = round.wentOut === null;
  const scores = [];
  const reasons = [];
  const winners = [];
  round.hands.forEach((hand, seat) => {
    const value = handValues[seat];
    let result;
    if (blocked ? value === lowest : seat === round.wentOut) {
      winners.push(seat);
      result = [0, blocked ? "blocked_winner" : "winner"];
    } else if (round.handRummy) {
      result = [values.hand_rummy.penalty, "hand_rummy"];
    } else if (hand.opened) {
      result = [value, "hand_value"];
    } else {
      const charged = value + values.never_opened.surcharge;
      const [cap, capReason] = neverOpenedCap(rules, n);
      result = charged > cap ? [cap, capReason] : [charged, "never_opened"];
    }
    scores.push(result[0]);
    reasons.push(result[1]);
  });
  return { scores, winners, reasons, hand_values: handValues, target: target(rules, n) };
}

function scoreValidGame(rules, rounds) {
  if (!rounds.length) throw new Refusal("no_rounds");
  const players = rounds[0].hands.length;
  const gameTarget = target(rules, players);
  let totals = new Array(players).fill(0);
  let finished = false;
  let extraRound = false;
  let winner = null;
  const results = [];
  for (const round of rounds) {
    if (finished) throw new Refusal("round_after_end");
    if (round.hands.length !== players) throw new Refusal("players_changed");
    const result = scoreValidRound(rules, round);
    results.push(result);
    totals = totals.map((total, seat) => total + result.scores[seat]);
    if (Math.max(...totals) >= gameTarget) {
      const lowest = Math.min(...totals);
      const leaders = totals.flatMap((total, seat) => (total === lowest ? [seat] : []));
      finished = leaders.length === 1;
      extraRound = !finished;
      winner = finished ? leaders[0] : null;
    }
  }
  return { rounds: results, totals, target: gameTarget, finished, winner, extra_round: extraRound };
}

/**
 * Score what the `score` command reads: one round ({hands, went_out, hand_rummy}), a list of
 * rounds (each scored alone), or a game ({rounds: [...]}, the rounds adding up to totals).
 *
 * @param rules rules.json's document (or its "rules" member)
 * @param input a round, a list of rounds, or a game
 * @returns the vectors' expected result: a round's {scores, winners, reasons, hand_values,
 *   target}, a list of those, or a game's {rounds, totals, target, finished, winner,
 *   extra_round}; {error: code} for an impossible round or game
 */
export function score(rules, input) {
  if (Array.isArray(input)) return input.map((round) => score(rules, round));
  try {
    if (input && typeof input === "object" && "rounds" in input) {
      if (!Array.isArray(input.rounds)) throw new TypeError("a game's rounds are a list");
      return scoreValidGame(rules, input.rounds.map(readRound));
    }
    return scoreValidRound(rules, readRound(input));
  } catch (error) {
    if (error instanceof Refusal) return { error: error.code };
    throw error;
  }
}
