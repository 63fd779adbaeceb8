"""Worked examples of table chat: who may speak, what a line may hold, the rate limit, bans,
staff hiding a line, muting; every line is a recorded, schema-valid event that does not move
the hand on."""
from __future__ import annotations

import datetime
import json

import pytest
from django.db.models import F
from django.utils import timezone

from tables import events, services
from tables.models import ChatMessage, ChatMute, HandEvent, TableState
from tables.services import chat
from tables.services.acting import hand_moved_since
from tables.snapshots import events_since, table_snapshot
from tests.tables.helpers import live, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


def said(table) -> list[dict]:
    """The chat events recorded at the table, as stored (and sent)."""
    return [json.loads(json.dumps(e.payload)) for e in
            HandEvent.objects.filter(table=table, type__startswith="chat").order_by("version")]


def refused(code: str, **kwargs) -> None:
    with pytest.raises(services.TableError) as error:
        chat.chat_say(**kwargs)
    assert error.value.code == code, error.value.message


@pytest.fixture
def seated(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    return alice, bob


def test_a_seated_player_speaks_to_the_table(play_table, seated):
    alice, _bob = seated
    line = chat.chat_say(table_id=play_table.pk, user_id=alice.pk, text="  good luck\nall  ")
    assert line.text == "good luck all"  # whitespace runs are one space; ends trimmed
    [event] = said(play_table)
    assert event == {"type": "chat", "id": line.pk, "player_id": alice.pk, "name": "alice",
                     "text": "good luck all", "at": event["at"]}
    assert events.problems(event) == []
    row = HandEvent.objects.get(table=play_table, type="chat")
    assert row.hand_id is None and row.recipient_id is None  # public, not part of a hand
    assert row.version == TableState.objects.get(pk=play_table.pk).version


def test_text_is_kept_as_typed_minus_control_characters(play_table, seated):
    alice, _ = seated
    attack = "<img src=x onerror=alert(1)>"
    assert chat.chat_say(table_id=play_table.pk, user_id=alice.pk, text=attack).text == attack
    sneaky = "hi\x00\x07 there\u202e\u200b!"
    assert chat.chat_say(table_id=play_table.pk, user_id=alice.pk, text=sneaky).text == "hi there!"
    assert [e["text"] for e in said(play_table)] == [attack, "hi there!"]


def test_empty_and_too_long_lines_are_refused(play_table, seated):
    alice, _ = seated
    ids = {"table_id": play_table.pk, "user_id": alice.pk}
    refused("chat_empty", **ids, text="")
    refused("chat_empty", **ids, text=" \n\t\x00 ")
    refused("chat_too_long", **ids, text="x" * (chat.CHAT_MAX_LENGTH + 1))
    refused("chat_too_long", **ids, text="x" * 10_000)
    assert chat.chat_say(**ids, text="x" * chat.CHAT_MAX_LENGTH)  # the limit itself is fine
    assert len(said(play_table)) == 1


def test_the_rate_limit_counts_the_authors_recent_lines(play_table, seated):
    alice, bob = seated
    for n in range(chat.CHAT_RATE_LINES):
        chat.chat_say(table_id=play_table.pk, user_id=alice.pk, text=f"line {n}")
    refused("chat_rate_limited", table_id=play_table.pk, user_id=alice.pk, text="one more")
    chat.chat_say(table_id=play_table.pk, user_id=bob.pk, text="I may")  # his own count
    ChatMessage.objects.filter(author=alice).update(
        created_at=F("created_at") - datetime.timedelta(seconds=chat.CHAT_RATE_SECONDS + 1))
    chat.chat_say(table_id=play_table.pk, user_id=alice.pk, text="later again")
    assert len(said(play_table)) == chat.CHAT_RATE_LINES + 2


def test_spectators_speak_only_where_the_table_allows(play_table, seated, make_player):
    watcher = make_player("walt")
    refused("chat_players_only", table_id=play_table.pk, user_id=watcher.pk, text="hello")
    play_table.chat_spectators = True
    play_table.save()
    chat.chat_say(table_id=play_table.pk, user_id=watcher.pk, text="hello")
    assert [e["name"] for e in said(play_table)] == ["walt"]


def test_a_banned_player_may_not_speak_until_the_ban_ends(play_table, seated, make_user):
    alice, _ = seated
    staff = make_user("boss", is_staff=True)
    ban = chat.chat_ban(player_id=alice.pk, by_user_id=staff.pk,
                        until=timezone.now() + datetime.timedelta(hours=24), reason="spam")
    refused("chat_banned", table_id=play_table.pk, user_id=alice.pk, text="let me")
    ban.until = timezone.now() - datetime.timedelta(seconds=1)
    ban.save()
    chat.chat_say(table_id=play_table.pk, user_id=alice.pk, text="thanks")


def test_staff_hide_a_line_for_everyone(play_table, seated, make_user):
    alice, bob = seated
    rude = chat.chat_say(table_id=play_table.pk, user_id=alice.pk, text="rude")
    kind = chat.chat_say(table_id=play_table.pk, user_id=bob.pk, text="kind")
    with pytest.raises(services.TableError) as not_staff:
        chat.chat_hide(message_id=rude.pk, by_user_id=bob.pk)
    assert not_staff.value.code == "staff_only"
    staff = make_user("boss", is_staff=True)
    assert chat.chat_hide(message_id=rude.pk, by_user_id=staff.pk) is True
    assert chat.chat_hide(message_id=rude.pk, by_user_id=staff.pk) is False  # once
    assert said(play_table)[-1] == {"type": "chat_hidden", "id": rude.pk}
    assert events.problems(said(play_table)[-1]) == []
    rude.refresh_from_db()
    assert (rude.hidden, rude.hidden_by_id) == (True, staff.pk) and rude.hidden_at is not None
    snap = table_snapshot(table_id=play_table.pk, user_id=bob.pk)
    assert [line["id"] for line in snap["chat"]] == [kind.pk]


def test_a_player_mutes_another_for_himself(play_table, seated):
    alice, bob = seated
    assert chat.chat_mute(user_id=alice.pk, player_id=bob.pk, muted=True) == [bob.pk]
    assert chat.chat_mute(user_id=alice.pk, player_id=bob.pk, muted=True) == [bob.pk]  # once
    assert ChatMute.objects.count() == 1
    version = TableState.objects.get(pk=play_table.pk).version
    assert table_snapshot(table_id=play_table.pk, user_id=alice.pk)["you"]["muted"] == [bob.pk]
    assert table_snapshot(table_id=play_table.pk, user_id=alice.pk)["you"]["muted_players"] == [
        {"player_id": bob.pk, "name": bob.table_name}]
    assert table_snapshot(table_id=play_table.pk, user_id=bob.pk)["you"]["muted"] == []
    assert chat.chat_mute(user_id=alice.pk, player_id=bob.pk, muted=False) == []
    assert TableState.objects.get(pk=play_table.pk).version == version  # nothing broadcast
    with pytest.raises(services.TableError) as himself:
        chat.chat_mute(user_id=alice.pk, player_id=alice.pk, muted=True)
    assert himself.value.code == "mute_self"
    with pytest.raises(services.TableError) as nobody:
        chat.chat_mute(user_id=alice.pk, player_id=999_999, muted=True)
    assert nobody.value.code == "no_player"


def test_the_mute_list_names_a_player_who_left_the_table(play_table, seated, make_player):
    """Carl said nothing here and sits nowhere: only the list itself can name him."""
    alice, _ = seated
    carl = make_player("carl")
    chat.chat_mute(user_id=alice.pk, player_id=carl.pk, muted=True)
    assert chat.chat_muted_players(user_id=alice.pk) == [{"player_id": carl.pk, "name": "carl"}]
    assert chat.chat_muted_players(user_id=None) == []
    you = table_snapshot(table_id=play_table.pk, user_id=alice.pk)["you"]
    assert (you["muted"], you["muted_players"]) == ([carl.pk], [{"player_id": carl.pk,
                                                                   "name": "carl"}])


def test_the_snapshot_carries_the_last_lines_and_a_reconnect_replays_them(play_table, seated):
    alice, bob = seated
    start = TableState.objects.get(pk=play_table.pk).version
    for n in range(chat.CHAT_RECENT_LINES + 3):
        ChatMessage.objects.create(table=play_table, author=alice, text=f"old {n}")
    chat.chat_say(table_id=play_table.pk, user_id=bob.pk, text="newest")
    snap = table_snapshot(table_id=play_table.pk, user_id=None)
    lines = snap["chat"]
    assert len(lines) == chat.CHAT_RECENT_LINES
    assert lines[-1]["text"] == "newest" and lines[0]["text"] == "old 4"  # oldest first
    assert all(events.problems({"type": "chat", **line}) == [] for line in lines)
    missed = events_since(table_id=play_table.pk, last_version=start, user_id=alice.pk)
    assert [m["event"]["text"] for m in missed] == ["newest"]


def test_chat_does_not_make_an_action_stale(play_table, seated):
    _alice, bob = seated
    assert services.hand_start(table_id=play_table.pk, force=True) is not None
    ts, _hand, _state = live(play_table.pk)
    decided_on = ts.version
    chat.chat_say(table_id=play_table.pk, user_id=bob.pk, text="hurry up")
    ts, _hand, _state = live(play_table.pk)
    assert ts.version == decided_on + 1 and not hand_moved_since(ts, decided_on)
    user = to_act_user(play_table.pk)
    services.act(table_id=play_table.pk, user_id=user, action="call", expected_version=decided_on)
