/**
 * This browser's contributions to the deal order (tables/engine/fairness.py): 32 random bytes
 * sent once for each deck commitment the table publishes while the player is seated, and kept
 * here so that verifying the hand later can check they were used.
 * @module entropy
 */
const STORE = "pokerroom.entropy";
const KEEP = 300; // contributions remembered (a few hours of play)

function load() {
  try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch { return []; }
}

/** What this browser sent for the deck committed as `commitment`, or null. */
export function entropyFor(commitment) {
  const found = load().find(([c]) => c === commitment);
  return found ? found[1] : null;
}

/**
 * The `entropy` message for `commitment`, made and remembered the first time; null when this
 * browser has already answered that commitment (one contribution per deck).
 * @returns {{type: "entropy", commitment: string, value: string}|null}
 */
export function entropyMessage(commitment) {
  if (!/^[0-9a-f]{64}$/.test(commitment || "") || entropyFor(commitment)) return null;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const value = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  const kept = [[commitment, value], ...load()].slice(0, KEEP);
  try { localStorage.setItem(STORE, JSON.stringify(kept)); } catch { /* private mode: sent anyway */ }
  return { type: "entropy", commitment, value };
}
