"""Table configuration (set by admins), seats, and per-hand summaries for the lobby."""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from cashier.money import Currency, money_format
from tables.engine import structures as engine


class Structure(models.TextChoices):
    FIXED_LIMIT = "FL", "Limit"
    POT_LIMIT = "PL", "Pot Limit"
    NO_LIMIT = "NL", "No Limit"


class SmallBlindRule(models.TextChoices):
    EXACT_HALF = "exact_half", "Exactly half the lower stake"
    ROUND_DOWN = "round_down", "Half the lower stake, rounded down to a whole currency unit"
    EXPLICIT = "explicit", "An explicit amount"


class TimeoutPolicy(models.TextChoices):
    SEEDS = "seeds", "Timeout all-in if money is in the pot, else fold"
    MODERN = "modern", "Check if free, else fold"


MAX_RAKE_PERCENT = Decimal("10")

ENGINE_STRUCTURE = {
    Structure.FIXED_LIMIT: engine.Structure.FIXED_LIMIT,
    Structure.POT_LIMIT: engine.Structure.POT_LIMIT,
    Structure.NO_LIMIT: engine.Structure.NO_LIMIT,
}
ENGINE_SMALL_BLIND_RULE = {
    SmallBlindRule.EXACT_HALF: engine.SmallBlindRule.EXACT_HALF,
    SmallBlindRule.ROUND_DOWN: engine.SmallBlindRule.ROUND_DOWN,
    SmallBlindRule.EXPLICIT: engine.SmallBlindRule.EXPLICIT,
}
ENGINE_TIMEOUT_POLICY = {
    TimeoutPolicy.SEEDS: engine.TimeoutPolicy.SEEDS,
    TimeoutPolicy.MODERN: engine.TimeoutPolicy.MODERN,
}


class TableConfig(models.Model):
    """One cash table as an operator configures it. Amounts are in the currency's minor unit
    (cents for real money, chips for play money)."""

    name = models.CharField(max_length=64, unique=True)
    structure = models.CharField(max_length=2, choices=Structure.choices)
    currency = models.CharField(max_length=4, choices=Currency.choices, default=Currency.PLAY)
    lower_stake = models.PositiveIntegerField(
        help_text="The big blind and the limit game's small bet, in minor units (cents/chips)."
    )
    upper_stake = models.PositiveIntegerField(
        blank=True, help_text="The limit game's big bet. Left empty: twice the lower stake."
    )
    small_blind_rule = models.CharField(
        max_length=16, choices=SmallBlindRule.choices, default=SmallBlindRule.EXACT_HALF
    )
    small_blind = models.PositiveIntegerField(
        null=True, blank=True, help_text="Only with the explicit small-blind rule."
    )
    ante = models.PositiveIntegerField(default=0, help_text="Per player, 0 for none.")
    max_seats = models.PositiveSmallIntegerField(
        default=9, validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    min_buy_in_bb = models.PositiveIntegerField(default=40, help_text="In big blinds.")
    max_buy_in_bb = models.PositiveIntegerField(default=100, help_text="In big blinds.")
    rake_percent = models.DecimalField(
        max_digits=4, decimal_places=2, default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))], help_text="For example 5.00 for 5 %.",
    )
    rake_cap = models.PositiveIntegerField(default=0, help_text="In minor units; 0 = no cap.")
    rake_cap_by_players = models.JSONField(
        default=dict, blank=True,
        help_text='Optional caps by players dealt in, e.g. {"2": 50, "3": 100, "5": 300}: the cap '
        "for a hand is the one for the largest key not above the number dealt in.",
    )
    no_flop_no_drop = models.BooleanField(default=True)
    action_seconds = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1)], help_text="Quiet time to act."
    )
    countdown_seconds = models.PositiveSmallIntegerField(
        default=20, help_text="Visible countdown after the quiet time (also the reconnect bonus)."
    )
    timeout_policy = models.CharField(
        max_length=8, choices=TimeoutPolicy.choices, default=TimeoutPolicy.SEEDS
    )
    timeout_allin_daily_cap = models.PositiveSmallIntegerField(
        default=2, help_text="Timeout all-ins per player per day; later timeouts fold."
    )
    ratholing_window_minutes = models.PositiveIntegerField(
        default=60, help_text="Real-money NL/PL: leaving with X and returning within this window "
        "requires a buy-in of at least X. 0 disables the rule.",
    )
    sit_out_limit_minutes = models.PositiveIntegerField(
        default=10, help_text="A player sitting out longer is removed and cashed out."
    )
    hand_pause_seconds = models.PositiveSmallIntegerField(
        default=3, help_text="Pause between hands."
    )
    time_bank_seconds = models.PositiveSmallIntegerField(
        default=0, help_text="Time bank: the seconds a player gets when he sits down, used "
        "automatically when his countdown ends (before the timeout rule applies). 0 = no time "
        "bank (the plain action time and countdown).",
    )
    time_bank_refill_seconds = models.PositiveSmallIntegerField(
        default=0, help_text="Seconds added to each player's time bank every "
        "`time bank refill hands` hands he is dealt in (up to the cap); 0 = no refill.",
    )
    time_bank_refill_hands = models.PositiveSmallIntegerField(
        default=10, help_text="Hands dealt in between two refills of a player's time bank.",
    )
    time_bank_cap_seconds = models.PositiveSmallIntegerField(
        default=0, help_text="The most seconds a time bank can hold after refills (at least "
        "the starting bank).",
    )
    is_active = models.BooleanField(default=True, help_text="Shown in the lobby and playable.")
    chat_spectators = models.BooleanField(
        default=False, help_text="Spectators (logged in, not seated) may chat too; players always may."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "table configuration"
        ordering = ["currency", "structure", "lower_stake", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(max_seats__gte=2, max_seats__lte=10), name="table_seats_2_to_10"
            ),
            models.CheckConstraint(
                condition=models.Q(min_buy_in_bb__lte=models.F("max_buy_in_bb")),
                name="table_min_buy_in_not_above_max",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        if not self.upper_stake and self.lower_stake:
            self.upper_stake = 2 * self.lower_stake
        super().save(*args, **kwargs)

    # Derived amounts -------------------------------------------------------------------------
    @property
    def big_blind(self) -> int:
        return self.lower_stake

    @property
    def whole_unit(self) -> int:
        """The currency's whole unit in minor units: a dollar is 100 cents, a chip is a chip."""
        return 100 if self.currency == Currency.REAL else 1

    @property
    def small_blind_amount(self) -> int:
        return engine.TableRules(
            lower_stake=self.lower_stake,
            small_blind_rule=ENGINE_SMALL_BLIND_RULE[self.small_blind_rule],
            small_blind=self.small_blind,
            unit_whole=self.whole_unit,
        ).small_blind_amount

    def engine_rules(self) -> engine.TableRules:
        """The rules the hand engine plays this table by."""
        caps = {int(n): cap for n, cap in (self.rake_cap_by_players or {}).items()}
        return engine.TableRules(
            structure=ENGINE_STRUCTURE[self.structure],
            lower_stake=self.lower_stake,
            upper_stake=self.upper_stake or 2 * self.lower_stake,
            small_blind_rule=ENGINE_SMALL_BLIND_RULE[self.small_blind_rule],
            small_blind=self.small_blind,
            unit_whole=self.whole_unit,
            ante=self.ante,
            timeout_policy=ENGINE_TIMEOUT_POLICY[self.timeout_policy],
            auto_showdown=True,
            rake=engine.RakeRule(
                percent_bp=self.rake_bps,
                cap=self.rake_cap or None,
                cap_by_players=caps or None,
                no_flop_no_drop=self.no_flop_no_drop,
            ),
        )

    @property
    def min_buy_in(self) -> int:
        return self.min_buy_in_bb * self.big_blind

    @property
    def max_buy_in(self) -> int:
        return self.max_buy_in_bb * self.big_blind

    @property
    def rake_bps(self) -> int:
        """Rake in basis points (5.00 % → 500) so the engine never sees a Decimal."""
        return int(self.rake_percent * 100)

    def money_label(self, amount: int) -> str:
        """An amount at this table for people: "1,250" chips, "$5", "$2.50" (money_format)."""
        return money_format(amount, self.currency)

    @property
    def time_bank_on(self) -> bool:
        return self.time_bank_seconds > 0

    def time_bank_label(self) -> str:
        """"Time bank: 30 s (+10 s every 10 hands, max 60 s)", or "" when the table has none."""
        if not self.time_bank_on:
            return ""
        line = f"Time bank: {self.time_bank_seconds} s"
        if self.time_bank_refill_seconds and self.time_bank_refill_hands:
            every = ("every hand" if self.time_bank_refill_hands == 1
                     else f"every {self.time_bank_refill_hands} hands")
            line += (f" (+{self.time_bank_refill_seconds} s {every}, "
                     f"max {self.time_bank_cap_seconds} s)")
        return line

    def stakes_label(self) -> str:
        low, high = (self.lower_stake, self.upper_stake) if self.structure == Structure.FIXED_LIMIT \
            else (self.small_blind_amount, self.lower_stake)
        return f"{self.money_label(low)}/{self.money_label(high)}"

    # Validation ---------------------------------------------------------------------------
    def clean(self) -> None:
        errors: dict[str, str] = {}
        if not self.lower_stake:
            errors["lower_stake"] = "The lower stake (the big blind) must be at least 1."
            raise ValidationError(errors)
        if not self.upper_stake:
            self.upper_stake = 2 * self.lower_stake
        if self.upper_stake < self.lower_stake:
            errors["upper_stake"] = "The upper stake cannot be below the lower stake."
        if self.small_blind_rule == SmallBlindRule.EXPLICIT:
            if not self.small_blind:
                errors["small_blind"] = "Give the small blind amount for the explicit rule."
            elif self.small_blind > self.lower_stake:
                errors["small_blind"] = (
                    f"The small blind ({self.money_label(self.small_blind)}) cannot be above "
                    f"the big blind ({self.money_label(self.lower_stake)})."
                )
        elif self.small_blind:
            errors["small_blind"] = "Only set an amount with the explicit small-blind rule."
        elif self.small_blind_rule == SmallBlindRule.ROUND_DOWN and (
            self.lower_stake // 2 < self.whole_unit
        ):
            errors["small_blind_rule"] = (
                "Half the lower stake is less than one whole currency unit: rounding down would "
                "make the small blind zero. Use the exact half or an explicit amount."
            )
        if "small_blind" not in errors and "small_blind_rule" not in errors \
                and self.small_blind_amount < 1:
            errors["small_blind_rule"] = (
                f"Half of a lower stake of {self.lower_stake} is less than 1: give an explicit "
                "small blind or a larger lower stake."
            )
        if self.min_buy_in_bb > self.max_buy_in_bb:
            errors["min_buy_in_bb"] = (
                f"The minimum buy-in ({self.min_buy_in_bb} BB) is above the maximum "
                f"({self.max_buy_in_bb} BB)."
            )
        if self.min_buy_in_bb < 1:
            errors["min_buy_in_bb"] = "The minimum buy-in must be at least one big blind."
        if self.rake_percent is not None and self.rake_percent > MAX_RAKE_PERCENT:
            errors["rake_percent"] = f"Rake over {MAX_RAKE_PERCENT} % is not allowed."
        if self.rake_percent and self.rake_percent * 100 != int(self.rake_percent * 100):
            errors["rake_percent"] = "Give the rake with at most two decimals."
        if not (2 <= (self.max_seats or 0) <= 10):
            errors["max_seats"] = "A table has 2 to 10 seats."
        cap_error = _rake_cap_error(self.rake_cap_by_players)
        if cap_error:
            errors["rake_cap_by_players"] = cap_error
        if self.ante and self.ante >= self.lower_stake:
            errors["ante"] = "The ante must be below the big blind."
        errors.update(self._time_bank_errors())
        if errors:
            raise ValidationError(errors)


    def _time_bank_errors(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        values = {name: getattr(self, name) for name in (
            "time_bank_seconds", "time_bank_refill_seconds", "time_bank_refill_hands",
            "time_bank_cap_seconds")}
        for name, value in values.items():
            if value is None or value < 0:
                errors[name] = "Give a whole number of seconds (hands), 0 or more."
        if errors or not self.time_bank_seconds:
            return errors
        if self.time_bank_cap_seconds < self.time_bank_seconds:
            errors["time_bank_cap_seconds"] = (
                f"The cap ({self.time_bank_cap_seconds} s) cannot be below the starting time "
                f"bank ({self.time_bank_seconds} s).")
        if self.time_bank_refill_seconds and not self.time_bank_refill_hands:
            errors["time_bank_refill_hands"] = "Refill every 1 hand or more."
        return errors


def _rake_cap_error(caps: object) -> str | None:
    if caps in (None, ""):
        return None
    if not isinstance(caps, dict):
        return 'Give caps as an object of players → cap, e.g. {"2": 50, "3": 100}.'
    for players, cap in caps.items():
        if not str(players).isdigit() or not 2 <= int(players) <= 10:
            return f"'{players}' is not a number of players between 2 and 10."
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 0:
            return f"The cap for {players} players must be a whole, non-negative amount."
    return None


class SeatStatus(models.TextChoices):
    PLAYING = "playing", "Playing"
    SITTING_OUT = "sitting_out", "Sitting out"
    WAITING_BB = "waiting_bb", "Waiting for the big blind"


class Seat(models.Model):
    """A player's seat at a table; `chips` are the player's money in the table's escrow."""

    table = models.ForeignKey(TableConfig, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(10)])
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    chips = models.BigIntegerField(default=0)
    status = models.CharField(max_length=16, choices=SeatStatus.choices, default=SeatStatus.PLAYING)
    created_at = models.DateTimeField(auto_now_add=True)
    post_bb = models.BooleanField(
        default=False, help_text="Posts a live extra big blind in the next hand (new/returning)."
    )
    missed_blinds = models.BooleanField(
        default=False, help_text="Missed a blind while sitting out: owes a big blind on return."
    )
    sat_out_at = models.DateTimeField(null=True, blank=True)
    leave_after_hand = models.BooleanField(
        default=False, help_text="Asked to leave during a hand: cashed out when it ends."
    )
    always_show = models.BooleanField(
        default=False, help_text="Shows a losing hand at showdown instead of mucking it."
    )
    time_bank = models.PositiveIntegerField(
        default=0, help_text="Seconds in the player's time bank (set when he sits down)."
    )
    time_bank_hands = models.PositiveIntegerField(
        default=0, help_text="Hands dealt in since his time bank's last refill."
    )

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique_per_table"),
            models.UniqueConstraint(fields=["table", "player"], name="one_seat_per_player_per_table"),
            models.CheckConstraint(condition=models.Q(chips__gte=0), name="seat_chips_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}: {self.player}"


class HandSummary(models.Model):
    """One row per finished hand: what the lobby's statistics are computed from."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="hand_summaries")
    finished_at = models.DateTimeField(db_index=True)
    pot = models.BigIntegerField()
    players_dealt = models.PositiveSmallIntegerField()
    players_saw_flop = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name_plural = "hand summaries"
        ordering = ["-finished_at"]
        indexes = [models.Index(fields=["table", "-finished_at"])]

    def __str__(self) -> str:
        return f"{self.table} hand at {self.finished_at:%Y-%m-%d %H:%M}"


# Live play ------------------------------------------------------------------------------------
# The lock order (table row, seats, hands, events...) is stated in tables/services/locks.py only.


class TableState(models.Model):
    """The runtime row of one table: "the table row" every tables service locks first.

    `version` counts the table's events (HandEvent.version); clients resync from it.
    `hand_moved_version` is the version of the current hand's last event that changed the hand
    (every hand event but a deadline extension): an action decided on an earlier version is
    stale, one decided after it is not, whatever table events (seating, top-ups) came since."""

    table = models.OneToOneField(TableConfig, on_delete=models.CASCADE, primary_key=True,
                                 related_name="state")
    version = models.BigIntegerField(default=0)
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    hand = models.ForeignKey("Hand", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+", help_text="The current or last hand.")
    hands_dealt = models.PositiveIntegerField(default=0)
    next_hand_at = models.DateTimeField(null=True, blank=True)
    hand_moved_version = models.BigIntegerField(default=0)
    next_deck_key = models.CharField(
        max_length=64, blank=True, help_text="Secret: the key of the next hand's deck.")
    next_commitment = models.CharField(
        max_length=64, blank=True,
        help_text="The next hand's deck commitment, published before players send entropy.")

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version}"

    @property
    def hand_running(self) -> bool:
        return self.hand is not None and self.hand.finished_at is None


class Hand(models.Model):
    """One hand: the engine's state as JSON (the truth while it runs) plus its timer."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(help_text="1, 2, ... per table.")
    state = models.JSONField()
    version = models.PositiveIntegerField(help_text="The engine state's version (timers check it).")
    seat_ids = models.JSONField(help_text='Seat number → Seat id, e.g. {"1": 17}.')
    deadline = models.DateTimeField(null=True, blank=True, help_text="Turn deadline, if any.")
    bonus_used = models.BooleanField(default=False, help_text="Reconnect bonus used this turn.")
    turn_started_at = models.DateTimeField(null=True, blank=True,
                                           help_text="When the current turn began.")
    timer_at = models.DateTimeField(null=True, blank=True,
                                    help_text="When the timeout task last queued fires.")
    bank_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat whose time bank runs this turn, if any.")
    bank_started_at = models.DateTimeField(null=True, blank=True,
                                           help_text="When that time bank started to run.")
    bank_seconds = models.PositiveIntegerField(
        default=0, help_text="The seconds that time bank held when it started.")
    commitment = models.CharField(max_length=64, help_text="Published at the deal.")
    fairness = models.CharField(
        max_length=12, default="merkle-v2",
        help_text="merkle-v2: the private fair deal (tables/engine/fairness.py); seed-v1: "
                  "dealt before it, its seed published.")
    deck_key = models.CharField(
        max_length=64, blank=True,
        help_text="Secret for ever (merkle-v2): staff see the deck only through the audited "
                  "reveal.")
    entropy = models.JSONField(
        default=list, blank=True,
        help_text='The players\' contributions that fixed the deal order: [{"seat", "value"}].')
    seed = models.CharField(max_length=64, blank=True,
                            help_text="seed-v1 hands only: the seed published after the hand.")
    players_saw_flop = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} hand {self.number}"


class DeckEntropy(models.Model):
    """A seated player's contribution to the deal order of the hand dealt under `commitment`
    (fairness.py): sent after the commitment was published, used and deleted at its deal."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="+")
    commitment = models.CharField(max_length=64)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    value = models.CharField(max_length=64)

    class Meta:
        verbose_name_plural = "deck entropies"
        constraints = [models.UniqueConstraint(fields=["table", "commitment", "player"],
                                               name="one_entropy_per_player_and_deck")]

    def __str__(self) -> str:
        return f"table {self.table_id} deck {self.commitment[:12]} from {self.player_id}"


class DeckReveal(models.Model):
    """Audit trail of staff opening a finished hand's whole deck (a dispute): who, when, why."""

    hand = models.ForeignKey("Hand", on_delete=models.PROTECT, related_name="+")
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                              related_name="+")
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"hand {self.hand_id} deck revealed to {self.staff_id}"


class HandEvent(models.Model):
    """Append-only table event log, ordered by the per-table version: the source of hand
    histories and of reconnect resync. `payload` is what everyone may see; `private_payload`
    (hole cards) goes to `recipient` only."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="events")
    version = models.BigIntegerField()
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="events")
    type = models.CharField(max_length=32)
    payload = models.JSONField()
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    private_payload = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="event_version_unique_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version} {self.type}"

    def for_user(self, user_id: int | None) -> dict:
        if self.private_payload is not None and user_id is not None and user_id == self.recipient_id:
            return self.private_payload
        return self.payload


class TimeoutAllIn(models.Model):
    """A timeout all-in a player was granted: counted for the per-day cap."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "timeout all-in"

    def __str__(self) -> str:
        return f"timeout all-in by {self.player_id} in hand {self.hand_id}"


class TablePresence(models.Model):
    """How many sockets a logged-in user has open at a table through one server process, and
    when the last one closed: a reconnect earns the turn bonus only if every socket had dropped
    during his own turn. In the database, not a process's memory: his sockets may be served by
    different processes; rows of a process that died are ignored (tables/services/presence.py)."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    server = models.CharField(max_length=64,
                              help_text="The server process holding the sockets (its boot id).")
    sockets = models.PositiveIntegerField(default=0)
    dropped_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When the last open socket closed.")

    class Meta:
        verbose_name_plural = "table presences"
        constraints = [
            models.UniqueConstraint(fields=["table", "user", "server"],
                                    name="presence_unique_per_server"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}: {self.sockets} sockets"


class WaitingListEntry(models.Model):
    """A player waiting for a seat at a full table (tables/services/waitlist.py).

    While `offered_seat` is set and `offer_expires_at` has not passed, that seat is held for
    this player: others are refused it (`seat_reserved`). The database is the whole state, so
    a restart or a lost expiry task loses nothing: expiry is also checked whenever it is read."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="waiting_list")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="waiting_entries")
    joined_at = models.DateTimeField(db_index=True)
    offered_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    offer_expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "joined_at", "id"]
        verbose_name_plural = "waiting list entries"
        constraints = [
            models.UniqueConstraint(fields=["table", "player"],
                                    name="one_waiting_entry_per_player_per_table"),
            models.UniqueConstraint(fields=["table", "offered_seat"],
                                    condition=models.Q(offered_seat__isnull=False),
                                    name="one_offer_per_seat"),
            models.CheckConstraint(
                condition=models.Q(offered_seat__isnull=True, offer_expires_at__isnull=True)
                | models.Q(offered_seat__isnull=False, offer_expires_at__isnull=False),
                name="offer_has_seat_and_expiry"),
        ]

    def __str__(self) -> str:
        return f"{self.player} waiting for {self.table}"


class AutoTopUpMode(models.TextChoices):
    TO_MAX = "max", "Before every hand, top up to the maximum buy-in"
    BELOW = "below", "When below a number of big blinds, top up to the maximum buy-in"


class AutoTopUp(models.Model):
    """A player's standing order at one table: buy chips between hands, through the cashier
    like a manual top-up (a busted stack included: that is an automatic rebuy)."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="auto_top_ups")
    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="auto_top_ups")
    mode = models.CharField(max_length=8, choices=AutoTopUpMode.choices)
    threshold_bb = models.PositiveIntegerField(
        default=0, help_text="Mode 'below': top up when the stack is under this many big blinds."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "table"], name="auto_top_up_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}: {self.get_mode_display()}"


# Table chat (tables/services/chat.py) -----------------------------------------------------------
class ChatMessage(models.Model):
    """One line said at a table. Stored as typed (plain text, never HTML: pages render it as
    text); staff may hide it, which removes it from every page (`chat_hidden` event)."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="chat_messages")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "chat message"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["table", "author", "created_at"])]

    def __str__(self) -> str:
        return f"{self.author} at {self.table}: {self.text[:40]}"


class ChatMute(models.Model):
    """`muter` no longer sees `muted`'s chat lines (at every table). Private to the muter."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "chat mute"
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~models.Q(muter=models.F("muted")),
                                   name="chat_mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.muter} mutes {self.muted}"


class ChatBan(models.Model):
    """Staff took the player's chat away (at every table) until `until`."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="chat_bans")
    until = models.DateTimeField(db_index=True)
    reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "chat ban"
        ordering = ["-until"]

    def __str__(self) -> str:
        return f"{self.player} banned from chat until {self.until:%Y-%m-%d %H:%M}"
