/**
 * Your notes and colour tags on the players at this table, drawn on their seats: the seat's
 * plate outlined in the tag's colour, a dot naming the tag, and the note as the name's
 * tooltip (hover; a tap opens the pop-up, player-card.js, which shows and edits it). Loaded
 * once per new set of players (GET /tables/players/notes/?ids=…), and updated when a note
 * is saved from the pop-up. Private: the server answers with the viewer's own notes only.
 * @module table/notes
 */

export class SeatNotes {
  constructor({ loggedIn, onChange }) {
    this.loggedIn = loggedIn;
    this.onChange = onChange || (() => {});
    /** @type {Map<number, {tag: string, tag_label: string, text: string}>} */
    this.notes = new Map();
    this.asked = "";
  }

  /** Fetch the notes of the seated players when they changed (one request per new set). */
  load(state) {
    if (!this.loggedIn || !state) return;
    const ids = [...new Set(state.seats.map((s) => s.player_id).filter((id) => id && id !== state.you.user_id))]
      .sort((a, b) => a - b);
    const key = ids.join(",");
    if (!ids.length || key === this.asked) return;
    this.asked = key;
    fetch(`/tables/players/notes/?ids=${key}`, { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : { notes: {} }))
      .then((data) => {
        Object.entries(data.notes).forEach(([id, note]) => this.notes.set(Number(id), note));
        this.onChange();
      })
      .catch(() => { this.asked = ""; });
  }

  /** A note saved from the pop-up (null: removed). */
  saved(playerId, note) {
    if (note && (note.tag || note.text)) this.notes.set(playerId, note);
    else this.notes.delete(playerId);
    this.onChange();
  }

  /** Draw the tags and notes on the felt's seats (after render.js drew them). */
  decorate(felt) {
    felt.querySelectorAll(".seat .player-name[data-player-id]").forEach((button) => {
      const seat = button.closest(".seat");
      const note = this.notes.get(Number(button.dataset.playerId));
      const name = button.dataset.playerName;
      seat.querySelectorAll(".player-tag-dot").forEach((d) => d.remove());
      if (note && note.tag) {
        seat.dataset.tag = note.tag;
        const dot = document.createElement("span");
        dot.className = "player-tag-dot";
        dot.dataset.tag = note.tag;
        dot.setAttribute("role", "img");
        dot.setAttribute("aria-label", `Tag: ${note.tag_label}`);
        button.before(dot);
      } else {
        delete seat.dataset.tag;
      }
      const text = note && note.text ? note.text : "";
      button.title = text ? `Your note: ${text}` : `Notes and stats on ${name}`;
      button.setAttribute("aria-label", text ? `${name}: your note, ${text}` : `${name}: notes and stats`);
      button.dataset.note = text;
    });
  }
}
