"""How late an event loop wakes for a timer: what every coroutine on it waits behind (the
GIL held by other threads, a blocking call, a burst of work). Daphne's hub records it
(`room_loop_lag_seconds`, tables/fanout.py); the capacity benchmark's clients record their own,
the part of their latency figures that is the load generator's."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator


async def loop_lags(period: float) -> AsyncIterator[float]:
    """Once a `period`, for ever: how many seconds past its due time this loop woke."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + period
        await asyncio.sleep(period)
        yield max(0.0, loop.time() - due)
