/**
 * On the hand-history page (/tables/hands/<id>/): recompute the deck from the revealed seed and
 * show whether it matches the commitment and every card seen. Reads the page's
 * `{{ history|json_script:"hand-history" }}` and writes into #verify-result (created if absent).
 * @module verify-page
 */
import { handFromHistory, verifyHand } from "./verify.js";

const data = document.getElementById("hand-history");
if (data) {
  let out = document.getElementById("verify-result");
  if (!out) {
    out = document.createElement("p");
    out.id = "verify-result";
    out.setAttribute("role", "status");
    data.before(out);
  }
  const hand = handFromHistory(JSON.parse(data.textContent));
  out.textContent = "Checking the deal in your browser…";
  verifyHand(hand).then((r) => {
    out.className = `verify-result ${r.ok ? "ok" : "bad"}`;
    out.textContent = r.ok
      ? "✓ Verified in your browser: sha256(seed) equals the commitment and every card seen is where the seed's deck puts it."
      : `✗ ${r.commitmentOk ? "" : "The seed does not match the commitment. "}${r.mismatches.join("; ")}`;
  }).catch((err) => { out.textContent = `Could not verify: ${err.message}`; });
}
