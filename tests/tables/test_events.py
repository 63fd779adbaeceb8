"""The event vocabulary (tables/events.py): every event the services record conforms to its
typed definition (Zulip's event-schema test), the one redaction keeps private fields to their
owner, and docs/protocol.md lists every event with its fields."""
from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path

import pytest

from tables import events, services
from tables.models import HandEvent
from tables.services import chat
from tests.tables.helpers import live, play_out

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_redaction_keeps_private_fields_for_their_owner_only():
    hole = {"type": "hole_cards", "seat": 2, "cards": ["As", "Kd"], "to_seat": 2, "version": 4}
    recorded = events.redact(hole, owner=17)
    assert recorded.public == {"type": "hole_cards", "seat": 2}
    assert recorded.private_for == 17 and recorded.private == {
        "type": "hole_cards", "seat": 2, "cards": ["As", "Kd"]}
    turn = {"type": "turn", "seat": 3, "street": "flop", "deadline": None, "countdown_at": None,
            "legal": {"check": True}}
    assert "legal" not in events.redact(turn, owner=5).public
    assert events.redact(turn, owner=5).private["legal"] == {"check": True}
    board = {"type": "board", "street": "flop", "cards": ["2c", "3d", "4h"],
             "board": ["2c", "3d", "4h"], "pots": []}
    assert events.redact(board) == events.Recorded(board)  # nothing private: one copy


def test_the_schema_check_names_what_is_wrong():
    assert events.problems({"type": "mucked", "seat": 3}) == []
    assert events.problems({"type": "dance"}) == ["unknown event type 'dance'"]
    assert events.problems({"type": "mucked"}) == ["mucked: missing 'seat'"]
    assert events.problems({"type": "mucked", "seat": "3"}) == ["mucked.seat: '3' is not an integer"]
    assert events.problems({"type": "mucked", "seat": 3, "cards": []}) == [
        "mucked: unexpected 'cards'"]
    assert events.problems({"type": "stacks", "stacks": {"1": True}}) == [
        "stacks.stacks.1: True is not an integer"]


@pytest.mark.django_db(transaction=True)
def test_every_recorded_event_conforms_to_its_definition(make_table, make_player, make_user,
                                                       sit, monkeypatch):
    """Many random hands with seating, top-ups, sit-outs, leaves and timeouts in between: each
    stored event (the public payload and the private copy, as JSON) checks out, and private
    fields never reach the public payload. The decks are seeded too, so that the hands (and
    the kinds of event they cover, a mucked loser among them) are the same on every run."""
    decks = random.Random(5)
    monkeypatch.setattr("tables.services.dealing.new_key", lambda: decks.randbytes(32).hex())
    table = make_table(name="Schema", structure="PL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=0, ante=1, rake_percent=5, rabbit_hunt_allowed=True)
    players = [make_player(n) for n in ("ann", "ben", "cat", "dan")]
    for n, user in enumerate(players[:3], start=1):
        sit(table, user, n, amount=80 + 40 * n)
    rng = random.Random(11)
    for round_ in range(12):
        if round_ == 3:
            sit(table, players[3], 5)
        if round_ in (5, 7):  # (the timeout may have sat him out already)
            with contextlib.suppress(services.TableError):
                services.sit_out(table_id=table.pk, user_id=players[1].pk)
        if round_ in (6, 8):
            for user in players:
                with contextlib.suppress(services.TableError):
                    services.sit_in(table_id=table.pk, user_id=user.pk)
        if round_ in (8, 9):
            for user in players:  # (some are at the table's maximum: refused)
                with contextlib.suppress(services.TableError):
                    services.seat_top_up(table_id=table.pk, user_id=user.pk, amount=20,
                                    idempotency_key=f"schema-{round_}-{user.pk}")
        if services.hand_start(table_id=table.pk, force=True) is None:
            continue
        if round_ == 4:  # the player to act runs out of time
            _ts, hand, _state = live(table.pk)
            type(hand).objects.filter(pk=hand.pk).update(deadline=hand.started_at)
            services.hand_timeout(hand_id=hand.pk, version=hand.version)
        if round_ == 10:  # leaves when this hand is over
            _ts, hand, state = live(table.pk)
            services.seat_leave(table_id=table.pk, user_id=int(state.players[0].player_id),
                                idempotency_key="schema-leaving")
        play_out(table.pk, rng=rng)
        _ts, hand, state = live(table.pk)
        with contextlib.suppress(services.TableError):  # a fold-out's rabbit, if it was one
            services.rabbit_hunt(table_id=table.pk, user_id=int(state.players[0].player_id),
                                 hand_id=hand.pk)
    table.chat_spectators = True  # (whoever is still seated: spectators may chat too)
    table.save()
    line = chat.chat_say(table_id=table.pk, user_id=players[0].pk, text="gg <b>all</b>")
    chat.chat_hide(message_id=line.pk, by_user_id=make_user("staff", is_staff=True).pk)
    for user in players:  # everybody still seated leaves
        with contextlib.suppress(services.TableError):
            services.seat_leave(table_id=table.pk, user_id=user.pk,
                                idempotency_key=f"schema-leave-{user.pk}")
    seen = set()
    for row in HandEvent.objects.filter(table=table).order_by("version"):
        for payload in (row.payload, row.private_payload):
            if payload is None:
                continue
            decoded = json.loads(json.dumps(payload))
            assert events.problems(decoded) == [], (row.version, decoded)
        for field in events.PRIVATE.get(row.type, ()):
            assert field not in row.payload
        seen.add(row.type)
    # (the time bank's events are checked by tests/tables/services/test_time_bank.py, run it
    # twice's by tests/tables/services/test_run_twice.py, a tournament table's closing by
    # tests/tables/tournaments/services/test_mtt.py)
    untested = {"deadline_extended", "time_bank", "time_banks", "run_twice_offer",
                "run_twice_vote", "run_twice_decided", "second_board", "table_closed"}
    assert seen >= set(events.EVENTS) - untested, set(events.EVENTS) - seen


def test_the_protocol_document_lists_every_event_with_its_fields():
    text = PROTOCOL.read_text()
    table = text[text.index("Event kinds (`event.type`)"):text.index("### `events`")]
    rows = {}
    for line in table.splitlines():
        found = re.match(r"\| `(\w+)` \| (.*?) \| [^|]* \|$", line)
        if found and found.group(1) in events.EVENTS:
            rows[found.group(1)] = set(re.findall(r"`(\w+)`", found.group(2)))
    assert set(rows) == set(events.EVENTS)
    for kind, schema in events.EVENTS.items():
        fields = set(schema.__annotations__) - {"type"}
        assert fields <= rows[kind], f"{kind}: {fields - rows[kind]} not in docs/protocol.md"


def test_the_protocol_documents_the_snapshot_as_declared():
    text = PROTOCOL.read_text()
    section = text[text.index("### `snapshot`"):]
    example = json.loads(section[section.index("```json") + 7:section.index("```\n")])
    assert events.snapshot_problems(example) == []


def test_the_protocol_documents_every_tournament_event_and_the_snapshot():
    text = PROTOCOL.read_text()
    section = text[text.index("## Tournament socket"):]
    example = json.loads(section[section.index("```json") + 7:section.index("```\n")])
    assert events.tournament_snapshot_problems(example) == []
    table = section[section.index("### Tournament events"):]
    rows = {}
    for line in table.splitlines():
        found = re.match(r"\| `(\w+)` \| (.*?) \| [^|]* \|$", line)
        if found:
            rows[found.group(1)] = set(re.findall(r"`(\w+)`", found.group(2)))
    assert set(rows) == set(events.TOURNAMENT_EVENTS)
    for kind, schema in events.TOURNAMENT_EVENTS.items():
        fields = set(schema.__annotations__) - {"type"}
        assert fields <= rows[kind], f"{kind}: {fields - rows[kind]} not in docs/protocol.md"
