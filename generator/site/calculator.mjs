// calculator.mjs: the scoring page's calculator, built into its #rd-calc block.
//
// The data block #rd-calc-data (generator/pages/calculator.py) holds the rules, the card names
// and every text, in the page's language; scoring is the export bundle's scoring.mjs, the same
// module apps use. Texts are placed as text (textContent), never as markup: a catalog cannot
// add a tag. An English fallback ({"en": text}) is marked lang="en", as on the rest of the page.
// Without JavaScript the block stays empty and the page reads as before.
//
// The round and the game live in the page address, after "#calc=" (written with replaceState on
// every change, read at the start and again when the reader pastes such a link into the open
// page: replaceState fires no hashchange, so only a new address does); any other fragment is
// the page's own (a heading) and is left alone. The address is untrusted input: read within
// bounds, cards only from the page's list, and anything else ignored whole.

import { score } from "./scoring.mjs";
import { Words, element, formatNumber, seatSum, sentences } from "./calculator_words.mjs";

export { Words, formatNumber }; // for the browser tests, which import the page's own module

// ---------------------------------------------------------------- the page address

const PREFIX = "#calc=";
const VERSION = "1";
const MAX_ADDRESS = 16384; // characters of the fragment
const MAX_ROUNDS = 500; // rounds of a game
const MAX_CARDS = 108; // cards in one hand: two decks

/** A round as text: "<went out, or b for blocked>[r for hand rummy]-<seat>-<seat>...", a seat
 * "o" (opened) or "n" then its cards joined by "." ("1-o5C.6D-o-nJK"). */
function encodeRound(round) {
  const out = (round.went_out === null ? "b" : String(round.went_out)) + (round.hand_rummy ? "r" : "");
  return [out, ...round.hands.map((hand) => (hand.opened ? "o" : "n") + hand.cards.join("."))].join("-");
}

/** The fragment of a state: the version, the round on the form, then the game's rounds. */
function encodeState(round, game) {
  return PREFIX + [VERSION, encodeRound(round), ...game.map(encodeRound)].join("~");
}

function decodeRound(text, codes, players) {
  const [head, ...seats] = text.split("-");
  const found = /^(b|[0-9]{1,2})(r?)$/.exec(head);
  if (!found || seats.length < players.min || seats.length > players.max) return null;
  const hands = [];
  for (const seat of seats) {
    if (seat[0] !== "o" && seat[0] !== "n") return null;
    const cards = seat.length > 1 ? seat.slice(1).split(".") : [];
    if (cards.length > MAX_CARDS || !cards.every((code) => codes.has(code))) return null;
    hands.push({ cards, opened: seat[0] === "o" });
  }
  const wentOut = found[1] === "b" ? null : Number(found[1]);
  if (wentOut !== null && wentOut >= hands.length) return null;
  return { hands, went_out: wentOut, hand_rummy: found[2] === "r" };
}

/** The round and the game of a fragment, or null: not ours, too long, or not a state. */
function decodeState(fragment, codes, players) {
  if (typeof fragment !== "string" || !fragment.startsWith(PREFIX) || fragment.length > MAX_ADDRESS) return null;
  const [version, ...texts] = fragment.slice(PREFIX.length).split("~");
  if (version !== VERSION || !texts.length || texts.length > MAX_ROUNDS + 1) return null;
  const rounds = texts.map((text) => decodeRound(text, codes, players));
  if (rounds.some((round) => round === null)) return null;
  return { round: rounds[0], game: rounds.slice(1) };
}

// ---------------------------------------------------------------- the form

/** The page's cards by code, in the deck's order: each its name (the catalog's) and its suit's
 * symbol and colour, which the data gives once per suit ("suits", by the code's last letter, or
 * by the joker's code). */
function deck(data) {
  return new Map(data.cards.map(([code, name]) => {
    const [symbol, colour] = data.suits[code in data.suits ? code : code.slice(-1)];
    return [code, { name, symbol, colour }];
  }));
}

class Calculator {
  constructor(root, data) {
    this.root = root;
    this.data = data;
    this.words = new Words(data);
    this.cards = deck(data);
    this.players = data.rules.players.min;
    this.hands = [];
    this.wentOut = 0;
    this.handRummy = false;
    this.game = [];
    this.saving = false; // the page's own fragment stays until the reader changes something
    this.restore(location.hash);
    this.resize(this.players);
    this.build();
  }

  restore(fragment) {
    const codes = new Set(this.cards.keys());
    const saved = decodeState(fragment, codes, this.data.rules.players);
    if (!saved) return false;
    this.players = saved.round.hands.length;
    this.hands = saved.round.hands;
    this.wentOut = saved.round.went_out;
    this.handRummy = saved.round.hand_rummy;
    // A game this page's scorer refuses (edited by hand) is not kept; the round still is.
    const game = saved.game.length ? score(this.data.rules, { rounds: saved.game }) : null;
    this.game = game && !game.error ? saved.game : [];
    return true;
  }

  /** A state pasted into the open page's address: shown as if the page had been opened with it.
   * Anything else (a heading's fragment, a state this page cannot read) leaves the form as it is. */
  reread(fragment) {
    if (!this.restore(fragment)) return;
    this.build();
    this.drawGame();
  }

  save() {
    if (!this.saving) return;
    const fragment = encodeState(this.round(), this.game);
    const address = fragment.length <= MAX_ADDRESS ? fragment : location.pathname + location.search;
    history.replaceState(history.state, "", address);
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

  button(name, label) {
    return element("button", { type: "button", id: this.id(name), class: "rd-calc-button" }, label);
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
    this.result = element("div", { class: "rd-calc-result rd-calc-round", "aria-live": "polite", id: this.id("result") });
    this.sheet = element("div", { class: "rd-calc-sheet", "aria-live": "polite", id: this.id("sheet") });
    const addRound = this.button("add-round", w.say(m.add_round));
    addRound.addEventListener("click", () => {
      this.game.push(this.round());
      this.drawGame();
    });
    const newGame = this.button("new-game", w.say(m.new_game));
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
      element("p", { class: "rd-calc-intro" }, w.say(m.intro)),
      form,
      element("h3", { id: this.id("result-heading"), class: "rd-calc-round" }, w.say(m.result)),
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
    for (const [code, card] of this.cards) {
      picker.append(element("option", { value: code }, `${card.symbol} ${w.plain(card.name)}`));
    }
    const add = this.button(`add-${seat}`, w.say(m.add));
    const name = w.plain(m.player, { number: formatNumber(seat + 1, this.data.numbers) });
    const list = element("ul", { class: "rd-calc-hand", id: this.id(`hand-${seat}`), "aria-label": `${name}: ${w.plain(m.hand)}` });
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
    const card = this.cards.get(code);
    const w = this.words;
    const name = w.plain(card.name);
    const label = w.plain(this.data.messages.remove, { card: name });
    const button = element("button", { type: "button", class: "rd-calc-remove", "aria-label": label }, "×");
    button.addEventListener("click", remove);
    const chip = element("span", { class: `rd-card rd-${card.colour}`, dir: "auto", "data-card": code },
      element("span", { class: "rd-suit", "aria-hidden": "true" }, card.symbol), " ", w.say(card.name));
    return element("li", {}, chip, " ", button);
  }

  drawOut() {
    const m = this.data.messages;
    const w = this.words;
    const choice = (value, label) => {
      const checked = String(this.wentOut ?? "none") === value;
      const input = element("input", { type: "radio", name: "rd-calc-out", id: this.id(`out-${value}`), value, checked });
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
    this.showRound();
    this.save();
  }

  showRound() {
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
    this.showGame();
    this.save();
  }

  showGame() {
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
    const columns = players.map((seat) => element("th", { scope: "col" }, w.seat(seat)));
    const head = element("tr", {}, element("td", {}), ...columns);
    const rows = game.rounds.map((round, index) => element("tr", {},
      element("th", { scope: "row" }, w.say(m.round, { number: w.number(index + 1) })),
      ...round.scores.map((points) => element("td", {}, w.number(points)))));
    const total = element("tr", { class: "rd-calc-total" }, element("th", { scope: "row" }, w.say(m.total)),
      ...game.totals.map((points) => element("td", { "data-total": points }, w.number(points))));
    const table = element("table", {},
      element("caption", {}, w.say(m.game_target, { target: w.number(game.target) })),
      element("thead", {}, head), element("tbody", {}, ...rows), element("tfoot", {}, total));
    const status = [];
    const won = () => w.say(m.game_won, { player: w.seat(game.winner) });
    if (game.finished) status.push(element("p", { class: "rd-calc-status" }, won()));
    else if (game.extra_round) status.push(element("p", { class: "rd-calc-status" }, w.say(m.game_tie)));
    const wrapped = element("div", { class: "md-typeset__table" }, table); // as Material wraps a page's table
    return [element("div", { class: "md-typeset__scrollwrap" }, wrapped), ...status];
  }
}

function start() {
  const root = document.getElementById("rd-calc");
  const source = document.getElementById("rd-calc-data");
  if (!root || !source || root.dataset.started) return;
  root.dataset.started = "true";
  const calculator = new Calculator(root, JSON.parse(source.textContent));
  calculator.drawGame();
  calculator.saving = true;
  addEventListener("hashchange", () => calculator.reread(location.hash));
}

start();
