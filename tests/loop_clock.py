"""A test's hold on the running event loop's clock, for servers whose deadlines must pass when the test
says, not when a busy machine has spent them."""

from __future__ import annotations

import asyncio


class LoopClock:
    """Skews the running loop's `time()`, which asyncio's timers and the servers' deadlines both read;
    `jump` moves it on at once."""

    def __init__(self) -> None:
        loop = asyncio.get_running_loop()
        real_time = loop.time
        self.skew = 0.0
        loop.time = lambda: real_time() + self.skew  # type: ignore[method-assign]

    def jump(self, seconds: float) -> None:
        self.skew += seconds
