/**
 * The table as the client knows it: the last snapshot with the events after it applied.
 * `applyEvent` mutates the state and returns what the page should say or animate. Events are
 * complete (tables/events.py): in normal play the page never asks for a snapshot; only an
 * event type it does not know (a newer server) makes it refresh.
 * @module table/state
 */
import { cardsText, moneyFormat } from "./format.js";

const RECENT_HANDS = 10;
const CHAT_KEEP = 100; // chat lines kept by the page (the snapshot brings the last 30)
const SEAT_DEFAULTS = {
  status: "playing", in_hand: false, bet: 0, contributed: 0, folded: false, allin: false,
  timed_out: false, has_cards: false, cards: null, shown: false, mucked: false,
  missed_blinds: false, post_bb: false, sit_out_next_bb: false, leaving: false, time_bank: 0,
  time_bank_running: false,
};

/**
 * Build the client state from a `snapshot` message.
 * @param {object} snap the snapshot (docs/protocol.md)
 */
export function fromSnapshot(snap) {
  const state = structuredClone(snap);
  state.clockOffset = Date.parse(snap.server_time) - Date.now();
  state.chat = state.chat || [];
  state.you.muted = state.you.muted || [];
  state.seats.forEach((s) => { s.pending_top_up = 0; s.winner = null; s.description = null; });
  if (state.hand && state.hand.is_over && state.hand.result) markWinners(state, state.hand.result);
  state.dealOrder = (state.hand && state.hand.deal_order) || null;
  const blinds = (state.hand && !state.hand.is_over && state.hand.blinds) || {};
  for (const s of state.seats) {
    s.blind = s.seat === blinds.bb ? "BB" : s.seat === blinds.sb ? "SB"
      : s.seat === blinds.straddle ? "ST" : null;
  }
  return state;
}

/** Carry client-only facts (deal order, descriptions) over to a fresh snapshot. */
export function mergeClientFacts(fresh, old) {
  if (!old) return fresh;
  if (old.hand && fresh.hand && old.hand.id === fresh.hand.id) {
    fresh.dealOrder = fresh.dealOrder || old.dealOrder;
    for (const s of fresh.seats) {
      const before = old.seats.find((o) => o.seat === s.seat);
      if (before) {
        s.description = s.description || before.description;
        s.winner = s.winner || before.winner;
        s.pending_top_up = before.pending_top_up;
        s.blind = s.blind || before.blind;
        if (!s.cards && before.cards && s.seat === (fresh.you && fresh.you.seat)) s.cards = before.cards;
      }
    }
  }
  return fresh;
}

/** JSON with object keys sorted, so that key order never counts as a difference. */
function canonical(value) {
  return JSON.stringify(value, (key, v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
    : v));
}

/**
 * Differences between the state built from events and a fresh snapshot of the same version
 * (empty when the client applies events exactly like the server). Used by the browser tests.
 * @returns {string[]}
 */
export function differences(state, snap) {
  if (snap.version !== state.version) return [`version ${state.version} ≠ ${snap.version}`];
  const out = [];
  const same = (what, a, b) => {
    if (canonical(a) !== canonical(b)) out.push(`${what}: ${canonical(a)} ≠ ${canonical(b)}`);
  };
  same("button", state.button, snap.button);
  same("seats", state.seats.map((s) => s.seat), snap.seats.map((s) => s.seat));
  const live = snap.hand && !snap.hand.is_over;
  for (const s of snap.seats) {
    const mine = seatOf(state, s.seat);
    if (!mine) continue;
    const keys = ["avatar", "stack", "status", "post_bb", "missed_blinds", "sit_out_next_bb", "leaving",
      "time_bank"];
    if (live) keys.push("in_hand", "bet", "contributed", "folded", "allin", "has_cards", "cards",
      "time_bank_running");
    for (const k of keys) same(`seat ${s.seat} ${k}`, mine[k], s[k]);
  }
  same("hand", !!state.hand, !!snap.hand);
  if (state.hand && snap.hand) {
    const keys = ["id", "number", "board", "board2", "is_over", "commitment", "rabbit"];
    if (live) keys.push("street", "pots", "pot_total", "current_bet", "to_act", "deadline",
      "countdown_at", "run_offer");
    for (const k of keys) same(`hand ${k}`, state.hand[k], snap.hand[k]);
  }
  same("legal", state.you.legal, snap.you.legal);
  same("next commitment", state.next_commitment, snap.next_commitment);
  same("recent hands", state.recent_hands, snap.recent_hands);
  return out;
}

/** @returns {object|undefined} */
export function seatOf(state, number) {
  return state.seats.find((s) => s.seat === number);
}

export function mySeat(state) {
  return state.you && state.you.seat != null ? seatOf(state, state.you.seat) : undefined;
}

function nameOf(state, number) {
  const s = seatOf(state, number);
  return s ? s.name : `Seat ${number}`;
}

/** A turn is over: no time bank runs (what is left comes in a `time_banks` event). */
function bankStops(state) {
  for (const s of state.seats) s.time_bank_running = false;
}

function markWinners(state, result) {
  for (const pot of result.pots || []) {
    const hands = Object.fromEntries(pot.hands || []);
    for (const [seat, amount] of pot.shares || []) {
      const s = seatOf(state, seat);
      if (!s) continue;
      s.winner = (s.winner || 0) + amount;
      if (hands[seat]) s.description = hands[seat];
    }
  }
}

/**
 * Apply one event (already known to be the next version).
 * @returns {{say: string[], fly: Array<{seat: number, amount: number}>, refresh: boolean,
 *            myTurn: boolean, newHand: boolean, mine: boolean, chat: boolean}}
 */
export function applyEvent(state, ev) {
  const out = { say: [], fly: [], refresh: false, myTurn: false, newHand: false, mine: false,
    chat: false };
  const cur = state.table.currency;
  const m = (a) => moneyFormat(a, cur);
  const hand = state.hand;
  const seat = ev.seat != null ? seatOf(state, ev.seat) : undefined;
  const me = state.you && state.you.seat;
  switch (ev.type) {
    case "seat_taken": {
      state.seats = state.seats.filter((s) => s.seat !== ev.seat);
      state.seats.push({ ...SEAT_DEFAULTS, seat: ev.seat, player_id: ev.player_id, name: ev.name,
        avatar: ev.avatar, stack: ev.stack, status: ev.status, pending_top_up: 0, winner: null, description: null });
      state.seats.sort((a, b) => a.seat - b.seat);
      if (ev.next_commitment) state.next_commitment = ev.next_commitment;
      if (state.you && ev.player_id === state.you.user_id) {
        state.you.seat = ev.seat;
        state.you.name = ev.name;
        out.mine = true;
      }
      out.say.push(`${ev.name} sits in seat ${ev.seat} with ${m(ev.stack)}.`);
      break;
    }
    case "seat_left": {
      const name = nameOf(state, ev.seat);
      state.seats = state.seats.filter((s) => s.seat !== ev.seat);
      if (state.you && ev.player_id === state.you.user_id) {
        state.you.seat = null;
        state.you.legal = null;
        out.mine = true;
      }
      out.say.push(ev.moved_to ? `${name} is moved to another table.` : `${name} leaves the table.`);
      break;
    }
    case "leaving":
      if (seat) seat.leaving = true;
      out.say.push(`${nameOf(state, ev.seat)} will leave after this hand.`);
      break;
    case "status": {
      const flagOnly = seat && seat.status === ev.status && seat.post_bb === ev.post_bb &&
        seat.missed_blinds === ev.missed_blinds;
      if (seat) Object.assign(seat, { status: ev.status, post_bb: ev.post_bb,
        missed_blinds: ev.missed_blinds, sit_out_next_bb: !!ev.sit_out_next_bb });
      out.say.push(`${nameOf(state, ev.seat)} ${flagOnly
        ? (ev.sit_out_next_bb ? "will sit out at the big blind" : "will post the big blind")
        : ev.post_bb ? "posts a big blind next hand" : {
          sitting_out: "sits out", waiting_bb: "waits for the big blind", playing: "is back in play",
        }[ev.status] || ev.status}.`);
      out.mine = ev.seat === me;
      break;
    }
    case "top_up":
      if (seat && ev.pending) seat.pending_top_up = (seat.pending_top_up || 0) + ev.amount;
      out.say.push(`${nameOf(state, ev.seat)} tops up ${m(ev.amount)}` +
        `${ev.pending ? " (from the next hand)" : ""}.`);
      out.mine = ev.seat === me;
      break;
    case "stacks":
      for (const [n, chips] of Object.entries(ev.stacks)) {
        const s = seatOf(state, Number(n));
        if (s) { s.stack = chips; s.pending_top_up = 0; }
      }
      break;
    case "hand_start": {
      state.button = ev.button;
      state.next_hand_at = null;
      state.dealOrder = ev.seats;
      state.hand = { id: ev.hand_id, number: ev.number, street: "preflop", board: [], pots: [],
        pot_total: 0, current_bet: 0, to_act: null, deadline: null, countdown_at: null,
        seconds_left: null, commitment: ev.commitment, is_over: false, result: null,
        rabbit: null, board2: null, run_offer: null };
      state.next_commitment = ev.next_commitment;
      state.you.legal = null;
      for (const s of state.seats) {
        Object.assign(s, { in_hand: ev.seats.includes(s.seat), bet: 0, contributed: 0,
          folded: false, allin: false, timed_out: false, has_cards: false, cards: null,
          shown: false, mucked: false, winner: null, description: null, blind: null });
        if (s.in_hand) Object.assign(s, { status: "playing", post_bb: false, missed_blinds: false });
      }
      for (const p of ev.players || []) {
        const s = seatOf(state, p.seat);
        if (s) { s.stack = p.stack; s.name = p.name; }
      }
      out.newHand = true;
      out.say.push(`Hand #${ev.number} begins. ${nameOf(state, ev.button)} has the button.`);
      break;
    }
    case "posted_blind":
    case "posted_ante":
      if (seat && hand) {
        if (ev.type === "posted_blind") {
          seat.bet += ev.amount;
          seat.blind = { sb: "SB", bb: "BB", extra_bb: "BB", straddle: "ST" }[ev.kind] || null;
        }
        seat.contributed += ev.amount;
        seat.stack = ev.stack;
        hand.pot_total += ev.amount;
        hand.current_bet = Math.max(hand.current_bet, seat.bet);
      }
      // ("forced": a tournament table's blinds, posted by seat for the dead button)
      out.say.push(`${nameOf(state, ev.seat)} posts ${{ sb: "the small blind", bb: "the big blind",
        extra_bb: "a big blind", straddle: "a straddle", forced: "a blind",
        bb_ante: "the big-blind ante" }[ev.kind] || "an ante"} of ${m(ev.amount)}.`);
      break;
    case "hole_cards":
      if (seat) {
        seat.has_cards = true;
        if (ev.cards) {
          seat.cards = ev.cards;
          out.say.push(`Your cards: ${cardsText(ev.cards)}.`);
        }
      }
      break;
    case "turn":
    case "deadline_extended":
      if (hand) Object.assign(hand, { to_act: ev.seat, deadline: ev.deadline,
        countdown_at: ev.countdown_at });
      if (ev.type === "turn") {
        bankStops(state);
        state.you.legal = ev.seat === me && ev.legal ? ev.legal : null;
        if (ev.seat === me) out.myTurn = true;
        else out.say.push(`${nameOf(state, ev.seat)} to act.`);
        if (hand) hand.street = ev.street;
      } else {
        out.say.push(`${nameOf(state, ev.seat)} gets more time (reconnected).`);
      }
      break;
    case "time_bank":
      if (hand) Object.assign(hand, { to_act: ev.seat, deadline: ev.deadline,
        countdown_at: ev.countdown_at });
      if (seat) Object.assign(seat, { time_bank: ev.seconds, time_bank_running: true });
      out.say.push(ev.seat === me ? `Your time bank runs: ${ev.seconds} seconds.`
        : `${nameOf(state, ev.seat)} uses the time bank (${ev.seconds} s).`);
      break;
    case "time_banks": {
      const changed = [];
      for (const [n, seconds] of Object.entries(ev.banks)) {
        const s = seatOf(state, Number(n));
        if (!s) continue;
        Object.assign(s, { time_bank: seconds, time_bank_running: false });
        changed.push(`${s.name} ${seconds} s`);
      }
      if (ev.reason === "refill" && changed.length) out.say.push(`Time banks topped up: ${changed.join(", ")}.`);
      else if (ev.reason === "used" && changed.length) out.say.push(`Time bank left: ${changed.join(", ")}.`);
      break;
    }
    case "action": {
      bankStops(state);
      if (hand) { hand.to_act = null; hand.deadline = null; hand.countdown_at = null; }
      if (ev.seat === me) state.you.legal = null;
      const name = nameOf(state, ev.seat);
      if (seat && hand) {
        if (ev.action === "fold") {  // no longer eligible for the pots gathered so far
          seat.folded = true; seat.has_cards = false;
          for (const pot of hand.pots) pot.eligible = pot.eligible.filter((n) => n !== ev.seat);
        }
        if (ev.action === "call") {
          seat.bet += ev.amount; seat.contributed += ev.amount; hand.pot_total += ev.amount;
        }
        if (ev.action === "bet" || ev.action === "raise") {
          const added = ev.added != null ? ev.added : ev.amount - seat.bet;
          seat.bet = ev.amount; seat.contributed += added; hand.pot_total += added;
          hand.current_bet = Math.max(hand.current_bet, ev.amount);
        }
        if (ev.action === "timeout_allin") seat.timed_out = true;
        if (ev.stack != null) seat.stack = ev.stack;
        if (ev.allin) seat.allin = true;
      }
      const verb = {
        fold: "folds", check: "checks", call: `calls ${m(ev.amount)}`,
        bet: `bets ${m(ev.amount)}`, raise: `raises to ${m(ev.amount)}`,
        timeout_allin: "is timeout all-in",
      }[ev.action] || ev.action;
      out.say.push(`${name}${ev.timeout ? " timed out and" : ""} ${verb}${ev.allin ? " (all-in)" : ""}.`);
      break;
    }
    case "returned_uncalled":
      if (seat && hand) {
        seat.bet -= ev.amount; seat.contributed -= ev.amount; hand.pot_total -= ev.amount;
        seat.stack = ev.stack;
      }
      out.say.push(`${m(ev.amount)} uncalled returned to ${nameOf(state, ev.seat)}.`);
      break;
    case "board":
      if (hand) {
        hand.street = ev.street;
        hand.board = ev.board;
        hand.current_bet = 0;
        hand.pots = ev.pots;
      }
      for (const s of state.seats) s.bet = 0;
      out.say.push(`${ev.street[0].toUpperCase()}${ev.street.slice(1)}: ${cardsText(ev.cards)}.`);
      break;
    case "run_twice_offer":
      if (hand) {
        hand.run_offer = { seats: ev.seats, deadline: ev.deadline,
          votes: Object.fromEntries(ev.seats.map((n) => [String(n), null])) };
        hand.to_act = null;
      }
      state.you.legal = null;
      out.say.push(`All in: ${ev.seats.map((n) => nameOf(state, n)).join(" and ")} ` +
        "are asked to run it twice.");
      break;
    case "run_twice_vote":
      if (hand && hand.run_offer) hand.run_offer.votes[String(ev.seat)] = ev.twice;
      out.say.push(`${nameOf(state, ev.seat)} says ${ev.twice ? "twice" : "once"}.`);
      break;
    case "run_twice_decided":
      if (hand) hand.run_offer = null;
      out.say.push(ev.runs === 2 ? "The board is run twice." : "The board is run once.");
      break;
    case "second_board":
      if (hand) hand.board2 = ev.board;
      out.say.push(`Second run, ${ev.street}: ${cardsText(ev.cards)}.`);
      break;
    case "shown":
      if (seat) {
        seat.cards = ev.cards; seat.shown = true; seat.has_cards = true;
        if (ev.description) seat.description = ev.description;
      }
      out.say.push(`${nameOf(state, ev.seat)} shows ${cardsText(ev.cards)}` +
        `${ev.description ? ` (${ev.description})` : ""}.`);
      break;
    case "mucked":
      if (seat) { seat.mucked = true; seat.has_cards = false; }
      out.say.push(`${nameOf(state, ev.seat)} mucks.`);
      break;
    case "pot_awarded": {
      const hands = Object.fromEntries(ev.hands || []);
      for (const [n, amount] of ev.shares || []) {
        const s = seatOf(state, n);
        if (s) {
          s.winner = (s.winner || 0) + amount;
          if (hands[n]) s.description = hands[n];
        }
        out.fly.push({ seat: n, amount });
        out.say.push(`${nameOf(state, n)} wins ${m(amount)}${hands[n] ? ` with ${hands[n]}` : ""}.`);
      }
      break;
    }
    case "rake":
      out.say.push(`Rake: ${m(ev.amount)}.`);
      break;
    case "hand_end":
      bankStops(state);
      if (hand) {
        Object.assign(hand, { is_over: true, street: "over", to_act: null, deadline: null,
          countdown_at: null, result: ev.result });
      }
      state.next_hand_at = ev.next_hand_at;
      state.you.legal = null;
      for (const p of (ev.result && ev.result.players) || []) {
        const s = seatOf(state, p.seat);
        if (s) s.stack = p.stack;
      }
      for (const s of state.seats) s.bet = 0;
      state.recent_hands = [ev.recent, ...(state.recent_hands || [])
        .filter((r) => r.id !== ev.recent.id)].slice(0, RECENT_HANDS);
      out.say.push("The hand is over.");
      break;
    case "rabbit_hunt": // the board a fold-out left undealt: shown beside the board, not in it
      if (hand && hand.id === ev.hand_id) hand.rabbit = ev.cards;
      out.say.push(`${nameOf(state, ev.seat)} hunts the rabbit: ${cardsText(ev.cards)} would have come.`);
      break;
    case "chat": // a line: the chat panel (chat.js) shows it; the snapshot may have it already
      if (!state.chat.some((l) => l.id === ev.id)) {
        state.chat = [...state.chat, { id: ev.id, player_id: ev.player_id, name: ev.name,
          text: ev.text, at: ev.at }].slice(-CHAT_KEEP);
      }
      out.chat = true;
      break;
    case "chat_hidden":
      state.chat = state.chat.filter((l) => l.id !== ev.id);
      out.chat = true;
      break;
    default: // a type this page does not know: a newer server; the snapshot knows
      out.refresh = true;
  }
  return out;
}
