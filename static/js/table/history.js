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
  for (const h of recent) list.append(historyEntry(h));
}

/**
 * One finished hand, a few lines tall: its link, Verify and the verdict in a word, the summary;
 * the commitment and the verdict's full words are folded away in a <details>.
 */
function historyEntry(h) {
  const el = (tag, className, text) => Object.assign(document.createElement(tag),
    { className, ...(text == null ? {} : { textContent: text }) });
  const li = document.createElement("li");
  li.dataset.handId = h.id;
  const link = el("a", "", `Hand #${h.number}`);
  link.href = `/tables/hands/${h.id}/`;
  link.target = "_blank";
  const button = el("button", "small secondary verify", "Verify");
  button.type = "button";
  button.setAttribute("aria-label", `Verify hand #${h.number}`);
  const status = el("span", "verify-status");
  status.setAttribute("aria-live", "polite");
  li.append(link, " ", button, " ", status);
  if (h.summary) li.append(el("div", "summary", h.summary));
  const proof = el("details", "hand-proof");
  const commitment = el("dl", "proof");
  const value = el("dd", "");
  value.append(el("code", "", h.commitment || "—"));
  commitment.append(el("dt", "", "Commitment"), value);
  const out = el("div", "verify-result");
  proof.append(el("summary", "", "Proof"), commitment, out);
  li.append(proof);
  button.addEventListener("click", () => verifyInto(h.id, out, status));
  return li;
}

/**
 * Fetch a finished hand's JSON and check its deal: the verdict's words go to `out`, and, when
 * given, a word or two to `status` (the side panel's one-line entry).
 */
export async function verifyInto(handId, out, status = null) {
  const say = (ok, text, word) => {
    out.className = `verify-result ${ok == null ? "" : ok ? "ok" : "bad"}`;
    out.textContent = text;
    if (status) {
      status.className = `verify-status ${ok == null ? "" : ok ? "ok" : "bad"}`;
      status.textContent = word;
    }
  };
  say(null, "Checking…", "Checking…");
  try {
    const resp = await fetch(`/tables/hands/${handId}.json`, { credentials: "same-origin" });
    if (!resp.ok) throw new Error(`the server answered ${resp.status}`);
    const history = await resp.json();
    const r = await verifyHand(history, entropyFor(history.commitment));
    say(r.ok, verdict(r), r.ok ? "✓ Verified" : "✗ Not verified: see Proof");
  } catch (err) {
    say(false, `Could not verify: ${err.message}`, "✗ Could not verify: see Proof");
  }
}
