"""Database-enforced ledger invariants (written by hand).

PostgreSQL:
- a DEFERRABLE INITIALLY DEFERRED constraint trigger checks at commit that every transaction
  has exactly its declared number of entries and that they sum to zero;
- a BEFORE INSERT trigger refuses an entry whose account currency differs from the
  transaction's (so a transaction never mixes PLAY and REAL);
- BEFORE UPDATE OR DELETE triggers make entries and transactions append-only.
  (TRUNCATE, which test flushes use, is not affected.)

SQLite has no deferred triggers. Its triggers refuse a mixed-currency entry, refuse UPDATE of
entries and transactions, and check the zero sum when the transaction's last declared entry
is inserted (and refuse entries beyond the declared count). A transaction left with fewer
entries than declared is not caught by SQLite itself: `audit_ledger` reports it. DELETE is not
blocked on SQLite because Django's test flush deletes rows there.
"""
from __future__ import annotations

from django.db import migrations

POSTGRES_FORWARD = """
CREATE OR REPLACE FUNCTION cashier_entry_currency_check() RETURNS trigger AS $$
DECLARE
    account_currency text;
    transaction_currency text;
BEGIN
    SELECT currency INTO account_currency FROM cashier_ledgeraccount WHERE id = NEW.account_id;
    SELECT currency INTO transaction_currency FROM cashier_ledgertransaction
        WHERE id = NEW.transaction_id;
    IF account_currency IS DISTINCT FROM transaction_currency THEN
        RAISE EXCEPTION 'ledger: a % entry in a % transaction', account_currency,
            transaction_currency USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER cashier_entry_currency BEFORE INSERT ON cashier_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION cashier_entry_currency_check();

CREATE OR REPLACE FUNCTION cashier_transaction_balanced_check() RETURNS trigger AS $$
DECLARE
    tx_id bigint;
    total numeric;
    entries integer;
    declared integer;
BEGIN
    IF TG_TABLE_NAME = 'cashier_ledgerentry' THEN
        tx_id := NEW.transaction_id;
    ELSE
        tx_id := NEW.id;
    END IF;
    SELECT coalesce(sum(amount), 0), count(*) INTO total, entries
        FROM cashier_ledgerentry WHERE transaction_id = tx_id;
    SELECT entry_count INTO declared FROM cashier_ledgertransaction WHERE id = tx_id;
    IF total <> 0 OR entries <> declared THEN
        RAISE EXCEPTION 'ledger: transaction % is unbalanced (sum %, % of % entries)',
            tx_id, total, entries, declared USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER cashier_entry_balanced AFTER INSERT ON cashier_ledgerentry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION cashier_transaction_balanced_check();

CREATE CONSTRAINT TRIGGER cashier_transaction_balanced AFTER INSERT ON cashier_ledgertransaction
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION cashier_transaction_balanced_check();

CREATE OR REPLACE FUNCTION cashier_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger: % on % is forbidden (the ledger is append-only)',
        TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER cashier_entry_append_only BEFORE UPDATE OR DELETE ON cashier_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION cashier_append_only();
CREATE TRIGGER cashier_transaction_append_only BEFORE UPDATE OR DELETE
    ON cashier_ledgertransaction FOR EACH ROW EXECUTE FUNCTION cashier_append_only();
"""

POSTGRES_BACKWARD = """
DROP TRIGGER IF EXISTS cashier_transaction_append_only ON cashier_ledgertransaction;
DROP TRIGGER IF EXISTS cashier_entry_append_only ON cashier_ledgerentry;
DROP TRIGGER IF EXISTS cashier_transaction_balanced ON cashier_ledgertransaction;
DROP TRIGGER IF EXISTS cashier_entry_balanced ON cashier_ledgerentry;
DROP TRIGGER IF EXISTS cashier_entry_currency ON cashier_ledgerentry;
DROP FUNCTION IF EXISTS cashier_append_only();
DROP FUNCTION IF EXISTS cashier_transaction_balanced_check();
DROP FUNCTION IF EXISTS cashier_entry_currency_check();
"""

SQLITE_FORWARD = [
    """
    CREATE TRIGGER cashier_entry_no_update BEFORE UPDATE ON cashier_ledgerentry
    BEGIN SELECT RAISE(ABORT, 'ledger: entries are append-only'); END
    """,
    """
    CREATE TRIGGER cashier_transaction_no_update BEFORE UPDATE ON cashier_ledgertransaction
    BEGIN SELECT RAISE(ABORT, 'ledger: transactions are append-only'); END
    """,
    """
    CREATE TRIGGER cashier_entry_currency BEFORE INSERT ON cashier_ledgerentry
    WHEN (SELECT currency FROM cashier_ledgeraccount WHERE id = NEW.account_id)
        IS NOT (SELECT currency FROM cashier_ledgertransaction WHERE id = NEW.transaction_id)
    BEGIN SELECT RAISE(ABORT, 'ledger: one currency per transaction'); END
    """,
    """
    CREATE TRIGGER cashier_entry_balanced AFTER INSERT ON cashier_ledgerentry
    WHEN (SELECT count(*) FROM cashier_ledgerentry WHERE transaction_id = NEW.transaction_id)
            > (SELECT entry_count FROM cashier_ledgertransaction WHERE id = NEW.transaction_id)
        OR ((SELECT count(*) FROM cashier_ledgerentry WHERE transaction_id = NEW.transaction_id)
            = (SELECT entry_count FROM cashier_ledgertransaction WHERE id = NEW.transaction_id)
            AND (SELECT sum(amount) FROM cashier_ledgerentry
                 WHERE transaction_id = NEW.transaction_id) <> 0)
    BEGIN SELECT RAISE(ABORT, 'ledger: transaction does not sum to zero'); END
    """,
]

SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS cashier_entry_balanced",
    "DROP TRIGGER IF EXISTS cashier_entry_currency",
    "DROP TRIGGER IF EXISTS cashier_transaction_no_update",
    "DROP TRIGGER IF EXISTS cashier_entry_no_update",
]


def _run(schema_editor, postgres: str, sqlite: list[str]) -> None:  # noqa: ANN001
    # Plain cursor.execute without parameters: the SQL contains literal % signs.
    vendor = schema_editor.connection.vendor
    with schema_editor.connection.cursor() as cursor:
        if vendor == "postgresql":
            cursor.execute(postgres)
        elif vendor == "sqlite":
            for statement in sqlite:
                cursor.execute(statement)


def forward(apps, schema_editor) -> None:  # noqa: ANN001
    _run(schema_editor, POSTGRES_FORWARD, SQLITE_FORWARD)


def backward(apps, schema_editor) -> None:  # noqa: ANN001
    _run(schema_editor, POSTGRES_BACKWARD, SQLITE_BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("cashier", "0001_initial")]

    operations = [migrations.RunPython(forward, backward)]
