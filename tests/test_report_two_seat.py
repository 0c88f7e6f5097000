"""Two-seat report pieces: matchup table and heatmap, seat advantage, per-item win rates,
and the HTML sections they add (game-agnostic: hand-made DataFrames)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simlib.core.game import ReportSpec  # noqa: E402
from simlib.core.stats import wilson_interval  # noqa: E402
from simlib.report import charts, html, tables  # noqa: E402


@pytest.fixture
def games():
    # A vs B from both seats, plus one mirror game, with known results
    return pd.DataFrame({
        "a": ["A", "A", "A", "B", "B", "A"],
        "b": ["B", "B", "B", "A", "A", "A"],
        "winner": [0, 0, 1, 1, -1, 1],
        "first": [0, 1, 1, 0, 1, 0],
        # item bitmasks: seat 0 used item 0 in games 0-2, item 65 in game 5;
        # seat 1 used item 0 in game 3 and item 1 everywhere
        "m0_0": np.array([1, 1, 1, 0, 0, 0], dtype=np.int64),
        "m0_1": np.array([0, 0, 0, 0, 0, 2], dtype=np.int64),
        "m1_0": np.array([2, 2, 2, 3, 2, 2], dtype=np.int64),
        "m1_1": np.zeros(6, dtype=np.int64),
    })


def test_matchup_table_pools_both_seats(games):
    t = tables.matchup_table(games, "a", "b")
    row = t[(t.player == "A") & (t.opponent == "B")].iloc[0]
    # A as seat 0 vs B: W W L; A as seat 1 vs B: W (game 3), D (game 4)
    assert (row.n, row.wins, row.draws, row.losses, row.from_seat0) == (5, 3, 1, 1, 3)
    assert row.win_rate == pytest.approx(3.5 / 5)
    back = t[(t.player == "B") & (t.opponent == "A")].iloc[0]
    assert (back.n, back.wins, back.draws) == (5, 1, 1)
    mirror = t[(t.player == "A") & (t.opponent == "A")].iloc[0]
    assert (mirror.n, mirror.wins, mirror.losses) == (1, 0, 1)  # counted once, seat 0
    # integer scores give exactly the Wilson interval of simlib.core.stats
    assert (mirror.win_lo, mirror.win_hi) == pytest.approx(wilson_interval(0, 1))


def test_matchup_interval_matches_wilson_on_whole_counts():
    df = pd.DataFrame({"a": ["X"] * 40, "b": ["Y"] * 40,
                       "winner": [0] * 13 + [1] * 27})
    t = tables.matchup_table(df, "a", "b")
    r = t[t.player == "X"].iloc[0]
    assert (r.win_lo, r.win_hi) == pytest.approx(wilson_interval(13, 40))


def test_seat_advantage(games):
    t = tables.seat_advantage(games, "first")
    # the first seat won games 0 (0=0), 2 (1=1), and drew game 4: 2.5 of 6
    assert t.iloc[0].wins == 2 and t.iloc[0].draws == 1
    assert t.iloc[0].win_rate == pytest.approx(2.5 / 6)


def test_card_win_rates_exact(games):
    t = tables.card_win_rates(games, [["m0_0", "m0_1"], ["m1_0", "m1_1"]],
                              labels=["zero", "one"])
    by = t.set_index("id")
    # item 0: seat 0 in games 0,1,2 (scores 1,1,0) and seat 1 in game 3 (score 1)
    assert by.loc[0, "n_played"] == 4
    assert by.loc[0, "win_rate_played"] == pytest.approx(3 / 4)
    # 12 seat-games in all; total score 6 (each game scores 1 between the seats)
    assert by.loc[0, "n_not"] == 8
    assert by.loc[0, "win_rate_not"] == pytest.approx((6 - 3) / 8)
    assert by.loc[1, "n_played"] == 6 and by.loc[1, "item"] == "one"
    assert by.loc[65, "item"] == "item 65" and by.loc[65, "n_played"] == 1
    assert by.loc[65, "win_rate_played"] == 0.0
    assert list(t["difference"]) == sorted(t["difference"], reverse=True)


def test_charts_return_axes(games):
    before = set(plt.get_fignums())
    ax = charts.matchup_heatmap(tables.matchup_table(games, "a", "b"))
    assert "win rate" in ax.get_title() and len(ax.texts) == 3  # no B-B cell
    ax2 = charts.card_win_rate_chart(
        tables.card_win_rates(games, [["m0_0", "m0_1"], ["m1_0", "m1_1"]]))
    assert len(ax2.get_yticklabels()) == 3
    for num in set(plt.get_fignums()) - before:
        plt.close(num)


def test_html_shows_two_seat_sections_only_when_columns_exist(games, tmp_path):
    df = games.assign(win=games.winner == 0, outcome="castle", rounds=3)
    kw = {"title": "t", "meta": {"game": "x"}}
    spec = ReportSpec(matchup=("a", "b", "winner"), first_column="first",
                      card_masks=(("m0_0", "m0_1"), ("m1_0", "m1_1")))
    path = html.build_report(df, tmp_path / "r.html", spec=spec, **kw)
    text = path.read_text()
    for h in html.TWO_SEAT_SECTIONS:
        assert f"<h2>{h}</h2>" in text
    spec = ReportSpec(matchup=("a", "nope", "winner"), first_column="nope",
                      card_masks=(("nope",),))
    path = html.build_report(df, tmp_path / "r2.html", spec=spec, **kw)
    text = path.read_text()
    for h in html.TWO_SEAT_SECTIONS:
        assert f"<h2>{h}</h2>" not in text
