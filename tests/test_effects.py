"""The ranking of a grid's factors by how much they move the win rate (report/effects.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simlib.core import stats
from simlib.report import effects, html


def _cell(preset, data, wins, start=0):
    n = len(wins)
    return pd.DataFrame({
        "game_index": np.arange(start, start + n),
        "win": np.asarray(wins, dtype=bool),
        "outcome": np.where(np.asarray(wins, dtype=bool), "win", "loss"),
        "rounds": np.ones(n, dtype=np.int64),
        "preset": preset,
        "data": data,
    })


def _grid(rates, n=400, seed=0):
    """Cells on one seed: game i is won when u_i < the cell's rate (common random numbers)."""
    u = np.random.default_rng(seed).random(n)
    return pd.concat(
        [_cell(p, d, u < r) for (p, d), r in rates.items()], ignore_index=True
    )


RATES = {
    ("normal", "default"): 0.50, ("normal", "alt"): 0.45,
    ("expert", "default"): 0.20, ("expert", "alt"): 0.17,
}


def test_changes_are_exact_paired_differences():
    df = _grid(RATES)
    table = effects.factor_effects(df, ["preset", "data"])
    assert set(table["factor"]) == {"preset", "data"}
    assert (table["method"] == "paired, exact McNemar").all()
    for row in table.itertuples(index=False):
        other = "data" if row.factor == "preset" else "preset"
        level_of_other = row.stratum.split("=", 1)[1]
        base = df[(df[row.factor] == row.baseline) & (df[other] == level_of_other)]
        cell = df[(df[row.factor] == row.level) & (df[other] == level_of_other)]
        expected = stats.compare_paired(cell["win"].to_numpy(), base["win"].to_numpy())
        assert row.diff == pytest.approx(cell["win"].mean() - base["win"].mean(), abs=1e-12)
        assert (row.diff_lo, row.diff_hi, row.p_value) == pytest.approx(
            (expected.diff_lo, expected.diff_hi, expected.p_value))
    # baselines are the first level seen: normal and default
    assert set(table["baseline"]) == {"normal", "default"}
    np.testing.assert_allclose(table["p_holm"], stats.holm(table["p_value"].to_numpy()))


def test_ranking_puts_the_larger_change_first():
    ranking = effects.rank_effects(effects.factor_effects(_grid(RATES), ["preset", "data"]))
    assert list(ranking["factor"]) == ["preset", "data"]  # ~-29 points, then ~-4
    top = ranking.iloc[0]
    assert top["strata"] == 2
    assert top["min_diff"] <= top["mean_diff"] <= top["max_diff"]
    assert top["clear"] == 2
    text = effects.format_ranking(ranking)
    assert text.iloc[0]["change"] == "preset: normal → expert"


def test_unpaired_when_cells_played_other_games():
    df = pd.concat([_cell("a", "x", [1, 0, 1, 1]), _cell("b", "x", [0, 0, 1, 0], start=10)],
                   ignore_index=True)
    table = effects.factor_effects(df, ["preset", "data"])  # data has one level: left out
    assert list(table["factor"]) == ["preset"]
    row = table.iloc[0]
    assert row["method"].startswith("unpaired")
    assert row["diff"] == pytest.approx(0.25 - 0.75)
    assert row["stratum"] == "all games"


def test_baseline_override_and_errors():
    df = _grid(RATES, n=50)
    table = effects.factor_effects(df, ["preset"], baselines={"preset": "expert"})
    assert set(table["baseline"]) == {"expert"} and set(table["level"]) == {"normal"}
    assert (table["diff"] > 0).all()
    with pytest.raises(KeyError, match="not a level"):
        effects.factor_effects(df, ["preset"], baselines={"preset": "hard"})
    with pytest.raises(KeyError, match="'cavers'"):
        effects.factor_effects(df, ["cavers"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), min_size=1,
                max_size=30))
def test_diff_matches_plain_counts(games):
    """Against a plain reference: the change is (wins at the level - wins at baseline) / n."""
    a, b, c = (np.array([g[i] for g in games]) for i in range(3))
    df = pd.concat([_cell("p0", "d", a), _cell("p1", "d", b), _cell("p2", "d", c)],
                   ignore_index=True)
    table = effects.factor_effects(df, ["preset"])
    n = len(games)
    got = dict(zip(table["level"], table["diff"], strict=True))
    assert got["p1"] == pytest.approx((int(b.sum()) - int(a.sum())) / n)
    assert got["p2"] == pytest.approx((int(c.sum()) - int(a.sum())) / n)
    assert ((table["diff_lo"] <= table["diff"] + 1e-12)
            & (table["diff"] <= table["diff_hi"] + 1e-12)).all()


def test_report_section(tmp_path):
    df = _grid(RATES, n=200)
    path = html.build_report(df, tmp_path / "r.html", title="t", meta={"game": "toy"},
                             group_by=["preset", "data"], effect_factors=["preset", "data"])
    text = path.read_text()
    assert "<h2>What moves the win rate</h2>" in text
    assert text.index("<h2>Summary</h2>") < text.index("<h2>What moves the win rate</h2>")
    assert "preset: normal → expert" in text and "data: default → alt" in text
    plain = html.build_report(df, tmp_path / "p.html", title="t", meta={"game": "toy"},
                              group_by=["preset", "data"]).read_text()
    assert "What moves the win rate" not in plain
