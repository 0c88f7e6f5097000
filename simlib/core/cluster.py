"""Dask distributed for simlib's runs: connecting, sharing one cluster, following chunks.

:func:`dask_client` connects to a scheduler (an address, a ``Client``, or ``None`` for a
:class:`~dask.distributed.LocalCluster` of one single-threaded worker per core) and closes
what it started; :func:`shared_cluster` lets the runs of a sweep, an experiment or a skill
ladder share one cluster; :func:`completed` yields a run's chunks as they finish and stops
with one line when no worker is left. Failures to connect are one line
(``SimlibInputError``), never a page of tracebacks.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from simlib.errors import SimlibInputError, SimlibRunError

__all__ = [
    "DASK_CONNECT_TIMEOUT",
    "DASK_MAIN_GUARD",
    "DASK_NO_WORKERS_TIMEOUT",
    "completed",
    "connect",
    "dask_client",
    "is_client",
    "n_workers",
    "shared_cluster",
]

#: Seconds to wait for a Dask scheduler given by address before giving up.
DASK_CONNECT_TIMEOUT = 5
#: Seconds a Dask run waits with no worker connected before it stops with one line (the
#: finished chunks are kept in ``out``; running again resumes).
DASK_NO_WORKERS_TIMEOUT = 60
#: Seconds between two looks for finished chunks while a Dask run waits.
DASK_POLL = 0.05
#: Seconds between two questions to the scheduler about its workers while a run waits
#: (each is a round trip; at every poll they cost the client a few ms of CPU a second).
DASK_WORKER_LOOK = 1.0
#: Dask settings of the automatic local cluster: its workers' statistical profiler (a
#: sample every 10 ms) and 20 ms event-loop ticks took about a tenth of a game's CPU time
#: (benchmarks/bench_cost.py --scale-out); simlib's tasks are long and need neither.
QUIET_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
}
#: What a script must do to start a local Dask cluster (said in the error when it did not).
DASK_MAIN_GUARD = (
    "backend='dask' without a scheduler starts a local cluster whose worker processes "
    "import the script again: put the script's run under `if __name__ == \"__main__\":` "
    "(see README, Dask)"
)


@contextlib.contextmanager
def dask_client(scheduler: Any) -> Iterator[tuple[Any, Any]]:
    """Yield ``(client, cluster or None)`` for ``scheduler``; close what was started here.

    A ``Client`` given is used as it is and left open; a client made from an address is
    closed; a ``LocalCluster`` started for ``scheduler=None`` is closed with its client.
    """
    client, cluster, owned = connect(scheduler)
    try:
        yield client, cluster
    finally:
        if owned:
            client.close()
        if cluster is not None:
            cluster.close()


@contextlib.contextmanager
def shared_cluster(run_kwargs: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Yield the execution keywords of several runs that share one Dask cluster.

    With ``backend="dask"`` and no ``Client`` among ``run_kwargs``, one client (and, with
    no scheduler, one local cluster, whose tasks then play on one thread each unless
    ``threads`` says otherwise) serves every run, and is closed at the end. Otherwise
    ``run_kwargs`` as they are.
    """
    if run_kwargs.get("backend") != "dask" or is_client(run_kwargs.get("scheduler")):
        yield run_kwargs
        return
    with dask_client(run_kwargs.get("scheduler")) as (client, cluster):
        shared = {**run_kwargs, "scheduler": client}
        if cluster is not None and shared.get("threads") is None:
            shared["threads"] = 1
        yield shared


def connect(scheduler: Any):
    """Return ``(client, owned_cluster_or_None, owned)`` for ``scheduler``."""
    from dask.distributed import Client, LocalCluster

    if scheduler is None:
        if getattr(multiprocessing.current_process(), "_inheriting", False):
            # A worker process importing a script that has no __main__ guard: starting a
            # cluster here would fail deep inside multiprocessing. Stop quietly: the
            # process that started the cluster says why, once.
            raise SystemExit(1)
        import dask

        try:
            with _dask_logs_quiet(), dask.config.set(QUIET_CLUSTER):
                cluster = LocalCluster(
                    n_workers=os.cpu_count() or 1,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
        except RuntimeError as err:
            raise SimlibInputError(
                f"{DASK_MAIN_GUARD}; the local cluster's workers did not start ({err})"
            ) from None
        return Client(cluster, set_as_default=False), cluster, True
    if isinstance(scheduler, Client):
        return scheduler, None, False
    if isinstance(scheduler, str):
        check_address(scheduler)
        try:
            client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT, set_as_default=False)
        except Exception as err:  # noqa: BLE001 - any failure to connect is one line
            reason = " ".join(str(err).split()) or type(err).__name__
            if isinstance(err, MemoryError):
                reason = "the reply was not a Dask scheduler's"
            _discard_unconnected_client(err)
            raise SimlibInputError(
                f"scheduler: cannot connect to '{scheduler}' "
                f"({reason}); expected the address of a running Dask scheduler, "
                "e.g. tcp://host:8786"
            ) from None
        return client, None, True
    raise SimlibInputError(
        "scheduler: expected a Dask scheduler address (e.g. 'tcp://host:8786'), a "
        f"dask.distributed.Client or None, not {type(scheduler).__name__}"
    )


#: Address schemes a Dask scheduler listens on.
DASK_SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")


def check_address(address: str) -> None:
    """Refuse an address that cannot name a scheduler before any connection is tried."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    host, _, port = rest.rpartition(":")
    if scheme == "inproc":  # an in-process scheduler: inproc://HOST/PID/N, no port
        host, port = rest, "1"
    if scheme not in DASK_SCHEMES or not host or not (port.isascii() and port.isdigit()
                                                      and 0 < int(port) < 65536):
        raise SimlibInputError(
            f"scheduler: '{address}' is not a Dask scheduler address; expected "
            "SCHEME://HOST:PORT with SCHEME one of " + ", ".join(DASK_SCHEMES)
            + " (e.g. tcp://host:8786)"
        )


def _discard_unconnected_client(err: BaseException) -> None:
    """Stop the event loop of a ``Client`` whose constructor failed.

    The half-made client is otherwise collected later, and its ``__del__`` tries to close a
    connection that never opened: a 10 s stall and an "Exception ignored in Client.__del__"
    page after our one line. Only attributes of the client object are touched; any change in
    them leaves the old behaviour (noisy, not wrong).
    """
    from dask.distributed import Client

    tb = err.__traceback__
    while tb is not None:
        obj = tb.tb_frame.f_locals.get("self")
        if isinstance(obj, Client):
            try:
                obj.status = "closed"
                obj._loop_runner.stop()
            except Exception:  # noqa: BLE001 - best effort, see above
                pass
        tb = tb.tb_next
    err.__traceback__ = None


class _dask_logs_quiet:
    """Hold back distributed's own error logs while a local cluster starts.

    A failure to start is turned into one line by :func:`connect`, not a page of tracebacks.
    """

    def __enter__(self):
        self._logger = logging.getLogger("distributed")
        self._level = self._logger.level
        self._logger.setLevel(logging.CRITICAL)

    def __exit__(self, *exc):
        self._logger.setLevel(self._level)
        return False


def _live_workers(client) -> int:
    """Workers the scheduler knows of (a round trip to it; 0 when it cannot say)."""
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # noqa: BLE001 - a client that cannot say has none we can use
        return 0


def completed(client, futures, where, folder: Path | None, total: int):
    """Yield ``futures`` as they finish.

    Stops with one line when the cluster has had no worker for
    :data:`DASK_NO_WORKERS_TIMEOUT` seconds or a chunk keeps killing workers.
    """
    from dask.distributed import as_completed

    pending = as_completed(futures, loop=client.loop)
    done = 0
    idle_since = None
    next_look = 0.0
    kept = f" and saved in {folder}" if folder is not None else ""
    resume = (
        "run the same command again to resume"
        if folder is not None
        else "nothing was saved (no out)"
    )
    while not pending.is_empty():
        batch = pending.next_batch(block=False)
        for fut in batch:
            if fut.status == "error":
                err = fut.exception()
                if type(err).__name__ == "KilledWorker":
                    start, stop = where[fut.key]
                    raise SimlibRunError(
                        f"dask: the chunk of games {start}..{stop - 1} was lost with the worker "
                        f"that played it, again and again (KilledWorker); {done} of {total} "
                        f"chunks are finished{kept}; {resume}"
                    ) from None
            done += 1
            yield fut
        if batch:
            idle_since = None
            continue
        now = time.monotonic()
        if now < next_look:
            time.sleep(DASK_POLL)
            continue
        # asking the scheduler costs a round trip: look at most every DASK_WORKER_LOOK s
        next_look = now + min(DASK_WORKER_LOOK, DASK_NO_WORKERS_TIMEOUT / 4)
        if _live_workers(client) == 0:
            idle_since = now if idle_since is None else idle_since
            if now - idle_since >= DASK_NO_WORKERS_TIMEOUT:
                raise SimlibRunError(
                    f"dask: no worker connected to the scheduler for "
                    f"{DASK_NO_WORKERS_TIMEOUT:g} s; {done} of {total} chunks are "
                    f"finished{kept}; start workers and {resume}"
                )
        else:
            idle_since = None
        time.sleep(DASK_POLL)


def n_workers(client) -> int:
    """Workers the client knows of, at least 1 (a sizing hint for chunks)."""
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:  # noqa: BLE001 - only a sizing hint
        return 1



def is_client(obj: Any) -> bool:
    """True when ``obj`` is a ``dask.distributed.Client`` (False when dask is missing)."""
    try:
        from dask.distributed import Client
    except ImportError:  # pragma: no cover - dask is an optional extra
        return False
    return isinstance(obj, Client)
