/**
 * Following a tournament: its socket (/ws/tournaments/<id>/, the table's reconnecting client
 * on another path) applied to the state of tournament/state.js, gaps asked for once, and the
 * tab-title alert that tells a player in another tab that his tournament needs him.
 * @module tournament/watch
 */
import { TableClient } from "../table/client.js";
import { applyEvent, fromSnapshot } from "./state.js";

const BLINK_MS = 1000;
const SEEN_MS = 15000;  // how long a title alert stays on a tab the player looks at
const watches = new Map();

export class TournamentWatch {
  /** One socket per tournament and page, shared by whoever follows it (`watchTournament`). */
  constructor(id) {
    this.id = id;
    this.state = null;
    this.listeners = [];
    this.askedFrom = null;
    this.client = new TableClient({
      path: `/ws/tournaments/${id}/`,
      onMessage: (msg) => this.receive(msg),
      onStatus: () => {},
      lastVersion: () => (this.state ? this.state.version : null),
    });
    this.client.connect();
  }

  /** @param {(state: object, event: object|null, out: object) => void} fn called after a
   * snapshot (event null) and after each event */
  listen(fn) {
    this.listeners.push(fn);
    if (this.state) fn(this.state, null, { say: [] });
  }

  receive(msg) {
    if (msg.type === "events") { msg.events.forEach((m) => this.receive(m)); return; }
    if (msg.type === "snapshot") {
      this.state = fromSnapshot(msg);
      this.askedFrom = null;
      this.emit(null, { say: [] });
      return;
    }
    if (msg.type !== "event" || !this.state || msg.version <= this.state.version) return;
    if (msg.version > this.state.version + 1) {
      if (this.askedFrom !== this.state.version) {
        this.askedFrom = this.state.version;
        this.client.send({ type: "hello", last_version: this.state.version });
      }
      return;
    }
    const out = applyEvent(this.state, msg.event);
    this.state.version = msg.version;
    if (out.unknown) { this.client.send({ type: "snapshot" }); return; }
    this.emit(msg.event, out);
  }

  emit(event, out) {
    for (const fn of this.listeners) fn(this.state, event, out);
  }
}

/** The page's one watch of tournament `id`. */
export function watchTournament(id) {
  if (!watches.has(id)) watches.set(id, new TournamentWatch(id));
  return watches.get(id);
}

/**
 * A tab-title alert: the title blinks `text` until the player looks at the tab (at once when
 * he already does, it is only written to the status line).
 */
export class TitleAlert {
  constructor() {
    this.baseTitle = document.title;
    this.blinker = null;
    const stop = () => { if (TitleAlert.watched()) this.clear(); };
    window.addEventListener("focus", stop);
    document.addEventListener("visibilitychange", stop);
  }

  static watched() {
    return document.visibilityState === "visible" && document.hasFocus();
  }

  /** Show `text` in the tab title (blinking while the tab is not watched). */
  raise(text) {
    this.clear();
    document.title = `▶ ${text}`;
    if (TitleAlert.watched()) {  // he sees the page: the title keeps the news a while
      this.blinker = setTimeout(() => this.clear(), SEEN_MS);
      return;
    }
    let lit = true;
    this.blinker = setInterval(() => {
      lit = !lit;
      document.title = lit ? `▶ ${text}` : this.baseTitle;
    }, BLINK_MS);
  }

  clear() {
    clearInterval(this.blinker);
    clearTimeout(this.blinker);
    this.blinker = null;
    document.title = this.baseTitle;
  }
}
