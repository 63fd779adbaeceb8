"""Tournament prize pools: a pool account kind owned by a tournament (one each), the tournament
on ledger transactions that move its pool, and their transaction kinds. The ledger triggers
(0002) do not look at kinds or owners: on PostgreSQL they hold as they are. SQLite rebuilds a
table to add a column or a constraint, and its ledger triggers name the tables being rebuilt
(and a table's own triggers go with it): they are dropped first and made again last, the same
SQL as 0002's."""
from __future__ import annotations

import importlib
from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


TRIGGERS = importlib.import_module("cashier.migrations.0002_ledger_triggers")


def _sqlite(schema_editor: Any, statements: list[str]) -> None:
    if schema_editor.connection.vendor == "sqlite":
        with schema_editor.connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


def triggers_drop(apps: Any, schema_editor: Any) -> None:
    _sqlite(schema_editor, TRIGGERS.SQLITE_BACKWARD)


def triggers_make(apps: Any, schema_editor: Any) -> None:
    _sqlite(schema_editor, TRIGGERS.SQLITE_FORWARD)


class Migration(migrations.Migration):

    dependencies = [
        ('cashier', '0004_keyed_deposit_fingerprints'),
        ('tournaments', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(triggers_drop, triggers_make),
        migrations.RemoveConstraint(
            model_name='ledgeraccount',
            name='ledger_account_owner_matches_kind',
        ),
        migrations.AddField(
            model_name='ledgeraccount',
            name='tournament',
            field=models.ForeignKey(blank=True, help_text='The tournament whose prize pool this is (pool accounts).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.tournament'),
        ),
        migrations.AddField(
            model_name='ledgertransaction',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.tournament'),
        ),
        migrations.AlterField(
            model_name='ledgeraccount',
            name='kind',
            field=models.CharField(choices=[('wallet', 'Player wallet'), ('escrow', 'Table escrow'), ('house', 'House rake'), ('world', 'World (money in and out)'), ('pending', 'Pending withdrawals'), ('pool', 'Tournament prize pool')], max_length=8),
        ),
        migrations.AlterField(
            model_name='ledgertransaction',
            name='kind',
            field=models.CharField(choices=[('deposit', 'Deposit'), ('withdrawal_request', 'Withdrawal requested'), ('withdrawal_cancel', 'Withdrawal cancelled'), ('withdrawal_approve', 'Withdrawal paid out'), ('withdrawal_reject', 'Withdrawal rejected'), ('play_grant', 'Play-money grant'), ('play_reload', 'Play-money reload'), ('buy_in', 'Buy-in'), ('top_up', 'Top-up'), ('top_up_refund', 'Top-up refund'), ('cash_out', 'Cash-out'), ('rake', 'Rake'), ('transfer', 'Transfer'), ('tournament_entry', 'Tournament entry'), ('tournament_refund', 'Tournament refund'), ('tournament_overlay', 'Tournament overlay'), ('tournament_prize', 'Tournament prize')], max_length=20),
        ),
        migrations.AddConstraint(
            model_name='ledgeraccount',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'wallet'), ('table__isnull', True), ('tournament__isnull', True), ('user__isnull', False)), models.Q(('kind', 'escrow'), ('table__isnull', False), ('tournament__isnull', True), ('user__isnull', True)), models.Q(('kind', 'pool'), ('table__isnull', True), ('tournament__isnull', False), ('user__isnull', True)), models.Q(('kind__in', ['house', 'world', 'pending']), ('table__isnull', True), ('tournament__isnull', True), ('user__isnull', True)), _connector='OR'), name='ledger_account_owner_matches_kind'),
        ),
        migrations.AddConstraint(
            model_name='ledgeraccount',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'pool')), fields=('tournament',), name='one_pool_per_tournament'),
        ),
        migrations.RunPython(triggers_make, triggers_drop),
    ]
