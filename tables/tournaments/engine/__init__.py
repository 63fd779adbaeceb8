"""Tournament rules as pure functions: positions under the dead button, breaking and balancing
tables, payouts, places from busts, the blind clock and forced bets, hand-for-hand.

Like ``tables.engine`` it imports nothing from Django, Channels or Celery (a test enforces it);
the tournament app loads its rows into these values, asks, and stores the answers.
"""
