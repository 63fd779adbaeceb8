/**
 * The action bar (only what the server's legal-action data allows, amounts clamped to its
 * range), pre-action checkboxes, show/muck, and the seat controls.
 * @module table/actions
 */
import { chips, inBigBlinds, moneyFormat } from "./format.js";
import { amountNote, clampAmount, presets, rangeText } from "./sizing.js";
import { mySeat } from "./state.js";

export { clampAmount };

const $ = (id) => document.getElementById(id);

/** Minor units per displayed unit: the amount box shows dollars for real money. */
function scale(state) { return state.table.currency === "REAL" ? 100 : 1; }

/** Minor units per unit of the amount box: a big blind in the "In BB" view, else `scale`. */
function boxUnit(state) { return inBigBlinds() ? state.table.big_blind : scale(state); }

/** An amount as the box shows it: big blinds to one decimal, or money units. */
function boxValue(amount, state) {
  return inBigBlinds() ? String(Math.round((amount * 10) / state.table.big_blind) / 10)
    : String(amount / scale(state));
}

/** The player's own bet sizes from his profile (#table's data-presets), or null. */
function customPresets() {
  try {
    return JSON.parse(document.getElementById("table")?.dataset.presets || "null");
  } catch {
    return null;
  }
}
const CUSTOM = customPresets();

/** The facts `sizing.js` needs about the viewer's decision. */
export function sizingFacts(state, legal) {
  const hand = state.hand;
  const me = mySeat(state);
  return {
    legal, structure: state.table.structure, street: hand ? hand.street : "preflop",
    pot: hand ? hand.pot_total : 0, currentBet: hand ? hand.current_bet : 0,
    bigBlind: state.table.big_blind, whole: scale(state),
    allInTo: me ? me.bet + me.stack : legal.max_to, custom: CUSTOM,
  };
}

function labelCall(state, legal) {
  $("act-call").querySelector(".label").textContent = `Call ${chips(legal.call_amount, state.table)}`;
}

export class ActionBar {
  /**
   * @param {object} opts
   * @param {() => object} opts.state current state
   * @param {(message: object) => void} opts.send
   * @param {(text: string) => void} opts.say
   */
  constructor({ state, send, say }) {
    Object.assign(this, { getState: state, send, say });
    this.key = null;
    this.decision = 0;
    this.bar = $("action-bar");
    this.amount = $("bet-amount");
    this.slider = $("bet-slider");
    this.bind();
  }

  bind() {
    $("act-fold").addEventListener("click", () => this.act("fold"));
    $("act-check").addEventListener("click", () => this.act("check"));
    $("act-call").addEventListener("click", () => this.act("call"));
    $("act-raise").addEventListener("click", () => this.raise());
    $("act-show").addEventListener("click", () => this.showdown("show"));
    $("act-muck").addEventListener("click", () => this.showdown("muck"));
    $("act-rabbit").addEventListener("click", () => this.rabbitHunt());
    this.amount.addEventListener("input", () => this.setAmount(this.fromBox(), { box: false }));
    this.amount.addEventListener("change", () => this.setAmount(this.fromBox()));
    this.amount.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); this.setAmount(this.fromBox()); this.raise(); }
    });
    this.slider.addEventListener("input", () => this.setAmount(Number(this.slider.value)));
    const step = (sign) => {
      const bb = this.getState().table.big_blind;
      this.setAmount((this.value ?? 0) + sign * bb);
    };
    $("bet-less").addEventListener("click", () => step(-1));
    $("bet-more").addEventListener("click", () => step(1));
    $("presets").addEventListener("click", (e) => {
      const b = e.target.closest("button[data-amount]");
      if (b) this.setAmount(Number(b.dataset.amount));
    });
    const pre = [...document.querySelectorAll("#pre-actions input[type=checkbox]")];
    pre.forEach((box) => box.addEventListener("change", () => {
      if (box.checked) pre.filter((o) => o !== box).forEach((o) => { o.checked = false; });
    }));
  }

  get legal() { return this.getState().you.legal; }

  /** A new turn for the viewer: redraw the bar from scratch (clears the "sent" state). */
  newDecision() { this.decision += 1; }

  fromBox() {
    return Math.round(Number(this.amount.value) * boxUnit(this.getState()));
  }

  /** Set the raise-to amount (clamped) in the box, the slider and the button label. */
  setAmount(amount, { box = true } = {}) {
    const legal = this.legal;
    if (!legal || !(legal.bet || legal.raise)) return;
    const state = this.getState();
    const a = clampAmount(amount, legal, scale(state));
    this.value = a;
    if (box) this.amount.value = boxValue(a, state);
    this.slider.value = String(a);
    this.slider.setAttribute("aria-valuetext", chips(a, state.table));
    const verb = legal.bet ? "Bet" : "Raise to";
    const note = amountNote(sizingFacts(state, legal), a);
    $("act-raise").querySelector(".label").textContent = `${verb} ${chips(a, state.table)}${note}`;
  }

  act(action, amount) {
    const state = this.getState();
    const message = { type: "act", action, version: state.version };
    if (amount != null) message.amount = amount;
    if (this.send(message)) this.bar.classList.add("sent");
  }

  raise() {
    const legal = this.legal;
    if (!legal || !(legal.bet || legal.raise)) return;
    const a = clampAmount(this.value ?? legal.min_to, legal, scale(this.getState()));
    this.act(legal.bet ? "bet" : "raise", a);
  }

  showdown(kind) {
    const state = this.getState();
    if (this.send({ type: kind, version: state.version })) {
      this.showSent = state.hand ? state.hand.id : null;  // one request per hand
      this.render();
    }
  }

  /** Ask for the rabbit of the hand just folded out (docs/protocol.md, "Rabbit hunt"). */
  rabbitHunt() {
    const state = this.getState();
    if (state.hand && this.send({ type: "rabbit_hunt", hand_id: state.hand.id })) {
      this.rabbitSent = state.hand.id;  // one request per hand
      this.render();
    }
  }

  /** Show what the legal-action data allows; keep a typed amount while it stays valid. */
  render() {
    const state = this.getState();
    const legal = state.you.legal;
    const showdown = !!(legal && (legal.show || legal.muck));
    const betting = !!(legal && !showdown);
    // Same decision, same key: events that do not change it (someone sits down) keep the
    // amount the player is typing. Each new turn is a new decision (`newDecision`), even when
    // its legal actions look exactly like the last one's (check, check on the next street).
    const where = state.hand ? `${state.hand.id}:${state.hand.street}` : "";
    const key = legal ? `${this.decision}:${where}:${JSON.stringify(legal)}` : null;
    // After the hand, until the next one, a player may show the cards nobody saw.
    const me = mySeat(state);
    const afterHand = !!(state.hand && state.hand.is_over && me && me.in_hand && me.cards &&
      !me.shown && this.showSent !== state.hand.id);
    const rabbit = canHuntRabbit(state) && this.rabbitSent !== state.hand.id;
    $("showdown-bar").hidden = !(showdown || afterHand || rabbit);
    $("showdown-label").textContent = showdown ? "Showdown:" : "Hand over:";
    $("act-rabbit").hidden = showdown || !rabbit;
    $("act-show").hidden = !((legal && legal.show) || afterHand);
    $("act-muck").hidden = !(legal && legal.muck);
    this.bar.hidden = !betting;
    this.renderPreActions(state, betting || showdown);
    if (!betting) { this.key = null; return; }
    if (key === this.key) return;
    const firstShow = this.key === null;
    this.key = key;
    this.bar.classList.remove("sent");
    const cur = state.table.currency;
    $("act-fold").hidden = !legal.fold;
    $("act-check").hidden = !legal.check;
    $("act-call").hidden = !legal.call;
    labelCall(state, legal);
    const canRaise = !!(legal.bet || legal.raise);
    $("act-raise").hidden = !canRaise;
    // One legal amount: a fixed-limit bet, or a no-limit raise that can only be all-in.
    this.fixed = canRaise && legal.min_to === legal.max_to;
    const limit = state.table.structure === "FL";
    const sizing = $("bet-sizing");
    sizing.hidden = !canRaise;
    sizing.classList.toggle("fixed", this.fixed || limit);
    if (canRaise) {
      this.amount.readOnly = this.fixed;
      this.slider.min = String(legal.min_to);
      this.slider.max = String(legal.max_to);
      this.slider.step = String(scale(state));
      this.slider.hidden = this.fixed;
      this.boxRange(state, legal);
      this.renderPresets(state, legal);
      $("presets").hidden = limit;
      this.value = legal.min_to;
      this.setAmount(legal.min_to);
    }
    if (firstShow) {
      const options = [legal.fold && "fold", legal.check && "check",
        legal.call && `call ${moneyFormat(legal.call_amount, cur)}`,
        legal.bet && `bet ${moneyFormat(legal.min_to, cur)}${this.fixed ? "" : ` to ${moneyFormat(legal.max_to, cur)}`}`,
        legal.raise && `raise to ${moneyFormat(legal.min_to, cur)}${this.fixed ? "" : ` up to ${moneyFormat(legal.max_to, cur)}`}`,
      ].filter(Boolean);
      this.say(`Your turn: ${options.join(", ")}.`);
      const focus = [$("act-check"), $("act-call"), $("act-fold")].find((b) => !b.hidden);
      if (focus && !document.activeElement?.matches("input, textarea")) focus.focus({ preventScroll: true });
    }
  }

  /** The amount box's bounds and the range line, in the units the player sees amounts in. */
  boxRange(state, legal) {
    const unit = boxUnit(state);
    const bb = inBigBlinds();
    this.amount.min = bb ? boxValue(legal.min_to, state) : String(legal.min_to / unit);
    this.amount.max = bb ? boxValue(legal.max_to, state) : String(legal.max_to / unit);
    this.amount.step = bb ? "0.1" : "1";
    this.amount.inputMode = bb || scale(state) > 1 ? "decimal" : "numeric";
    $("bet-amount-unit").textContent = bb ? "Amount in big blinds" : "Amount";
    $("sizing-range").textContent = rangeText(sizingFacts(state, legal),
      (a) => chips(a, state.table));
  }

  /** Amounts shown in other units: the same decision and amount, in new words. */
  relabel() {
    const state = this.getState();
    const legal = state && state.you.legal;
    if (!legal || this.key === null) return;
    if (legal.call) labelCall(state, legal);
    if (legal.bet || legal.raise) {
      this.boxRange(state, legal);
      this.renderPresets(state, legal);
      this.setAmount(this.value ?? legal.min_to);
    }
  }

  /** One button per preset, its amount in its accessible name and tooltip. */
  renderPresets(state, legal) {
    const buttons = presets(sizingFacts(state, legal)).map((p) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small secondary";
      b.dataset.preset = p.id;
      b.dataset.amount = String(p.amount);
      b.textContent = p.label;
      b.title = chips(p.amount, state.table);
      b.setAttribute("aria-label", `${p.label}: ${chips(p.amount, state.table)}`);
      return b;
    });
    $("presets").replaceChildren(...buttons);
  }

  renderPreActions(state, myTurn) {
    const me = mySeat(state);
    const hand = state.hand;
    const show = !!(me && hand && !hand.is_over && me.in_hand && me.has_cards && !me.folded &&
      !me.allin && !myTurn && hand.street !== "showdown");
    const box = $("pre-actions");
    box.hidden = !show;
    if (!show) {
      if (!hand || hand.is_over || !me || !me.in_hand) this.clearPre();
      return;
    }
    const toCall = Math.min(hand.current_bet - me.bet, me.stack);
    // "Check" while nothing is to call; "Call X" for the amount now (cleared if it changes).
    $("pre-check-label").hidden = toCall > 0;
    $("pre-call-label").hidden = toCall <= 0;
    if (toCall > 0 && $("pre-check").checked) $("pre-check").checked = false;
    const call = $("pre-call");
    if (call.checked && Number(call.dataset.amount) !== toCall) call.checked = false;
    call.dataset.amount = String(toCall);
    $("pre-call-label").querySelector("span").textContent = `Call ${chips(toCall, state.table)}`;
  }

  clearPre() {
    document.querySelectorAll("#pre-actions input[type=checkbox]").forEach((b) => { b.checked = false; });
  }

  /** On my turn: a ticked pre-action acts at once. @returns {boolean} whether it acted */
  runPreAction() {
    const legal = this.legal;
    if (!legal || legal.show || legal.muck) return false;
    const pick = ["pre-checkfold", "pre-check", "pre-call", "pre-callany"].find((id) => $(id).checked);
    if (!pick) return false;
    this.clearPre();
    if (pick === "pre-checkfold") { this.act(legal.check ? "check" : "fold"); return true; }
    if (pick === "pre-check") { if (legal.check) { this.act("check"); return true; } return false; }
    if (pick === "pre-call") {
      if (legal.call && legal.call_amount === Number($("pre-call").dataset.amount)) { this.act("call"); return true; }
      return false;
    }
    if (legal.call) { this.act("call"); return true; }
    if (legal.check) { this.act("check"); return true; }
    return false;
  }
}

/**
 * Is it the viewer's turn to bet in the running hand? (Leaving then folds his hand at once.)
 * @param {object} state
 * @returns {boolean}
 */
export function myTurnNow(state) {
  const h = state.hand;
  return !!(h && !h.is_over && state.you.seat != null && h.to_act === state.you.seat);
}

/** Why Top up is greyed out: the player already has the table's maximum. */
export const AT_MAXIMUM = "already at the maximum buy-in";

/**
 * Seat controls: sit out / in, post the big blind now or wait, top up, leave. A player with no
 * chips and none coming is offered Rebuy (sitting in would not deal him in).
 * @param {object} state
 */
export function renderSeatControls(state) {
  const me = mySeat(state);
  const controls = $("seat-controls");
  const hint = $("seat-hint");
  controls.hidden = !me;
  if (hint) hint.hidden = !!me;
  const auto = $("auto-top-up-box");
  if (auto) auto.hidden = !me;
  if (!me) return;
  const t = state.table;
  const busted = me.stack === 0 && !me.pending_top_up && !(me.in_hand && state.hand && !state.hand.is_over);
  $("sit-out").hidden = me.status === "sitting_out" || busted;
  $("sit-in").hidden = me.status !== "sitting_out" || busted;
  $("rebuy").hidden = !busted;
  $("post-bb").hidden = me.status !== "waiting_bb";
  $("wait-bb").hidden = !me.post_bb;
  $("leave").textContent = me.leaving ? "Leaving after this hand"
    : myTurnNow(state) ? "Fold and leave" : "Leave table";
  $("leave").disabled = me.leaving;
  // Sit out next big blind: offered while playing; the server sits him out at his big blind.
  $("sit-out-next-bb-label").hidden = me.status !== "playing" || busted || me.leaving;
  $("sit-out-next-bb").checked = !!me.sit_out_next_bb;
  $("always-show").checked = !!state.you.always_show;
  $("straddle-box").hidden = !t.straddle_allowed;  // never at fixed limit: the admin refuses it
  $("straddle").checked = !!state.you.straddle;
  const room = t.max_buy_in - me.stack - (me.pending_top_up || 0);
  const topUp = $("top-up");
  topUp.hidden = busted;
  topUp.disabled = room <= 0;
  topUp.title = room <= 0 ? `Top up: ${AT_MAXIMUM} (${moneyFormat(t.max_buy_in, t.currency)})` : "";
  topUp.querySelector(".why").hidden = room > 0;
  $("my-stack").textContent = `Your stack: ${chips(me.stack, t)}` +
    (me.pending_top_up ? ` (+${chips(me.pending_top_up, t)} next hand)` : "") +
    (busted ? " · out of chips: Rebuy to play on" : "") +
    (me.status === "sitting_out" && !busted ? " · you are sitting out: Sit in to be dealt again" : "");
}

/**
 * The viewer may hunt the rabbit: the table offers it, the hand he was dealt into ended with
 * a short board (everyone folded before the river) and nobody has asked yet.
 */
export function canHuntRabbit(state) {
  const hand = state.hand;
  const me = state.you && state.you.seat;
  return !!(state.table.rabbit_hunt && hand && hand.is_over && hand.board.length < 5 &&
    !hand.rabbit && me != null && (state.dealOrder || []).includes(me));
}
