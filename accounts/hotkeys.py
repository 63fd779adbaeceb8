"""A player's keyboard shortcuts at the table: which key does which action.

Pure (no Django): the profile's endpoint validates with it and the table page sends the
result to static/js/table/keyboard.js, which knows the same actions and the same key names
(`KeyboardEvent.key`, letters in lower case: "f", "2", "F3").
"""
from __future__ import annotations

from collections.abc import Mapping

# Action → the words the profile shows; the order is the form's.
ACTIONS: dict[str, str] = {
    "fold": "Fold",
    "check_call": "Check or call",
    "bet_raise": "Bet or raise (to the amount box)",
    "min": "Minimum bet or raise",
    "half_pot": "Half the pot",
    "pot": "Pot",
    "all_in": "All-in",
}

DEFAULTS: dict[str, str] = {"fold": "f", "check_call": "c", "bet_raise": "r",
                            "min": "1", "half_pot": "2", "pot": "3", "all_in": "4"}

# Keys the page or the browser already uses: Enter confirms a bet, space presses the focused
# button, Tab moves the focus, Escape closes a dialog, arrows, Home and End move the slider and
# the replayer; F5 reloads, F11 is full screen, F12 the developer tools.
RESERVED: frozenset[str] = frozenset({
    "Enter", " ", "Tab", "Escape", "Backspace", "Delete", "ArrowUp", "ArrowDown", "ArrowLeft",
    "ArrowRight", "Home", "End", "PageUp", "PageDown", "F5", "F11", "F12"})
F_KEYS: frozenset[str] = frozenset(f"F{n}" for n in range(1, 13))


class HotkeyError(ValueError):
    """Why a key map was refused, in words for the player."""


def key_name(key: str) -> str:
    """The key as stored and matched: one character in lower case, or an F-key as is."""
    return key if key in F_KEYS else key.lower() if len(key) == 1 else key


def key_label(key: str) -> str:
    """The key as printed on a button: "F", "3", "F2", "Space"."""
    return "Space" if key == " " else key.upper() if len(key) == 1 else key


def check_key(key: object) -> str:
    """The stored name of one key, or HotkeyError saying why it cannot be one."""
    if not isinstance(key, str) or not key:
        raise HotkeyError("Each action needs a key.")
    name = key_name(key)
    if name in RESERVED:
        raise HotkeyError(f"{key_label(name)} is used by the table itself; pick another key.")
    if name in F_KEYS or (len(name) == 1 and name.isprintable()):
        return name
    raise HotkeyError(f"{key!r} is not a key you can set: use one letter, digit or sign, "
                      "or F1 to F12.")


def check_hotkeys(keys: object) -> dict[str, str]:
    """A full {action: key} map, each action once, each key once; HotkeyError otherwise."""
    if not isinstance(keys, Mapping):
        raise HotkeyError("Send the keys as {action: key}.")
    unknown = sorted(set(keys) - set(ACTIONS))
    if unknown:
        raise HotkeyError(f"Unknown action: {', '.join(map(str, unknown))}.")
    missing = [ACTIONS[a] for a in ACTIONS if a not in keys]
    if missing:
        raise HotkeyError(f"No key for: {', '.join(missing)}.")
    checked: dict[str, str] = {}
    for action in ACTIONS:
        try:
            name = check_key(keys[action])
        except HotkeyError as e:
            raise HotkeyError(f"{ACTIONS[action]}: {e}") from None
        twice = next((a for a, k in checked.items() if k == name), None)
        if twice:
            raise HotkeyError(f"{key_label(name)} is set twice: for {ACTIONS[twice]} and for "
                              f"{ACTIONS[action]}.")
        checked[action] = name
    return checked


def hotkeys_of(saved: object) -> dict[str, str]:
    """The keys a player plays with: his saved map, or the defaults (also when a saved map
    no longer passes, e.g. after a new action was added)."""
    try:
        return check_hotkeys(saved) if saved else dict(DEFAULTS)
    except HotkeyError:
        return dict(DEFAULTS)
