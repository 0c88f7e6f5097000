"""One baseline against several runs: per cell, never pooled, with Holm-adjusted p-values."""

from __future__ import annotations

import numpy as np
import pytest
from toygame import register_toy

import simlib
from simlib.cli import main
from simlib.core import stats
from simlib.core.runner import Comparisons, split_cells
from simlib.errors import SimlibInputError

register_toy()


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("cmp")
    simlib.run("toy", games=3000, seed=1, out=root / "base", progress=False)
    simlib.sweep("toy", "p", [0.45, 0.5, 0.55], games=3000, seed=1, out=root / "sweep",
                 progress=False)
    simlib.run("toy", preset="easy", games=2000, seed=9, out=root / "other", progress=False)
    return root


def test_two_runs_still_one_comparison(folders):
    c = simlib.compare(folders / "base", folders / "other")
    assert isinstance(c, stats.Comparison) and not c.paired
    c2 = simlib.compare(folders / "base", folders / "other", 0.9)
    assert c2.confidence == 0.9


def test_sweep_compared_per_cell_not_pooled(folders):
    res = simlib.compare(folders / "base", folders / "sweep")
    assert isinstance(res, Comparisons) and len(res) == 3
    t = res.table
    assert list(t["run"].str.split(": ").str[1]) == ["p=0.45", "p=0.5", "p=0.55"]
    assert (t["n_a"] == 3000).all() and t["paired"].all()
    # p = 0.5 is the baseline's own configuration on the same seed: no difference at all
    row = t[t["run"].str.endswith("p=0.5")].iloc[0]
    assert row["diff"] == 0 and row["p_value"] == 1.0
    base = simlib.Results.load(folders / "base")
    for (label, part), (_, r) in zip(split_cells(simlib.Results.load(folders / "sweep")),
                                     t.iterrows(), strict=True):
        direct = stats.compare_paired(part.df["win"], base.df["win"])
        assert r["diff"] == direct.diff and r["p_value"] == direct.p_value, label
    np.testing.assert_allclose(t["p_holm"], stats.holm(t["p_value"]))
    assert (t["p_holm"] >= t["p_value"]).all()
    assert "Holm" in str(res)


def test_many_runs_and_lists(folders):
    res = simlib.compare(folders / "base", [folders / "other", folders / "sweep"])
    assert len(res) == 4 and res.table["paired"].tolist() == [False, True, True, True]


def test_baseline_must_be_one_run(folders):
    with pytest.raises(SimlibInputError, match="baseline holds 3 cells"):
        simlib.compare(folders / "sweep", folders / "base")


def test_cli_compare_many(folders, capsys):
    assert main(["compare", str(folders / "base"), str(folders / "sweep"),
                 str(folders / "other")]) == 0
    out = capsys.readouterr().out
    assert "Holm p" in out and "p=0.55" in out
    assert main(["compare", str(folders / "sweep"), str(folders / "base")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "baseline holds 3 cells" in err[0]


def test_experiment_cells(tmp_path):
    path = tmp_path / "e.toml"
    path.write_text(
        f'game = "toy"\ngames = 1000\nseed = 1\npresets = ["normal", "hard"]\n'
        f'out = "{(tmp_path / "exp").as_posix()}"\n'
    )
    simlib.run_experiment(path, progress=False)
    base = simlib.run("toy", games=1000, seed=1, progress=False)
    res = simlib.compare(base, tmp_path / "exp")
    assert len(res) == 2 and res.table["paired"].all()
    assert res.table["diff"].iloc[0] == 0
