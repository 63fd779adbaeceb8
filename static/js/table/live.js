/**
 * The table's live regions, one per kind of news, so that a screen reader drops none of them:
 * game events (polite), chat (polite) and the urgent "your turn" and "hurry" (assertive). Each
 * region merges what arrives close together into one announcement (a burst of events — a call,
 * the flop, the next player to act — reads as one sentence) and speaks at most once per `gap`
 * milliseconds, so a fast table never overwrites a line before it was read.
 * @module table/live
 */

/** How long a region waits for more news before it speaks (ms). */
const MERGE_MS = 150;
/** The shortest time between two announcements of one region (ms). */
const GAP_MS = 700;

/** One live region: queued texts are joined and written together. */
export class LiveRegion {
  /**
   * @param {HTMLElement} el an element with aria-live (and aria-atomic="true")
   * @param {{merge?: number, gap?: number}} [timing]
   */
  constructor(el, { merge = MERGE_MS, gap = GAP_MS } = {}) {
    Object.assign(this, { el, merge, gap });
    this.queued = [];
    this.timer = null;
    this.spokeAt = -Infinity;
  }

  /** Queue a sentence; it is spoken with whatever else arrives before the region speaks. */
  say(text) {
    if (!text) return;
    this.queued.push(text);
    if (this.timer !== null) return;
    const wait = Math.max(this.merge, this.spokeAt + this.gap - performance.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Speak now: the queued sentences as one announcement. */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.queued.length) return;
    this.el.textContent = this.queued.join(" ");
    this.queued = [];
    this.spokeAt = performance.now();
  }
}

/** The three regions of the table page (templates/tables/table.html). */
export class LiveRegions {
  constructor() {
    const $ = (id) => document.getElementById(id);
    this.events = new LiveRegion($("announcer"));
    this.chatLines = new LiveRegion($("chat-announcer"));
    // Urgent news waits for nothing: only a burst in the same moment is merged.
    this.turn = new LiveRegion($("turn-announcer"), { merge: 0, gap: 0 });
  }

  /** A game event ("bob raises to 6."), polite. */
  game(text) { this.events.say(text); }

  /** A chat line ("bob says: nice hand"), polite, apart from the game. */
  chat(text) { this.chatLines.say(text); }

  /** The viewer must act ("Your turn: …", "Hurry: …"), assertive. */
  urgent(text) { this.turn.say(text); }
}
