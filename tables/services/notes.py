"""Player notes and colour tags: what one player writes about another, for himself alone.

A note is one row per (owner, subject); saving an empty text with no tag removes it. The
selectors take the owner as an argument and filter on it, so no path reads another player's
notes. Notes lock nothing but their own row (a unique upsert): never with a table's locks
(tables/services/locks.py)."""
from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import transaction

from tables.errors import TableError
from tables.models import NOTE_MAX_LENGTH, NoteTag, PlayerNote

MAX_IDS = 20  # the most players one notes query may name: a table's seats, with room to spare


def note_set(*, owner_id: int, subject_id: int, tag: str, text: str) -> PlayerNote | None:
    """Save `owner_id`'s note and tag on `subject_id` (None when both are empty: the note is
    removed). Refuses an unknown player (`no_player`), oneself (`own_note`), a colour not in
    the palette (`bad_tag`) and a text over NOTE_MAX_LENGTH (`note_too_long`)."""
    text = text.strip()
    if tag not in NoteTag.values:
        raise TableError("bad_tag", f"Pick a tag colour from the list, not {tag[:20]!r}.")
    if len(text) > NOTE_MAX_LENGTH:
        raise TableError("note_too_long",
                         f"A note holds at most {NOTE_MAX_LENGTH} characters; this has {len(text)}.")
    if subject_id == owner_id:
        raise TableError("own_note", "Notes are for other players, not yourself.")
    if not get_user_model().objects.filter(pk=subject_id, is_active=True).exists():
        raise TableError("no_player", f"There is no player {subject_id}.")
    with transaction.atomic():
        if not text and not tag:
            PlayerNote.objects.filter(owner_id=owner_id, subject_id=subject_id).delete()
            return None
        note, _ = PlayerNote.objects.update_or_create(
            owner_id=owner_id, subject_id=subject_id, defaults={"tag": tag, "text": text})
    return note


def note_of(*, owner_id: int, subject_id: int) -> PlayerNote | None:
    """`owner_id`'s note on `subject_id`, if he wrote one."""
    return PlayerNote.objects.filter(owner_id=owner_id, subject_id=subject_id).first()


def notes_of(*, owner_id: int, subject_ids: Iterable[int]) -> dict[int, PlayerNote]:
    """`owner_id`'s notes on the players `subject_ids` (at most MAX_IDS), by subject id."""
    ids = sorted(set(subject_ids))
    if len(ids) > MAX_IDS:
        raise TableError("too_many_ids", f"Ask for at most {MAX_IDS} players at once.")
    return {n.subject_id: n for n in PlayerNote.objects.filter(owner_id=owner_id,
                                                                subject_id__in=ids)}


def note_json(note: PlayerNote | None) -> dict[str, str]:
    """What the owner's pages get: the tag (its value and label) and the text."""
    if note is None:
        return {"tag": "", "tag_label": NoteTag.NONE.label, "text": ""}
    return {"tag": note.tag, "tag_label": NoteTag(note.tag).label, "text": note.text}
