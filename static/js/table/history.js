/**
 * The side panel: the hand log, the current hand's seed commitment, and the last hands with a
 * "verify" button that recomputes the deck in the browser (../verify.js).
 * @module table/history
 */
import { handFromHistory, verifyHand } from "../verify.js";

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
  $("fair-seed").textContent = hand.seed || "revealed when the hand ends";
  $("fair-seed").classList.toggle("muted", !hand.seed);
}

let shownHistory = null;
/** Commitments and seeds of the hands seen on this page, by hand id. */
const seen = new Map();

/** Remember the current hand's commitment (at the deal) and seed (after it). */
export function rememberHand(hand) {
  if (!hand) return;
  const known = seen.get(hand.id) || {};
  seen.set(hand.id, { commitment: hand.commitment || known.commitment, seed: hand.seed || known.seed });
}

function proof(commitment, seed) {
  const dl = document.createElement("dl");
  dl.className = "proof";
  dl.innerHTML = "<dt>Commitment</dt><dd><code></code></dd><dt>Seed</dt><dd><code></code></dd>";
  const codes = dl.querySelectorAll("code");
  codes[0].textContent = commitment || "—";
  codes[1].textContent = seed || "—";
  return dl;
}

export function renderHistory(state) {
  const list = $("history");
  const recent = state.recent_hands || [];
  const key = recent.map((h) => `${h.id}:${seen.has(h.id)}:${!!h.seed}`).join(",");
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
    const known = h.seed ? h : seen.get(h.id);
    if (known && known.seed) li.append(proof(known.commitment, known.seed));
    li.append(out);
    list.append(li);
  }
}

/** Fetch a finished hand and recompute its deck from the revealed seed. */
export async function verifyInto(handId, out) {
  out.textContent = "Checking…";
  try {
    const resp = await fetch(`/tables/hands/${handId}.json`, { credentials: "same-origin" });
    if (!resp.ok) throw new Error(`the server answered ${resp.status}`);
    const history = await resp.json();
    const hand = handFromHistory(history);
    const r = await verifyHand(hand);
    const seen = hand.board.length + Object.values(hand.known).flat().length;
    out.className = `verify-result ${r.ok ? "ok" : "bad"}`;
    out.textContent = r.ok
      ? `✓ sha256(seed) matches the commitment and all ${seen} cards seen match the deck.`
      : `✗ ${r.commitmentOk ? "" : "The seed does not match the commitment. "}${r.mismatches.join("; ")}`;
    if (!out.parentElement.querySelector(".proof")) out.before(proof(history.commitment, history.seed));
  } catch (err) {
    out.className = "verify-result bad";
    out.textContent = `Could not verify: ${err.message}`;
  }
}
