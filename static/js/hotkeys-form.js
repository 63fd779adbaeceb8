/**
 * The profile's table hotkeys: click a box, press a key, and the box shows that key (letters
 * upper case, F1–F12 as is); Tab and Shift+Tab still move on. "Use these keys" saves them
 * (POST /accounts/profile/hotkeys/, JSON answer) and says what the server said: saved, or why
 * not (a reserved key, a key set twice). Without this script the boxes are plain text fields.
 * @module hotkeys-form
 */
const form = document.getElementById("hotkeys-form");

/** The key as the box shows it, or null for a key that only moves the focus. */
export function keyLabel(e) {
  if (e.key === "Tab" || e.key === "Shift") return null;
  if (e.key === " ") return "Space";
  return e.key.length === 1 ? e.key.toUpperCase() : e.key;
}

function say({ error = "", saved = "" }) {
  const box = document.getElementById("hotkeys-error");
  box.textContent = error;
  box.hidden = !error;
  document.getElementById("hotkeys-saved").textContent = saved;
}

if (form) {
  form.querySelectorAll("input.hotkey-key").forEach((input) => {
    input.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const label = keyLabel(e);
      if (label === null) return;
      e.preventDefault();
      input.value = label === "Space" ? " " : label;
      say({});
    });
  });
  document.getElementById("hotkeys-defaults").addEventListener("click", (e) => {
    const keys = JSON.parse(e.currentTarget.dataset.defaults);
    Object.entries(keys).forEach(([action, key]) => { form.elements[action].value = key; });
    say({ saved: "The room's keys: press Use these keys to keep them." });
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    say({});
    const answer = await fetch(form.action, {
      method: "POST", body: new FormData(form), headers: { Accept: "application/json" },
    });
    const body = await answer.json().catch(() => ({ error: "The room did not answer; try again." }));
    if (answer.ok) say({ saved: body.message });
    else say({ error: body.error || "Not saved." });
  });
}
