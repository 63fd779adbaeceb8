"""Chat moderation in Django admin: staff find lines by table, author and text, hide them
(through the service: pages drop them live) and ban their authors for a chosen time; bans are
listed and editable; the table's spectator-chat option is in the table form."""
from __future__ import annotations

import datetime

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

from tables.models import ChatBan, ChatMessage, HandEvent
from tables.services import chat

pytestmark = pytest.mark.django_db(transaction=True)

CHANGELIST = "admin:tables_chatmessage_changelist"


@pytest.fixture
def lines(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    rude = chat.chat_say(table_id=play_table.pk, user_id=alice.pk, text="you donkey")
    kind = chat.chat_say(table_id=play_table.pk, user_id=bob.pk, text="nice hand")
    return rude, kind


def test_staff_search_the_lines(admin_client, lines):
    page = admin_client.get(reverse(CHANGELIST), {"q": "donkey"})
    assert page.status_code == 200
    assert list(page.context["cl"].result_list) == [lines[0]]


def test_hiding_lines_records_the_event_for_the_pages(admin_client, admin_user, lines):
    rude, kind = lines
    page = admin_client.post(reverse(CHANGELIST), {
        "action": "hide_messages", ACTION_CHECKBOX_NAME: [rude.pk]}, follow=True)
    assert "1 message(s) hidden." in page.content.decode()
    rude.refresh_from_db()
    assert rude.hidden and rude.hidden_by_id == admin_user.pk
    assert [e.payload for e in HandEvent.objects.filter(type="chat_hidden")] == [
        {"type": "chat_hidden", "id": rude.pk}]
    assert not ChatMessage.objects.get(pk=kind.pk).hidden


def test_banning_authors_for_a_chosen_time(admin_client, admin_user, lines, play_table):
    rude, _ = lines
    admin_client.post(reverse(CHANGELIST), {
        "action": "ban_authors", "ban_hours": 24 * 7, ACTION_CHECKBOX_NAME: [rude.pk]})
    ban = ChatBan.objects.get()
    assert ban.player_id == rude.author_id and ban.created_by_id == admin_user.pk
    week = timezone.now() + datetime.timedelta(days=7)
    assert abs((ban.until - week).total_seconds()) < 60
    with pytest.raises(chat.TableError) as refused:
        chat.chat_say(table_id=play_table.pk, user_id=rude.author_id, text="sorry")
    assert refused.value.code == "chat_banned"
    listed = admin_client.get(reverse("admin:tables_chatban_changelist"))
    assert "alice" in listed.content.decode()
    change = reverse("admin:tables_chatban_change", args=(ban.pk,))
    assert admin_client.get(change).status_code == 200


def test_the_table_form_offers_spectator_chat(admin_client, play_table):
    page = admin_client.get(reverse("admin:tables_tableconfig_change", args=(play_table.pk,)))
    assert 'name="chat_spectators"' in page.content.decode()
