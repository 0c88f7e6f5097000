"""The ``simlib`` command: happy paths in-process, bad input gives one line and status 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from toygame import GAME, register_toy

from simlib.cli import load_extra_games, main, parse_values
from simlib.errors import SimlibInputError

register_toy()

TESTS_DIR = Path(__file__).resolve().parent


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2
    lines = err.strip("\n").splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("simlib: error: ")
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# --- happy paths ----------------------------------------------------------------------------
def test_games_lists_and_describes(capsys):
    code, out, _ = run_cli(capsys, "games")
    assert code == 0 and "toy" in out and "Toy coin game" in out
    code, out, _ = run_cli(capsys, "games", "toy")
    assert code == 0
    for text in (
        "max_rounds",
        "an integer from 1 to 50",
        "easy",
        "p=0.6",
        "bold",
        "risk = 0.5 from 0 to 1",
        "outcomes: win, loss",
    ):
        assert text in out


def test_run_prints_summary_and_saves(tmp_path, capsys):
    out_dir = tmp_path / "run"
    code, out, err = run_cli(
        capsys,
        "run",
        "toy",
        "--preset",
        "easy",
        "--set",
        "max_rounds=7",
        "--bot",
        "bold",
        "--bot-param",
        "risk=0.2",
        "--games",
        "800",
        "--seed",
        "4",
        "--chunk-size",
        "300",
        "--out",
        out_dir,
        "--no-progress",
    )
    assert code == 0, err
    assert "win rate" in out and "800" in out and str(out_dir) in out
    assert err == ""
    import simlib

    res = simlib.Results.load(out_dir)
    assert res.meta["settings"] == {"p": 0.6, "max_rounds": 7}
    assert res.meta["bot_params"] == {"risk": 0.2} and len(res.df) == 800


def test_sweep_range_and_list(capsys):
    code, out, err = run_cli(
        capsys,
        "sweep",
        "toy",
        "--param",
        "max_rounds",
        "--values",
        "3:10:3",
        "--games",
        "300",
        "--no-progress",
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].split()[0] == "max_rounds"
    assert [line.split()[0] for line in lines[2:5]] == ["3", "6", "9"]
    code, out, err = run_cli(
        capsys,
        "sweep",
        "toy",
        "--param",
        "bot.risk",
        "--values",
        "0,0.5",
        "--bot",
        "bold",
        "--games",
        "300",
        "--no-progress",
    )
    assert code == 0, err
    assert "bot.risk" in out


def test_sweep_out_folder_reports(tmp_path, capsys):
    out_dir = tmp_path / "sw"
    code, out, err = run_cli(
        capsys,
        "sweep",
        "toy",
        "--param",
        "p",
        "--values",
        "0.4,0.6",
        "--games",
        "300",
        "--out",
        out_dir,
        "--no-progress",
    )
    assert code == 0, err
    assert str(out_dir) in out
    code, out, err = run_cli(capsys, "report", out_dir)
    assert code == 0, err
    assert (out_dir / "report.html").exists()


def test_compare_and_report(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    assert main(["run", "toy", "--games", "500", "--out", str(a), "--no-progress"]) == 0
    assert (
        main(["run", "toy", "--preset", "hard", "--games", "500", "--out", str(b), "--no-progress"])
        == 0
    )
    capsys.readouterr()
    code, out, err = run_cli(capsys, "compare", a, b)
    assert code == 0, err
    assert "paired" in out
    code, out, err = run_cli(capsys, "report", a, "--out", tmp_path / "r.html")
    assert code == 0, err
    assert (tmp_path / "r.html").stat().st_size > 1000
    code, out, err = run_cli(capsys, "report", b)
    assert code == 0, err
    assert (b / "report.html").exists()
    # --out a folder: report.html inside it, and that is the path printed
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    code, out, err = run_cli(capsys, "report", a, "--out", shelf)
    assert code == 0, err
    assert (shelf / "report.html").is_file() and f"report written to {shelf / 'report.html'}" in out
    # a path that cannot be written is named as given, never as our temporary file
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    code, out, err = run_cli(capsys, "report", a, "--out", blocker / "r.html")
    assert code == 2
    assert err.strip().splitlines() == [f"simlib: error: File exists: '{blocker / 'r.html'}'"] or (
        err.strip().splitlines() == [f"simlib: error: Not a directory: '{blocker / 'r.html'}'"]
    ), err


def test_parse_values():
    assert parse_values("12:25") == list(range(12, 25))
    assert parse_values("12:25:3") == [12, 15, 18, 21, 24]
    assert parse_values("0.3:0.71:0.1") == [0.3, 0.4, 0.5, 0.6, 0.7]
    assert parse_values(" a, b ,c") == ["a", "b", "c"]
    for bad in ("5:5", "1:2:0", "0.1:0.5", "a:b", "1:", ",,"):
        with pytest.raises(SimlibInputError):
            parse_values(bad)


def test_help_exits_zero(capsys):
    code, out, _ = run_cli(capsys, "run", "--help")
    assert code == 0 and "--bot-param" in out


# --- bad input ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["run", "nogame"], ["game 'nogame' is not known", "toy"]),
        (["run", "toy", "--preset", "insane"], ["preset 'insane'", "easy"]),
        (["run", "toy", "--bot", "nobody"], ["bot 'nobody'", "steady"]),
        (["run", "toy", "--set", "colour=red"], ["setting 'colour'", "max_rounds"]),
        (["run", "toy", "--set", "p=2"], ["setting 'p'", "from 0 to 1"]),
        (["run", "toy", "--set", "max_rounds=many"], ["max_rounds", "an integer"]),
        (["run", "toy", "--set", "p"], ["--set 'p'", "KEY=VALUE"]),
        (["run", "toy", "--bot-param", "nerve=1"], ["'nerve'", "risk"]),
        (["run", "toy", "--games", "0"], ["games"]),
        (["run", "toy", "--games", "lots"], ["--games", "is not an integer"]),
        (["run", "toy", "--seed", "-3"], ["seed"]),
        (["run", "toy", "--backend", "gpu"], ["--backend", "invalid choice"]),
        (["run", "toy", "--chunk-size", "0"], ["chunk_size"]),
        (["sweep", "toy", "--param", "p", "--values", "3:3"], ["--values", "empty"]),
        (["sweep", "toy", "--param", "colour", "--values", "1,2"], ["setting 'colour'"]),
        (["bogus"], ["invalid choice"]),
        ([], ["required"]),
    ],
)
def test_bad_input_one_line_no_folder(tmp_path, capsys, argv, fragments):
    out_dir = tmp_path / "out"
    if argv and argv[0] in ("run", "sweep"):
        argv = [*argv, "--out", str(out_dir), "--no-progress"]
    code, out, err = run_cli(capsys, *argv)
    assert_one_line_error(code, err, *fragments)
    assert not out_dir.exists()


def test_foreign_and_unreadable_out_folders(tmp_path, capsys):
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "thesis.docx").write_text("precious")
    code, _, err = run_cli(capsys, "run", "toy", "--games", "10", "--out", foreign)
    assert_one_line_error(code, err, "no simlib run", str(foreign))
    assert [p.name for p in foreign.iterdir()] == ["thesis.docx"]

    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    code, _, err = run_cli(capsys, "run", "toy", "--games", "10", "--out", a_file)
    assert_one_line_error(code, err, "is a file")

    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "run.json").write_text("{{{")
    code, _, err = run_cli(capsys, "run", "toy", "--games", "10", "--out", corrupt)
    assert_one_line_error(code, err, "unreadable")

    used = tmp_path / "used"
    assert main(["run", "toy", "--games", "10", "--seed", "1", "--out", str(used)]) == 0
    capsys.readouterr()
    code, _, err = run_cli(capsys, "run", "toy", "--games", "10", "--seed", "2", "--out", used)
    assert_one_line_error(code, err, "seed=1; this call has seed=2")

    code, _, err = run_cli(capsys, "compare", tmp_path / "nope", used)
    assert_one_line_error(code, err, "does not exist")
    code, _, err = run_cli(capsys, "report", foreign)
    assert_one_line_error(code, err, "not a simlib results folder")


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0,
    reason="needs a non-root POSIX user for permission errors",
)
def test_permission_denied_is_one_line(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o000)
    try:
        code, _, err = run_cli(capsys, "run", "toy", "--games", "10", "--out", locked / "x")
        assert_one_line_error(code, err, "ermission")
    finally:
        locked.chmod(0o755)


def test_os_errors_are_one_line(tmp_path, capsys, monkeypatch):
    def denied(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "mkdir", denied)
    code, _, err = run_cli(capsys, "run", "toy", "--games", "10", "--out", tmp_path / "x")
    assert_one_line_error(code, err, "Permission denied", str(tmp_path / "x"))


def test_experiment_file_errors(tmp_path, capsys):
    code, _, err = run_cli(capsys, "experiment", tmp_path / "missing.toml")
    assert_one_line_error(code, err, "does not exist")
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "toy"\ngames = \nseed = 1\n')
    code, _, err = run_cli(capsys, "experiment", bad)
    assert_one_line_error(code, err, "malformed TOML", "line")
    unknown = tmp_path / "unknown.toml"
    unknown.write_text(f'game = "toy"\ngames = 100\nout = "{tmp_path / "o"}"\ncolour = 1\n')
    code, _, err = run_cli(capsys, "experiment", unknown)
    assert_one_line_error(code, err, "unknown key 'colour'")
    assert not (tmp_path / "o").exists()


def test_experiment_command(tmp_path, capsys):
    toml = tmp_path / "e.toml"
    out_dir = tmp_path / "exp"
    toml.write_text(
        f'title = "toy check"\ngame = "toy"\ngames = 300\nout = "{out_dir}"\n'
        'presets = ["easy", "hard"]\n'
    )
    code, out, err = run_cli(capsys, "experiment", toml, "--no-progress")
    assert code == 0, err
    assert "results.parquet" in out and "report.html" in out and "easy" in out
    assert (out_dir / "report.html").exists()


def test_interrupt_exit_130(tmp_path, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(GAME, "play_batch", interrupted)
    out_dir = tmp_path / "run"
    code, _, err = run_cli(capsys, "run", "toy", "--games", "10", "--out", out_dir)
    assert code == 130
    assert "interrupted" in err and str(out_dir) in err and "resume" in err
    assert "Traceback" not in err


def test_extra_games_hook(monkeypatch):
    assert load_extra_games("toygame:GAME") == ["toy"]
    with pytest.raises(SimlibInputError, match="SIMLIB_EXTRA_GAMES"):
        load_extra_games("no_such_module_xyz:GAME")
    with pytest.raises(SimlibInputError, match="not a Game"):
        load_extra_games("toygame:OUTCOMES")
    with pytest.raises(SimlibInputError, match="malformed"):
        load_extra_games("toygame")


# --- the real console script ----------------------------------------------------------------
def _command() -> list[str]:
    script = shutil.which("simlib")
    return [script] if script else [sys.executable, "-m", "simlib.cli"]


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS_DIR), *filter(None, [env.get("PYTHONPATH")])])
    env["SIMLIB_PROGRESS"] = "0"
    env.update(extra)
    return env


def test_console_script_errors_without_traceback(tmp_path):
    cmd = _command()
    bad = subprocess.run(
        [*cmd, "run", "nogame"], capture_output=True, text=True, env=_env(), timeout=120
    )
    assert_one_line_error(bad.returncode, bad.stderr, "game 'nogame' is not known")
    env = _env(SIMLIB_EXTRA_GAMES="toygame:GAME")
    out_dir = tmp_path / "out"
    bad = subprocess.run(
        [*cmd, "run", "toy", "--set", "p=2", "--out", str(out_dir)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert_one_line_error(bad.returncode, bad.stderr, "setting 'p'")
    assert not out_dir.exists()
    ok = subprocess.run(
        [*cmd, "run", "toy", "--games", "200"], capture_output=True, text=True, env=env, timeout=120
    )
    assert ok.returncode == 0, ok.stderr
    assert "win rate" in ok.stdout and "Traceback" not in ok.stderr


@pytest.mark.parametrize("fmt", ["csv", "json", "markdown"])
def test_format_prints_the_table_alone_on_stdout(capsys, fmt):
    import io
    import json

    import pandas as pd

    code, out, err = run_cli(capsys, "run", "toy", "--games", "300", "--seed", "4",
                             "--format", fmt, "--no-progress")
    assert code == 0, err
    assert "toy" in err.lower() or "Toy" in err  # the description went to stderr
    if fmt == "csv":
        table = pd.read_csv(io.StringIO(out))
        assert table.loc[0, "n"] == 300 and 0 <= table.loc[0, "win_rate"] <= 1
    elif fmt == "json":
        rows = json.loads(out)
        assert rows[0]["n"] == 300 and rows[0]["wins"] == round(rows[0]["win_rate"] * 300)
    else:
        lines = out.strip().splitlines()
        assert lines[0].startswith("| games |") and lines[1].startswith("|---|")
        assert len(lines) == 3


@pytest.mark.parametrize("bad", ["١٢", "1e3", " 12", "12.0", "²"])
def test_integer_options_take_ascii_digits_only(capsys, bad):
    code, out, err = run_cli(capsys, "run", "toy", "--games", bad)
    assert code == 2 and "is not an integer (ASCII digits" in err
    assert len(err.strip().splitlines()) == 1


def test_experiment_games_and_out_override_the_file(tmp_path, capsys):
    from toygame import GAME as _  # noqa: F401 - registered above

    path = tmp_path / "e.toml"
    path.write_text(
        f'game = "toy"\ngames = 100000\nseed = 3\nout = "{tmp_path / "big"}"\n'
        'presets = ["easy", "hard"]\n', encoding="utf-8"
    )
    trial = tmp_path / "trial"
    code, out, err = run_cli(capsys, "experiment", path, "--games", "200", "--out", trial,
                             "--no-progress")
    assert code == 0, err
    assert "2 cells x 200 games" in out and not (tmp_path / "big").exists()
    from simlib.core.results import Results

    res = Results.load(trial)
    assert len(res.df) == 400
    record = (trial / "experiment.json").read_text(encoding="utf-8")
    assert f"--games 200 --out {trial}" in record  # the reproduce command says it


def test_run_save_keeps_the_results_in_a_dated_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "run", "toy", "--games", "200", "--save", "--no-progress")
    assert code == 0, err
    (folder,) = (tmp_path / "results").iterdir()
    assert folder.name.startswith("toy-") and len(folder.name) == len("toy-20261203-074500")
    assert f"results saved in {Path('results') / folder.name}" in out
    from simlib.core.results import Results

    assert len(Results.load(folder)) == 200
