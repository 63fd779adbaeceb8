/**
 * The live table page: wires the socket (client.js), the state (state.js), the drawing
 * (render.js), the action bar (actions.js), the keyboard, the side panel, the live regions
 * (live.js) and the text mode for screen readers (textmode.js); in the tiles window, the link
 * to it (tile.js).
 * The server decides everything; this page shows its state and offers its legal actions.
 * @module table/main
 */
import { TableClient } from "./client.js";
import { applyEvent, differences, fromSnapshot, mergeClientFacts, mySeat } from "./state.js";
import { flyChips, renderFelt, sweepBets, tickTimer } from "./render.js";
import { ActionBar, clampAmount, myTurnNow, renderSeatControls } from "./actions.js";
import { bindKeyboard, perform } from "./keyboard.js";
import { TileLink } from "./tile.js";
import { entropyMessage } from "../entropy.js";
import { logLine, renderFairness, renderHistory } from "./history.js";
import { moneyFormat, showBigBlinds } from "./format.js";
import { Sound, soundOf } from "./sound.js";
import { TurnAlert } from "./alerts.js";
import { bindToggle } from "./settings.js";
import { ChatPanel } from "./chat.js";
import { LiveRegions } from "./live.js";
import { TextMode } from "./textmode.js";
import { SeatNotes } from "./notes.js";
import { PlayerCard, bindPlayerNames } from "../player-card.js";

const $ = (id) => document.getElementById(id);
const root = $("table");
const loggedIn = !!root.dataset.userId;
const watching = root.dataset.watch === "1";
/** A self-exclusion runs: the server offers no seat, buy-in or rebuy (#sit-blocked says why). */
const sitBlocked = root.dataset.sitBlocked === "1";
let state = null;
let drawQueued = false;
let refreshQueued = null;
/** The version a `hello` asked to resume from (one question per gap). */
let askedFrom = null;
const sound = new Sound();
/** The game sounds of the frame being applied (played together once it is). */
const frameSounds = [];
const turnAlert = new TurnAlert({ tableName: root.dataset.tableName, turnIcon: root.dataset.turnIcon });
/** In a tile of the tiles window: its link to the window (static/js/tiles.js), else null. */
const tile = TileLink.here(root);
/** @type {((diffs: string[]) => void) | null} */
let checking = null;
let lastPhase = "none";

const live = new LiveRegions();

/** A game event: read aloud (the polite region merges a burst), kept in the log and for text mode. */
function say(text) {
  live.game(text);
  logLine(text);
  textMode.hear(text);
}

/** The viewer must act now ("Your turn: …"): the assertive region, and the log. */
function sayUrgent(text) {
  live.urgent(text);
  logLine(text);
  textMode.hear(text);
}

const STATUS_TEXT = {
  connecting: "Connecting…", online: "Connected", reconnecting: "Connection lost — reconnecting…",
  offline: "You are offline — we reconnect as soon as the network is back.", closed: "This table is closed.",
};

let connects = 0;

function setStatus(status) {
  if (status === "online" && ++connects > 1) {
    root.dataset.resync = "pending";
    bar.newDecision(); // an action sent before the drop may be lost: offer the bar again
  }
  const el = $("conn-status");
  el.textContent = STATUS_TEXT[status] || status;
  el.dataset.status = status;
  root.dataset.connection = status;
  $("offline-banner").hidden = status === "online" || status === "connecting";
  $("offline-banner").textContent = STATUS_TEXT[status] || "";
}

const client = new TableClient({
  path: root.dataset.wsPath,
  lastVersion: () => (state ? state.version : null),
  onMessage: (msg) => { receive(msg); sound.game(frameSounds.splice(0)); },
  onStatus: setStatus,
});

const bar = new ActionBar({ state: () => state, send: (m) => client.send(m), say: sayUrgent });
const chat = new ChatPanel({ state: () => state, send: (m) => client.send(m), loggedIn });
const textMode = new TextMode({ state: () => state, bar });
const seatNotes = new SeatNotes({ loggedIn, onChange: () => queueDraw() });
const playerCard = new PlayerCard({ onSaved: (id, note) => seatNotes.saved(id, note) });
if (loggedIn) {
  bindPlayerNames($("felt"), playerCard);
  chat.openCard = (id, name) => playerCard.open(id, name);
}

function receive(msg) {
  if (msg.type === "events") {
    msg.events.forEach(receive);
  } else if (msg.type === "snapshot") {
    const first = !state;
    if (checking && state) { checking(differences(state, msg)); checking = null; }
    state = mergeClientFacts(fromSnapshot(msg), state);
    if (root.dataset.resync === "pending") root.dataset.resync = "snapshot";
    root.dataset.version = String(state.version);
    if (first) describeTable();
    contribute();
    draw();
    if (state.you.legal) bar.runPreAction();
  } else if (msg.type === "event") {
    if (!state) return;
    if (msg.version <= state.version) return;
    if (msg.version > state.version + 1) {
      // A gap: ask once for what is missing (the answer fills it in order).
      if (!askedFrom || askedFrom !== state.version) {
        askedFrom = state.version;
        client.send({ type: "hello", last_version: state.version });
      }
      return;
    }
    askedFrom = null;
    if (root.dataset.resync === "pending") root.dataset.resync = "events";
    if (msg.event.type === "board" || msg.event.type === "hand_end") sweepBets($("felt"));
    const out = applyEvent(state, msg.event);
    state.version = msg.version;
    root.dataset.version = String(state.version);
    out.say.forEach((t) => say(t));
    if (out.fly.length) requestAnimationFrame(() => flyChips($("felt"), out.fly, state.table));
    if (out.newHand) bar.clearPre();
    frameSounds.push(soundOf(msg.event));
    if (out.myTurn) { bar.newDecision(); sound.play("turn"); }
    if (out.mine) afterMyChange(msg.event);
    // A tournament moved him (tournament/live.js takes his page to the new table).
    if (out.mine && msg.event.type === "seat_left" && msg.event.moved_to) {
      root.dispatchEvent(new CustomEvent("moved", { detail: msg.event }));
    }
    if (out.refresh) queueRefresh();
    if (msg.event.type === "hand_end" && msg.event.recent) chat.dealer(msg.event.recent.summary);
    if (msg.event.type === "chat" && !chat.muted().has(msg.event.player_id)) {
      live.chat(`${msg.event.name} says: ${msg.event.text}`);
    }
    if (out.newHand || out.mine || msg.event.next_commitment) contribute();
    if (out.myTurn && bar.runPreAction()) return draw();
    queueDraw();
  } else if (msg.type === "always_show") {
    if (state) { state.you.always_show = msg.on; draw(); }
  } else if (msg.type === "straddle") {
    if (state) { state.you.straddle = msg.on; draw(); }
  } else if (msg.type === "mutes") {
    chat.takeMutes(msg);
  } else if (msg.type === "error") {
    // entropy for a deck dealt a moment before it arrived: nothing for the player to do
    if (msg.code === "entropy_refused") return;
    if (!chat.takeError(msg)) { showError(msg); textMode.refused($("table-error").textContent); }
  }
}

function afterMyChange(ev) {
  refreshBalances();
}

/** Seated, answer the table's next deck commitment with this browser's entropy, once. */
function contribute() {
  if (!mySeat(state) || !client.open) return;
  const message = entropyMessage(state.next_commitment);
  if (message) client.send(message);
}

/** A fresh snapshot after an event type this page does not know (a newer server). */
function queueRefresh() {
  clearTimeout(refreshQueued);
  refreshQueued = setTimeout(() => { refreshQueued = null; client.send({ type: "snapshot" }); }, 150);
}

function queueDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => { drawQueued = false; draw(); });
}

function draw() {
  if (!state) return;
  const me = mySeat(state);
  renderFelt($("felt"), state, { canSit: loggedIn && !me && !watching && !sitBlocked,
    onSit: openBuyIn });
  seatNotes.load(state);
  seatNotes.decorate($("felt"));
  bar.render();
  renderSeatControls(state);
  renderRunTwice(state);
  if (sitBlocked) { $("rebuy").hidden = true; $("top-up").hidden = true; } // the page says why
  renderFairness(state);
  renderHistory(state);
  chat.render();
  tick();
}

/** The run-it-twice question, for a player asked who has not answered yet. */
function renderRunTwice(current) {
  const offer = current.hand && !current.hand.is_over && current.hand.run_offer;
  const mine = current.you.seat;
  const asked = !!offer && mine !== null && offer.votes[String(mine)] === null;
  $("run-twice").hidden = !asked;
  if (asked && offer.deadline) {
    const left = Math.max(0, Math.round((Date.parse(offer.deadline) - Date.now()
      - (current.clockOffset || 0)) / 1000));
    $("run-twice-left").textContent = `(${left} s; no answer is once)`;
  }
}

for (const [id, twice] of [["run-twice-yes", true], ["run-twice-no", false]]) {
  $(id).addEventListener("click", () => {
    $("run-twice").hidden = true;
    client.send({ type: "run_twice", twice });
  });
}

const ERROR_TEXT = {
  login_required: "Log in to play.", stale_version: "The table moved on — showing the latest state.",
  betting_capped: "Betting is capped: you may only call or fold.",
};

function showError(msg) {
  const box = $("table-error");
  box.textContent = ERROR_TEXT[msg.code] ? `${ERROR_TEXT[msg.code]} (${msg.message})` : msg.message;
  box.dataset.code = msg.code;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
  // stale_version: the events that moved the hand on are on their way; they update the page.
  $("action-bar").classList.remove("sent");
}

function tick() {
  if (!state) return;
  const { phase, seconds } = tickTimer($("felt"), state);
  const mine = state.hand && state.hand.to_act === state.you.seat && state.you.seat != null;
  const clock = $("my-countdown");
  clock.hidden = !(mine && (phase === "countdown" || phase === "bank"));
  if (mine && phase === "countdown") clock.textContent = `${Math.ceil(seconds)} s left`;
  if (mine && phase === "bank") clock.textContent = `Time bank: ${Math.ceil(seconds)} s left`;
  showMyTimeBank(phase === "bank" && mine ? seconds : null);
  if (mine && phase === "countdown" && lastPhase !== "countdown") {
    live.urgent(`Hurry: ${Math.ceil(seconds)} seconds left to act.`);
    sound.play("hurry");
  }
  lastPhase = mine ? phase : "none";
  turnAlert.set(!!(mine && state.you.legal));
  if (tile) tile.turn(!!(mine && state.you.legal && !state.you.legal.show && !state.you.legal.muck));
  const next = $("next-hand");
  const wait = state.next_hand_at ? (Date.parse(state.next_hand_at) - Date.now() - state.clockOffset) / 1000 : null;
  next.hidden = !(wait && wait > 0);
  if (wait && wait > 0) next.textContent = `Next hand in ${Math.ceil(wait)} s`;
}
setInterval(tick, 200);

/** The viewer's own time bank under the table (only at a table that has one). */
function showMyTimeBank(running) {
  const box = $("my-time-bank");
  const me = mySeat(state);
  box.hidden = !(state.table.time_bank && me);
  if (box.hidden) return;
  const seconds = running != null ? Math.ceil(running) : me.time_bank;
  box.textContent = `Time bank: ${seconds} s${running != null ? " (running)" : ""}`;
  box.dataset.seconds = String(me.time_bank);
}

function describeTable() {
  const t = state.table;
  const limit = t.structure === "FL"
    ? `Bets ${moneyFormat(t.big_blind, t.currency)} preflop and flop, ${moneyFormat(t.upper_stake, t.currency)} turn and river.`
    : `Blinds ${moneyFormat(t.small_blind, t.currency)}/${moneyFormat(t.big_blind, t.currency)}.`;
  $("table-rules").textContent = `${limit} Buy-in ${moneyFormat(t.min_buy_in, t.currency)}–` +
    `${moneyFormat(t.max_buy_in, t.currency)}. ${t.action_seconds} s to act, then a ${t.countdown_seconds} s countdown` +
    `${t.time_bank ? ", then your time bank" : ""}.`;
}

// Balances in the header (rendered by the server; refreshed after money moves) -------------
function balance(currency) {
  const el = document.querySelector(`[data-balance-currency="${currency}"]`);
  return el ? Number(el.dataset.amount) : null;
}

function refreshBalances() {
  if (!window.htmx || !document.getElementById("balances")) return;
  setTimeout(() => window.htmx.ajax("GET", location.pathname,
    { target: "#balances", select: "#balances", swap: "outerHTML" }), 300);
}

// Buy-in and top-up dialogs ----------------------------------------------------------------
function amountDialog({ dialog, title, min, max, note, onSubmit }) {
  const t = state.table;
  const s = t.currency === "REAL" ? 100 : 1;
  const input = dialog.querySelector("input[type=number]");
  const slider = dialog.querySelector("input[type=range]");
  const have = balance(t.currency);
  dialog.querySelector(".dialog-title").textContent = title;
  dialog.querySelector(".dialog-range").textContent = `Min ${moneyFormat(min, t.currency)} · Max ${moneyFormat(max, t.currency)}`;
  dialog.querySelector(".dialog-balance").textContent = have == null ? ""
    : `Your balance: ${moneyFormat(have, t.currency)}`;
  dialog.querySelector(".dialog-note").textContent = note || "";
  const top = have == null ? max : Math.min(max, have);
  const ok = top >= min;
  dialog.querySelector(".dialog-short").hidden = ok;
  dialog.querySelector("button[value=ok]").disabled = !ok;
  input.min = String(min / s); input.max = String(top / s); input.step = "1";
  slider.min = String(min); slider.max = String(top); slider.step = String(s);
  const start = Math.min(top, Math.max(min, t.currency === "PLAY" ? max : min));
  input.value = String(start / s); slider.value = String(start);
  slider.oninput = () => { input.value = String(Number(slider.value) / s); };
  input.oninput = () => { slider.value = String(Math.round(Number(input.value) * s)); };
  dialog.onclose = () => {
    if (dialog.returnValue !== "ok") return;
    const amount = clampAmount(Math.round(Number(input.value) * s), { min_to: min, max_to: top }, s);
    onSubmit(amount, dialog);
  };
  dialog.returnValue = "";
  dialog.showModal();
  input.focus();
  input.select();
}

function openBuyIn(seat) {
  const t = state.table;
  $("buyin-postbb-label").hidden = false;
  $("buyin-waitbb").checked = true; // the pre-selected choice: wait for the big blind
  $("buyin-confirm").textContent = "Sit down";
  amountDialog({
    dialog: $("buyin-dialog"), title: `Take seat ${seat}`, min: t.min_buy_in, max: t.max_buy_in,
    onSubmit: (amount, dialog) => {
      const postBB = dialog.querySelector("#buyin-postbb").checked;
      client.send({ type: "sit", seat, amount, post_bb: postBB });
    },
  });
}

$("top-up").addEventListener("click", () => {
  const me = mySeat(state);
  const t = state.table;
  const room = t.max_buy_in - me.stack - (me.pending_top_up || 0);
  amountDialog({
    dialog: $("topup-dialog"), title: "Top up", min: Math.min(room, t.big_blind), max: room,
    note: "Chips bought now join your stack when the next hand starts.",
    onSubmit: (amount) => client.send({ type: "top_up", amount }),
  });
});
/** Out of chips: buy in again in the buy-in dialog (a top-up of an empty stack, next hand). */
$("rebuy").addEventListener("click", () => {
  const t = state.table;
  $("buyin-postbb-label").hidden = true;
  $("buyin-confirm").textContent = "Rebuy";
  amountDialog({
    dialog: $("buyin-dialog"), title: "Rebuy", min: t.min_buy_in, max: t.max_buy_in,
    note: "Your chips join the table when the next hand starts.",
    onSubmit: (amount) => client.send({ type: "top_up", amount }),
  });
});
$("sit-out").addEventListener("click", () => client.send({ type: "sit_out" }));
$("always-show").addEventListener("change", (e) => {
  client.send({ type: "always_show", on: e.target.checked });
});
$("sit-out-next-bb").addEventListener("change", (e) => {
  client.send({ type: "sit_out_next_bb", on: e.target.checked });
});
$("straddle").addEventListener("change", (e) => {
  client.send({ type: "straddle", on: e.target.checked });
});
$("sit-in").addEventListener("click", () => client.send({ type: "sit_in" }));
$("post-bb").addEventListener("click", () => client.send({ type: "post_bb" }));
$("wait-bb").addEventListener("click", () => client.send({ type: "wait_bb" }));
$("leave").addEventListener("click", () => {
  const me = mySeat(state);
  const live = state.hand && !state.hand.is_over && me && me.in_hand;
  if (!live) { client.send({ type: "leave" }); return; }
  const dialog = $("leave-dialog");
  const now = myTurnNow(state); // fold and leave: folded at once, out when the hand ends
  $("leave-title").textContent = now ? "Fold and leave?" : "Leave the table?";
  $("leave-text").textContent = now
    ? "Your hand is folded now, you leave when this hand ends, and your chips go back to your balance."
    : "You are in this hand: your hand is folded when the action reaches you, you leave when the hand ends, and your chips go back to your balance.";
  $("leave-confirm").textContent = now ? "Fold and leave" : "Leave after this hand";
  dialog.returnValue = "";
  dialog.onclose = () => { if (dialog.returnValue === "ok") client.send({ type: "leave" }); };
  dialog.showModal();
});

bindToggle($("toggle-mute"), "muted", (on) => { sound.muted = on; });
bindToggle($("toggle-game-sounds"), "gameSounds", (on) => { sound.gameSounds = on; });
bindToggle($("toggle-bb"), "bigBlinds", (on) => { showBigBlinds(on); draw(); bar.relabel(); });
bindToggle($("toggle-text-mode"), "textMode", (on) => textMode.show(on));
$("toggle-text-mode").addEventListener("click", () => textMode.show(textMode.on, { focus: true }));
window.addEventListener("resize", queueDraw); // bets are placed clear of the caption by size
bindKeyboard({ route: tile ? (action) => tile.route(action) : perform });
client.connect();

/** For tests and the curious: the live state and a raw sender (the server still decides). */
window.pokerTable = {
  get state() { return state; },
  sound,
  send: (m) => client.send(m),
  act: (action, amount) => client.send({ type: "act", action, amount, version: state.version }),
  /** Ask for a snapshot and list how the event-built state differs from it (tests). */
  selfCheck: () => new Promise((resolve) => {
    const ask = () => {
      if (refreshQueued) { setTimeout(ask, 100); return; }
      checking = resolve;
      client.send({ type: "snapshot" });
    };
    setTimeout(ask, 300);
  }),
};
