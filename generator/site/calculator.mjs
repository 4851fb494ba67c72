// calculator.mjs: the scoring page's calculator, built into its #rd-calc block.
//
// The data block #rd-calc-data (generator/pages/calculator.py) holds the rules, the card names
// and every text, in the page's language; scoring is the export bundle's scoring.mjs, the same
// module apps use. Texts are placed as text (textContent), never as markup: a catalog cannot
// add a tag. An English fallback ({"en": text}) is marked lang="en", as on the rest of the page.
// Without JavaScript the block stays empty and the page reads as before.

import { score } from "./scoring.mjs";

const PLACEHOLDER = /%\((\w+)\)s/g;

/** A whole number as the page writes it (generator/i18n/cldr.py Formatter.number). */
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

function element(tag, attributes = {}, ...children) {
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

  /** Seats by name, joined as the page joins a list (CLDR's patterns, as Babel's format_list). */
  seats(indexes) {
    const names = indexes.map((index) => this.plain(this.data.messages.player, { number: formatNumber(index + 1, this.data.numbers) }));
    return this.join(names);
  }

  /** Texts joined as the page joins a list: "A, B and C" (CLDR's patterns, Babel's format_list). */
  join(names) {
    const patterns = this.data.list;
    const join = (pattern, first, second) => pattern.replace(/\{([01])\}/g, (_, which) => (which === "0" ? first : second));
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

function seatSum(words, round, result, seat) {
  const data = words.data;
  const rules = data.rules;
  const values = round.hands[seat].cards.map((code) => cardValueOf(rules, code));
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

function cardValueOf(rules, code) {
  const values = rules.card_values;
  if (code === "JK") return values.joker;
  const rank = code.slice(0, -1);
  if (rank === "A") return values.ace;
  if (["J", "Q", "K"].includes(rank)) return values.face;
  return Number(rank);
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
    const value = cardValueOf(rules, code);
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
function sentences(words, round, result) {
  const said = words.data.messages.sentences;
  const seatsWith = (reason) => result.reasons.flatMap((r, seat) => (r === reason ? [seat] : []));
  const bySeats = (forms, reason, values = {}) => {
    const seats = seatsWith(reason);
    return seats.length ? [words.say(forms[seats.length - 1], { seats: words.seats(seats), share: words.data.share, ...values })] : [];
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

// ---------------------------------------------------------------- the form

class Calculator {
  constructor(root, data) {
    this.root = root;
    this.data = data;
    this.words = new Words(data);
    this.players = data.rules.players.min;
    this.hands = [];
    this.wentOut = 0;
    this.handRummy = false;
    this.game = [];
    this.resize(this.players);
    this.build();
  }

  resize(players) {
    this.players = players;
    while (this.hands.length < players) this.hands.push({ cards: [], opened: true });
    this.hands.length = players;
    if (this.wentOut !== null && this.wentOut >= players) this.wentOut = 0;
  }

  round() {
    return {
      hands: this.hands.map((hand) => ({ cards: [...hand.cards], opened: hand.opened })),
      went_out: this.wentOut,
      hand_rummy: this.handRummy,
    };
  }

  id(name) {
    return `rd-calc-${name}`;
  }

  build() {
    const m = this.data.messages;
    const w = this.words;
    const { min, max } = this.data.rules.players;
    const count = element("select", { id: this.id("players") });
    for (let n = min; n <= max; n++) {
      count.append(element("option", { value: n, selected: n === this.players }, formatNumber(n, this.data.numbers)));
    }
    count.addEventListener("change", () => {
      this.resize(Number(count.value));
      this.drawSeats();
      this.update();
    });
    this.seatsBox = element("div", { class: "rd-calc-seats" });
    this.outBox = element("fieldset", { class: "rd-calc-out" });
    const rummy = element("input", { type: "checkbox", id: this.id("rummy"), checked: this.handRummy });
    rummy.addEventListener("change", () => {
      this.handRummy = rummy.checked;
      this.update();
    });
    this.result = element("div", { class: "rd-calc-result", "aria-live": "polite", id: this.id("result") });
    this.sheet = element("div", { class: "rd-calc-sheet", "aria-live": "polite", id: this.id("sheet") });
    const addRound = element("button", { type: "button", id: this.id("add-round"), class: "rd-calc-button" }, w.say(m.add_round));
    addRound.addEventListener("click", () => {
      this.game.push(this.round());
      this.drawGame();
    });
    const newGame = element("button", { type: "button", id: this.id("new-game"), class: "rd-calc-button" }, w.say(m.new_game));
    newGame.addEventListener("click", () => {
      this.game = [];
      this.drawGame();
    });
    const form = element(
      "form",
      { class: "rd-calc-form", "aria-labelledby": this.id("heading") },
      element("p", {}, element("label", { for: this.id("players") }, w.say(m.players)), " ", count),
      this.seatsBox,
      this.outBox,
      element("p", {}, rummy, " ", element("label", { for: this.id("rummy") }, w.say(m.hand_rummy))),
    );
    form.addEventListener("submit", (event) => event.preventDefault());
    this.root.replaceChildren(
      element("h2", { id: this.id("heading") }, w.say(m.heading)),
      element("p", {}, w.say(m.intro)),
      form,
      element("h3", { id: this.id("result-heading") }, w.say(m.result)),
      this.result,
      element("h3", { id: this.id("game-heading") }, w.say(m.game)),
      element("p", { class: "rd-calc-buttons" }, addRound, " ", newGame),
      this.sheet,
    );
    this.drawSeats();
    this.update();
  }

  drawSeats() {
    this.seatsBox.replaceChildren(...this.hands.map((hand, seat) => this.seatBox(hand, seat)));
    this.drawOut();
  }

  seatBox(hand, seat) {
    const m = this.data.messages;
    const w = this.words;
    const opened = element("input", { type: "checkbox", id: this.id(`opened-${seat}`), checked: hand.opened });
    opened.addEventListener("change", () => {
      hand.opened = opened.checked;
      this.update();
    });
    const picker = element("select", { id: this.id(`card-${seat}`) });
    for (const card of this.data.cards) {
      picker.append(element("option", { value: card.code }, `${card.symbol} ${w.plain(card.name)}`));
    }
    const add = element("button", { type: "button", id: this.id(`add-${seat}`), class: "rd-calc-button" }, w.say(m.add));
    const list = element("ul", { class: "rd-calc-hand", id: this.id(`hand-${seat}`), "aria-label": `${w.plain(m.player, { number: formatNumber(seat + 1, this.data.numbers) })}: ${w.plain(m.hand)}` });
    const drawHand = () => {
      list.replaceChildren(...hand.cards.map((code, index) => this.chip(code, () => {
        hand.cards.splice(index, 1);
        drawHand();
        this.update();
        picker.focus();
      })));
      if (!hand.cards.length) list.append(element("li", { class: "rd-calc-empty" }, w.say(m.empty)));
    };
    add.addEventListener("click", () => {
      hand.cards.push(picker.value);
      drawHand();
      this.update();
    });
    drawHand();
    return element(
      "fieldset",
      { class: "rd-calc-seat" },
      element("legend", {}, w.seat(seat)),
      element("p", {}, opened, " ", element("label", { for: this.id(`opened-${seat}`) }, w.say(m.opened))),
      element("p", {}, element("label", { for: this.id(`card-${seat}`) }, w.say(m.card)), " ", picker, " ", add),
      list,
    );
  }

  chip(code, remove) {
    const card = this.data.cards.find((c) => c.code === code);
    const w = this.words;
    const name = w.plain(card.name);
    const button = element("button", { type: "button", class: "rd-calc-remove", "aria-label": w.plain(this.data.messages.remove, { card: name }) }, "×");
    button.addEventListener("click", remove);
    const chip = element("span", { class: `rd-card rd-${card.colour}`, dir: "auto", "data-card": code },
      element("span", { class: "rd-suit", "aria-hidden": "true" }, card.symbol), " ", w.say(card.name));
    return element("li", {}, chip, " ", button);
  }

  drawOut() {
    const m = this.data.messages;
    const w = this.words;
    const choice = (value, label) => {
      const input = element("input", { type: "radio", name: "rd-calc-out", id: this.id(`out-${value}`), value, checked: String(this.wentOut ?? "none") === value });
      input.addEventListener("change", () => {
        this.wentOut = value === "none" ? null : Number(value);
        this.update();
      });
      return element("p", {}, input, " ", element("label", { for: this.id(`out-${value}`) }, label));
    };
    this.outBox.replaceChildren(
      element("legend", {}, w.say(m.went_out)),
      ...this.hands.map((_, seat) => choice(String(seat), w.seat(seat))),
      choice("none", w.say(m.blocked)),
    );
  }

  refusal(code) {
    const errors = this.data.messages.errors;
    return element("p", { class: "rd-calc-error" }, this.words.say(errors[code] ?? errors.other));
  }

  update() {
    const round = this.round();
    const result = score(this.data.rules, round);
    if (result.error) {
      this.result.replaceChildren(this.refusal(result.error));
      return;
    }
    const w = this.words;
    const rows = round.hands.map((_, seat) => {
      const sum = seatSum(w, round, result, seat);
      return element("li", { "data-seat": seat },
        element("strong", {}, w.seat(seat)), " ",
        element("span", { class: "rd-calc-points", "data-points": result.scores[seat] }, w.number(result.scores[seat])),
        ...(sum ? [element("br"), element("small", { class: "rd-calc-sum" }, sum)] : []));
    });
    const said = sentences(w, round, result);
    const text = element("p", { class: "rd-calc-sentences" });
    said.forEach((node, index) => text.append(...(index ? [" ", node] : [node])));
    this.result.replaceChildren(element("ul", { class: "rd-calc-scores" }, ...rows), ...(said.length ? [text] : []));
  }

  drawGame() {
    const m = this.data.messages;
    const w = this.words;
    if (!this.game.length) {
      this.sheet.replaceChildren(element("p", {}, w.say(m.game_empty)));
      return;
    }
    const game = score(this.data.rules, { rounds: this.game });
    if (game.error) {
      this.game.pop(); // the round that made the game impossible is not kept
      const kept = this.game.length ? [] : [element("p", {}, w.say(m.game_empty))];
      this.sheet.replaceChildren(this.refusal(game.error), ...kept);
      if (this.game.length) this.sheet.append(...this.gameTable(score(this.data.rules, { rounds: this.game })));
      return;
    }
    this.sheet.replaceChildren(...this.gameTable(game));
  }

  gameTable(game) {
    const m = this.data.messages;
    const w = this.words;
    const players = game.totals.map((_, seat) => seat);
    const head = element("tr", {}, element("td", {}), ...players.map((seat) => element("th", { scope: "col" }, w.seat(seat))));
    const rows = game.rounds.map((round, index) => element("tr", {},
      element("th", { scope: "row" }, w.say(m.round, { number: w.number(index + 1) })),
      ...round.scores.map((points) => element("td", {}, w.number(points)))));
    const total = element("tr", { class: "rd-calc-total" }, element("th", { scope: "row" }, w.say(m.total)),
      ...game.totals.map((points) => element("td", { "data-total": points }, w.number(points))));
    const table = element("table", {},
      element("caption", {}, w.say(m.game_target, { target: w.number(game.target) })),
      element("thead", {}, head), element("tbody", {}, ...rows), element("tfoot", {}, total));
    const status = [];
    if (game.finished) status.push(element("p", { class: "rd-calc-status" }, w.say(m.game_won, { player: w.seat(game.winner) })));
    else if (game.extra_round) status.push(element("p", { class: "rd-calc-status" }, w.say(m.game_tie)));
    return [element("div", { class: "md-typeset__scrollwrap" }, element("div", { class: "md-typeset__table" }, table)), ...status];
  }
}

function start() {
  const root = document.getElementById("rd-calc");
  const source = document.getElementById("rd-calc-data");
  if (!root || !source || root.dataset.started) return;
  root.dataset.started = "true";
  const calculator = new Calculator(root, JSON.parse(source.textContent));
  calculator.drawGame();
}

start();
