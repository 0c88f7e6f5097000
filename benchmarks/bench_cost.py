"""The cost of a game measured against the machine: kops a game, beside games/s and Python.

This machine's speed moves by 2x and more across a day, so a game's cost is given in
iterations of a fixed calibration loop (xorshift64*, :func:`calibration_nb`, one thread)
timed just before and just after each batch of games, in the same process: a batch's
seconds a game times the loop's iterations a second, in kops (1,000 iterations). A
machine running at half speed runs both at half speed, and the figure stands.

For every game (Sub Terra normal 4 cavers, Terraria medium 2 players, Terminus normal 2
players, Terralore standard mirror; default bot, seed 0, games ``0 .. games-1``) it prints

- ``kops/game``: the median over the rounds of the one-thread batch's cost, and its range.
  The rounds are interleaved (round 1 of every game, then round 2, ...), so a slow spell
  of the machine touches every game alike instead of one game's every round;
- games/s on 1 and 2 threads (``simlib.run(..., threads=N)``, the same batch in the same
  round) and the median of the rounds' 2-to-1 ratios;
- ``vs Python``: compiled against plain Python, ``NUMBA_DISABLE_JIT=1`` in a subprocess
  (``_common.GAMES_WORKER``, a few games once, bracketed by the calibration loop too), as
  the ratio of the two costs in kops;
- the cold start (one game in a fresh process with an empty numba cache: the compile)
  and the warm start after it, measured as ``bench_compile.py`` does (``--no-compile``
  skips it: a few minutes).

Every figure is wall clock through the public ``simlib.run`` (the DataFrame of the batch
included) on a warm numba cache: each game plays a small batch first, which compiles the
kernels when the cache is empty.

``--scale-out`` plays the same Sub Terra games (200,000 by default) on the local backend
with one thread, then on a ``dask.distributed`` LocalCluster of 1 and of 2 worker processes
(one thread each), checks the rows are identical, and prints games/s and the efficiency
(games/s per worker against one local thread), with where the workers' time went.

Usage::

    python benchmarks/bench_cost.py                    # every game, 3 rounds (a few minutes)
    python benchmarks/bench_cost.py --only subterra --no-compile --format json
    python benchmarks/bench_cost.py --scale-out        # 200,000 Sub Terra games, 3 ways
    python benchmarks/bench_cost.py --scale-out --games 20000
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from typing import NamedTuple

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import GAMES_WORKER, game_args, run_snippet, source_commit  # noqa: E402


class Setup(NamedTuple):
    """One game's measured configuration."""

    label: str
    preset: str
    settings: dict
    games: int  # a batch on the compiled code, about 2 s on one thread
    python_games: int  # the plain-Python batch, a few seconds


GAMES = {
    "subterra": Setup("normal, 4 cavers", "normal", {"cavers": 4}, 5_000, 30),
    "terraria": Setup("medium, 2 players", "medium", {"players": 2}, 1_500, 8),
    "terminus": Setup("normal, 2 players", "normal", {"players": 2}, 15_000, 200),
    "terralore": Setup("standard mirror", "standard", {}, 200_000, 1_000),
}
SEED = 0
#: Iterations of one timing of the calibration loop (about 0.2 s on the 2-core machine).
CAL_ITERATIONS = 100_000_000
#: Games each game (or each Dask worker) plays before any clock starts.
WARM_GAMES = 64
#: Games of one ``--scale-out`` run unless ``--games`` says otherwise.
SCALE_OUT_GAMES = 200_000
PYTHON_ENV = {"NUMBA_DISABLE_JIT": "1", "NUMBA_NUM_THREADS": "1"}


# Not cached (no cache=True): it compiles in well under a second, once per process, and a
# cache would be one more thing that could differ between two measurements.
@numba.njit(nogil=True)
def calibration_nb(n, x):
    """``n`` steps of xorshift64* from the state ``x`` (uint64); the sum of the outputs.

    One long chain of dependent shifts, xors and a multiply: no memory, no branches, nothing
    the compiler can vectorise or fold, so its speed is the core's and nothing else's.
    """
    total = np.uint64(0)
    for _ in range(n):
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        total += x * np.uint64(0x2545F4914F6CDD1D)
    return total


def calibrate() -> float:
    """Seconds of one timing of the calibration loop (:data:`CAL_ITERATIONS`)."""
    t = time.perf_counter()
    calibration_nb(CAL_ITERATIONS, np.uint64(0x9E3779B97F4A7C15))
    return time.perf_counter() - t


def say(text: str) -> None:
    """Progress on stderr, so stdout holds only the table (or the JSON)."""
    print(text, file=sys.stderr, flush=True)


def play(name: str, games: int, threads: int, **options) -> tuple[float, object]:
    """Wall seconds of ``games`` games of ``name`` through ``simlib.run``, and its Results."""
    import simlib

    s = GAMES[name]
    t = time.perf_counter()
    res = simlib.run(name, preset=s.preset, settings=s.settings, games=games, seed=SEED,
                     threads=threads, progress=False, **options)
    return time.perf_counter() - t, res


def two_threads() -> int | None:
    """2 when numba may run two threads in this process, else None (not measured)."""
    return 2 if int(numba.config.NUMBA_NUM_THREADS) >= 2 else None


def header() -> dict:
    """What was measured: commit, versions, CPUs, thread counts."""
    import simlib

    return {
        "commit": source_commit(),
        "simlib": os.path.dirname(simlib.__file__),
        "numba": numba.__version__,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "numba_num_threads": int(numba.config.NUMBA_NUM_THREADS),
        "threads": [1] + ([2] if two_threads() else []),
        "calibration": f"xorshift64*, {CAL_ITERATIONS:,} iterations a timing, one thread",
    }


# --- the cost table -------------------------------------------------------------------------
def measure_costs(names: list[str], games: int | None, rounds: int, compile_: bool) -> dict:
    """Every figure of the cost table for ``names`` (see the module docstring)."""
    calibration_nb(10, np.uint64(1))  # compile the loop before any timing
    threads2 = two_threads()
    rows: dict[str, dict] = {}
    for name in names:
        say(f"warming {name} (compiles when the numba cache is empty)")
        play(name, min(WARM_GAMES, games or GAMES[name].games), 1)
        rows[name] = {"setting": GAMES[name].label, "games": games or GAMES[name].games,
                      "kops": [], "cal_mops": [], "rate1": [], "rate2": [], "ratio21": []}
    for r in range(rounds):
        for name in names:
            row = rows[name]
            say(f"round {r + 1}/{rounds}: {name}, {row['games']:,} games")
            before = calibrate()
            sec1, _ = play(name, row["games"], 1)
            after = calibrate()
            cal_rate = 2 * CAL_ITERATIONS / (before + after)
            row["cal_mops"].append(cal_rate / 1e6)
            row["kops"].append(sec1 / row["games"] * cal_rate / 1e3)
            row["rate1"].append(row["games"] / sec1)
            if threads2:
                sec2, _ = play(name, row["games"], threads2)
                row["rate2"].append(row["games"] / sec2)
                row["ratio21"].append(sec1 / sec2)
    for name in names:
        row = rows[name]
        s = GAMES[name]
        n_py = min(s.python_games, row["games"])
        say(f"plain Python: {name}, {n_py} games in a subprocess")
        before = calibrate()
        py = run_snippet(GAMES_WORKER, game_args(name, s.preset, s.settings, n_py, 1, 0, 1),
                         PYTHON_ENV)
        after = calibrate()
        row["python_rate"] = py["rate"]
        row["python_kops"] = 2 * CAL_ITERATIONS / (before + after) / py["rate"] / 1e3
    if compile_:
        from bench_compile import measure

        for name in names:
            say(f"cold start: {name}, a fresh process with an empty numba cache")
            rows[name]["start"] = measure(name)
    for row in rows.values():
        row["kops_median"] = statistics.median(row["kops"])
        row["rate1_median"] = statistics.median(row["rate1"])
        row["rate2_median"] = statistics.median(row["rate2"]) if row["rate2"] else None
        row["ratio21_median"] = statistics.median(row["ratio21"]) if row["ratio21"] else None
        row["vs_python"] = row["python_kops"] / row["kops_median"]
    return {**header(), "rounds": rounds, "seed": SEED, "games": rows}


def _num(value, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def print_costs(out: dict) -> None:
    """The cost table as text."""
    print(f"commit {out['commit']} ({out['simlib']})")
    print(f"numba {out['numba']}, python {out['python']}, {out['cpus']} CPUs, "
          f"NUMBA_NUM_THREADS {out['numba_num_threads']}; threads measured: "
          + ", ".join(map(str, out["threads"])))
    cal = [m for row in out["games"].values() for m in row["cal_mops"]]
    print(f"calibration: {out['calibration']}: {statistics.median(cal):,.0f} Mops/s median "
          f"(from {min(cal):,.0f} to {max(cal):,.0f} over the batches)")
    print(f"kops/game: one thread, warm cache, median of {out['rounds']} round(s) interleaved "
          "across games; default bot, seed 0; games/s through simlib.run(threads=N)\n")
    head = (f"{'game':<10} {'setting':<18} {'games':>8} {'kops/game':>9} {'range':>13} "
            f"{'games/s 1t':>10} {'games/s 2t':>10} {'2t/1t':>5} {'vs Python':>9} "
            f"{'cold wall':>9} {'cold CPU':>8} {'warm wall':>9}")
    print(head)
    for name, row in out["games"].items():
        lo, hi = min(row["kops"]), max(row["kops"])
        digits = ".0f" if lo >= 100 else ".1f"
        start = row.get("start")
        cold = f"{start['cold']['seconds']:.0f} s" if start else "-"
        cold_cpu = f"{start['cold']['cpu']:.0f} s" if start else "-"
        warm = f"{start['warm']['seconds']:.1f} s" if start else "-"
        print(f"{name:<10} {row['setting']:<18} {row['games']:>8,} "
              f"{format(row['kops_median'], digits):>9} "
              f"{format(lo, digits) + '-' + format(hi, digits):>13} "
              f"{row['rate1_median']:>10,.0f} {_num(row['rate2_median'], ',.0f'):>10} "
              f"{_num(row['ratio21_median'], '.2f'):>5} {row['vs_python']:>8.0f}x "
              f"{cold:>9} {cold_cpu:>8} {warm:>9}")


# --- scale-out ------------------------------------------------------------------------------
def _task_breakdown(stream: list[dict], t0: float, t1: float) -> dict:
    """Where the workers' time went in ``[t0, t1]`` (epoch seconds), from Dask's task stream."""
    per_worker: dict[str, dict] = {}
    for task in stream:
        w = per_worker.setdefault(task["worker"], {"compute": 0.0, "other": 0.0, "tasks": 0,
                                                  "first": t1, "last": t0})
        w["tasks"] += 1
        for ss in task["startstops"]:
            span = ss["stop"] - ss["start"]
            w["compute" if ss["action"] == "compute" else "other"] += span
            if ss["action"] == "compute":
                w["first"] = min(w["first"], ss["start"])
                w["last"] = max(w["last"], ss["stop"])
    wall = t1 - t0
    return {
        addr: {"tasks": w["tasks"], "compute_s": w["compute"], "other_s": w["other"],
               "busy_share": w["compute"] / wall, "idle_before_first_s": w["first"] - t0,
               "idle_after_last_s": t1 - w["last"]}
        for addr, w in sorted(per_worker.items())
    }


def _cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and of every process it started.

    On a LocalCluster that is the client, the scheduler and the nannies (threads of this
    process) and the worker processes: all the CPU a run on it costs.
    """
    import psutil

    me = psutil.Process()
    total = 0.0
    for proc in [me, *me.children(recursive=True)]:
        try:
            t = proc.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += t.user + t.system
    return total


def _warm_workers(client, name: str, games: int) -> None:
    """Each worker plays :data:`WARM_GAMES` games through the dask backend's own task.

    ``simlib.core.runner.play_chunk`` with the run's resolved settings, pinned to the worker:
    its kernels load from the numba cache (or compile) and its compiled settings enter the
    worker's per-process cache, exactly as the first chunk of the timed run would do it.
    """
    from simlib.core.runner import play_chunk, resolve_run

    s = GAMES[name]
    plan = resolve_run(name, preset=s.preset, settings=s.settings, games=games, seed=SEED)
    values = {**plan.values, **plan.data_files}
    futures = [client.submit(play_chunk, plan.game, values, plan.bot.name, plan.params, SEED,
                             0, WARM_GAMES, 1, workers=[addr], allow_other_workers=False,
                             pure=False)
               for addr in client.scheduler_info()["workers"]]
    client.gather(futures)


def measure_scale_out(name: str, games: int, chunk_size: int | None = None,
                      workers: tuple[int, ...] = (1, 2)) -> dict:
    """Games/s of ``games`` games locally (1 and 2 threads) and on LocalClusters of ``workers``.

    ``chunk_size`` goes to the Dask runs (``None``: the backend's default). The clusters
    take Dask's configuration as it stands (``DASK_*`` environment variables included).
    """
    import pandas as pd
    from dask.distributed import Client, LocalCluster, get_task_stream

    calibration_nb(10, np.uint64(1))
    say(f"warming {name} locally")
    play(name, WARM_GAMES, 1)
    runs: list[dict] = []

    def timed(label: str, k: int, threads: int, **options) -> pd.DataFrame:
        say(f"{label}: {games:,} games")
        before = calibrate()
        cpu, main = _cpu_seconds(), time.process_time()
        t0 = time.time()
        sec, res = play(name, games, threads, **options)
        t1 = time.time()
        cpu, main = _cpu_seconds() - cpu, time.process_time() - main
        after = calibrate()
        runs.append({"run": label, "workers": k, "seconds": sec, "rate": games / sec,
                     "cpu_s": cpu, "main_cpu_s": main, "cpu_share": cpu / (sec * k),
                     "cal_mops": 2 * CAL_ITERATIONS / (before + after) / 1e6,
                     "t0": t0, "t1": t1})
        return res.df

    local = timed("local, 1 thread", 1, 1)
    if two_threads():
        same = timed("local, 2 threads", 2, 2)
        runs[-1]["identical"] = bool(local.equals(same))
    for k in workers:
        say(f"starting a LocalCluster of {k} worker process(es), 1 thread each")
        with LocalCluster(n_workers=k, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            say("warming the workers")
            t = time.perf_counter()
            _warm_workers(client, name, games)
            warm = time.perf_counter() - t
            with get_task_stream(client) as ts:
                df = timed(f"dask, {k} worker{'s' if k > 1 else ''}", k, 1, backend="dask",
                           scheduler=client, chunk_size=chunk_size)
            run = runs[-1]
            run["warm_s"] = warm
            run["identical"] = bool(local.equals(df))
            run["chunks"] = len(ts.data)
            run["tasks"] = _task_breakdown(ts.data, run["t0"], run["t1"])
            run["result_mb_per_chunk"] = df.memory_usage(deep=True).sum() / 1e6 / len(ts.data)
    base, base_cpu = runs[0]["rate"], runs[0]["cpu_s"]
    for run in runs:
        run["efficiency"] = run["rate"] / (run["workers"] * base)
        run["cpu_efficiency"] = base_cpu / run["cpu_s"]
        run.pop("t0")
        run.pop("t1")
    return {**header(), "game": name, "setting": GAMES[name].label, "games": games,
            "chunk_size": chunk_size,
            "seed": SEED, "runs": runs}


def print_scale_out(out: dict) -> None:
    """The scale-out table as text."""
    print(f"commit {out['commit']} ({out['simlib']})")
    print(f"numba {out['numba']}, python {out['python']}, {out['cpus']} CPUs, "
          f"NUMBA_NUM_THREADS {out['numba_num_threads']}")
    print(f"{out['game']} {out['setting']}, default bot, {out['games']:,} games, seed "
          f"{out['seed']}; dask workers: 1 thread each, warmed by playing {WARM_GAMES} games "
          "each through the backend's own task (play_chunk) before the clock starts; chunk "
          + (f"size {out['chunk_size']:,}" if out["chunk_size"] else "size: the backend's"))
    print(f"calibration: {out['calibration']} (Mops/s just before and after each run)\n")
    print(f"{'run':<18} {'seconds':>8} {'games/s':>9} {'efficiency':>10} {'rows':>9} "
          f"{'CPU s':>7} {'CPU eff.':>8} {'CPU share':>9} {'main CPU s':>10} {'cal Mops/s':>10}")
    for run in out["runs"]:
        rows = "-" if "identical" not in run else ("identical" if run["identical"] else "DIFFER")
        print(f"{run['run']:<18} {run['seconds']:>8.1f} {run['rate']:>9,.0f} "
              f"{run['efficiency']:>10.2f} {rows:>9} {run['cpu_s']:>7.1f} "
              f"{run['cpu_efficiency']:>8.2f} {run['cpu_share']:>9.0%} "
              f"{run['main_cpu_s']:>10.1f} {run['cal_mops']:>10,.0f}")
    print("\nefficiency: games/s / (workers or threads x games/s of one local thread); rows: "
          "the run's DataFrame against the local one-thread run's; CPU s: this process and "
          "its worker processes; CPU eff.: the local one-thread run's CPU s / the run's; CPU "
          "share: CPU s / (seconds x workers or threads), below 100% when other work shared "
          "the cores; main CPU s: this process alone (client, scheduler, nannies, or the "
          "local run itself)")
    for run in out["runs"]:
        if "tasks" not in run:
            continue
        print(f"\n{run['run']}: {run['chunks']} chunks, {run['result_mb_per_chunk']:.1f} MB of "
              f"rows each, workers warmed in {run['warm_s']:.1f} s")
        for addr, w in run["tasks"].items():
            print(f"  worker {addr}: {w['tasks']} tasks, computing {w['compute_s']:.1f} s "
                  f"({w['busy_share']:.0%} of the run), other {w['other_s']:.2f} s, idle "
                  f"{w['idle_before_first_s']:.2f} s before its first task and "
                  f"{w['idle_after_last_s']:.2f} s after its last")


# --- command line ---------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=None,
                    help="games a batch, every game (default: about 2 s of each on one "
                         f"thread); with --scale-out games a run (default {SCALE_OUT_GAMES:,})")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--only", choices=list(GAMES), default=None, help="one game only "
                    "(--scale-out: the game played, default subterra)")
    ap.add_argument("--no-compile", action="store_true",
                    help="skip the cold start (a fresh process with an empty numba cache)")
    ap.add_argument("--chunk-size", type=int, default=None,
                    help="--scale-out: games a Dask chunk (default: the backend's own)")
    ap.add_argument("--scale-out", action="store_true",
                    help="local backend against a dask LocalCluster of 1 and 2 workers")
    ap.add_argument("--format", choices=("table", "json"), default="table")
    args = ap.parse_args(argv)
    if args.games is not None and args.games < 1:
        ap.error(f"--games: {args.games} is not allowed; expected an integer >= 1")
    if args.chunk_size is not None and args.chunk_size < 1:
        ap.error(f"--chunk-size: {args.chunk_size} is not allowed; expected an integer >= 1")
    if args.rounds < 1:
        ap.error(f"--rounds: {args.rounds} is not allowed; expected an integer >= 1")
    if args.scale_out:
        out = measure_scale_out(args.only or "subterra", args.games or SCALE_OUT_GAMES,
                                args.chunk_size)
        show = print_scale_out
    else:
        out = measure_costs([args.only] if args.only else list(GAMES), args.games, args.rounds,
                            not args.no_compile)
        show = print_costs
    if args.format == "json":
        print(json.dumps(out, indent=2))
    else:
        show(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
