"""A table as the admin configures it: structure, stakes, buy-ins, rake, timers."""
from __future__ import annotations

from decimal import Decimal

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
    straddle_allowed = models.BooleanField(
        default=False, help_text="Players under the gun may post a live straddle of two big "
        "blinds (no-limit and pot-limit; never at fixed-limit tables).",
    )
    run_it_twice_allowed = models.BooleanField(
        default=False, help_text="When every player left is all in before the river, they may "
        "all agree to deal the rest of the board twice and split each pot between the runs.",
    )
    is_active = models.BooleanField(default=True, help_text="Shown in the lobby and playable.")
    chat_spectators = models.BooleanField(
        default=False, help_text="Spectators (logged in, not seated) may chat too; players always may."
    )
    rabbit_hunt_allowed = models.BooleanField(
        default=False, verbose_name="rabbit hunt allowed",
        help_text="Cash tables: after a hand everyone folded before the river, a player dealt "
        "in may ask to see the board cards that would have come (shown to the whole table; the "
        "hand's result stays as it was).",
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.PROTECT,
        related_name="tables", help_text="A tournament's table: its seats hold tournament chips "
        "(not money), its blinds follow the tournament's levels. Empty for a cash table.",
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

    @property
    def is_tournament(self) -> bool:
        """A tournament's table: chips, not money (tables/services/stacks.py branches on it)."""
        return self.tournament_id is not None

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
            errors["lower_stake"] = "The big blind (in limit, the small bet) must be at least 1."
            raise ValidationError(errors)
        if not self.upper_stake:
            self.upper_stake = 2 * self.lower_stake
        if self.upper_stake < self.lower_stake:
            errors["upper_stake"] = "The big bet cannot be below the small bet."
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
        if self.straddle_allowed and self.structure == Structure.FIXED_LIMIT:
            errors["straddle_allowed"] = "Fixed-limit tables have no straddle."
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
