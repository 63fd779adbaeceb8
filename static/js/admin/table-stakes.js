// The TableConfig admin form shows the stakes in the words of the chosen game: the small and
// big blind for no-limit and pot-limit, the small and big bet for fixed-limit. The other
// game's rows are hidden (the server reads only the chosen game's fields).
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const structure = document.getElementById("id_structure");
  if (!structure) return;
  const rows = (names) => names.map((n) => document.querySelector(`.form-row.field-${n}`))
    .filter(Boolean);
  const blinds = rows(["big_blind"]);
  const bets = rows(["small_bet", "big_bet"]);
  const show = () => {
    const limit = structure.value === "FL";
    for (const row of blinds) row.hidden = limit;
    for (const row of bets) row.hidden = !limit;
  };
  structure.addEventListener("change", show);
  show();
});
