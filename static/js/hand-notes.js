/**
 * The hand page's players: each name opens the player pop-up (player-card.js: your note, tag
 * and statistics), and your tags and notes on them are shown beside the names (a coloured dot,
 * the note as the name's tooltip).
 * @module hand-notes
 */
import { PlayerCard, bindPlayerNames } from "./player-card.js";

const table = document.querySelector(".hand-players");
const notes = new Map();

function draw() {
  table.querySelectorAll(".player-name[data-player-id]").forEach((button) => {
    const id = Number(button.dataset.playerId);
    const note = notes.get(id);
    const dot = table.querySelector(`[data-note-tag-for="${id}"]`);
    if (dot) {
      dot.hidden = !(note && note.tag);
      if (note && note.tag) {
        dot.dataset.tag = note.tag;
        dot.setAttribute("role", "img");
        dot.setAttribute("aria-label", `Tag: ${note.tag_label}`);
      }
    }
    button.title = note && note.text ? `Your note: ${note.text}` : `Notes and stats on ${button.dataset.playerName}`;
    button.dataset.note = note && note.text ? note.text : "";
  });
}

if (table) {
  const card = new PlayerCard({
    onSaved: (id, note) => {
      if (note && (note.tag || note.text)) notes.set(id, note); else notes.delete(id);
      draw();
    },
  });
  bindPlayerNames(table, card);
  const ids = [...new Set([...table.querySelectorAll(".player-name[data-player-id]")]
    .map((b) => Number(b.dataset.playerId)))];
  if (ids.length) {
    fetch(`/tables/players/notes/?ids=${ids.join(",")}`, { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : { notes: {} }))
      .then((data) => { Object.entries(data.notes).forEach(([id, n]) => notes.set(Number(id), n)); draw(); });
  }
}
