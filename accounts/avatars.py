"""Avatars: twelve built-in emblems or a generated identicon, never an upload.

A player's avatar travels to the tables as a short key (`avatar_key`): a built-in's name
("spade") or "g" and 12 hex digits drawn from his user id ("g3fa0c91b27de"). The one URL
that draws a key is this room's (`/accounts/avatars/<key>.svg`, accounts/views.py); the
client checks a key against `KEY_PATTERN` before it asks for it, so no text a user typed ever
becomes part of a URL, and the SVG (drawn here from the key alone, no user text in it) uses
presentation attributes only: the Content-Security-Policy allows no inline style."""
from __future__ import annotations

import colorsys
import hashlib
import math
import re
from dataclasses import dataclass

GENERATED = "generated"
KEY_PATTERN = re.compile(r"g[0-9a-f]{12}|[a-z]{3,8}")
SIZE = 64
WHITE = "#ffffff"


@dataclass(frozen=True)
class Emblem:
    label: str
    background: str  # white on it reads at 4.5:1 or better
    shapes: str  # SVG elements in a 64 x 64 box, white


def _star() -> str:
    points = []
    for k in range(10):
        r = 22 if k % 2 == 0 else 9
        a = -math.pi / 2 + k * math.pi / 5
        points.append(f"{32 + r * math.cos(a):.1f},{33 + r * math.sin(a):.1f}")
    return f'<polygon points="{" ".join(points)}"/>'


_LINE = f'fill="none" stroke="{WHITE}" stroke-width="4" stroke-linecap="round"'
BUILT_IN: dict[str, Emblem] = {
    "spade": Emblem("Spade", "#263238", '<path d="M32 10C22 24 12 30 12 38a10 10 0 0 0 18 6'
                    'L26 54h12l-4-10a10 10 0 0 0 18-6C52 30 42 24 32 10z"/>'),
    "heart": Emblem("Heart", "#b71c1c", '<path d="M32 52C14 40 10 30 10 24a11 11 0 0 1 22-4'
                    'a11 11 0 0 1 22 4c0 6-4 16-22 28z"/>'),
    "diamond": Emblem("Diamond", "#0d47a1", '<polygon points="32,8 50,32 32,56 14,32"/>'),
    "club": Emblem("Club", "#1b5e20", '<circle cx="32" cy="20" r="9"/><circle cx="21" cy="35" '
                   'r="9"/><circle cx="43" cy="35" r="9"/><path d="M29 36h6l4 18H25z"/>'),
    "star": Emblem("Star", "#6a1b9a", _star()),
    "moon": Emblem("Moon", "#283593", '<path d="M40 10a22 22 0 1 0 14 38a18 18 0 1 1-14-38z"/>'),
    "sun": Emblem("Sun", "#bf360c", '<circle cx="32" cy="32" r="10"/><path d="M32 8v8M32 48v8'
                  f'M8 32h8M48 32h8M15 15l6 6M43 43l6 6M15 49l6-6M43 21l6-6" {_LINE}/>'),
    "crown": Emblem("Crown", "#795548", '<polygon points="12,46 12,22 22,32 32,16 42,32 52,22 '
                    '52,46"/>'),
    "anchor": Emblem("Anchor", "#004d40", f'<circle cx="32" cy="13" r="4" {_LINE}/>'
                     f'<path d="M32 17v34M22 26h20M14 38a18 18 0 0 0 36 0" {_LINE}/>'),
    "bolt": Emblem("Lightning", "#37474f", '<polygon points="36,8 16,36 30,36 26,56 48,26 '
                   '34,26"/>'),
    "leaf": Emblem("Leaf", "#33691e", '<path d="M14 50C14 24 30 12 52 12C52 34 40 50 14 50z"/>'
                   '<path d="M14 50L40 24" fill="none" stroke="#33691e" stroke-width="3"/>'),
    "wave": Emblem("Wave", "#01579b", f'<path d="M8 26q8-8 16 0t16 0t16 0M8 40q8-8 16 0t16 0'
                   f't16 0" {_LINE}/>'),
}


# What `User.avatar` holds: `generated` (drawn from the user id) or a built-in's name.
CHOICES = [(GENERATED, "Generated from your account (a pattern of your own)"),
           *((name, emblem.label) for name, emblem in BUILT_IN.items())]


def avatar_key(user_id: int, choice: str) -> str:
    """The key a seat carries for a player who chose `choice` (a built-in name or
    `generated`); an unknown choice falls back to the generated one."""
    if choice in BUILT_IN:
        return choice
    return "g" + hashlib.sha256(f"pokerroom-avatar:{user_id}".encode()).hexdigest()[:12]


def avatar_svg(key: str) -> str | None:
    """The SVG a key draws, or None for a key that is not one."""
    if not KEY_PATTERN.fullmatch(key):
        return None
    if key in BUILT_IN:
        emblem = BUILT_IN[key]
        body = (f'<circle cx="32" cy="32" r="32" fill="{emblem.background}"/>'
                f'<g fill="{WHITE}">{emblem.shapes}</g>')
        title = emblem.label
    elif key.startswith("g"):
        body, title = _identicon(bytes.fromhex(key[1:])), "Generated pattern"
    else:
        return None
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
            f'width="{SIZE}" height="{SIZE}" role="img"><title>{title}</title>{body}</svg>')


def _identicon(seed: bytes) -> str:
    """A 5 x 5 pattern, mirrored left to right (15 cells from the seed's bits), in a colour
    from the seed: the same key always draws the same picture."""
    bits = int.from_bytes(seed, "big")
    hue = (bits >> 32) % 360 / 360
    r, g, b = colorsys.hls_to_rgb(hue, 0.38, 0.6)
    colour = f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
    cells = []
    for row in range(5):
        for col in range(3):
            if bits >> (row * 3 + col) & 1:
                for x in sorted({col, 4 - col}):
                    cells.append(f'<rect x="{7 + x * 10}" y="{7 + row * 10}" width="10" '
                                 f'height="10"/>')
    return (f'<rect width="{SIZE}" height="{SIZE}" rx="12" fill="#eceff1"/>'
            f'<g fill="{colour}">{"".join(cells)}</g>')
