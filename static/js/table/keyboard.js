/**
 * Keyboard shortcuts at the table, the player's own from his profile (#table's data-hotkeys,
 * accounts/hotkeys.py) or the room's: F fold, C check/call, R bet/raise (focuses the amount;
 * Enter confirms), 1 Min, 2 half the pot, 3 Pot, 4 All-in (each sets the amount and focuses the
 * box; Enter bets). Shown on the buttons with <kbd>. Ignored while typing in a text field, a
 * text area or a list box — not after a click on a checkbox ("Always show", a pre-action box)
 * or a button, which keep the focus.
 * In a tile of the tiles window the action is not done here: `route` hands it to the window,
 * which sends it to the table where the player must act (static/js/tiles.js).
 * @module table/keyboard
 */

/** The room's keys (accounts/hotkeys.py DEFAULTS). */
export const DEFAULT_KEYS = Object.freeze({
  fold: "f", check_call: "c", bet_raise: "r", min: "1", half_pot: "2", pot: "3", all_in: "4",
});

/** @param {HTMLElement} el */
function usable(el) { return !!el && !el.hidden && !el.disabled && !el.closest("[hidden]"); }

// Fields where a letter is text: the keys are his typing there. A checkbox, a radio or a button
// that keeps the focus after a click ("Always show", a pre-action box) is not one of them.
const TYPING = "textarea, select, input:not([type=checkbox]):not([type=radio]):not([type=button])"
  + ":not([type=submit]):not([type=reset]):not([type=range]):not([type=color])";

/** A key as stored: one character in lower case, F1–F12 as is. */
function keyName(key) { return key.length === 1 ? key.toLowerCase() : key; }

/**
 * The player's keys from an element's data-hotkeys (JSON {action: key}); the room's for any
 * action it leaves out or when it is missing or unreadable.
 * @param {HTMLElement | null} el
 * @returns {Record<string, string>}
 */
export function readKeys(el) {
  let keys = {};
  try { keys = JSON.parse(el?.dataset.hotkeys || "{}") || {}; } catch { keys = {}; }
  return { ...DEFAULT_KEYS, ...keys };
}

/**
 * The action a key press asks for, or null: none with Ctrl/Alt/Meta, none while typing in a
 * field or while a dialog is open.
 * @param {KeyboardEvent} e
 * @param {Record<string, string>} keys
 */
export function actionFor(e, keys) {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const t = e.target;
  if (t instanceof Element && (t.matches(TYPING) || t.isContentEditable)) return null;
  const doc = t instanceof Node ? t.ownerDocument || document : document;
  if (doc.querySelector("dialog[open]")) return null;
  const pressed = keyName(e.key);
  return Object.keys(keys).find((action) => keys[action] === pressed) || null;
}

// Preset buttons (static/js/table/sizing.js ids) for the sizing actions; custom presets may
// name half the pot "pot50".
const PRESETS = { min: ["min"], half_pot: ["half", "pot50"], pot: ["pot"], all_in: ["allin"] };

/**
 * Do an action on this page's action bar, if it is offered now.
 * @param {string} action
 * @param {Document} [doc]
 * @returns {boolean} whether anything happened
 */
export function perform(action, doc = document) {
  const $ = (id) => doc.getElementById(id);
  if (action === "fold") {
    if (!usable($("act-fold"))) return false;
    $("act-fold").click();
    return true;
  }
  if (action === "check_call") {
    const b = [$("act-check"), $("act-call")].find(usable);
    if (b) b.click();
    return !!b;
  }
  if (!usable($("act-raise"))) return false;
  const box = $("bet-amount");
  if (action !== "bet_raise") {
    const preset = (PRESETS[action] || []).map((id) => doc.querySelector(`#presets [data-preset="${id}"]`))
      .find(usable);
    const slider = $("bet-slider");
    if (preset) preset.click();
    else if ((action === "min" || action === "all_in") && usable(slider)) {
      slider.value = action === "min" ? slider.min : slider.max;
      slider.dispatchEvent(new Event("input", { bubbles: true }));
    } else return false;
  }
  if (usable(box) && !box.readOnly) { box.focus(); box.select(); } else $("act-raise").focus();
  return true;
}

const BUTTONS = { "act-fold": "fold", "act-check": "check_call", "act-call": "check_call", "act-raise": "bet_raise" };

/** Print the keys on the buttons and in their aria-keyshortcuts. */
function labelButtons(keys, doc) {
  Object.entries(BUTTONS).forEach(([id, action]) => {
    const b = doc.getElementById(id);
    const key = keys[action];
    if (!b || !key) return;
    const label = key.length === 1 ? key.toUpperCase() : key;
    const kbd = b.querySelector("kbd");
    if (kbd) kbd.textContent = label;
    b.setAttribute("aria-keyshortcuts", label);
  });
}

/**
 * Listen for the keys on this page.
 * @param {object} [opts]
 * @param {Record<string, string>} [opts.keys] {action: key}; the page's data-hotkeys by default
 * @param {(action: string) => boolean | void} [opts.route] what to do with an action
 *   (default: do it here)
 */
export function bindKeyboard({ keys = readKeys(document.getElementById("table")), route = perform } = {}) {
  labelButtons(keys, document);
  document.addEventListener("keydown", (e) => {
    const action = actionFor(e, keys);
    if (!action) return;
    if (route(action) !== false) e.preventDefault();
  });
}
