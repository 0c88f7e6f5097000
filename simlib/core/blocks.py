"""Deal a batch of games to threads, a block at a time.

Every game's batch kernel is serial: it plays a block of consecutive games on state it
allocates once, and is compiled ``nogil`` (see :mod:`simlib.core.jit`). :func:`run_blocks`
cuts a batch into blocks and plays them on ``numba.get_num_threads()`` Python threads, each
taking the next block as it finishes one, so uneven games still share the work evenly.

Why not ``prange`` in a ``parallel=True`` kernel: the rows are the same, game for game
(each game's random stream depends on the seed and its index only; checked on every
registered game), but numba compiles a parallel kernel with its own copy of the whole game
and threading glue. Measured on 2026-11-30: Sub Terra's cold compile
(``benchmarks/bench_subterra.py --quick``, quiet machine) took 39 s with ``prange`` and
30 s with serial blocks; Terraria's took 145 s of CPU with ``prange`` and 124 s with
serial blocks (a fresh process running ten games, busy machine). The games per second
did not change (Sub Terra 2,731 and 5,493 on 1 and 2 threads before, 2,876 and 5,579
after). Python threads also need no threading layer, so none can spin between batches;
nogil kernels run on both cores (two threads were busy 1.99 of every wall-clock second on
a 4,000-game Sub Terra batch).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = ["play_blocks", "run_blocks"]


def run_blocks(play: Callable[[int, int], object], count: int, block: int,
               threads: int | None = None) -> None:
    """Call ``play(lo, hi)`` once for each block ``[lo, hi)`` of ``range(count)``.

    Blocks hold ``block`` items (the last may hold fewer). They run on ``threads`` Python
    threads (default: ``numba.get_num_threads()``, the thread count a run sets), in order
    on one thread; ``play`` must release the GIL (a ``nogil`` kernel) for threads to help.
    An exception raised by ``play`` is raised here once every block has stopped.
    """
    if block < 1:
        raise ValueError(f"block must be at least 1, got {block}")
    spans = [(lo, min(count, lo + block)) for lo in range(0, count, block)]
    if threads is None:
        import numba

        threads = numba.get_num_threads()
    if threads <= 1 or len(spans) <= 1:
        for lo, hi in spans:
            play(lo, hi)
        return
    with ThreadPoolExecutor(max_workers=min(threads, len(spans))) as pool:
        futures = [pool.submit(play, lo, hi) for lo, hi in spans]
    for f in futures:
        f.result()


def play_blocks(kernel: Callable[..., object], args: tuple, seed: int, start: int,
                out: np.ndarray, block: int) -> np.ndarray:
    """Fill the records ``out`` with games ``start .. start+len(out)-1`` of run ``seed``.

    Calls ``kernel(*args, seed, first_index, out[lo:hi])`` for each block (see
    :func:`run_blocks`): every game's block kernel takes its settings first, then the run's
    seed (as ``uint64``), the index of the block's first game and the block's records.
    Returns ``out``.
    """
    seed64 = np.uint64(seed)
    start = int(start)

    def play(lo: int, hi: int) -> None:
        kernel(*args, seed64, start + lo, out[lo:hi])

    run_blocks(play, len(out), block)
    return out
