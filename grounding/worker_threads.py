"""A call of the async API judged in a worker thread, so an agent's event loop goes on serving while an
answer is judged (milliseconds for a large history, more for a large tool result)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import Executor


async def off_the_loop(executor: Executor | None, function: Callable[..., Any], /, *args: object,
                       **keywords: object) -> Any:  # noqa: ANN401 (what function returns)
    """function(*args, **keywords) in a worker thread, so the event loop goes on serving: executor's, or
    by default the running loop's default executor, as asyncio.to_thread uses (at most min(32, cores + 4)
    threads, shared with the app's own to_thread calls: 200 concurrent decisions queue on them, never 200
    threads). Pass a ThreadPoolExecutor to bound the gate's threads apart. Context variables are carried,
    as to_thread carries them."""
    import asyncio  # imported when an async call is made: a sync loop never pays for it
    import contextvars
    import functools

    context = contextvars.copy_context()
    call = functools.partial(context.run, function, *args, **keywords)
    return await asyncio.get_running_loop().run_in_executor(executor, call)
