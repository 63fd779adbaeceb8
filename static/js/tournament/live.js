/**
 * The tournament's live side on the room's pages, from its socket (tournament/watch.js):
 * - a tournament table's level line (`#tournament-line`: level, blinds, ante, next level and
 *   when, place/field, average stack), and following the player when he is moved
 *   (`/tables/<new>/?moved_from=<old>`, with a notice and a tab-title alert);
 * - the tournament page (`#tournament-live`): state, field, prize pool, payouts, players and
 *   stacks, tables to watch, the player's position, and the places and prizes at the end;
 * - alerts (`[data-tournament-alerts]`: the lobby's "Your tournaments", the tournament page)
 *   when a tournament the player is in starts, or his late entry or re-entry is seated: a
 *   tab-title alert and a status message with a link to his table;
 * - at the table, the re-entry offer when the player busts while re-entry is open.
 * @module tournament/live
 */
import { levelLine, placeOf, reentryOpen } from "./state.js";
import { TitleAlert, watchTournament } from "./watch.js";
import { moneyFormat } from "../table/format.js";

const TICK_MS = 1000;
let titleAlert = null;
const alert = () => (titleAlert ||= new TitleAlert());

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

/** Draw the level line's parts into `line`. */
function drawLine(line, state, userId) {
  const parts = levelLine(state, userId).map((p) => {
    const span = el("span", { class: "part", "data-key": p.key });
    span.append(el("span", { class: "label" }, p.label), " ", el("strong", {}, p.value));
    return span;
  });
  line.replaceChildren(...parts);
  line.hidden = false;
}

function levelLines() {
  for (const line of document.querySelectorAll("#tournament-line")) {
    const watch = watchTournament(Number(line.dataset.tournamentId));
    const userId = Number(line.dataset.userId) || null;
    watch.listen((state) => drawLine(line, state, userId));
    setInterval(() => { if (watch.state) drawLine(line, watch.state, userId); }, TICK_MS);
  }
}

/** At a tournament table: a move takes the player's page to his new table; a page opened
 * by a move says so. */
function moves() {
  const root = document.getElementById("table");
  const status = document.getElementById("tournament-status");
  if (!root || !status) return;
  root.addEventListener("moved", (e) => {
    const { moved_to: to } = e.detail;
    status.textContent = "You are moved to another table…";
    location.assign(`/tables/${to}/?moved_from=${root.dataset.tableId}`);
  });
  const from = new URLSearchParams(location.search).get("moved_from");
  if (from) {
    status.textContent = `You were moved here from table ${from}. Your chips came with you.`;
    alert().raise(`Moved to ${root.dataset.tableName}`);
  }
}

/** A status message and a tab-title alert when a tournament the player is in starts, and
 * when a late registration or a re-entry of his is seated. */
function startAlerts() {
  for (const box of document.querySelectorAll("[data-tournament-alerts]")) {
    const userId = Number(box.dataset.userId);
    const status = box.querySelector("[role=status]");
    const show = (text, tableId) => {
      const link = el("a", { href: `/tables/${tableId}/`, class: "open-table" }, "Open your table");
      status.replaceChildren(text, link);
    };
    const tell = (title, text, tableId) => { alert().raise(title); show(text, tableId); };
    for (const id of box.dataset.tournamentAlerts.split(/\s+/).filter(Boolean)) {
      watchTournament(Number(id)).listen((state, event) => {
        const name = state.tournament.name;
        if (!event) {  // a snapshot (the page opened, or came back): no news, but the way in
          const me = state.standings.find((s) => s.player_id === userId && s.state === "playing");
          if (me && me.table_id && !status.textContent) show(`${name}: you are playing. `, me.table_id);
        } else if (event.type === "started") {
          const table = event.tables.find((t) => t.players.some((p) => p.player_id === userId));
          if (table) {
            tell(`Your tournament started — ${name}`,
              `${name} has started: you are at ${table.name}. `, table.table_id);
          }
        } else if (event.type === "seated" && event.player_id === userId) {
          tell(`You are seated — ${name}`,
            `${name}: your entry ${event.entry} is seated with ${event.stack.toLocaleString("en-US")} chips. `,
            event.table_id);
        }
      });
    }
  }
}

/** At a tournament table: the player who busts while re-entry is open is offered one (the
 * tournament page's Re-enter button, which takes a new buy-in). */
function reentryOffer() {
  const line = document.getElementById("tournament-line");
  const status = document.getElementById("tournament-status");
  if (!line || !status) return;
  const id = Number(line.dataset.tournamentId);
  const userId = Number(line.dataset.userId) || null;
  const offer = (text) => {
    const link = el("a", { href: `/tournaments/${id}/#register`, class: "reenter" }, "Re-enter");
    status.replaceChildren(`${text}Re-entry is open: `, link);
  };
  watchTournament(id).listen((state, event) => {
    if (!event) {  // a snapshot: the page opened (or came back) after his bust
      if (!status.textContent && reentryOpen(state, userId)) offer("");
      return;
    }
    if (event.type !== "busted" || event.player_id !== userId) return;
    const out = `You finished in place ${event.place}.`;
    if (!event.reentry) { status.textContent = out; return; }
    offer(`${out} `);
    alert().raise(`Re-entry open — ${state.tournament.name}`);
  });
}

/** The tournament page, redrawn from the state after each event. */
function tournamentPage() {
  const page = document.getElementById("tournament-live");
  if (!page) return;
  const $ = (id) => document.getElementById(id);
  const currency = page.dataset.currency;
  const userId = Number(page.dataset.userId) || null;
  const money = (amount) => moneyFormat(amount, currency);
  watchTournament(Number(page.dataset.tournamentId)).listen((state, event, out) => {
    const t = state.tournament;
    page.dataset.state = t.state;
    page.dataset.version = String(state.version);
    $("t-state").textContent = { announced: "Announced", registering: "Registering",
      running: "Running", on_break: "On break", finished: "Finished",
      cancelled: "Cancelled" }[t.state] || t.state;
    $("t-entries").textContent = String(state.entries);
    $("t-pool").textContent = money(state.prizePool);
    const payouts = state.payouts.map((p) => {
      const tr = el("tr");
      tr.append(el("th", { scope: "row" }, String(p.place)),
        el("td", {}, `${Math.round(p.share / 100)}%`), el("td", {}, money(p.prize)));
      return tr;
    });
    $("t-payouts").replaceChildren(...payouts);
    const rows = state.standings.map((s) => {
      const tr = el("tr", { class: `standing ${s.state}`, "data-player-id": String(s.player_id) });
      const name = el("th", { scope: "row" }, s.player);
      if (s.entry > 1) name.append(" ", el("span", { class: "muted" }, `(re-entry ${s.entry - 1})`));
      const watchCell = el("td");
      if (s.table_id) watchCell.append(el("a", { href: `/tables/${s.table_id}/?watch=1` }, "Watch"));
      tr.append(name, el("td", {}, s.chips ? s.chips.toLocaleString("en-US") : "—"),
        el("td", {}, s.place ? String(s.place) : ""), el("td", {}, s.prize ? money(s.prize) : ""),
        watchCell);
      return tr;
    });
    if (!rows.length) rows.push(el("tr", {}, ""));
    if (!state.standings.length) rows[0].append(el("td", { colspan: "5", class: "empty" }, "Nobody has registered yet."));
    $("t-players").replaceChildren(...rows);
    const mine = $("t-position");
    if (mine && userId) {
      const at = placeOf(state, userId);
      const me = state.standings.find((s) => s.player_id === userId && s.place);
      mine.textContent = at ? `You are ${at.place} of ${at.field} by chips.`
        : me ? `You finished in place ${me.place}${me.prize ? `, winning ${money(me.prize)}` : ""}.` : "";
    }
    $("t-results").hidden = t.state !== "finished";
    if (t.state === "finished") {
      const places = state.standings.filter((s) => s.place).sort((a, b) => a.place - b.place)
        .map((s) => {
          const li = el("li", { value: String(s.place) });
          li.append(el("strong", {}, s.player),
            `${s.entry > 1 ? ` (re-entry ${s.entry - 1})` : ""}${s.prize ? ` · ${money(s.prize)}` : ""}`);
          return li;
        });
      $("t-places").replaceChildren(...places);
    }
    if (event && out.say.length) $("t-announcer").textContent = out.say.join(" ");
  });
}

levelLines();
moves();
startAlerts();
reentryOffer();
tournamentPage();
