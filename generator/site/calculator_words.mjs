// calculator_words.mjs: the calculator's words, as the worked examples say them.
//
// A message is the page language's text, or {"en": text} where the catalog lacks it (placed in
// an element marked lang="en"); placeholders are filled with text or nodes, never markup. The
// sentences and arithmetic lines follow generator/pages/view.py's decisions for the examples.

import { cardValue } from "./scoring.mjs";

const PLACEHOLDER = /%\((\w+)\)s/g;

/** A whole number as the page writes it (generator/localedata/cldr.py Formatter.number). */
export function formatNumber(value, format) {
  let digits = String(Math.abs(value));
  if (digits.length >= format.grouping_from) {
    const groups = [digits.slice(-format.primary)];
    let rest = digits.slice(0, -format.primary);
    while (rest.length > format.secondary) {
      groups.unshift(rest.slice(-format.secondary));
      rest = rest.slice(0, -format.secondary);
    }
    if (rest) groups.unshift(rest);
    digits = groups.join(format.group);
  }
  const native = digits.replace(/[0-9]/g, (d) => String.fromCodePoint(format.zero + Number(d)));
  return (value < 0 ? "-" : "") + native;
}

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children);
  return node;
}

export class Words {
  constructor(data) {
    this.data = data;
    this.rtl = data.dir === "rtl";
  }

  /** A message with its placeholders filled: a node (text, or the English fallback marked). */
  say(message, values = {}) {
    const english = typeof message === "object" && message !== null;
    const text = english ? message.en : message;
    const parts = [];
    let at = 0;
    for (const match of text.matchAll(PLACEHOLDER)) {
      parts.push(text.slice(at, match.index));
      const value = values[match[1]];
      parts.push(value === undefined ? match[0] : value);
      at = match.index + match[0].length;
    }
    parts.push(text.slice(at));
    const holder = english
      ? element("span", { lang: "en", class: "rd-untranslated", dir: "ltr" })
      : document.createDocumentFragment();
    holder.append(...parts.filter((part) => part !== ""));
    return holder;
  }

  /** The text alone (an attribute's value, an option's label). */
  plain(message, values = {}) {
    const node = this.say(message, values);
    return node.textContent;
  }

  number(value) {
    const text = formatNumber(value, this.data.numbers);
    // On a right-to-left page a number keeps its place beside the words (the page's <bdi>).
    return this.rtl ? element("bdi", {}, text) : text;
  }

  seat(index) {
    return this.say(this.data.messages.player, { number: this.number(index + 1) });
  }

  /** Seats by name inside a sentence ("o Jogador 2"), joined as the page joins a list (CLDR's
   * patterns, as Babel's format_list). */
  seats(indexes) {
    const said = this.data.messages.player_in_sentence;
    const name = (index) => this.plain(said, { number: formatNumber(index + 1, this.data.numbers) });
    const names = indexes.map(name);
    return this.join(names);
  }

  /** Texts joined as the page joins a list: "A, B and C" (CLDR's patterns, Babel's format_list). */
  join(names) {
    const patterns = this.data.list;
    const join = (pattern, first, second) =>
      pattern.replace(/\{([01])\}/g, (_, which) => (which === "0" ? first : second));
    if (names.length < 3) return names.length === 2 ? join(patterns["2"], names[0], names[1]) : names[0];
    let text = join(patterns.start, names[0], names[1]);
    for (const name of names.slice(2, -1)) text = join(patterns.middle, text, name);
    return join(patterns.end, text, names[names.length - 1]);
  }
}

// ---------------------------------------------------------------- the round's words

/** The terms of a seat's points added up, as the worked examples write them: "10 + 9 + 25 = 44". */
function arithmetic(words, values, surcharge) {
  const terms = surcharge ? [...values, surcharge] : values;
  const shown = terms.map((term) => formatNumber(term, words.data.numbers)).join(" + ");
  const total = terms.reduce((sum, term) => sum + term, 0);
  const text = terms.length === 1 ? shown : `${shown} = ${formatNumber(total, words.data.numbers)}`;
  return words.rtl ? element("bdi", {}, text) : text;
}

function capKind(data, players) {
  const rounded = data.share_rounded[players];
  if (data.fraction === "whole") return "capped_whole";
  if (data.fraction === "half") return rounded ? "capped_half_rounded" : "capped_half";
  return rounded ? "capped_share_rounded" : "capped_share";
}

export function seatSum(words, round, result, seat) {
  const data = words.data;
  const rules = data.rules;
  const values = round.hands[seat].cards.map((code) => cardValue(rules, code));
  const reason = result.reasons[seat];
  const sums = data.messages.sums;
  const players = round.hands.length;
  const charged = () => arithmetic(words, values, rules.never_opened.surcharge);
  switch (reason) {
    case "winner":
      return null;
    case "hand_value":
      return values.length > 1 ? arithmetic(words, values, 0) : null;
    case "never_opened":
      return charged();
    case "hand_rummy":
      return words.say(sums.hand_rummy, { penalty: words.number(result.scores[seat]) });
    case "blocked_winner":
      return words.say(sums.blocked_winner, { sum: arithmetic(words, values, 0) });
    case "capped_fixed":
      return words.say(sums.capped_fixed, { sum: charged(), cap: words.number(result.scores[seat]) });
    default: {
      const cap = words.number(result.scores[seat]);
      return words.say(sums[capKind(data, players)], { sum: charged(), cap, share: data.share });
    }
  }
}

/** A kind of card ("JK", "A", "10" ... "2") and its place in the value table's order. */
function kindOf(code) {
  if (code === "JK") return ["JK", 0];
  const rank = code.slice(0, -1);
  return rank === "A" ? ["A", 1] : [rank, 2 + 10 - Number(rank)];
}

/** The kinds left in the paying hands that cost more than a face card, dearest first; equal
 * values in the value table's order (generator/pages/view.py dearest_kinds). */
function dearestKinds(rules, codes) {
  const kinds = new Map();
  for (const code of codes) {
    const value = cardValue(rules, code);
    if (value <= rules.card_values.face) continue; // a face card is never dearer than itself
    const [kind, place] = kindOf(code);
    kinds.set(kind, [-value, place]);
  }
  const order = (a, b) => kinds.get(a)[0] - kinds.get(b)[0] || kinds.get(a)[1] - kinds.get(b)[1];
  return [...kinds.keys()].sort(order);
}

/** The node with its first letter a capital (a sentence may begin with a card's name). */
function capitalised(node) {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (!text.data) continue;
    const first = String.fromCodePoint(text.data.codePointAt(0));
    text.data = first.toUpperCase() + text.data.slice(first.length);
    break;
  }
  return node;
}

function dearSentence(words, kinds) {
  const said = words.data.messages.sentences;
  const name = (kind) => words.plain(said.kinds[kind]);
  const [first, ...others] = kinds;
  if (!others.length) return capitalised(words.say(said.dear_one, { card: name(first) }));
  const list = words.join(others.map(name));
  return capitalised(words.say(said.dear_more[others.length - 1], { card: name(first), others: list }));
}

/** The round's sentences, in the worked examples' order (generator/pages/view.py). */
export function sentences(words, round, result) {
  const said = words.data.messages.sentences;
  const seatsWith = (reason) => result.reasons.flatMap((r, seat) => (r === reason ? [seat] : []));
  const bySeats = (forms, reason, values = {}) => {
    const seats = seatsWith(reason);
    if (!seats.length) return [];
    // One seat is its own message (%(seat)s), several the plural one (%(seats)s); either may begin
    // with the seat's name and its article ("o Jogador 2 paga…"): a capital first.
    const names = words.seats(seats);
    return [capitalised(words.say(forms[seats.length - 1], { seat: names, seats: names, share: words.data.share, ...values }))];
  };
  const reasons = new Set(result.reasons);
  const blocked = round.went_out === null;
  const alone = [...reasons].every((r) => ["winner", "blocked_winner", "hand_value"].includes(r));
  const out = [];
  if (reasons.has("hand_rummy")) out.push(words.say(said.hand_rummy));
  if (reasons.has("blocked_winner")) out.push(words.say(result.winners.length > 1 ? said.blocked_tie : said.blocked));
  // Where hand values alone decide, the dear cards the payers hold explain the scores.
  const paying = seatsWith("hand_value").flatMap((seat) => round.hands[seat].cards);
  const dearest = alone ? dearestKinds(words.data.rules, paying) : [];
  if (reasons.has("hand_value") && dearest.length) out.push(dearSentence(words, dearest));
  else if (reasons.has("hand_value") && !(blocked && alone)) {
    out.push(words.say(alone ? said.hand_value_alone : said.hand_value[seatsWith("hand_value").length - 1]));
  }
  out.push(...bySeats(said.never_opened, "never_opened"));
  out.push(...bySeats(said.capped_fixed, "capped_fixed"));
  out.push(...bySeats(said[capKind(words.data, round.hands.length)], "capped_target_share"));
  return out;
}
