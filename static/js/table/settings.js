/**
 * The player's table settings, kept in this browser (localStorage): sound muted, the game's
 * sounds (deals, bets, folds, wins) on or off, amounts in big
 * blinds, dealer lines (who won what) in the chat panel, the text mode for screen readers.
 * A browser that refuses storage (private mode) still works with the defaults.
 * @module table/settings
 */

const PREFIX = "pokerroom.table.";
const DEFAULTS = {
  muted: false, gameSounds: true, bigBlinds: false, dealerLines: true, textMode: false,
};

/** @param {"muted"|"gameSounds"|"bigBlinds"|"dealerLines"|"textMode"} name */
export function setting(name) {
  try {
    const raw = localStorage.getItem(PREFIX + name);
    return raw == null ? DEFAULTS[name] : raw === "1";
  } catch {
    return DEFAULTS[name];
  }
}

/** @param {"muted"|"gameSounds"|"bigBlinds"|"dealerLines"|"textMode"} name @param {boolean} on */
export function remember(name, on) {
  try { localStorage.setItem(PREFIX + name, on ? "1" : "0"); } catch { /* storage refused */ }
}

/**
 * A toggle button (aria-pressed) bound to a setting; calls `apply` now and on every change.
 * @param {HTMLButtonElement} button
 * @param {"muted"|"gameSounds"|"bigBlinds"|"dealerLines"|"textMode"} name
 * @param {(on: boolean) => void} apply
 */
export function bindToggle(button, name, apply) {
  const show = (on) => {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    apply(on);
  };
  show(setting(name));
  button.addEventListener("click", () => {
    const on = button.getAttribute("aria-pressed") !== "true";
    remember(name, on);
    show(on);
  });
}
