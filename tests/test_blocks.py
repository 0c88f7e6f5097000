"""``simlib.core.blocks.run_blocks``: every index played exactly once, on the threads asked for."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from simlib.core.blocks import play_blocks, run_blocks


@pytest.mark.parametrize("count,block,threads", [(0, 4, 2), (1, 4, 2), (10, 3, 1), (10, 3, 2),
                                                 (64, 64, 2), (1000, 7, 3)])
def test_every_index_once(count, block, threads):
    seen = np.zeros(count, np.int64)
    spans = []

    def play(lo, hi):
        seen[lo:hi] += 1
        spans.append((lo, hi))

    run_blocks(play, count, block, threads)
    assert (seen == 1).all()
    assert sorted(spans) == [(lo, min(count, lo + block)) for lo in range(0, count, block)]


def test_blocks_run_on_several_threads():
    # each block waits until another thread has started one: only true concurrency finishes
    barrier = threading.Barrier(2, timeout=10)
    names = set()

    def play(lo, hi):
        names.add(threading.get_ident())
        barrier.wait()

    run_blocks(play, 4, 1, threads=2)
    assert len(names) == 2


def test_one_thread_runs_in_the_caller_in_order():
    order = []
    me = threading.get_ident()

    def play(lo, hi):
        assert threading.get_ident() == me
        order.append(lo)

    run_blocks(play, 10, 2, threads=1)
    assert order == [0, 2, 4, 6, 8]


def test_an_error_in_a_block_is_raised():
    def play(lo, hi):
        if lo == 6:
            raise RuntimeError("block 6")

    with pytest.raises(RuntimeError, match="block 6"):
        run_blocks(play, 10, 2, threads=2)
    with pytest.raises(ValueError, match="block"):
        run_blocks(play, 10, 0)


def test_play_blocks_passes_settings_seed_first_index_and_records():
    calls = []

    def kernel(a, b, seed, first, recs):
        calls.append((a, b, type(seed).__name__, int(seed), first, len(recs)))
        recs[:] = np.arange(first, first + len(recs))

    out = np.zeros(10, np.int64)
    got = play_blocks(kernel, ("x", 5), 7, 100, out, 4)
    assert got is out and out.tolist() == list(range(100, 110))
    assert sorted(calls) == [("x", 5, "uint64", 7, 100, 4), ("x", 5, "uint64", 7, 104, 4),
                             ("x", 5, "uint64", 7, 108, 2)]


def test_ctrl_c_stops_after_the_running_blocks():
    # Ctrl-C (a KeyboardInterrupt in the calling thread, sent here from a block) must not
    # wait for the rest of the batch: only blocks already running finish. 400 blocks of
    # 20 ms on 2 threads take 4 s; the interrupt comes during block 3. The main thread
    # reacts within one 0.2 s join, so about 2 * 0.2 / 0.02 = 20 more blocks at most start
    # even on a slow machine; the bound of 100 leaves five times that.
    import _thread
    import signal
    import time

    # a background job (as CI may run) starts with SIGINT ignored, and then
    # interrupt_main() does nothing: give the test Python's own Ctrl-C handler
    old_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    played = []

    def play(lo, hi):
        played.append(lo)
        if lo == 3:
            _thread.interrupt_main()
        time.sleep(0.02)

    try:
        with pytest.raises(KeyboardInterrupt):
            run_blocks(play, 400, 1, threads=2)
    finally:
        signal.signal(signal.SIGINT, old_handler)
    after = len(played)
    time.sleep(1.5)  # no block may still be running or start after the return
    assert len(played) == after
    assert 4 <= after <= 100


def test_an_error_stops_new_blocks():
    played = []

    def play(lo, hi):
        played.append(lo)
        if lo == 0:
            raise RuntimeError("first block")
        import time

        time.sleep(0.01)

    with pytest.raises(RuntimeError, match="first block"):
        run_blocks(play, 1000, 1, threads=2)
    assert len(played) < 1000
