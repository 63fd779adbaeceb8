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

import dataclasses
import re
import warnings
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from pokerkit import HandHistory, PokerStarsParser
from pokerkit.games import PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem
from pokerkit.notation import parse_action


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
    """pokerkit's PokerStars parser reading every hand the room writes (see the module
    docstring): pokerkit's own patterns and steps, plus

    * ``posts straddle`` (pokerkit's parser knows only the two blinds), a straddle in
      ``blinds_or_straddles`` (positive, unlike a big blind posted out of position);
    * the fixed- and pot-limit headers (fixed limit: the header's stakes are the small and big
      bets) and ``posts the ante``; one ante poster is a big-blind ante, dead money (pokerkit's
      ``ante_trimming_status = false``, as the room's PHH writes it);
    * ``collected ... from`` lines as winnings, and the summary's ``Rake`` (``_rake``);
    * shown cards dealt face up instead of shown in the text's order (PokerStars lists shows in
      its own order, and cards shown after the hand come after the pot; pokerkit asks in its
      own order), and pokerkit showing down by itself; a mucked hand is dealt face down (it
      lost, whatever the viewer knows of it);
    * a timeout all-in (``has timed out while being disconnected``: the player stays in for what
      he has put in and bets no more), which pokerkit has no word for, read as the room's PHH
      writes it (``tables.engine.phh.from_hand``): the player is all in with what he put in,
      his other chips are in ``_stacks_behind``, and a check, bet or raise the file has no room
      for once everybody else is all in is left out (a raise nobody can answer is the call it
      amounts to).
    """

    VARIANT = re.compile(r" (?P<variant>Hold'em (?:No Limit|Pot Limit|Limit)) ")
    VARIANTS = GAMES
    ANTE_POSTING = re.compile(r"^(?P<player>.+): posts the ante \D?(?P<ante>[0-9.]+)")
    BLIND_OR_STRADDLE_POSTING = re.compile(
        r"^(?P<player>.+): posts (?P<kind>small blind|big blind|straddle) "
        r"\D?(?P<blind_or_straddle>[0-9.]+)")
    PLAYER_VARIABLES = {
        "winnings": (re.compile(r"^(?P<player>.+) collected \D?(?P<winnings>[0-9.]+) from "),
                     None, int, lambda a, b: a + b),
    }
    STAKES = re.compile(r"\(\D?(?P<low>[0-9.]+)/\D?(?P<high>[0-9.]+)(?: [A-Z]{3})?\) - ")
    RAKE = re.compile(r"^Total pot .* \| Rake \D?(?P<rake>[0-9.]+)$", re.MULTILINE)
    MUCKING = re.compile(r"^(?P<player>.+): mucks hand$")
    TIMED_OUT = re.compile(r"^(?P<player>.+) has timed out while being disconnected$")
    UNCALLED = re.compile(r"^Uncalled bet \(\D?(?P<amount>[0-9.]+)\) returned to (?P<player>.+)$")
    CALL = re.compile(r"^(?P<player>.+): calls \D?(?P<amount>[0-9.]+)")
    BET_OR_RAISE_TO = re.compile(r"^(?P<player>.+): (?:bets|raises \D?[0-9.]+ to) "
                                 r"\D?(?P<amount>[0-9.]+)")

    def _parse(self, s: str, parse_value: Callable[[str], int]) -> HandHistory:
        variant = self._parse_variant(s)
        seat_of = self._parse_seats(s)
        antes = self._parse_antes(s, parse_value)
        blinds = self._parse_blinds_or_straddles(s, parse_value)
        stacks = self._parse_starting_stacks(s, parse_value)
        players = sorted(self._parse_players(s), key=seat_of.__getitem__)
        players = self._get_ordered_players(
            s, self._parse_final_seat(s), blinds, players, [seat_of[p] for p in players])
        straddlers = {m["player"] for line in s.splitlines()
                      if (m := self.BLIND_OR_STRADDLE_POSTING.search(line))
                      and m["kind"] == "straddle"}
        for player in players[2:]:  # pokerkit's word for a big blind posted out of position
            if player not in straddlers:  # a straddle is positive: action opens left of it
                blinds[player] = -blinds[player]
        ante_list = [antes[p] for p in players]
        blind_list = [blinds[p] for p in players]
        if len(players) == 2:
            ante_list.reverse()
            blind_list.reverse()
        stakes = self._timeout_stakes(s, parse_value)
        fields: dict[str, Any] = {
            "variant": variant, "antes": ante_list, "blinds_or_straddles": blind_list,
            "ante_trimming_status": sum(1 for a in ante_list if a) != 1,
            "starting_stacks": [stakes.get(p, stacks[p]) for p in players],
            "actions": self._parse_actions(self._replayable(s, parse_value, stakes, stacks),
                                           parse_value, players),
            "seats": [seat_of[p] for p in players], "players": players, **self.CONSTANTS,
            **self._parse_variables(s, parse_value),
        }
        for key, values in self._parse_player_variables(s, parse_value).items():
            fields[key] = [values[p] for p in players]
        if variant == "FT":
            stakes_match = self.STAKES.search(s)
            assert stakes_match is not None
            fields.update(small_bet=parse_value(stakes_match["low"]),
                          big_bet=parse_value(stakes_match["high"]))
        else:
            fields["min_bet"] = max(blind_list[:2])
        rake = self.RAKE.search(s)
        assert rake is not None
        user = {"_rake": parse_value(rake["rake"]), "_mucked": self._muckers(s),
                "_stacks_behind": [stacks[p] - stakes[p] if p in stakes else 0 for p in players]}
        fields.pop("time_zone_abbreviation", None)  # said in ``time_zone`` by PHH, not needed
        return RoomHandHistory(**RoomHandHistory._filter_non_fields(**fields,
                                                                    user_defined_fields=user))

    def _parse_actions(self, s: str, parse_value: Callable[[str], int],
                       players: Any) -> list[str]:
        """pokerkit's actions, with shown cards dealt face up (see the class docstring)."""
        actions = super()._parse_actions(s, parse_value, players)
        known = {a.split()[0]: a.split()[2] for a in actions if " sm " in a}
        known |= {a.split()[2]: a.split()[3] for a in actions if a.startswith("d dh ")}
        for player in self._muckers(s):  # a mucked hand is out, whatever its cards
            known.pop(f"p{players.index(player) + 1}", None)
        deals = [f"d dh p{k} {known.get(f'p{k}', '????')}" for k in range(1, len(players) + 1)]
        return deals + [a for a in actions if " sm " not in a and not a.startswith("d dh ")]

    def _muckers(self, s: str) -> list[str]:
        return [m["player"] for line in s.splitlines() if (m := self.MUCKING.search(line))]

    def _timeout_stakes(self, s: str, parse_value: Callable[[str], int]) -> dict[str, int]:
        """What each timed-out player put in the pot (and kept there) in the whole hand."""
        timed_out = {m["player"] for line in s.splitlines() if (m := self.TIMED_OUT.search(line))}
        if not timed_out:
            return {}
        put = dict.fromkeys(timed_out, 0)
        for _line, player, added in self._money_lines(s, parse_value):
            if player in put:
                put[player] += added
        return put

    def _money_lines(self, s: str, parse_value: Callable[[str], int]) -> Any:
        """Every line with who put chips in (or got them back, negative) and how many; a board
        line has player ``None`` (a new betting round)."""
        bets: dict[str, int] = {}
        for line in s.splitlines():
            if m := self.ANTE_POSTING.search(line):
                yield line, m["player"], parse_value(m["ante"])
            elif m := self.BLIND_OR_STRADDLE_POSTING.search(line):
                added = parse_value(m["blind_or_straddle"])
                bets[m["player"]] = bets.get(m["player"], 0) + added
                yield line, m["player"], added
            elif self.BOARD_DEALING.search(line):
                bets.clear()
                yield line, None, 0
            elif m := self.UNCALLED.search(line):
                yield line, m["player"], -parse_value(m["amount"])
            elif m := self.CALL.search(line):
                added = parse_value(m["amount"])
                bets[m["player"]] = bets.get(m["player"], 0) + added
                yield line, m["player"], added
            elif m := self.BET_OR_RAISE_TO.search(line):
                to = parse_value(m["amount"])
                added = to - bets.get(m["player"], 0)
                bets[m["player"]] = to
                yield line, m["player"], added
            else:
                yield line, None, 0

    def _replayable(self, s: str, parse_value: Callable[[str], int], stakes: dict[str, int],
                    stacks: dict[str, int]) -> str:
        """The text as pokerkit can replay it when someone timed out (see the class
        docstring); other hands unchanged."""
        if not stakes:
            return s
        room = {p: stakes.get(p, stack) for p, stack in stacks.items()}  # chips in the file
        put = dict.fromkeys(room, 0)
        bets = dict.fromkeys(room, 0)
        folded: set[str] = set()
        out = []
        for line, player, added in self._money_lines(s, parse_value):
            actor = None
            for pattern in (self.FOLDING, self.CHECKING_OR_CALLING,
                            self.COMPLETION_BETTING_OR_RAISING):
                if (m := pattern.search(line)) and m["player"] in room:
                    actor = m["player"]
                    break
            if actor is None:
                if player is None and self.BOARD_DEALING.search(line):
                    bets = dict.fromkeys(room, 0)
                elif player is not None:  # posts and returned bets
                    put[player] += added
                    bets[player] += added
                out.append(line)
                continue
            top = max(bets.values())
            if actor in stakes and put[actor] >= room[actor]:
                continue  # all in in the file: he bets no more
            alone = not any(k != actor and k not in folded and put[k] < room[k]
                            and room[k] - put[k] > top - bets[k] for k in room)
            facing = top > bets[actor]
            if alone and not facing:
                continue  # a check or bet nobody else can answer
            if self.FOLDING.search(line):
                folded.add(actor)
            elif alone and added > top - bets[actor]:
                line, added = f"{actor}: calls", top - bets[actor]
            put[actor] += added
            bets[actor] += added
            out.append(line)
        return "\n".join(out)


def units(real: bool) -> Callable[[str], int]:
    """Amounts as the room counts them: cents for real money, chips for play money."""
    return (lambda raw: int(Decimal(raw) * 100)) if real else (lambda raw: int(Decimal(raw)))


def stars_hands(text: str, *, real: bool, parser: Any = None) -> list[HandHistory]:
    """Every hand pokerkit finds in PokerStars text (an unreadable hand raises)."""
    parse = parser or RoomStarsParser()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(parse(text, parse_value=units(real), error_status=True))


def stars_final_stacks(hh: HandHistory) -> list[int]:
    """pokerkit's finishing stacks of a parsed PokerStars hand, unraked, with the chips a
    timed-out player kept behind."""
    behind = hh.user_defined_fields.get("_stacks_behind") or [0] * len(hh.starting_stacks)
    return [s + b for s, b in zip(final_stacks(hh), behind, strict=True)]




def decided(hh: HandHistory, holes: dict[str, str]) -> HandHistory:
    """``hh`` with its showdown as the text decided it, for pokerkit to push the pots: the
    cards the viewer never saw dealt as ``holes`` (player -> cards, from the engine) to every
    player who did not muck or who collected a pot (pokerkit cannot rank a hand it does not
    know: a pot won by a hand nobody showed, the others mucked, needs its cards), then each
    player pokerkit asks shows, or mucks when the text says he mucked (a mucked hand loses)."""
    won = {p for p, w in zip(hh.players, hh.winnings or [], strict=False) if w}
    mucked = set(hh.user_defined_fields.get("_mucked", ())) - won
    actions = []
    for action in hh.actions:
        words = action.split()
        if words[:2] == ["d", "dh"] and words[3] == "????":
            player = hh.players[int(words[2][1:]) - 1]
            if player not in mucked:
                action = f"d dh {words[2]} {holes[player]}"
        actions.append(action)
    state = dataclasses.replace(hh, actions=[]).create_state()
    out: list[str] = []

    def step() -> bool:
        """What pokerkit waits for before the next action: a burn card, a show, or (as its
        own repair does) a check by a player the room no longer asks: the last one not all in,
        with nothing to call."""
        if state.can_burn_card():
            state.burn_card("??")
            return True
        if state.actor_index is not None and state.can_check_or_call() \
                and not state.checking_or_calling_amount:
            out.append(f"p{state.actor_index + 1} cc")
            state.check_or_call()
            return True
        index = state.showdown_index
        show = index is not None and hh.players[index] not in mucked
        if index is not None and state.can_show_or_muck_hole_cards(show):
            state.show_or_muck_hole_cards(show)
            out.append(f"p{index + 1} sm" + (" -" if show else ""))
            return True
        return False

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for action in actions:
            while True:
                try:
                    parse_action(state, action, hh.parse_value)
                    break
                except ValueError:
                    if not step():
                        raise
            out.append(action)
        while step():
            pass
    return dataclasses.replace(hh, actions=out)
