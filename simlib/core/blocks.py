"""Deal a batch of games to threads, a block at a time.

Every game's batch kernel is serial: it plays a block of consecutive games on state it
allocates once, and is compiled ``nogil`` (see :mod:`simlib.core.jit`). :func:`run_blocks`
cuts a batch into blocks and plays them on the number of Python threads the run asks for
(passed down from :func:`simlib.run`'s ``threads``, never through a global setting), each
taking the next block as it finishes one, so uneven games still share the work evenly. The
threads are daemons that stop taking blocks on an error or Ctrl-C, so an interrupted run
exits after the running blocks, not after the rest of its chunk.

Why not ``prange`` in a ``parallel=True`` kernel: the rows are the same, game for game
(each game's random stream depends on the seed and its index only; checked on every
registered game), but numba compiles a parallel kernel with its own copy of the whole game
and threading glue, which costs compile time and gains no games per second
(``benchmarks/bench_subterra.py`` prints both). Python threads also need no threading
layer, so none can spin between batches; nogil kernels run on every core.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

__all__ = ["play_blocks", "run_blocks"]


def run_blocks(play: Callable[[int, int], object], count: int, block: int,
               threads: int = 1) -> None:
    """Call ``play(lo, hi)`` once for each block ``[lo, hi)`` of ``range(count)``.

    Blocks hold ``block`` items (the last may hold fewer). They run on ``threads`` Python
    threads, in order on one thread; ``play`` must release the GIL (a ``nogil`` kernel)
    for threads to help.

    An exception raised by ``play`` stops the threads taking new blocks and is raised here
    once the running blocks have finished. So is a ``KeyboardInterrupt`` (Ctrl-C) in the
    calling thread: it waits for the blocks already running (a block is short), not for
    the rest of the batch, and a second Ctrl-C during that wait is ignored.
    """
    if block < 1:
        raise ValueError(f"block must be at least 1, got {block}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    spans = [(lo, min(count, lo + block)) for lo in range(0, count, block)]
    if threads == 1 or len(spans) <= 1:
        for lo, hi in spans:
            play(lo, hi)
        return
    taken = iter(range(len(spans)))
    lock = threading.Lock()
    stop = threading.Event()
    errors: list[BaseException] = []

    def worker() -> None:
        while not stop.is_set():
            with lock:
                i = next(taken, None)
            if i is None:
                return
            try:
                play(*spans[i])
            except BaseException as err:  # handed to the calling thread
                errors.append(err)
                stop.set()
                return

    workers = [threading.Thread(target=worker, name=f"simlib-blocks-{k}", daemon=True)
               for k in range(min(threads, len(spans)))]
    for w in workers:
        w.start()
    try:
        for w in workers:
            while w.is_alive():
                w.join(0.2)
    except BaseException:
        stop.set()
        _join_quietly(workers)
        raise
    if errors:
        raise errors[0]


def _join_quietly(workers: list[threading.Thread]) -> None:
    """Wait for the running blocks to finish, ignoring a second Ctrl-C meanwhile."""
    for w in workers:
        while w.is_alive():
            try:
                w.join(0.2)
            except KeyboardInterrupt:
                continue


def play_blocks(kernel: Callable[..., object], args: tuple, seed: int, start: int,
                out: np.ndarray, block: int, threads: int = 1) -> np.ndarray:
    """Fill the records ``out`` with games ``start .. start+len(out)-1`` of run ``seed``.

    Calls ``kernel(*args, seed, first_index, out[lo:hi])`` for each block (see
    :func:`run_blocks`, on ``threads`` threads): every game's block kernel takes its
    settings first, then the run's seed (as ``uint64``), the index of the block's first
    game and the block's records. Returns ``out``.
    """
    seed64 = np.uint64(seed)
    start = int(start)

    def play(lo: int, hi: int) -> None:
        kernel(*args, seed64, start + lo, out[lo:hi])

    run_blocks(play, len(out), block, threads)
    return out
