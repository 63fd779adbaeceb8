/**
 * On the hand-history page (/tables/hands/<id>/): check the deal in the browser — every card
 * the reader saw against the commitment published before the deal, and, when this browser
 * contributed to the deal order, that its entropy was used. Reads the page's
 * `{{ history|json_script:"hand-history" }}` and writes into #verify-result (created if absent).
 * @module verify-page
 */
import { entropyFor } from "./entropy.js";
import { verdict, verifyHand } from "./verify.js";

const data = document.getElementById("hand-history");
if (data) {
  let out = document.getElementById("verify-result");
  if (!out) {
    out = document.createElement("p");
    out.id = "verify-result";
    out.setAttribute("role", "status");
    data.before(out);
  }
  const history = JSON.parse(data.textContent);
  out.textContent = "Checking the deal in your browser…";
  verifyHand(history, entropyFor(history.commitment)).then((r) => {
    out.className = `verify-result ${r.ok ? "ok" : "bad"}`;
    out.textContent = verdict(r);
  }).catch((err) => { out.textContent = `Could not verify: ${err.message}`; });
}
