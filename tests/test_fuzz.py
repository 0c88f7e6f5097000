"""Fuzzing every entry point: junk, unicode and out-of-range values give a result or one
clear line (``SimlibInputError``; at the command line exit status 2), never a traceback.

Examples are bounded (``max_examples``) so the suite stays quick; hypothesis keeps the
failing example it finds, and ``--hypothesis-seed`` reproduces a run.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import tomllib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toygame import register_toy

import simlib
from simlib.cli import main
from simlib.core.results import Results
from simlib.errors import SimlibInputError
from simlib.experiment import load_experiment

register_toy()

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

junk_text = st.text(max_size=12)
#: Numbers a game accepts quickly (a fuzzed but valid run must not take minutes).
small_ints = st.integers(min_value=-3, max_value=400)
values = st.one_of(
    st.none(), st.booleans(), small_ints, st.integers(), st.floats(allow_nan=True),
    junk_text, st.lists(small_ints, max_size=3), st.dictionaries(junk_text, small_ints, max_size=2),
)


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes, plus DEL (JSON leaves it, TOML refuses it)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return toml_string(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{toml_string(k)} = {toml_value(x)}"
                               for k, x in v.items()) + "}"
    raise TypeError(type(v))


def toml_text(data: dict) -> str:
    """A TOML document of ``data`` (top-level keys; tables inline), for the loaders."""
    text = "\n".join(f"{toml_string(k)} = {toml_value(v)}"
                     for k, v in data.items() if v is not None)
    tomllib.loads(text)  # the writer's own check: what we fuzz is the loader, not TOML
    return text


def no_none(v):
    if isinstance(v, list):
        return [no_none(x) for x in v if x is not None]
    if isinstance(v, dict):
        return {k: no_none(x) for k, x in v.items() if x is not None}
    return v


def one_line_error(code: int, err: str) -> bool:
    lines = err.strip().splitlines()
    return code in (1, 2) and len(lines) == 1 and lines[0].startswith("simlib: error: ")


# --- the command line ---------------------------------------------------------------------
COMMANDS = ["run", "sweep", "compare", "report", "experiment", "games", "solve", "ladder"]
OPTIONS = ["--games", "--seed", "--set", "--bot", "--bot-param", "--preset", "--threads",
           "--chunk-size", "--param", "--values", "--out", "--precision", "--target",
           "--budgets", "--title", "--format"]
tokens = st.one_of(
    st.sampled_from(OPTIONS), st.sampled_from(["toy", "p=0.3", "max_rounds=ä", "risk=1e999",
                                               "bot.risk", "0:3", "a,b", "12", "-1", "²"]),
    junk_text.filter(lambda t: t.strip().lower() not in ("dask", "--backend")),
    small_ints.map(str),
)


@FUZZ
@given(command=st.sampled_from(COMMANDS), rest=st.lists(tokens, max_size=7))
def test_cli_gives_a_result_or_one_line(tmp_path, monkeypatch, capsys, command, rest):
    monkeypatch.chdir(tmp_path)  # anything a fuzzed --out writes stays here
    code = main([command, *rest, "--no-progress"] if command in ("run", "sweep") else
                [command, *rest])
    out, err = capsys.readouterr()
    assert code == 0 or one_line_error(code, err), (code, err)


# --- simlib.run ---------------------------------------------------------------------------
@FUZZ
@given(
    games=st.one_of(st.integers(min_value=-2, max_value=300), values),
    seed=values, preset=st.one_of(st.none(), st.sampled_from(["normal", "hard"]), values),
    bot=st.one_of(st.none(), st.sampled_from(["steady", "bold"]), values),
    settings_=st.one_of(st.none(), st.dictionaries(st.sampled_from(["p", "max_rounds", "x", "ü"]),
                                                    values, max_size=3), values),
    bot_params=st.one_of(st.none(), st.dictionaries(st.sampled_from(["risk", "zz"]), values,
                                                    max_size=2), values),
    chunk_size=st.one_of(st.none(), st.integers(min_value=-1, max_value=500), values),
    threads=st.one_of(st.none(), st.integers(min_value=-1, max_value=3), values),
)
def test_run_gives_a_result_or_one_line(tmp_path, monkeypatch, games, seed, preset, bot,
                                        settings_, bot_params, chunk_size, threads):
    monkeypatch.chdir(tmp_path)
    if isinstance(games, int) and not isinstance(games, bool) and games > 300:
        games = 300  # a valid count is played: keep it short
    try:
        res = simlib.run("toy", games=games, seed=seed, preset=preset, bot=bot,
                         settings=settings_, bot_params=bot_params, chunk_size=chunk_size,
                         threads=threads, progress=False)
    except SimlibInputError as err:
        assert "\n" not in str(err) and str(err)
    else:
        assert isinstance(res, Results) and len(res) == games


# --- experiment files ---------------------------------------------------------------------
EXPERIMENT_KEYS = ["title", "description", "game", "games", "seed", "out", "presets", "bots",
                   "grid", "report", "bot_params", "table", "settings", "zzz"]


@FUZZ
@given(data=st.dictionaries(
    st.sampled_from(EXPERIMENT_KEYS),
    st.one_of(values, st.just("toy"), st.just(["normal"]), st.just({"p": [0.2, 0.4]}),
              st.just({"sweep": ["p"]})),
    max_size=8,
))
def test_experiment_file_gives_an_experiment_or_one_line(tmp_path, data):
    path = tmp_path / "e.toml"
    path.write_text(toml_text(no_none(data)), encoding="utf-8")
    try:
        load_experiment(path)
    except SimlibInputError as err:
        assert "\n" not in str(err) and str(err)


@FUZZ
@given(raw=st.binary(max_size=80) | st.text(max_size=80))
def test_experiment_file_that_is_not_toml_is_one_line(tmp_path, raw):
    path = tmp_path / "e.toml"
    if isinstance(raw, bytes):
        path.write_bytes(raw)
    else:
        path.write_text(raw, encoding="utf-8")
    try:
        load_experiment(path)
    except SimlibInputError as err:
        assert "\n" not in str(err)


# --- data files ---------------------------------------------------------------------------
def _paths(node, prefix=()):
    """Every (path, value) leaf of a nested dict/list."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list) and node and all(isinstance(x, (dict, list)) for x in node):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))
    else:
        yield prefix, node


def _set(node, path, value):
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


SUBTERRA_DEFAULT = tomllib.loads(
    (Path(__file__).parents[1] / "simlib/games/subterra/data/default.toml").read_text("utf-8")
)
SUBTERRA_LEAVES = [p for p, _ in _paths(SUBTERRA_DEFAULT) if p]


def toml_document(data: dict) -> str:
    """Nested tables as [a.b] sections, arrays of tables as inline arrays."""
    lines = []

    def emit(table, prefix):
        plain = {k: v for k, v in table.items() if not isinstance(v, dict)}
        nested = {k: v for k, v in table.items() if isinstance(v, dict)}
        if prefix:
            lines.append("[" + ".".join(toml_string(p) for p in prefix) + "]")
        for k, v in plain.items():
            lines.append(f"{toml_string(k)} = {toml_value(no_none(v))}")
        for k, v in nested.items():
            emit(v, (*prefix, k))

    emit(data, ())
    text = "\n".join(lines)
    tomllib.loads(text)
    return text


@FUZZ
@given(
    edits=st.lists(
        st.tuples(st.sampled_from(SUBTERRA_LEAVES), values.filter(lambda v: v is not None)),
        min_size=1,
        max_size=3,
    ),
)
def test_subterra_data_file_gives_tables_or_one_line(tmp_path, edits):
    import copy

    from simlib.games.subterra.compile import load_data

    data = copy.deepcopy(SUBTERRA_DEFAULT)
    for path, value in edits:
        _set(data, path, value)
    file = tmp_path / "d.toml"
    file.write_text(toml_document(data), encoding="utf-8")
    try:
        load_data(str(file))
    except SimlibInputError as err:
        assert "\n" not in str(err) and str(file) in str(err)


def test_fuzz_writer_round_trips():
    # the helper that writes the fuzzed files must itself be right, or the fuzz tests nothing
    assert tomllib.loads(toml_document(SUBTERRA_DEFAULT)) == SUBTERRA_DEFAULT
    assert tomllib.loads(toml_text({"a": [1, "ü\x7f\n"], "b": {"c": 1.5}})) == {
        "a": [1, "ü\x7f\n"], "b": {"c": 1.5}
    }
