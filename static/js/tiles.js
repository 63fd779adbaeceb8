/**
 * The tiles window (tables/tiles.py): up to four tables, each a framed compact table page with
 * its own socket, action bar and alerts (static/js/table/tile.js). A tile says when the player
 * must act there; the window outlines the table to act (the one waiting longest when several
 * do), blinks its title and icon while the window is not in front, and sends every hotkey —
 * pressed in the window or in any tile — to that table.
 * @module tiles
 */
import { actionFor, readKeys } from "./table/keyboard.js";
import { TurnAlert } from "./table/alerts.js";

const root = document.getElementById("tiles");
/** Sizing actions move the focus into the tile (its amount box takes the typing next). */
const FOCUSING = new Set(["bet_raise", "min", "half_pot", "pot", "all_in"]);

if (root) {
  const keys = readKeys(root);
  const tiles = [...root.querySelectorAll(".tile")];
  const frameOf = (tile) => tile.querySelector("iframe");
  const idOf = (tile) => Number(tile.dataset.tableId);
  const turnIcon = root.dataset.turnIcon;
  const alerts = new Map(tiles.map((t) => [idOf(t), new TurnAlert({
    tableName: t.querySelector("h2").firstChild.textContent.trim(), turnIcon })]));
  /** Tables waiting for the player, in the order their turns came. */
  const waiting = [];

  const mark = () => {
    tiles.forEach((tile) => {
      const id = idOf(tile);
      const toAct = waiting[0] === id;
      tile.classList.toggle("to-act", toAct);
      tile.classList.toggle("waiting", waiting.includes(id));
      tile.querySelector(".tile-turn").hidden = !waiting.includes(id);
      if (toAct) tile.setAttribute("aria-current", "true"); else tile.removeAttribute("aria-current");
    });
    alerts.forEach((alert, id) => { if (id !== waiting[0]) alert.set(false); });
    if (waiting.length) alerts.get(waiting[0]).set(true);
    root.dataset.toAct = waiting.length ? String(waiting[0]) : "";
  };

  /** Send an action to the table to act. @returns {boolean} whether one waits */
  const send = (action) => {
    const tile = tiles.find((t) => idOf(t) === waiting[0]);
    if (!tile) return false;
    const frame = frameOf(tile);
    if (FOCUSING.has(action)) frame.focus();
    frame.contentWindow.postMessage({ type: "tile-perform", action }, location.origin);
    return true;
  };

  window.addEventListener("message", (e) => {
    if (e.origin !== location.origin || !e.data) return;
    const tile = tiles.find((t) => frameOf(t).contentWindow === e.source);
    if (!tile) return;  // only our own frames speak here
    const id = idOf(tile);
    if (e.data.type === "tile-turn") {
      const at = waiting.indexOf(id);
      if (e.data.turn && at < 0) waiting.push(id);
      if (!e.data.turn && at >= 0) waiting.splice(at, 1);
      mark();
    } else if (e.data.type === "tile-key") {
      send(e.data.action);
    }
  });

  document.addEventListener("keydown", (e) => {
    const action = actionFor(e, keys);
    if (action && send(action)) e.preventDefault();
  });
}
