/**
 * The table page as a tile of the tiles window (tables/tiles.py, static/js/tiles.js): it tells
 * the window when the player must act here, hands it the keyboard's actions (the window sends
 * each to the table to act, which may be another tile) and does what the window sends it.
 * Messages go only to and from this room's own origin.
 * @module table/tile
 */
import { perform } from "./keyboard.js";

export class TileLink {
  /**
   * The link for a compact table page inside a frame, else null (a table page on its own).
   * @param {HTMLElement} root #table
   */
  static here(root) {
    if (root.dataset.compact !== "1" || window.parent === window) return null;
    return new TileLink(Number(root.dataset.tableId));
  }

  constructor(tableId) {
    this.tableId = tableId;
    this.myTurn = null;
    window.addEventListener("message", (e) => {
      if (e.origin !== location.origin || e.source !== window.parent) return;
      if (e.data && e.data.type === "tile-perform") perform(e.data.action);
    });
  }

  post(message) {
    window.parent.postMessage({ ...message, table: this.tableId }, location.origin);
  }

  /** @param {boolean} myTurn whether the player must act at this table now */
  turn(myTurn) {
    if (myTurn === this.myTurn) return;
    this.myTurn = myTurn;
    this.post({ type: "tile-turn", turn: myTurn });
  }

  /** A key pressed in this tile: the window decides which table it acts on. */
  route(action) {
    this.post({ type: "tile-key", action });
  }
}
