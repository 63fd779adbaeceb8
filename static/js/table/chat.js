/**
 * The table chat panel: the lines of `state.chat` (the snapshot's recent lines and the `chat` /
 * `chat_hidden` events, applied in state.js), minus the authors the viewer muted
 * (`state.you.muted`), and, when the "Dealer lines" setting is on, who won what from each
 * `hand_end`. Chat text is somebody else's typing: it is only ever set with `textContent`.
 * @module table/chat
 */
import { bindToggle } from "./settings.js";

const $ = (id) => document.getElementById(id);
const MAX_DEALER = 30;
/** Error codes the panel shows itself (the rest go to the table's error box). */
const TEXT = {
  chat_rate_limited: "Slow down a little.",
  chat_players_only: "Only the players at this table may chat.",
  login_required: "Log in to chat.",
};

export class ChatPanel {
  /**
   * @param {object} opts
   * @param {(message: object) => string|null} opts.send sends a message, returns its ref
   * @param {() => object|null} opts.state the table state
   * @param {boolean} opts.loggedIn
   */
  constructor({ send, state, loggedIn }) {
    Object.assign(this, { send, state, loggedIn });
    /** @type {Array<{at: number, text: string}>} who won what, newest last */
    this.dealerLines = [];
    this.showDealer = true;
    /** refs of the chat/mute messages not answered yet */
    this.refs = new Set();
    this.drawn = "";
    this.picked = null; // the author whose Mute/Unmute bar is open
    this.list = $("chat-lines");
    const panel = $("chat-panel");
    if (window.matchMedia("(max-width: 640px)").matches) panel.open = false; // phones: folded
    $("chat-form").addEventListener("submit", (e) => { e.preventDefault(); this.say(); });
    $("chat-mute-toggle").addEventListener("click", () => this.toggleMute());
    $("chat-mute-cancel").addEventListener("click", () => this.pick(null));
    /** Set by main.js: opens the player pop-up (notes, tag, stats: player-card.js). */
    this.openCard = null;
    $("chat-player-notes").addEventListener("click", () => {
      if (this.picked && this.openCard) this.openCard(this.picked.id, this.picked.name);
    });
    bindToggle($("toggle-dealer"), "dealerLines", (on) => { this.showDealer = on; this.render(); });
  }

  say() {
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    const ref = this.send({ type: "chat", text });
    if (ref == null) { this.error("Not connected: try again in a moment."); return; }
    this.refs.add(ref);
    this.lastSaid = { ref, text };
    input.value = "";
    this.error(null);
  }

  /** An `error` frame: true when it answers one of the panel's messages (shown here). */
  takeError(msg) {
    if (!msg.ref || !this.refs.has(msg.ref)) return false;
    this.refs.delete(msg.ref);
    const input = $("chat-input");
    if (this.lastSaid && this.lastSaid.ref === msg.ref && !input.value) input.value = this.lastSaid.text;
    // The server's message says it all ("Slow down: at most 5 lines in 10 seconds."); the
    // panel's own words are only for a refusal that came without one.
    this.error(msg.message || TEXT[msg.code] || "Refused.", msg.code);
    return true;
  }

  /** The answer to `mute`: every player the viewer mutes now. */
  takeMutes(msg) {
    if (msg.ref) this.refs.delete(msg.ref);
    const state = this.state();
    if (state) {
      state.you.muted = msg.player_ids;
      state.you.muted_players = msg.players || [];
    }
    this.pick(null);
    this.render();
  }

  error(text, code = "") {
    const box = $("chat-error");
    box.hidden = !text;
    box.textContent = text || "";
    box.dataset.code = code;
  }

  /** Write who won what (the hand's summary line) into the panel. */
  dealer(text) {
    const state = this.state();
    const at = Date.now() + ((state && state.clockOffset) || 0);
    this.dealerLines = [...this.dealerLines, { at, text }].slice(-MAX_DEALER);
    this.render();
  }

  muted() {
    const state = this.state();
    return new Set((state && state.you && state.you.muted) || []);
  }

  /** A muted player's name: the server's list names him even after he left the table. */
  nameOf(playerId) {
    const state = this.state();
    const listed = state && ((state.you && state.you.muted_players) || [])
      .find((m) => m.player_id === playerId);
    if (listed) return listed.name;
    const seat = state && state.seats.find((s) => s.player_id === playerId);
    if (seat) return seat.name;
    const line = state && [...(state.chat || [])].reverse().find((l) => l.player_id === playerId);
    return line ? line.name : `player #${playerId}`;
  }

  pick(author) {
    this.picked = author;
    const bar = $("chat-mute-bar");
    bar.hidden = !author;
    if (!author) return;
    const muted = this.muted().has(author.id);
    $("chat-mute-who").textContent = author.name;
    $("chat-mute-toggle").textContent = muted ? `Unmute ${author.name}` : `Mute ${author.name}`;
    $("chat-mute-toggle").dataset.muted = muted ? "1" : "0";
    $("chat-player-notes").textContent = `Notes on ${author.name}`;
    $("chat-player-notes").hidden = !this.openCard;
  }

  toggleMute() {
    if (!this.picked) return;
    const muted = !this.muted().has(this.picked.id);
    const ref = this.send({ type: "mute", player_id: this.picked.id, muted });
    if (ref) this.refs.add(ref);
  }

  /** Redraw when something shown changed (lines, mutes, dealer lines, the setting). */
  render() {
    const state = this.state();
    if (!state) return;
    const me = state.you && state.you.user_id;
    const canSay = this.loggedIn && (state.you.seat != null || !!state.table.chat_spectators);
    $("chat-input").disabled = !canSay;
    $("chat-send").disabled = !canSay;
    $("chat-note").hidden = canSay;
    $("chat-note").textContent = !this.loggedIn ? "Log in to chat."
      : "Only the players at this table may chat. Take a seat to chat.";
    const muted = this.muted();
    const lines = (state.chat || []).filter((l) => !muted.has(l.player_id))
      .map((l) => ({ ...l, time: Date.parse(l.at) }));
    if (this.showDealer) {
      for (const d of this.dealerLines) lines.push({ dealer: true, time: d.at, text: d.text });
    }
    lines.sort((a, b) => a.time - b.time);
    const key = JSON.stringify([lines.map((l) => (l.dealer ? `d${l.time}` : l.id)), [...muted]]);
    this.renderMuted(muted);
    if (key === this.drawn) return;
    this.drawn = key;
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
    this.list.replaceChildren(...lines.map((l) => this.lineElement(l, me)));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  lineElement(line, me) {
    const li = document.createElement("li");
    li.className = line.dealer ? "chat-line dealer" : "chat-line";
    let author;
    if (line.dealer || line.player_id === me) {
      author = document.createElement("span");
      author.textContent = line.dealer ? "Dealer" : line.name;
    } else {
      author = document.createElement("button");
      author.type = "button";
      author.textContent = line.name;
      author.title = `Mute, unmute or note ${line.name}`;
      author.addEventListener("click", () => this.pick({ id: line.player_id, name: line.name }));
    }
    author.classList.add("chat-author");
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = line.text; // never innerHTML: this is somebody else's typing
    if (!line.dealer) li.dataset.id = String(line.id);
    li.append(author, text);
    return li;
  }

  renderMuted(muted) {
    const box = $("chat-muted");
    box.hidden = muted.size === 0;
    const buttons = [...muted].map((id) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "secondary small";
      const name = this.nameOf(id);
      b.textContent = `Unmute ${name}`;
      b.addEventListener("click", () => {
        const ref = this.send({ type: "mute", player_id: id, muted: false });
        if (ref) this.refs.add(ref);
      });
      return b;
    });
    const sig = JSON.stringify([...muted].map((id) => [id, this.nameOf(id)]));
    if (box.dataset.sig === sig) return;
    box.dataset.sig = sig;
    $("chat-muted-list").replaceChildren(...buttons);
  }
}
