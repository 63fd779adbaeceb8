/**
 * Text mode for screen readers (Lichess's blind mode is the model): the player types a command
 * and hears the answer in a live region. It reads the same client state the felt is drawn from
 * (state.js) and acts through the action bar (actions.js), so an action typed here sends the
 * very message a click sends and meets the same server checks and errors.
 *
 * Commands: hand, board, pot, stacks, time, last [n], actions, help; fold, check, call,
 * bet N, raise N, all in, show, muck. Amounts are in the table's money (dollars at a real-money
 * table, chips at a play-money table).
 * @module table/textmode
 */
import { cardsText, chips, moneyFormat, secondsUntil } from "./format.js";
import { mySeat, seatOf } from "./state.js";

const $ = (id) => document.getElementById(id);
/** Answers kept on screen under the input (the newest is also spoken). */
const KEEP = 30;
/** Lines of this hand kept for `last`. */
const HAND_LINES = 60;
const LAST_DEFAULT = 5;

const STREET_WORDS = { preflop: "preflop", flop: "on the flop", turn: "on the turn",
  river: "on the river" };

export const HELP = "Commands: hand (your cards), board, pot, stacks (every seat), " +
  "time (time to act and your time bank), last (this hand's last actions; last 10 for ten), " +
  "actions (what you may do now); to act: fold, check, call, bet 20, raise 40, all in, " +
  "show, muck. Amounts are in the table's money.";

/** "1,250" / "2.50" / "$3" typed by a player → minor units, or null. */
export function parseAmount(text, currency) {
  const clean = String(text).replace(/[$,\s]/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const scale = currency === "REAL" ? 100 : 1;
  const amount = Math.round(Number(clean) * scale);
  return Number.isSafeInteger(amount) ? amount : null;
}

/** The sizes a bet or raise may take, as the action bar says them: "raise to 4 up to 100". */
function sizeWords(legal, m) {
  const fixed = legal.min_to === legal.max_to;
  if (legal.bet) return fixed ? `bet ${m(legal.min_to)}` : `bet ${m(legal.min_to)} to ${m(legal.max_to)}`;
  return fixed ? `raise to ${m(legal.min_to)}` : `raise to ${m(legal.min_to)} up to ${m(legal.max_to)}`;
}

export class TextMode {
  /**
   * @param {object} opts
   * @param {() => object|null} opts.state the table state (state.js), null before the snapshot
   * @param {import("./actions.js").ActionBar} opts.bar acts exactly as its buttons do
   */
  constructor({ state, bar }) {
    Object.assign(this, { getState: state, bar });
    this.on = false;
    /** @type {Array<{hand: number|null, text: string}>} what the table said, newest last */
    this.heard = [];
    this.box = $("text-mode");
    this.input = $("text-mode-input");
    this.answerEl = $("text-mode-answer");
    this.history = $("text-mode-history");
    // (Without the page's form — a test importing the module — `run` still answers.)
    $("text-mode-form")?.addEventListener("submit", (e) => {
      e.preventDefault();
      const command = this.input.value;
      this.input.value = "";
      if (command.trim()) this.answer(this.run(command), command.trim());
    });
  }

  /** Show or hide the text mode (the "Text mode" toggle). */
  show(on, { focus = false } = {}) {
    this.on = on;
    this.box.hidden = !on;
    if (on && focus) this.input.focus();
  }

  /** A sentence the table announced (game events): kept for `last`. */
  hear(text) {
    const state = this.getState();
    const hand = state && state.hand ? state.hand.id : null;
    this.heard = [...this.heard, { hand, text }].slice(-HAND_LINES);
  }

  /** The server refused something: said here too when the text mode is on. */
  refused(text) {
    if (this.on) this.answer(`Refused: ${text}`);
  }

  /** Speak an answer (the live region) and keep it in the list under the input. */
  answer(text, command = null) {
    this.answerEl.textContent = text;
    const li = document.createElement("li");
    if (command) {
      const typed = document.createElement("kbd");
      typed.textContent = command;
      li.append(typed, " ");
    }
    li.append(text);
    this.history.prepend(li);
    while (this.history.children.length > KEEP) this.history.lastChild.remove();
  }

  /**
   * The answer to one typed command.
   * @param {string} command
   * @returns {string}
   */
  run(command) {
    const state = this.getState();
    if (!state) return "Not connected yet: try again in a moment.";
    const words = command.trim().toLowerCase().split(/\s+/);
    const [verb, arg] = words;
    const ask = {
      help: () => HELP,
      hand: () => this.hand(state),
      cards: () => this.hand(state),
      board: () => this.board(state),
      pot: () => this.pot(state),
      stacks: () => this.stacks(state),
      time: () => this.time(state),
      last: () => this.last(state, arg),
      actions: () => this.options(state),
    }[verb];
    if (ask) return ask();
    const act = words.join(" ") === "all in" || verb === "allin" || verb === "all-in" ? "allin" : verb;
    if (["fold", "check", "call", "bet", "raise", "allin", "show", "muck"].includes(act)) {
      return this.act(state, act, arg);
    }
    return `Unknown command "${command.trim()}". Type help for the list.`;
  }

  hand(state) {
    const me = mySeat(state);
    if (!me) return "You are not seated at this table.";
    if (!me.cards || !state.hand) return "You have no cards now.";
    const folded = me.folded && !state.hand.is_over ? " You folded." : "";
    return `Your cards: ${cardsText(me.cards)}.${folded}`;
  }

  board(state) {
    const hand = state.hand;
    if (!hand) return "No hand is being played.";
    const rabbit = hand.is_over && hand.rabbit ? ` Rabbit hunt: ${cardsText(hand.rabbit)} would have come.` : "";
    if (!hand.board.length) return `Board: no cards yet.${rabbit}`;
    const second = hand.board2 || (hand.result && hand.result.board2);
    if (second) return `First board: ${cardsText(hand.board)}. Second board: ${cardsText(second)}.`;
    return `Board: ${cardsText(hand.board)}.${rabbit}`;
  }

  pot(state) {
    const hand = state.hand;
    const t = state.table;
    if (!hand || hand.is_over) return "No pot: no hand is being played.";
    const pots = (hand.pots || []).filter((p) => p.amount > 0);
    let text = `Pot: ${chips(hand.pot_total, t)}`;
    if (pots.length > 1) {
      text += ` (${pots.map((p, i) => `${i === 0 ? "main pot" : `side pot ${i}`} ${chips(p.amount, t)}`).join(", ")})`;
    }
    const legal = state.you.legal;
    if (legal && legal.call) text += `. To call: ${chips(legal.call_amount, t)}`;
    return `${text}.`;
  }

  stacks(state) {
    if (!state.seats.length) return "Nobody is seated.";
    return state.seats.map((s) => this.seatLine(state, s)).join(" ");
  }

  /** "Seat 2: bob (big blind), stack 98, bet 2, to act." */
  seatLine(state, s) {
    const t = state.table;
    const hand = state.hand;
    const live = hand && !hand.is_over && s.in_hand;
    const who = [s.seat === state.you.seat && "you", state.button === s.seat && "button",
      live && s.blind === "SB" && "small blind", live && s.blind === "BB" && "big blind",
      live && s.blind === "ST" && "straddle"]
      .filter(Boolean);
    const bits = [`stack ${chips(s.stack, t)}`];
    if (live && s.bet > 0) bits.push(`bet ${chips(s.bet, t)}`);
    if (s.status === "sitting_out") bits.push("sitting out");
    else if (s.status === "waiting_bb") bits.push("waiting for the big blind");
    if (live) {
      if (s.folded) bits.push("folded");
      else if (s.allin) bits.push(s.timed_out ? "timeout all-in" : "all-in");
      else bits.push("in the hand");
      if (hand.to_act === s.seat) bits.push("to act");
    } else if (hand && !hand.is_over) {
      bits.push("not in this hand");
    }
    if (s.leaving) bits.push("leaving");
    return `Seat ${s.seat}: ${s.name}${who.length ? ` (${who.join(", ")})` : ""}, ${bits.join(", ")}.`;
  }

  time(state) {
    const hand = state.hand;
    const me = mySeat(state);
    const bank = state.table.time_bank && me ? ` Your time bank: ${me.time_bank} seconds.` : "";
    if (!hand || hand.is_over || hand.to_act == null || !hand.deadline) {
      return `Nobody is to act.${bank}`;
    }
    const left = Math.max(0, Math.ceil(secondsUntil(hand.deadline, state.clockOffset)));
    const acting = seatOf(state, hand.to_act);
    const running = acting && acting.time_bank_running ? " (on the time bank)" : "";
    const whose = hand.to_act === state.you.seat ? "Your turn"
      : `${acting ? acting.name : `Seat ${hand.to_act}`} to act`;
    return `${whose}: ${left} seconds left${running}.${bank}`;
  }

  last(state, arg) {
    const count = Math.max(1, Math.min(HAND_LINES, Number(arg) || LAST_DEFAULT));
    const current = state.hand ? state.hand.id : null;
    const lines = this.heard.filter((l) => l.hand === current).map((l) => l.text);
    if (!lines.length) return "Nothing has happened in this hand yet.";
    return lines.slice(-count).join(" ");
  }

  /** What the viewer may do now, in words. */
  options(state) {
    const legal = state.you.legal;
    const t = state.table;
    const m = (a) => moneyFormat(a, t.currency);
    if (!legal) {
      const hand = state.hand;
      const acting = hand && hand.to_act != null ? seatOf(state, hand.to_act) : null;
      return acting ? `It is not your turn: ${acting.name} is to act.` : "It is not your turn.";
    }
    if (legal.show || legal.muck) {
      return `Showdown: ${[legal.show && "show", legal.muck && "muck"].filter(Boolean).join(" or ")}.`;
    }
    const options = [legal.fold && "fold", legal.check && "check",
      legal.call && `call ${m(legal.call_amount)}`,
      (legal.bet || legal.raise) && sizeWords(legal, m),
    ].filter(Boolean);
    return `Your turn ${STREET_WORDS[state.hand.street] || ""}: ${options.join(", ")}.`.replace(" :", ":");
  }

  /**
   * An action: checked against the legal actions the bar offers, then sent by the bar.
   * @param {string} act fold, check, call, bet, raise, allin, show or muck
   * @param {string|undefined} arg the amount typed after bet/raise
   */
  act(state, act, arg) {
    const legal = state.you.legal;
    if (!mySeat(state)) return "You are not seated at this table.";
    if (!legal) return this.options(state);
    const t = state.table;
    const m = (a) => moneyFormat(a, t.currency);
    if (act === "show" || act === "muck") {
      if (!legal[act]) return `You cannot ${act} now. ${this.options(state)}`;
      this.bar.showdown(act);
      return `Sent: ${act}.`;
    }
    if (legal.show || legal.muck) return this.options(state);
    if (act === "fold" || act === "check" || act === "call") {
      if (!legal[act]) return `You cannot ${act} now. ${this.options(state)}`;
      this.bar.act(act);
      return `Sent: ${act === "call" ? `call ${m(legal.call_amount)}` : act}.`;
    }
    const kind = legal.bet ? "bet" : "raise";
    if (act === "allin") {
      if (legal.bet || legal.raise) {
        this.bar.act(kind, legal.max_to);
        return `Sent: all in, ${kind === "bet" ? "bet" : "raise to"} ${m(legal.max_to)}.`;
      }
      if (legal.call) { this.bar.act("call"); return `Sent: call ${m(legal.call_amount)}, all in.`; }
      return `You cannot go all in now. ${this.options(state)}`;
    }
    if (!legal.bet && !legal.raise) return `You cannot ${act} now. ${this.options(state)}`;
    const verb = kind === "bet" ? "bet" : "raise to";
    const sizes = sizeWords(legal, m);
    if (arg == null) {
      if (legal.min_to !== legal.max_to) return `Say how much: you may ${sizes}.`;
      this.bar.act(kind, legal.min_to);
      return `Sent: ${verb} ${m(legal.min_to)}.`;
    }
    const amount = parseAmount(arg, t.currency);
    if (amount == null) return `"${arg}" is not an amount: you may ${sizes}.`;
    if (amount < legal.min_to || amount > legal.max_to) {
      return `You cannot ${verb} ${m(amount)}: you may ${sizes}.`;
    }
    this.bar.act(kind, amount);
    return `Sent: ${verb} ${m(amount)}.`;
  }
}
