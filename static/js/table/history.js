/**
 * The side panel: the hand log, the current hand's deck commitment, and the last hands with a
 * "verify" button that checks the deal in the browser (../verify.js): the board, shown hands
 * and the player's own cards against the commitment, and his entropy in the deal order.
 * @module table/history
 */
import { entropyFor } from "../entropy.js";
import { verdict, verifyHand } from "../verify.js";

const $ = (id) => document.getElementById(id);
const MAX_LOG = 80;

export function logLine(text) {
  const log = $("hand-log");
  const li = document.createElement("li");
  li.textContent = text;
  log.prepend(li);
  while (log.children.length > MAX_LOG) log.lastChild.remove();
}

export function renderFairness(state) {
  const hand = state.hand;
  const box = $("fairness");
  if (!hand) { box.hidden = true; return; }
  box.hidden = false;
  $("fair-hand").textContent = `Hand #${hand.number}`;
  $("fair-commitment").textContent = hand.commitment || "—";
}

let shownHistory = null;

export function renderHistory(state) {
  const list = $("history");
  const recent = state.recent_hands || [];
  const key = recent.map((h) => h.id).join(",");
  if (key === shownHistory) return;
  shownHistory = key;
  list.replaceChildren();
  if (!recent.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "No finished hands yet.";
    list.append(li);
    return;
  }
  for (const h of recent) {
    const li = document.createElement("li");
    li.dataset.handId = h.id;
    const link = document.createElement("a");
    link.href = `/tables/hands/${h.id}/`;
    link.textContent = `Hand #${h.number}`;
    link.target = "_blank";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "small secondary verify";
    button.textContent = "Verify";
    button.setAttribute("aria-label", `Verify hand #${h.number}`);
    const out = document.createElement("div");
    out.className = "verify-result";
    out.setAttribute("aria-live", "polite");
    button.addEventListener("click", () => verifyInto(h.id, out));
    li.append(link, " ", button);
    if (h.summary) li.append(Object.assign(document.createElement("div"), { className: "summary", textContent: h.summary }));
    li.append(out);
    list.append(li);
  }
}

/** Fetch a finished hand's JSON and check its deal. */
export async function verifyInto(handId, out) {
  out.textContent = "Checking…";
  try {
    const resp = await fetch(`/tables/hands/${handId}.json`, { credentials: "same-origin" });
    if (!resp.ok) throw new Error(`the server answered ${resp.status}`);
    const history = await resp.json();
    const r = await verifyHand(history, entropyFor(history.commitment));
    out.className = `verify-result ${r.ok ? "ok" : "bad"}`;
    out.textContent = verdict(r);
  } catch (err) {
    out.className = "verify-result bad";
    out.textContent = `Could not verify: ${err.message}`;
  }
}
