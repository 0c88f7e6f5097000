"""Rule mutants: break one printed rule in a copy of the tree and check the tests notice.

A mutant is one small edit of a game's engine (a comparison flipped, a cost dropped, an
order swapped, a limit off by one, a phase moved) named by the checklist id of the rule it
breaks. The mutants of a game live in ``tests/mutation/<game>.toml``::

    game = "subterra"                        # the file's own name
    prefix = "ST"                            # the checklist's id prefix
    checklist = "sub-terra-checklist.md"     # in shared/rules/, beside the repository
    tests = ["tests/test_subterra_turns.py", ...]   # the game's tests, quick ones first

    [[mutant]]
    name = "exert-twice"                     # unique in the file
    rule = "ST-075"                          # the checklist id it breaks
    file = "simlib/games/subterra/engine.py"
    find = "..."                             # exact text; must occur exactly once
    replace = "..."
    why = "exerting a second time in one turn is allowed"
    killers = ["tests/test_subterra_turns.py::test_exert_once"]   # the tests that kill it

For each mutant the runner copies the tree (the files git knows, committed or not) into a
temporary folder, applies the edit there and runs pytest on that copy: first the mutant's
``killers``, then the game's ``tests``, stopping at the first failure. With ``--quick``
only the killers run: that is CI's check that the tests named as a rule's guard still
guard it (a killer compiles only the kernels it touches, so it is much cheaper than the
game's whole suite). The working tree is never edited. A mutant is

- ``killed``: a test failed (the first failing test is reported);
- ``survived``: every test passed: no test guards that rule (with ``--quick``: its
  killers passed, so they no longer guard it);
- ``stale``: ``find`` no longer occurs exactly once in ``file`` (the code moved on; the
  mutant must be rewritten), or its ``file`` is gone;
- ``broken``: pytest could not collect or run (the edit does not compile, say);
- ``timeout``: the tests ran past ``--timeout`` seconds.

Only ``killed`` is a pass: the exit status is 1 when any mutant is anything else, 2 on bad
input (an unknown game, a malformed data file). Usage::

    python tests/mutation/run.py subterra            # every Sub Terra mutant
    python tests/mutation/run.py --all --jobs 2      # all games, two mutants at a time
    python tests/mutation/run.py --all --subset 2    # two per game, by a fixed rotation
    python tests/mutation/run.py --all --subset 5 --quick   # CI: killers only
    python tests/mutation/run.py terralore --only TL-020:hand-limit-off-by-one
    python tests/mutation/run.py --all --list        # what there is, no runs
    python tests/mutation/run.py --all --baseline    # first check the tests pass unmutated

Each copy gets its own numba cache (``NUMBA_CACHE_DIR``), since simlib keys its cache by a
hash of its source: a mutant compiles from scratch. The runner checks that the copy's
pytest imports the copy's ``simlib``, not an installed one.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GAMES = ("subterra", "terraria", "terminus", "terralore")
STATUSES = ("killed", "survived", "stale", "broken", "timeout")
MUTANT_KEYS = {"name", "rule", "file", "find", "replace", "why", "killers"}
HEADER_KEYS = {"game", "prefix", "checklist", "tests", "mutant"}
SKIP_DIRS = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache",
             ".mypy_cache", "results", "runs", "build", "dist"}


class BadInput(Exception):
    """A data file or an argument the runner cannot use; the message names the key."""


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One edit that breaks one rule."""

    game: str
    name: str
    rule: str
    file: str
    find: str
    replace: str
    why: str
    killers: tuple[str, ...]

    @property
    def id(self) -> str:
        """``RULE:name``, the mutant's name in reports and in ``--only``."""
        return f"{self.rule}:{self.name}"


@dataclasses.dataclass(frozen=True)
class GameMutants:
    """A game's data file: its tests and its mutants, in file order."""

    game: str
    prefix: str
    checklist: str
    tests: tuple[str, ...]
    mutants: tuple[Mutant, ...]


@dataclasses.dataclass(frozen=True)
class Result:
    """What became of one mutant."""

    mutant: Mutant
    status: str
    detail: str
    seconds: float


def _text(table: dict, key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value:
        raise BadInput(f"{where}: key '{key}' must be a non-empty string")
    return value


def _strings(table: dict, key: str, where: str, required: bool) -> tuple[str, ...]:
    value = table.get(key, None if required else [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise BadInput(f"{where}: key '{key}' must be a list of non-empty strings")
    if required and not value:
        raise BadInput(f"{where}: key '{key}' must name at least one test")
    return tuple(value)


def load(game: str, folder: Path = HERE) -> GameMutants:
    """Read and check ``<folder>/<game>.toml``; raise ``BadInput`` naming the bad key."""
    path = folder / f"{game}.toml"
    where = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput(f"{where}: no such data file (games: {', '.join(GAMES)})") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{where}: not valid TOML ({exc})") from None
    unknown = sorted(set(data) - HEADER_KEYS)
    if unknown:
        raise BadInput(f"{where}: unknown key '{unknown[0]}' (allowed: "
                       f"{', '.join(sorted(HEADER_KEYS))})")
    if data.get("game") != game:
        raise BadInput(f"{where}: key 'game' must be '{game}'")
    prefix = _text(data, "prefix", where)
    if not re.fullmatch(r"[A-Z]{2}", prefix):
        raise BadInput(f"{where}: key 'prefix' must be two capital letters, not {prefix!r}")
    checklist = _text(data, "checklist", where)
    tests = _strings(data, "tests", where, required=True)
    rows = data.get("mutant", [])
    if not isinstance(rows, list):
        raise BadInput(f"{where}: 'mutant' must be an array of tables ([[mutant]])")
    mutants = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        at = f"{where}: mutant {i + 1}"
        unknown = sorted(set(row) - MUTANT_KEYS)
        if unknown:
            raise BadInput(f"{at}: unknown key '{unknown[0]}' (allowed: "
                           f"{', '.join(sorted(MUTANT_KEYS))})")
        name = _text(row, "name", at)
        at = f"{where}: mutant '{name}'"
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
            raise BadInput(f"{at}: key 'name' must be lower-case words joined by '-'")
        if name in seen:
            raise BadInput(f"{at}: key 'name' is used twice")
        seen.add(name)
        rule = _text(row, "rule", at)
        if not re.fullmatch(rf"{prefix}-\d{{3}}", rule):
            raise BadInput(f"{at}: key 'rule' must be a checklist id like {prefix}-001")
        find = _text(row, "find", at)
        replace = row.get("replace")
        if not isinstance(replace, str) or replace == find:
            raise BadInput(f"{at}: key 'replace' must be a string that differs from 'find'")
        mutants.append(Mutant(game, name, rule, _text(row, "file", at), find, replace,
                              _text(row, "why", at), _strings(row, "killers", at, True)))
    return GameMutants(game, prefix, checklist, tests, tuple(mutants))


def checklist_path(gm: GameMutants, root: Path = ROOT) -> Path:
    """Where the game's checklist lives: ``shared/rules/`` beside the repository."""
    return root.parent / "shared" / "rules" / gm.checklist


def checklist_ids(gm: GameMutants, root: Path = ROOT) -> set[str] | None:
    """The ids the game's checklist defines, or None when it is not beside the repository."""
    path = checklist_path(gm, root)
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    return {f"{gm.prefix}-{n}" for n in re.findall(rf"\*\*{gm.prefix}-(\d{{3}})\*\*", text)}


def staleness(m: Mutant, root: Path = ROOT) -> str | None:
    """Why the mutant no longer applies to the tree at ``root``, or None when it does."""
    path = root / m.file
    if not path.is_file():
        return f"{m.file} does not exist"
    count = path.read_text(encoding="utf-8").count(m.find)
    if count != 1:
        return f"'find' occurs {count} times in {m.file} (must be exactly once)"
    return None


def tree_files(root: Path) -> list[Path]:
    """The files of the tree, relative to ``root``: git's tracked and untracked-unignored."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root, capture_output=True, check=True).stdout
        names = [Path(n) for n in out.decode().split("\0") if n]
        return [n for n in names
                if not SKIP_DIRS.intersection(n.parts) and (root / n).is_file()]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for path in root.rglob("*"):
            rel = path.relative_to(root)
            if path.is_file() and not SKIP_DIRS.intersection(rel.parts):
                files.append(rel)
        return files


def copy_tree(root: Path, dest: Path, files: list[Path]) -> Path:
    """Copy ``files`` of ``root`` into ``dest/<root's name>``; link ``shared`` beside it."""
    repo = dest / root.name
    for rel in files:
        target = repo / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copy2(root / rel, target)
        except FileNotFoundError:
            # an untracked file removed while we copy (a tool's cache in another process)
            continue
    shared = root.parent / "shared"
    if shared.is_dir():
        (dest / "shared").symlink_to(shared, target_is_directory=True)
    return repo


def _env(repo: Path, cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=str(repo), NUMBA_CACHE_DIR=str(cache), PYTHONHASHSEED="0",
               MPLBACKEND="Agg", SIMLIB_PROGRESS="0", PYTHONDONTWRITEBYTECODE="1")
    env.pop("NUMBA_DISABLE_JIT", None)
    return env


PYTEST = ["-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", "-p", "no:randomly",
          "--hypothesis-seed=0", "-o", "addopts=", "--tb=line", "-W", "ignore"]
FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


def check_imports_copy(repo: Path, cache: Path) -> None:
    """Fail loudly when Python run in the copy would import another tree's simlib."""
    out = subprocess.run([sys.executable, "-c", "import simlib; print(simlib.__file__)"],
                         cwd=repo, env=_env(repo, cache), capture_output=True, text=True)
    where = Path(out.stdout.strip() or "?").resolve()
    if repo.resolve() not in where.parents:
        raise BadInput(f"the copy imports simlib from {where}, not from {repo}: "
                       "a mutant would go unseen (check PYTHONPATH and installs)")


def run_tests(repo: Path, cache: Path, args: list[str], deadline: float) -> tuple[str, str]:
    """Run pytest on ``args`` in the copy: ("passed" | "failed" | "broken" | "timeout", detail)."""
    left = deadline - time.monotonic()
    if left <= 0:
        return "timeout", "no time left"
    try:
        out = subprocess.run([sys.executable, *PYTEST, *args], cwd=repo,
                             env=_env(repo, cache), capture_output=True, text=True,
                             timeout=left)
    except subprocess.TimeoutExpired:
        return "timeout", f"tests still running after the {left:.0f} s left"
    text = out.stdout + out.stderr
    if out.returncode == 0:
        return "passed", ""
    if out.returncode == 1:
        hit = FAILED.search(text)
        return "failed", hit.group(1) if hit else text.strip().splitlines()[-1]
    tail = [line for line in text.strip().splitlines() if line.strip()][-3:]
    return "broken", f"pytest exit {out.returncode}: " + " | ".join(tail)


def run_mutant(m: Mutant, gm: GameMutants, root: Path, files: list[Path],
               timeout: float, quick: bool = False) -> Result:
    """Apply ``m`` to a fresh copy of ``root``; run its killers, then (unless ``quick``)
    the game's tests."""
    start = time.monotonic()
    why = staleness(m, root)
    if why:
        return Result(m, "stale", why, 0.0)
    with tempfile.TemporaryDirectory(prefix=f"simlib-mutant-{m.game}-") as tmp:
        repo = copy_tree(root, Path(tmp), files)
        cache = Path(tmp) / "numba-cache"
        path = repo / m.file
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(m.find, m.replace, 1), encoding="utf-8")
        check_imports_copy(repo, cache)
        deadline = start + timeout
        stages = [list(m.killers)]
        if not quick:
            stages.append(list(gm.tests))
        for stage in stages:
            status, detail = run_tests(repo, cache, stage, deadline)
            if status == "failed":
                return Result(m, "killed", detail, time.monotonic() - start)
            if status != "passed":
                return Result(m, status, detail, time.monotonic() - start)
    return Result(m, "survived", "every test passed", time.monotonic() - start)


def run_baseline(gm: GameMutants, chosen: list[Mutant], root: Path, files: list[Path],
                 timeout: float) -> tuple[str, str]:
    """Run the chosen mutants' killers and the game's tests on an unmutated copy.

    A killer that fails without any mutant would count every mutant as killed; the
    baseline shows that each test passes on the tree as it is.
    """
    start = time.monotonic()
    killers = sorted({k for m in chosen for k in m.killers})
    with tempfile.TemporaryDirectory(prefix=f"simlib-baseline-{gm.game}-") as tmp:
        repo = copy_tree(root, Path(tmp), files)
        cache = Path(tmp) / "numba-cache"
        check_imports_copy(repo, cache)
        status, detail = "passed", ""
        for stage in ([killers] if killers else []) + [list(gm.tests)]:
            status, detail = run_tests(repo, cache, stage, start + timeout)
            if status != "passed":
                break
    return status, detail


def rotation_default(root: Path) -> int:
    """The commit count of HEAD: a rotation that moves on with every commit."""
    try:
        out = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=root,
                             capture_output=True, text=True, check=True)
        return int(out.stdout.strip())
    except (OSError, subprocess.CalledProcessError, ValueError):
        return 0


def subset(mutants: tuple[Mutant, ...], k: int, rotation: int) -> list[Mutant]:
    """``k`` mutants spread evenly through the list, shifted by ``rotation``.

    Successive rotations cover every mutant: rotation r takes the indices
    ``(r + i * n // k) % n``, so n consecutive rotations take each index k times.
    """
    n = len(mutants)
    if k >= n:
        return list(mutants)
    picks = sorted({(rotation + (i * n) // k) % n for i in range(k)})
    return [mutants[i] for i in picks]


def summary(results: list[Result]) -> str:
    """The table printed at the end: per game, how many mutants of each status."""
    games = [g for g in GAMES if any(r.mutant.game == g for r in results)]
    head = f"{'game':<10} {'mutants':>7} " + " ".join(f"{s:>8}" for s in STATUSES)
    lines = [head, "-" * len(head)]
    for g in [*games, "all"]:
        rows = [r for r in results if g in ("all", r.mutant.game)]
        counts = " ".join(f"{sum(r.status == s for r in rows):>8}" for s in STATUSES)
        lines.append(f"{g:<10} {len(rows):>7} {counts}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit status (0 all killed, 1 otherwise, 2 bad input)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", metavar="GAME", help=f"any of {', '.join(GAMES)}")
    ap.add_argument("--all", action="store_true", help="every game")
    ap.add_argument("--only", action="append", default=[], metavar="RULE:NAME",
                    help="run just this mutant (repeatable)")
    ap.add_argument("--subset", type=int, default=0, metavar="K",
                    help="K mutants per game, chosen by --rotation")
    ap.add_argument("--rotation", type=int, default=None,
                    help="which K (default: HEAD's commit count)")
    ap.add_argument("--quick", action="store_true",
                    help="run only each mutant's killers, not the game's whole tests")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    ap.add_argument("--timeout", type=float, default=1200.0,
                    help="seconds per mutant (default 1200)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--baseline", action="store_true",
                    help="first check that the tests pass on the unmutated tree")
    ap.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    try:
        if args.all == bool(args.games):
            raise BadInput("name games, or give --all (games: " + ", ".join(GAMES) + ")")
        games = list(GAMES) if args.all else args.games
        for g in games:
            if g not in GAMES:
                raise BadInput(f"GAME: unknown game '{g}' (allowed: {', '.join(GAMES)})")
        for key in ("subset", "jobs", "timeout"):
            if getattr(args, key) < (0 if key == "subset" else 1):
                raise BadInput(f"--{key}: must be a positive number")
        loaded = [load(g) for g in games]
        rotation = rotation_default(args.root) if args.rotation is None else args.rotation
        chosen: list[tuple[Mutant, GameMutants]] = []
        for gm in loaded:
            picked = subset(gm.mutants, args.subset, rotation) if args.subset else gm.mutants
            chosen.extend((m, gm) for m in picked)
        if args.only:
            known = {m.id for m, _ in chosen}
            missing = [o for o in args.only if o not in known]
            if missing:
                raise BadInput(f"--only: no mutant '{missing[0]}' in {', '.join(games)}")
            chosen = [(m, gm) for m, gm in chosen if m.id in args.only]
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.list:
        for m, _ in chosen:
            stale = staleness(m, args.root)
            print(f"{m.game:<10} {m.id:<44} {'STALE: ' + stale if stale else m.why}")
        return 0
    files = tree_files(args.root)
    print(f"{len(chosen)} mutants, {args.jobs} at a time"
          + (", killers only" if args.quick else "")
          + (f", subset {args.subset} per game at rotation {rotation}" if args.subset else ""),
          flush=True)
    results: list[Result] = []
    try:
        if args.baseline:
            for gm in loaded:
                mine = [m for m, g in chosen if g is gm]
                if not mine:
                    continue
                status, detail = run_baseline(gm, mine, args.root, files, args.timeout)
                print(f"baseline {gm.game}: {status} {detail}", flush=True)
                if status != "passed":
                    print(f"error: the unmutated tree fails its tests ({gm.game}: {detail})",
                          file=sys.stderr)
                    return 1
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_mutant, m, gm, args.root, files, args.timeout,
                                   args.quick)
                       for m, gm in chosen]
            for fut in concurrent.futures.as_completed(futures):
                r = fut.result()
                results.append(r)
                print(f"{r.status:<8} {r.mutant.game:<10} {r.mutant.id:<44} "
                      f"{r.seconds:6.0f} s  {r.detail}", flush=True)
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    order = {id(m): i for i, (m, _) in enumerate(chosen)}
    results.sort(key=lambda r: order[id(r.mutant)])
    print()
    print(summary(results))
    bad = [r for r in results if r.status != "killed"]
    for r in bad:
        print(f"NOT KILLED {r.status}: {r.mutant.game} {r.mutant.id} ({r.mutant.why}): "
              f"{r.detail}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
