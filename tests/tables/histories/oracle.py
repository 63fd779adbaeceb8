"""pokerkit, the test-only oracle, reading what the room writes: PHH files (``.phh``/``.phhs``)
and PokerStars text.

What pokerkit lacks is added here, and only that:
* pot-limit Texas hold'em (``PT``, the room's own PHH variant code): pokerkit has every piece
  (``PotLimitPokerMixin``, ``TexasHoldemMixin``) but no class or code for it;
* rake: pokerkit rakes each pot by a function of its amount, the room takes it from the whole
  pot (main pot first), so pokerkit plays unraked and ``agrees`` takes the rake off;
* the PokerStars parser (``pokerkit.notation.PokerStarsParser``) reads only no-limit hands and
  no antes, and its ``winnings`` pattern reads the summary's seat lines as player names. The
  subclass adds the fixed- and pot-limit headers, ``posts the ante`` and ``collected ... from``
  lines, and the table's stakes for fixed limit; everything else is pokerkit's own parsing.
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from pokerkit import HandHistory, PokerStarsParser
from pokerkit.games import PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """Pot-limit Texas hold'em, from pokerkit's own parts."""


class RoomHandHistory(HandHistory):
    """pokerkit's PHH hand history, knowing the ``PT`` variant code."""

    game_types = {**HandHistory.game_types, "PT": PotLimitTexasHoldem}
    required_field_names = {**HandHistory.required_field_names,
                            "PT": HandHistory.required_field_names["NT"]}


def final_stacks(hh: HandHistory) -> list[int]:
    """pokerkit's finishing stacks of ``hh``, unraked."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = iter(hh)
    return list(state.stacks)


def phh_stacks(text: str) -> list[list[int]]:
    """Every hand of a PHH text (one hand, or a ``.phhs`` set) played by pokerkit: the
    finishing stacks, unraked."""
    if re.search(r"^\[\d+\]$", text, re.MULTILINE):
        hands = list(RoomHandHistory.loads_all(text))
    else:
        hands = [RoomHandHistory.loads(text)]
    return [final_stacks(hh) for hh in hands]


def agrees(unraked: list[int], ours: list[int], rake: int) -> bool:
    """pokerkit's unraked stacks are ours once the rake is taken: no stack lower than ours,
    and the difference is the rake."""
    return all(u >= o for u, o in zip(unraked, ours, strict=True)) and \
        sum(unraked) - sum(ours) == rake


# --- PokerStars text ----------------------------------------------------------------------------

GAMES = {"Hold'em No Limit": "NT", "Hold'em Pot Limit": "PT", "Hold'em Limit": "FT"}


class RoomStarsParser(PokerStarsParser):
    """pokerkit's PokerStars parser with the lines it leaves out (see the module docstring)."""

    VARIANT = re.compile(r" (?P<variant>Hold'em (?:No Limit|Pot Limit|Limit)) ")
    VARIANTS = GAMES
    ANTE_POSTING = re.compile(r"^(?P<player>.+): posts the ante \D?(?P<ante>[0-9.]+)")
    PLAYER_VARIABLES = {
        "winnings": (re.compile(r"^(?P<player>.+) collected \D?(?P<winnings>[0-9.]+) from "),
                     None, int, lambda a, b: a + b),
    }
    STAKES = re.compile(r"\(\D?(?P<low>[0-9.]+)/\D?(?P<high>[0-9.]+)(?: [A-Z]{3})?\) - ")

    def _parse_actions(self, s: str, parse_value: Callable[[str], int],
                       players: Any) -> list[str]:
        """pokerkit's actions, with shown cards dealt face up instead of shown in the text's
        order (PokerStars lists shows in its own order; pokerkit asks in its own)."""
        actions = super()._parse_actions(s, parse_value, players)
        known = {a.split()[0]: a.split()[2] for a in actions if " sm " in a}
        known |= {a.split()[2]: a.split()[3] for a in actions if a.startswith("d dh ")}
        deals = [f"d dh p{k} {known.get(f'p{k}', '????')}" for k in range(1, len(players) + 1)]
        return deals + [a for a in actions if " sm " not in a and not a.startswith("d dh ")]

    def _parse(self, s: str, parse_value: Callable[[str], int]) -> HandHistory:
        variant = self._parse_variant(s)
        hh = super()._parse(s.replace(f" {variant_name(s)} ", " Hold'em No Limit "), parse_value)
        fields = {k: v for k, v in vars(hh).items() if k != "user_defined_fields"}
        fields["variant"] = variant
        if variant == "FT":
            stakes = self.STAKES.search(s)
            assert stakes is not None
            fields.update(min_bet=None, small_bet=parse_value(stakes["low"]),
                          big_bet=parse_value(stakes["high"]))
        return RoomHandHistory(**fields, user_defined_fields=dict(hh.user_defined_fields))


def variant_name(text: str) -> str:
    match = RoomStarsParser.VARIANT.search(text)
    assert match is not None
    return match["variant"]


def units(real: bool) -> Callable[[str], int]:
    """Amounts as the room counts them: cents for real money, chips for play money."""
    return (lambda raw: int(Decimal(raw) * 100)) if real else (lambda raw: int(Decimal(raw)))


def stars_hands(text: str, *, real: bool, parser: Any = None) -> list[HandHistory]:
    """Every hand pokerkit finds in PokerStars text (an unreadable hand raises)."""
    parse = parser or RoomStarsParser()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(parse(text, parse_value=units(real), error_status=True))
