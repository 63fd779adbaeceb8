/**
 * The player pop-up (templates/tables/_player_dialog.html): the player's name, your statistics
 * of him from the hands you were dealt into together, and your private note and colour tag,
 * saved with "Save note". The table (seat names and chat) and the hand page open it; the
 * server (tables/player_views.py) answers only with the viewer's own notes.
 * @module player-card
 */

import { avatarUrl } from "./table/format.js";

const $ = (id) => document.getElementById(id);

function csrfToken() {
  try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch { return ""; }
}

function figure(key, value) {
  if (value == null) return "—";
  return key === "hands" || key === "aggression" ? String(value) : `${value}%`;
}

/** The pop-up; `onSaved(playerId, note)` hears every saved note (the seats redraw their tag). */
export class PlayerCard {
  constructor({ onSaved } = {}) {
    this.dialog = $("player-dialog");
    this.onSaved = onSaved || (() => {});
    this.playerId = null;
    if (!this.dialog) return;
    $("player-note-form").addEventListener("submit", (e) => { e.preventDefault(); this.save(); });
    $("player-dialog-close").addEventListener("click", () => this.dialog.close());
  }

  /** Open the pop-up on player `id` (`name` shown while his card loads). */
  async open(id, name) {
    if (!this.dialog) return;
    this.playerId = id;
    $("player-dialog-name").textContent = name || "Player";
    $("player-dialog-avatar").hidden = true;  // the last player's, until his card loads
    $("player-note-error").hidden = true;
    $("player-note-status").textContent = "Loading…";
    if (!this.dialog.open) this.dialog.showModal();
    const response = await fetch(`/tables/players/${id}/`, { headers: { Accept: "application/json" } });
    const data = await response.json();
    if (!response.ok) return this.refused(data);
    if (this.playerId !== id) return;
    $("player-dialog-name").textContent = data.you ? `${data.name} (you)` : data.name;
    const picture = avatarUrl(data.avatar);  // decorative: the heading names him
    $("player-dialog-avatar").hidden = !picture;
    if (picture) $("player-dialog-avatar").src = picture;
    this.dialog.querySelectorAll("[data-stat]").forEach((dd) => {
      dd.textContent = figure(dd.dataset.stat, data.stats[dd.dataset.stat]);
    });
    this.fillTags(data.tags, data.note ? data.note.tag : "");
    $("player-note-text").value = data.note ? data.note.text : "";
    const own = !!data.you;
    $("player-tags").hidden = own;
    $("player-note-text").closest("label").hidden = own;
    $("player-note-save").hidden = own;
    $("player-note-status").textContent = data.stats.hands
      ? `From the ${data.stats.hands} hand${data.stats.hands === 1 ? "" : "s"} you were dealt into together.`
      : "No hands played together yet.";
  }

  fillTags(tags, current) {
    const box = $("player-tags");
    box.querySelectorAll("label").forEach((l) => l.remove());
    tags.forEach((t) => {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "tag";
      input.value = t.value;
      input.checked = t.value === current;
      const dot = document.createElement("span");
      dot.className = "player-tag-dot";
      if (t.value) dot.dataset.tag = t.value;
      dot.setAttribute("aria-hidden", "true");
      label.append(input, dot, document.createTextNode(t.label));
      box.append(label);
    });
  }

  async save() {
    const id = this.playerId;
    const checked = this.dialog.querySelector("input[name=tag]:checked");
    const body = new URLSearchParams({ tag: checked ? checked.value : "", text: $("player-note-text").value });
    const response = await fetch(`/tables/players/${id}/note/`, {
      method: "POST", body, headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
    });
    const data = await response.json();
    if (!response.ok) return this.refused(data);
    $("player-note-error").hidden = true;
    $("player-note-status").textContent = "Saved.";
    this.onSaved(id, data.note);
  }

  refused(data) {
    const box = $("player-note-error");
    box.textContent = data.message || "That did not work.";
    box.hidden = false;
    $("player-note-status").textContent = "";
  }
}

/** Open the pop-up from any `.player-name[data-player-id]` button under `root` (one listener). */
export function bindPlayerNames(root, card) {
  root.addEventListener("click", (e) => {
    const button = e.target.closest(".player-name[data-player-id]");
    if (!button || !root.contains(button)) return;
    card.open(Number(button.dataset.playerId), button.dataset.playerName || button.textContent);
  });
}
