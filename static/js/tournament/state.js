/**
 * A tournament as its socket tells it (docs/protocol.md, "Tournament socket"): the state made
 * from a snapshot, each event applied in order, and what the pages show of it — the level
 * line (level, blinds, ante, next level, place and field, average stack), the standings and
 * the payouts. Pure: no DOM, no socket.
 * @module tournament/state
 */

/** @param {object} snap a tournament `snapshot` frame */
export function fromSnapshot(snap) {
  const levels = snap.levels.filter((l) => !l.is_break);
  const now = levels[snap.clock.level - 1] || null;
  const after = levels[snap.clock.level] || null;
  return {
    version: snap.version,
    serverOffsetMs: Date.parse(snap.server_time) - Date.now(),
    tournament: { ...snap.tournament },
    clock: { ...snap.clock },
    level: now && blinds(now),
    next: after && blinds(after),
    entries: snap.entries,
    playersLeft: snap.players_left,
    prizePool: snap.prize_pool,
    chipsBought: snap.chips_bought || 0,
    payouts: snap.payouts.map((p) => ({ ...p })),
    standings: snap.standings.map((s) => ({ ...s })),
    tables: [...snap.tables],
  };
}

function blinds(l) {
  return { small_blind: l.small_blind, big_blind: l.big_blind, ante: l.ante,
    big_blind_ante: l.big_blind_ante };
}

const IN = new Set(["registered", "playing"]);

/**
 * Apply one event. Returns what the page should say (`say`), and `unknown` for an event it
 * cannot apply (the page then asks for a snapshot).
 * @returns {{say: string[], unknown?: boolean}}
 */
export function applyEvent(state, ev) {
  const out = { say: [] };
  const t = state.tournament;
  const entryOf = (ev2) => state.standings.find(
    (s) => s.player_id === ev2.player_id && s.entry === ev2.entry);
  switch (ev.type) {
    case "created":
      t.state = ev.state;
      break;
    case "registered":
      state.standings.push({ player: ev.player, player_id: ev.player_id, entry: ev.entry,
        state: "registered", chips: t.starting_stack, place: null, prize: 0, table_id: null });
      field(state, ev);
      out.say.push(`${ev.player} registered: ${ev.entries} entries.`);
      break;
    case "unregistered":
      state.standings = state.standings.filter((s) => s !== entryOf(ev));
      field(state, ev);
      out.say.push(`${ev.player} unregistered: ${ev.entries} entries.`);
      break;
    case "started":
      t.state = "running";
      state.entries = ev.entries;
      state.playersLeft = ev.entries;
      state.tables = ev.tables.map((x) => x.table_id);
      for (const table of ev.tables) {
        for (const p of table.players) {
          const s = state.standings.find((x) => x.player_id === p.player_id && IN.has(x.state));
          if (s) Object.assign(s, { state: "playing", table_id: table.table_id });
        }
      }
      out.say.push(`The tournament started with ${ev.entries} players.`);
      break;
    case "level":
      t.state = "running";
      state.clock = { level: ev.level, on_break: false, until: ev.until };
      state.level = blinds(ev);
      state.next = ev.next && blinds(ev.next);
      out.say.push(`Level ${ev.level}: blinds ${levelText(state.level)}.`);
      break;
    case "break":
      t.state = "on_break";
      state.clock = { level: ev.after_level, on_break: true, until: ev.until };
      out.say.push("Break.");
      break;
    case "chips":
      for (const [id, chips] of Object.entries(ev.stacks)) {
        const s = state.standings.find((x) => x.player_id === Number(id) && x.state === "playing");
        if (s) Object.assign(s, { chips, table_id: ev.table_id });
      }
      if (!state.tables.includes(ev.table_id)) state.tables.push(ev.table_id);
      break;
    case "seated": {  // a late registration or a re-entry, at its table
      const s = entryOf(ev);
      if (s) Object.assign(s, { state: "playing", chips: ev.stack, table_id: ev.table_id });
      if (!state.tables.includes(ev.table_id)) state.tables.push(ev.table_id);
      out.say.push(`${ev.player} is seated.`);
      break;
    }
    case "moved": {
      const s = state.standings.find((x) => x.player_id === ev.player_id && x.state === "playing");
      if (s) s.table_id = ev.to_table;
      if (!state.tables.includes(ev.to_table)) state.tables.push(ev.to_table);
      break;
    }
    case "busted": {
      const s = entryOf(ev);
      if (s) Object.assign(s, { state: "busted", chips: 0, place: ev.place, table_id: null });
      state.playersLeft = ev.players_left;
      out.say.push(`${ev.player} finished in place ${ev.place}.`);
      break;
    }
    case "finished":
      t.state = "finished";
      state.clock.until = null;
      state.playersLeft = 0;
      state.tables = [];
      for (const p of ev.places) {
        const s = entryOf(p);
        if (s) Object.assign(s, { place: p.place, prize: p.prize, table_id: null,
          state: s.state === "playing" ? "playing" : s.state });
      }
      out.say.push(`The tournament is over: ${ev.places[0] ? ev.places[0].player : "nobody"} won.`);
      break;
    case "cancelled":
      t.state = "cancelled";
      out.say.push("The tournament was cancelled; every entry is refunded.");
      break;
    case "rebuy":
    case "addon": {
      const s = entryOf(ev);
      if (s && ev.type === "rebuy") s.rebuys = ev.rebuys;
      if (s && ev.type === "addon") s.addon = true;
      field(state, ev);
      state.chipsBought = ev.chips_bought;
      out.say.push(`${ev.player} ${ev.type === "rebuy" ? "rebought" : "took the add-on"}: ${ev.chips} chips.`);
      break;
    }
    default:
      out.unknown = true;
  }
  sortStandings(state);
  return out;
}

/**
 * Whether player `userId`, out with no entry in play, may buy a re-entry now: the server's
 * rule (registration open through the late-registration levels, busted entries no more than
 * the re-entries allowed), for a page that connected after his bust.
 */
export function reentryOpen(state, userId) {
  const t = state.tournament;
  const mine = state.standings.filter((s) => s.player_id === userId);
  if (!mine.length || mine.some((s) => IN.has(s.state))) return false;
  const late = (t.state === "running" || t.state === "on_break")
    && state.clock.level > 0 && state.clock.level <= (t.late_registration_levels || 0);
  return late && mine.filter((s) => s.state === "busted").length <= (t.max_reentries || 0);
}

function field(state, ev) {
  state.entries = ev.entries;
  state.playersLeft = ev.players;
  state.prizePool = ev.prize_pool;
  state.payouts = ev.payouts.map((p) => ({ ...p }));
}

/** Still in by chips, then the places (as the server orders them). */
function sortStandings(state) {
  state.standings.sort((a, b) => (IN.has(a.state) ? 0 : 1) - (IN.has(b.state) ? 0 : 1)
    || (a.place || 0) - (b.place || 0) || b.chips - a.chips);
}

/** "20/40, ante 5" ("big-blind ante 40"). */
export function levelText(l) {
  if (!l) return "";
  const ante = l.ante ? (l.big_blind_ante ? `, big-blind ante ${l.ante}` : `, ante ${l.ante}`) : "";
  return `${l.small_blind}/${l.big_blind}${ante}`;
}

/** The player's place by chips among those still in, and how many are: null when out. */
export function placeOf(state, userId) {
  if (state.tournament.state === "finished" || state.tournament.state === "cancelled") return null;
  const live = state.standings.filter((s) => IN.has(s.state));
  const k = live.findIndex((s) => s.player_id === userId);
  return k < 0 ? null : { place: k + 1, field: live.length };
}

/**
 * Chips in play (entries × starting stack + chips bought by rebuys and add-ons:
 * docs/tournaments.md) over the players left.
 */
export function averageStack(state) {
  if (!state.playersLeft) return null;
  return Math.round((state.entries * state.tournament.starting_stack + (state.chipsBought || 0))
    / state.playersLeft);
}

/** "m:ss" until the clock's next change, or "" (the last level never ends). */
export function untilText(state) {
  if (!state.clock.until) return "";
  const s = Math.max(0, Math.round((Date.parse(state.clock.until) - Date.now()
    - state.serverOffsetMs) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The level line's parts, in the order the table shows them.
 * @returns {{label: string, value: string, key: string}[]}
 */
export function levelLine(state, userId) {
  const t = state.tournament;
  const parts = [];
  const left = untilText(state);
  if (t.state === "finished" || t.state === "cancelled") {
    parts.push({ key: "state", label: "Tournament", value: t.state === "finished" ? "over" : "cancelled" });
    return parts;
  }
  if (state.clock.on_break) {
    parts.push({ key: "level", label: "Break", value: left ? `${left} left` : "" });
  } else if (state.level) {
    parts.push({ key: "level", label: "Level", value: String(state.clock.level) });
    parts.push({ key: "blinds", label: "Blinds", value: `${state.level.small_blind}/${state.level.big_blind}` });
    parts.push({ key: "ante", label: state.level.big_blind_ante ? "BB ante" : "Ante",
      value: state.level.ante ? String(state.level.ante) : "none" });
  }
  if (state.next) {
    parts.push({ key: "next", label: "Next", value: `${levelText(state.next)}${left ? ` in ${left}` : ""}` });
  }
  const mine = userId ? placeOf(state, userId) : null;
  parts.push(mine ? { key: "place", label: "Place", value: `${mine.place}/${mine.field}` }
    : { key: "place", label: "Players", value: `${state.playersLeft}/${state.entries}` });
  const avg = averageStack(state);
  if (avg !== null) parts.push({ key: "average", label: "Avg stack", value: avg.toLocaleString("en-US") });
  return parts;
}
