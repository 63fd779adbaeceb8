// Lobby and waiting-list helpers (no dependencies besides htmx, loaded by the page).
// 1. htmx swaps only 2xx answers by default; our partials answer a bad filter (400), a refused
//    waiting-list request (403/409) or bad input (422) with the reason inside the partial, so
//    those are swapped in too: the old rows disappear and the message shows.
// 2. A "Take seat N" offer on the table page opens the normal buy-in of that seat.
// 3. The seconds left on an offer count down between polls.
const SWAPPED_ERRORS = new Set([400, 403, 409, 422]);

document.addEventListener("htmx:beforeSwap", (event) => {
  const status = event.detail.xhr.status;
  if (SWAPPED_ERRORS.has(status) && event.detail.xhr.getResponseHeader("Content-Type")?.startsWith("text/html")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

function sitHere(number) {
  const button = document.querySelector(`.seat[data-seat="${number}"] .sit-here`);
  if (button) button.click();
  return Boolean(button);
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("[data-take-seat]");
  if (!link || !document.getElementById("table")) return;  // in the lobby: follow the link
  const table = document.getElementById("table").dataset.tableId;
  if (link.closest(".waitlist")?.dataset.tableId !== table) return;
  if (sitHere(link.dataset.takeSeat)) event.preventDefault();
});

// Arriving from the lobby's "Take seat N": open that seat's buy-in once the table has drawn.
const take = new URLSearchParams(location.search).get("take");
if (take && document.getElementById("table")) {
  let tries = 0;
  const timer = setInterval(() => {
    if (sitHere(take) || ++tries > 40) clearInterval(timer);
  }, 250);
}

setInterval(() => {
  for (const left of document.querySelectorAll(".wl-left[data-expires]")) {
    const seconds = Math.max(0, Math.round((Date.parse(left.dataset.expires) - Date.now()) / 1000));
    left.textContent = String(seconds);
  }
}, 1000);
