"""Which fields of the rows a step read it has changed: the event log writes those, and only
those, with the step's events (eventlog.py).

A row is tracked when it is read (the table lock tracks the table row and its hand; a step
tracks the seats it reads) or, for a row the step only writes, made with `Model.from_db` from
its id alone (its other fields deferred). `changes` compares each field with its value then;
a field the log never saw (deferred then, set since) counts as changed. So no step lists the
fields it wrote, and none can forget one.

Values are compared with `!=`, except JSON values (dicts, lists), which count as changed when
they are another object: steps give a JSON field a new value (`hand.state =
state.to_json()`), never change one in place, and comparing whole hand states on every action
would cost more than writing them."""
from __future__ import annotations

from typing import Any

from django.db.models import Model

_MUTABLE = (dict, list)


def _values(obj: Model) -> dict[str, Any]:
    deferred = obj.get_deferred_fields()
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
            if not f.primary_key and f.attname not in deferred}


def _differs(old: Any, new: Any) -> bool:
    if isinstance(old, _MUTABLE) or isinstance(new, _MUTABLE):
        return old is not new
    return old != new


class Tracker:
    """The rows one step (or one copy of a table, copies.py) has read, with their field
    values as read or as last written."""

    def __init__(self) -> None:
        # (model, pk) → [(instance, values)]: a row may be read twice (two instances)
        self._rows: dict[tuple[type[Model], Any], list[tuple[Model, dict[str, Any]]]] = {}

    def track(self, obj: Model) -> Model:
        """Remember `obj`'s field values as they are now, unless it is tracked already.
        Returns `obj`."""
        entries = self._rows.setdefault((type(obj), obj.pk), [])
        if not any(o is obj for o, _ in entries):
            entries.append((obj, _values(obj)))
        return obj

    def find(self, model: type[Model], pk: Any) -> Model | None:
        """The instance of row `pk` tracked last (the one `changes` writes), or None."""
        entries = self._rows.get((model, pk))
        return entries[-1][0] if entries else None

    def forget(self, obj: Model) -> None:
        """Stop tracking `obj`'s row (every instance of it): it is being deleted."""
        self._rows.pop((type(obj), obj.pk), None)

    def changed(self, obj: Model) -> list[str]:
        """The names of `obj`'s fields changed since it was tracked (all set ones if it is not)."""
        values = next((v for o, v in self._rows.get((type(obj), obj.pk), []) if o is obj), None)
        deferred = obj.get_deferred_fields()
        return [f.name for f in obj._meta.concrete_fields
                if not f.primary_key and f.attname not in deferred
                and (values is None or f.attname not in values
                     or _differs(values[f.attname], getattr(obj, f.attname)))]

    def changes(self, *, besides: tuple[Model | None, ...] = ()) -> list[tuple[Model, list[str]]]:
        """Per changed row (but `besides`), one instance carrying every change and the names of
        the changed fields: one UPDATE per row (PostgreSQL applies only one of two changes of a
        row in one statement). When two instances of a row changed the same field, the one
        tracked last wins."""
        out = []
        for entries in self._rows.values():
            if any(o is b for o, _ in entries for b in besides if b is not None):
                continue
            names: dict[str, Model] = {}
            for obj, _values_then in entries:
                for name in self.changed(obj):
                    names[name] = obj
            if not names:
                continue
            target = entries[-1][0]
            for name, obj in names.items():
                if obj is not target:
                    attname = obj._meta.get_field(name).attname
                    setattr(target, attname, getattr(obj, attname))
            out.append((target, list(names)))
        return out

    def written(self) -> None:
        """Every change is in the database now: what the rows hold is what they were read as."""
        for key, entries in self._rows.items():
            self._rows[key] = [(obj, _values(obj)) for obj, _ in entries]
