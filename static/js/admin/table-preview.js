// The table's one-line preview on the TableConfig admin form, refreshed as the operator types.
// The line itself is made on the server (tables/preview.py, through the admin's own form), so
// the page and the saved table can never describe the table differently.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const output = document.getElementById("table-preview");
  const form = output && output.closest("form");
  if (!form) return;
  let timer = null;
  let asked = 0;

  async function refresh() {
    const query = new URLSearchParams(new FormData(form));
    query.delete("csrfmiddlewaretoken");
    const ticket = ++asked;
    try {
      const response = await fetch(`${output.dataset.previewUrl}?${query}`, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      if (!response.ok || ticket !== asked) return; // a newer answer is on its way
      const answer = await response.json();
      output.textContent = answer.line;
      output.classList.toggle("errornote", !answer.ok);
    } catch {
      // offline or the session ended: keep the last line
    }
  }

  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  };
  form.addEventListener("input", soon);
  form.addEventListener("change", soon);
});
