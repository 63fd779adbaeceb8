"""Worked examples of player notes and colour tags (tables/services/notes.py): private to
their writer, one per opponent, refused with a reason when the input is wrong."""
from __future__ import annotations

import pytest

from tables.errors import TableError
from tables.models import NOTE_MAX_LENGTH, PlayerNote
from tables.services.notes import MAX_IDS, note_json, note_of, note_set, notes_of

pytestmark = pytest.mark.django_db


def refused(**kwargs) -> str:
    with pytest.raises(TableError) as e:
        note_set(**kwargs)
    return e.value.code


def test_a_note_is_saved_replaced_and_removed_when_emptied(make_user):
    ann, ben = make_user("ann"), make_user("ben")
    note_set(owner_id=ann.pk, subject_id=ben.pk, tag="red", text="  3-bets light  ")
    note_set(owner_id=ann.pk, subject_id=ben.pk, tag="blue", text="calls down")

    assert note_json(note_of(owner_id=ann.pk, subject_id=ben.pk)) == {
        "tag": "blue", "tag_label": "Blue", "text": "calls down"}
    assert PlayerNote.objects.count() == 1

    assert note_set(owner_id=ann.pk, subject_id=ben.pk, tag="", text="   ") is None
    assert not PlayerNote.objects.exists()


def test_a_tag_alone_is_a_note(make_user):
    ann, ben = make_user("ann"), make_user("ben")
    note_set(owner_id=ann.pk, subject_id=ben.pk, tag="green", text="")
    assert note_of(owner_id=ann.pk, subject_id=ben.pk).tag == "green"


def test_notes_are_the_writers_alone(make_user):
    ann, ben, cy = make_user("ann"), make_user("ben"), make_user("cy")
    note_set(owner_id=ann.pk, subject_id=cy.pk, tag="red", text="ann's read on cy")

    assert note_of(owner_id=ben.pk, subject_id=cy.pk) is None
    assert notes_of(owner_id=ben.pk, subject_ids=[ann.pk, cy.pk]) == {}
    assert notes_of(owner_id=cy.pk, subject_ids=[ann.pk, cy.pk]) == {}
    assert list(notes_of(owner_id=ann.pk, subject_ids=[ben.pk, cy.pk])) == [cy.pk]


def test_bad_input_is_refused_with_its_reason_and_nothing_saved(make_user):
    ann, ben = make_user("ann"), make_user("ben")
    assert refused(owner_id=ann.pk, subject_id=ben.pk, tag="pink", text="x") == "bad_tag"
    assert refused(owner_id=ann.pk, subject_id=ben.pk, tag="",
                   text="x" * (NOTE_MAX_LENGTH + 1)) == "note_too_long"
    assert refused(owner_id=ann.pk, subject_id=ann.pk, tag="red", text="me") == "own_note"
    assert refused(owner_id=ann.pk, subject_id=ben.pk + 999, tag="red", text="?") == "no_player"
    assert not PlayerNote.objects.exists()


def test_a_notes_query_names_a_bounded_number_of_players(make_user):
    ann = make_user("ann")
    with pytest.raises(TableError) as e:
        notes_of(owner_id=ann.pk, subject_ids=range(1, MAX_IDS + 2))
    assert e.value.code == "too_many_ids"
