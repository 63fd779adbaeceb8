/**
 * Keyboard shortcuts at the table: F fold, C check/call, R bet/raise (focuses the amount; Enter
 * confirms). Shown on the buttons with <kbd>; ignored while typing in a field, not after a click
 * on a checkbox.
 * @module table/keyboard
 */

/** @param {HTMLElement} el */
function usable(el) { return el && !el.hidden && !el.disabled && !el.closest("[hidden]"); }

// Fields where a letter is text: the keys are his typing there. A checkbox, a radio or a button
// that keeps the focus after a click ("Always show", a pre-action box) is not one of them.
const TYPING = "textarea, select, input:not([type=checkbox]):not([type=radio]):not([type=button])"
  + ":not([type=submit]):not([type=reset]):not([type=range]):not([type=color])";

export function bindKeyboard() {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t instanceof HTMLElement && (t.matches(TYPING) || t.isContentEditable)) return;
    if (document.querySelector("dialog[open]")) return;
    const key = e.key.toLowerCase();
    const $ = (id) => document.getElementById(id);
    if (key === "f" && usable($("act-fold"))) {
      e.preventDefault(); $("act-fold").click();
    } else if (key === "c") {
      const b = [$("act-check"), $("act-call")].find(usable);
      if (b) { e.preventDefault(); b.click(); }
    } else if (key === "r" && usable($("act-raise"))) {
      e.preventDefault();
      const box = $("bet-amount");
      if (usable(box) && !box.readOnly) { box.focus(); box.select(); } else $("act-raise").focus();
    }
  });
}
