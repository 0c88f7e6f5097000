"""Tests of simlib.report: summary tables, charts and the self-contained HTML report."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402

from simlib.core.game import ReportSpec  # noqa: E402
from simlib.core.stats import wilson_interval  # noqa: E402
from simlib.report import charts, html, tables  # noqa: E402

PRESETS = ["normal", "advanced", "expert"]  # deliberately not alphabetical
BOTS = ["cautious", "aggressive"]
OUTCOMES = ["gold", "silver", "bronze", "defeat"]
LEAVE = [f"leave_{j}" for j in range(6)]
N_ROWS = 3000


@pytest.fixture(autouse=True)
def _close_new_figures():
    before = set(plt.get_fignums())
    yield
    for num in set(plt.get_fignums()) - before:
        plt.close(num)


@pytest.fixture(scope="module")
def df() -> pd.DataFrame:
    rng = np.random.default_rng(20240607)
    n = N_ROWS
    preset = pd.Categorical(rng.choice(PRESETS, n), categories=PRESETS)
    bot = rng.choice(BOTS, n)
    cavers = rng.integers(4, 7, n)
    # Outcome probabilities depend on the preset so groups really differ.
    p_defeat = np.select([preset == "normal", preset == "advanced"], [0.3, 0.5], 0.7)
    u = rng.random(n)
    rest = rng.integers(0, 3, n)
    outcome_code = np.where(u < p_defeat, 3, rest)
    outcome = pd.Categorical.from_codes(outcome_code, categories=OUTCOMES)
    rounds = rng.integers(3, 25, n)
    frame = pd.DataFrame(
        {
            "preset": preset,
            "bot": bot,
            "cavers": cavers,
            "win": outcome_code != 3,
            "outcome": outcome,
            "rounds": rounds,
            "hazards": rng.poisson(4.0, n).astype(float),
        }
    )
    frame["hazards_gas"] = rng.binomial(frame["hazards"].astype(int), 0.3)
    for j, col in enumerate(LEAVE):
        leave = rng.integers(0, rounds + 1)  # left at some round up to the end
        leave = np.where(rng.random(n) < 0.25, -1, leave)  # left behind
        leave = np.where(cavers <= j, -2, leave)  # slot not in this game
        frame[col] = leave
    return frame



# --------------------------------------------------------------------------- end times, causes
def test_end_times_hand_computed():
    small = pd.DataFrame({
        "g": ["a", "a", "a", "b", "b"],
        "outcome": pd.Categorical(["win", "loss", "loss", "loss", "loss"],
                                  categories=["win", "loss", "draw"]),
        "day": [3, 5, 7, 2, np.nan],
    })
    t = tables.end_times(small, "day", by="g")
    assert list(t["g"]) == ["a", "b"] and list(t["n"]) == [3, 2]
    assert list(t["n_win"]) == [1, 0] and list(t["n_loss"]) == [2, 1]
    assert t["mean_win"].iloc[0] == 3.0 and np.isnan(t["mean_win"].iloc[1])
    assert list(t["mean_loss"]) == [6.0, 2.0]  # the missing day is skipped
    assert list(t["n_draw"]) == [0, 0]
    shown = tables.format_end_times(t, ["g"])
    assert list(shown.columns) == ["g", "games", "win: games (mean day)",
                                   "loss: games (mean day)", "draw: games (mean day)"]
    assert list(shown["loss: games (mean day)"]) == ["2 (6.0)", "1 (2.0)"]
    assert list(shown["win: games (mean day)"]) == ["1 (3.0)", "0"]


def test_cause_shares_hand_computed():
    small = pd.DataFrame({"g": [0, 0, 0, 1, 1], "deaths": [2, 0, 3, 0, 0],
                          "fall": [1, 0, 1, 0, 0], "mob": [0, 0, 1, 0, 0]})
    t = tables.cause_shares(small, ["fall", "mob"], total="deaths", by="g")
    assert t["share_fall"].iloc[0] == pytest.approx(2 / 5)
    assert t["share_mob"].iloc[0] == pytest.approx(1 / 5)
    assert t["share_other"].iloc[0] == pytest.approx(2 / 5)
    assert t["mean_total"].tolist() == [pytest.approx(5 / 3), 0.0]
    assert np.isnan(t["share_fall"].iloc[1])  # no deaths: no share
    # the delta-method interval, computed by hand for the fall share of group 0
    x = np.array([2.0, 0.0, 3.0])
    y = np.array([1.0, 0.0, 1.0])
    r = y.sum() / x.sum()
    se = np.sqrt(((y - r * x) ** 2).sum() * 3 / 2) / x.sum()
    assert t["share_fall_lo"].iloc[0] == pytest.approx(max(0.0, r - 1.959963984540054 * se))
    assert t["share_fall_hi"].iloc[0] == pytest.approx(r + 1.959963984540054 * se)
    whole = tables.cause_shares(small, ["fall", "mob"])  # the parts are the whole
    assert whole["share_fall"].iloc[0] == pytest.approx(2 / 3)
    assert "share_other" not in whole.columns
    shown = tables.format_causes(t, ["g"])
    assert list(shown.columns) == ["g", "games", "deaths per game", "fall", "mob", "other"]
    assert shown["fall"].iloc[0].startswith("40.0% [") and shown["fall"].iloc[1] == "n/a"
    with pytest.raises(KeyError, match="nope"):
        tables.cause_shares(small, ["nope"])


def test_cause_share_interval_covers_the_true_share():
    # 400 runs of 300 games; each game's deaths ~ Poisson(2), each death a fall with p 0.3.
    # The 95% interval should miss the true 0.3 in about 20 runs; the bounds [8, 36] hold
    # with probability > 0.999 under Binomial(400, 0.05) (false alarm < 1 in 1,000).
    rng = np.random.default_rng(7)
    misses = 0
    for _ in range(400):
        deaths = rng.poisson(2.0, 300)
        fall = rng.binomial(deaths, 0.3)
        t = tables.cause_shares(pd.DataFrame({"d": deaths, "f": fall}), ["f"], total="d")
        misses += not (t["share_f_lo"].iloc[0] <= 0.3 <= t["share_f_hi"].iloc[0])
    assert 8 <= misses <= 36


def test_end_time_bars_sum_to_one(df):
    ax = charts.end_time_bars(df, "rounds", OUTCOMES)
    heights = {}
    for patch in ax.patches:
        x = round(patch.get_x() + patch.get_width() / 2)
        heights[x] = heights.get(x, 0.0) + patch.get_height()
    assert sum(heights.values()) == pytest.approx(1.0)
    counts = df["rounds"].value_counts(normalize=True)
    for x, h in heights.items():
        assert h == pytest.approx(counts.get(x, 0.0))
    assert len(ax.patches) == len(OUTCOMES) * (df["rounds"].max() - df["rounds"].min() + 1)


# --------------------------------------------------------------------------- tables


def _manual_row(sub: pd.DataFrame) -> dict:
    n = len(sub)
    k = int(sub["win"].sum())
    lo, hi = wilson_interval(k, n)
    row = {"n": n, "wins": k, "win_rate": k / n, "win_lo": lo, "win_hi": hi}
    for o in OUTCOMES:
        row[f"share_{o}"] = float((sub["outcome"] == o).sum()) / n
    row["mean_rounds"] = float(sub["rounds"].sum()) / n
    return row


def test_summary_by_two_columns_matches_manual_computation(df):
    got = tables.summary(df, by=["preset", "bot"])
    expected_cols = ["preset", "bot", "n", "wins", "win_rate", "win_lo", "win_hi"]
    expected_cols += [f"share_{o}" for o in OUTCOMES] + ["mean_rounds"]
    assert list(got.columns) == expected_cols
    # Categorical order for preset, sorted strings for bot.
    order = [(p, b) for p in PRESETS for b in sorted(BOTS)]
    assert list(zip(got["preset"].astype(str), got["bot"], strict=True)) == order
    assert isinstance(got["preset"].dtype, pd.CategoricalDtype)

    rows = []
    for p, b in order:
        sub = df[(df["preset"] == p) & (df["bot"] == b)]
        rows.append({"preset": p, "bot": b, **_manual_row(sub)})
    expected = pd.DataFrame(rows)
    expected["preset"] = pd.Categorical(expected["preset"], categories=PRESETS)
    pd.testing.assert_frame_equal(got, expected, check_dtype=False, rtol=1e-12)
    assert got["n"].sum() == N_ROWS
    np.testing.assert_allclose(got[[f"share_{o}" for o in OUTCOMES]].sum(axis=1), 1.0)
    assert (got["win_lo"] < got["win_rate"]).all() and (got["win_rate"] < got["win_hi"]).all()


def test_summary_by_none_is_one_row(df):
    got = tables.summary(df)
    assert len(got) == 1
    assert list(got.columns)[:5] == ["n", "wins", "win_rate", "win_lo", "win_hi"]
    exp = _manual_row(df)
    for key, value in exp.items():
        np.testing.assert_allclose(got[key].iloc[0], value, rtol=1e-12)


def test_summary_by_string_equals_by_list_and_numeric_groups_ascend(df):
    a = tables.summary(df, by="cavers")
    b = tables.summary(df, by=["cavers"])
    pd.testing.assert_frame_equal(a, b)
    assert a["cavers"].tolist() == [4, 5, 6]
    c = tables.summary(df, by=("bot",))
    assert c["bot"].tolist() == sorted(BOTS)


def test_summary_outcome_order_and_unobserved_groups(df):
    d = df.copy()
    d["preset"] = d["preset"].cat.add_categories(["nightmare"])
    d["outcome"] = d["outcome"].astype(str)  # plain strings: shares sorted by name
    got = tables.summary(d, by="preset")
    assert got["preset"].astype(str).tolist() == PRESETS  # unobserved category left out
    shares = [c for c in got.columns if c.startswith("share_")]
    assert shares == [f"share_{o}" for o in sorted(OUTCOMES)]
    forced = tables.summary(d, by="preset", outcomes=["defeat", "gold", "platinum"])
    shares = [c for c in forced.columns if c.startswith("share_")]
    assert shares == ["share_defeat", "share_gold", "share_platinum"]
    assert (forced["share_platinum"] == 0).all()
    exp = (d.loc[d["preset"] == "expert", "outcome"] == "defeat").mean()
    np.testing.assert_allclose(forced["share_defeat"].iloc[2], exp)


def test_summary_keeps_missing_group_keys_as_last_group(df):
    d = df[["win", "outcome", "rounds", "bot"]].copy()
    d["bot"] = d["bot"].astype(object)
    d.loc[d.index[:100], "bot"] = None
    got = tables.summary(d, by="bot")
    assert got["n"].sum() == N_ROWS
    assert got["bot"].iloc[:2].tolist() == sorted(BOTS) and pd.isna(got["bot"].iloc[2])
    assert got["n"].iloc[2] == 100


def test_summary_missing_column_names_it(df):
    with pytest.raises(KeyError, match="difficulty"):
        tables.summary(df, by="difficulty")


def test_means_matches_pandas(df):
    got = tables.means(df, ["hazards", "rounds"], by=["preset", "bot"])
    exp = df.groupby(["preset", "bot"], observed=True)[["hazards", "rounds"]].mean()
    assert list(got.columns) == ["preset", "bot", "n", "hazards", "rounds"]
    np.testing.assert_allclose(got[["hazards", "rounds"]].to_numpy(), exp.to_numpy())
    assert got["n"].sum() == N_ROWS
    one = tables.means(df, ["hazards"])
    np.testing.assert_allclose(one["hazards"].iloc[0], df["hazards"].mean())


def test_format_table_and_to_text(df):
    summ = tables.summary(df, by="preset")
    fmt = tables.format_table(summ)
    assert list(fmt.columns)[:6] == ["preset", "games", "wins", "win rate", "95% Wilson CI", "gold"]
    assert fmt["preset"].tolist() == PRESETS
    pct = re.compile(r"^\d{1,3}\.\d%$")
    assert all(pct.match(v) for v in fmt["win rate"])
    assert all(re.match(r"^\[\d{1,3}\.\d%, \d{1,3}\.\d%\]$", v) for v in fmt["95% Wilson CI"])
    first = summ.iloc[0]
    assert fmt["win rate"].iloc[0] == f"{100 * first['win_rate']:.1f}%"
    assert fmt["95% Wilson CI"].iloc[0] == (
        f"[{100 * first['win_lo']:.1f}%, {100 * first['win_hi']:.1f}%]"
    )
    total = tables.format_table(tables.summary(df))
    assert total["games"].iloc[0] == "3,000"
    text = tables.to_text(summ)
    assert isinstance(text, str) and len(text.splitlines()) == 1 + len(PRESETS)
    assert "95% Wilson CI" in text and "expert" in text


# --------------------------------------------------------------------------- remaining


def _tiny() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "grp": ["A", "A", "B"],
            "rounds": [3, 2, 4],
            "l0": [2.0, 0.0, 3.0],
            "l1": [-1.0, 1.0, 3.0],
            "l2": [-2.0, -2.0, 3.0],
            "l3": [np.nan, -2.0, -1.0],
        }
    )


def test_remaining_by_round_table_hand_computed():
    # Row 1 (A): units leave at 2 and never; -2 and NaN are not in the game.
    #   r=0..4 -> 2, 2, 1, 1, 1
    # Row 2 (A): units leave at 0 and 1.            r=0..4 -> 1, 0, 0, 0, 0
    # Row 3 (B): three leave at 3, one never leaves. r=0..4 -> 4, 4, 4, 1, 1
    frame = _tiny()
    cols = ["l0", "l1", "l2", "l3"]
    got = charts.remaining_by_round_table(frame, cols, by="grp")
    assert list(got.columns) == ["grp", "round", "mean_remaining"]
    assert got["grp"].tolist() == ["A"] * 5 + ["B"] * 5
    assert got["round"].tolist() == [0, 1, 2, 3, 4] * 2
    np.testing.assert_allclose(
        got["mean_remaining"], [1.5, 1.0, 0.5, 0.5, 0.5, 4.0, 4.0, 4.0, 1.0, 1.0]
    )

    pooled = charts.remaining_by_round_table(frame, cols)
    assert list(pooled.columns) == ["round", "mean_remaining"]
    np.testing.assert_allclose(pooled["mean_remaining"], [7 / 3, 2, 5 / 3, 2 / 3, 2 / 3])

    short = charts.remaining_by_round_table(frame, cols, max_round=2)
    np.testing.assert_allclose(short["mean_remaining"], [7 / 3, 2, 5 / 3])


def test_remaining_by_round_table_matches_reference(df):
    got = charts.remaining_by_round_table(df, LEAVE, by=["preset", "bot"])
    max_round = int(df["rounds"].max())
    leave = df[LEAVE].to_numpy(dtype=float)
    present = leave != -2
    for (p, b), sub in got.groupby(["preset", "bot"], observed=True, sort=False):
        rows = ((df["preset"] == p) & (df["bot"] == b)).to_numpy()
        lv, pr = leave[rows], present[rows]
        ref = [(pr & ((lv > r) | (lv == -1))).sum(axis=1).mean() for r in range(max_round + 1)]
        np.testing.assert_allclose(sub["mean_remaining"].to_numpy(), ref)
    # Round 0: everyone present who had not left at round 0, at most the caver count.
    assert (got.loc[got["round"] == 0, "mean_remaining"] <= 6).all()


# --------------------------------------------------------------------------- charts


def test_difficulty_curve_numeric_x_with_hue(df):
    summ = tables.summary(df, by=["bot", "cavers"])
    ax = charts.difficulty_curve(summ, x="cavers", hue="bot")
    assert isinstance(ax, Axes)
    assert len(ax.lines) == len(BOTS)
    assert len(ax.collections) == len(BOTS)  # one CI band per line
    assert "win rate" in ax.get_ylabel() and "Wilson" in ax.get_ylabel()
    assert ax.get_xlabel() == "cavers"
    # the axis is fitted to the bands (not a fixed 0-100%) and holds every one
    lo, hi = ax.get_ylim()
    assert 0.0 <= lo <= summ["win_lo"].min() and summ["win_hi"].max() <= hi <= 1.0
    assert (lo, hi) == charts.fit_rate_ylim(summ["win_lo"], summ["win_hi"])
    assert "win rate" in ax.get_title().lower()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == sorted(BOTS)
    np.testing.assert_allclose(ax.lines[0].get_xdata(), [4, 5, 6])


def test_difficulty_curve_categorical_x_and_combined_hue(df):
    _, ax = plt.subplots()
    out = charts.difficulty_curve(tables.summary(df, by="preset"), x="preset", ax=ax)
    assert out is ax and len(ax.lines) == 1
    assert [t.get_text() for t in ax.get_xticklabels()] == PRESETS
    np.testing.assert_allclose(ax.lines[0].get_xdata(), [0, 1, 2])

    ax2 = charts.difficulty_curve(
        tables.summary(df, by=["preset", "bot", "cavers"]), x="cavers", hue=["preset", "bot"]
    )
    assert len(ax2.lines) == 6
    labels = [t.get_text() for t in ax2.get_legend().get_texts()]
    assert labels[0] == f"normal / {sorted(BOTS)[0]}"


def test_outcome_bars(df):
    summ = tables.summary(df, by=["preset", "bot"])
    colors = {"gold": "gold", "silver": "silver", "bronze": "peru", "defeat": "black"}
    ax = charts.outcome_bars(summ, x=["preset", "bot"], outcomes=OUTCOMES, colors=colors)
    assert len(ax.patches) == len(summ) * len(OUTCOMES)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks[0] == f"normal / {sorted(BOTS)[0]}"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == OUTCOMES
    assert "share" in ax.get_ylabel()
    assert "outcome" in ax.get_title().lower()
    tops = [p.get_y() + p.get_height() for p in ax.patches[-len(summ) :]]
    np.testing.assert_allclose(tops, 1.0)


def test_rounds_histogram(df):
    ax = charts.rounds_histogram(df, by="preset")
    assert len(ax.patches) == len(PRESETS)
    assert ax.get_ylabel() == "share of games"
    assert "rounds" in ax.get_title() and ax.get_xlabel() == "rounds"
    for patch in ax.patches:
        values, edges = patch.get_data()[:2]
        np.testing.assert_allclose(values.sum(), 1.0)
        np.testing.assert_allclose(np.diff(edges), 1.0)
    ax1 = charts.rounds_histogram(df)
    assert len(ax1.patches) == 1
    values, edges = ax1.patches[0].get_data()[:2]
    np.testing.assert_allclose(edges[0], df["rounds"].min() - 0.5)
    counts = df["rounds"].value_counts().sort_index()
    np.testing.assert_allclose(values[counts.index - df["rounds"].min()], counts / N_ROWS)


def test_remaining_by_round_chart(df):
    ax = charts.remaining_by_round(df, LEAVE, by="preset", ylabel="cavers still in the cave")
    assert len(ax.lines) == len(PRESETS)
    assert "cavers still in the cave" in ax.get_ylabel()
    assert ax.get_xlabel() == "round"
    table = charts.remaining_by_round_table(df, LEAVE, by="preset")
    np.testing.assert_allclose(
        ax.lines[0].get_ydata(), table.loc[table["preset"] == "normal", "mean_remaining"]
    )


def test_heatmap(df):
    summ = tables.summary(df, by=["preset", "bot"])
    ax = charts.heatmap(summ, row="preset", col="bot")
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == len(PRESETS) * len(BOTS)
    assert all(re.match(r"^\d{1,3}%\n\[\d{1,3}–\d{1,3}\]$", t) for t in texts)
    assert "win rate" in ax.get_title()
    assert [t.get_text() for t in ax.get_yticklabels()] == PRESETS
    with pytest.raises(ValueError, match="summarise"):
        charts.heatmap(tables.summary(df, by=["preset", "bot", "cavers"]), "preset", "bot")


def test_charts_pass_style_keywords_to_matplotlib(df):
    # a designer's own colours and widths reach the artists, over the charts' defaults
    summ = tables.summary(df, by=["bot", "cavers"])
    ax = charts.difficulty_curve(summ, x="cavers", hue="bot", linewidth=4, marker="s")
    assert all(line.get_linewidth() == 4 and line.get_marker() == "s" for line in ax.lines)
    ax = charts.outcome_bars(tables.summary(df, by="preset"), x="preset", outcomes=OUTCOMES,
                             alpha=0.3)
    assert {p.get_alpha() for p in ax.patches} == {0.3}
    ax = charts.rounds_histogram(df, by="preset", linewidth=3)
    assert {p.get_linewidth() for p in ax.patches} == {3}
    ax = charts.end_time_bars(df, "rounds", OUTCOMES, edgecolor="red")
    assert all(p.get_edgecolor() == (1.0, 0.0, 0.0, 1.0) for p in ax.patches)
    ax = charts.remaining_by_round(df, LEAVE, by="preset", linestyle="--")
    assert {line.get_linestyle() for line in ax.lines} == {"--"}
    ax = charts.heatmap(tables.summary(df, by=["preset", "bot"]), "preset", "bot",
                        cmap="viridis")
    assert ax.images[0].get_cmap().name == "viridis"


def test_fig_to_png_bytes():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    data = charts.fig_to_png_bytes(fig)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert b"http" not in data


# --------------------------------------------------------------------------- html


META = {
    "game": "subterra",
    "presets": PRESETS,
    "settings": {"hazard_cards": 18},
    "bots": BOTS,
    "seed": 987654321,
    "games_per_cell": 500,
    "simlib": "0.1.0",
    "command": "simlib experiment experiments/presets.toml",
}


def _build(df, path, **kw):
    meta = kw.pop("meta", META)
    return html.build_report(
        df,
        path,
        title="Sub Terra <presets> & bots",
        meta=meta,
        group_by=["preset", "bot"],
        sweep_params=["cavers"],
        spec=ReportSpec(outcomes=tuple(OUTCOMES), leave_columns=tuple(LEAVE),
                        measure_columns=("hazards",), time_column="rounds",
                        causes=(("hazards by kind", "hazards", ("hazards_gas",)),)),
        effect_factors=["preset", "bot"],
        **kw,
    )


def test_build_report_is_self_contained(df, tmp_path):
    before = set(plt.get_fignums())
    path = _build(df, tmp_path / "out" / "report.html")
    assert path == tmp_path / "out" / "report.html" and path.is_file()
    assert set(plt.get_fignums()) == before  # no figure leaks
    text = path.read_text(encoding="utf-8")
    for heading in html.SECTIONS:
        assert f"<h2>{heading}</h2>" in text
    assert text.count('<img class="chart" src="data:image/png;base64,') >= 4
    assert "987654321" in text
    assert "Sub Terra &lt;presets&gt; &amp; bots" in text and "<presets>" not in text
    without_images = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", text)
    assert "http" not in without_images
    links = re.findall(r"""(?:src|href)\s*=\s*(["']?)([^"'\s>]*)""", text)
    assert len(links) >= 4 and all(quote and url.startswith("data:") for quote, url in links)
    assert "[" in text and "%" in text  # formatted CI cells
    assert sorted(p.name for p in path.parent.iterdir()) == ["report.html"]


def test_build_report_failure_leaves_no_file(df, tmp_path, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("chart failed")

    target = tmp_path / "report.html"
    monkeypatch.setattr(charts, "remaining_by_round", boom)
    with pytest.raises(RuntimeError, match="chart failed"):
        _build(df, target)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []

    # A failed rebuild keeps the previous report intact.
    target.write_text("previous report", encoding="utf-8")
    with pytest.raises(RuntimeError):
        _build(df, target)
    assert target.read_text(encoding="utf-8") == "previous report"
    assert list(tmp_path.iterdir()) == [target]


def test_build_report_minimal_and_bad_column(df, tmp_path):
    path = html.build_report(
        df[["win", "outcome", "rounds"]], tmp_path / "r.html", title="t", meta={"seed": 1}
    )
    text = path.read_text(encoding="utf-8")
    assert "<h2>Summary</h2>" in text and "Units still in play" not in text
    with pytest.raises(KeyError, match="difficulty"):
        html.build_report(df, tmp_path / "x.html", title="t", meta={}, group_by=["difficulty"])
    assert not (tmp_path / "x.html").exists()


def test_report_package_knows_no_game():
    root = Path(html.__file__).parent
    for source in root.glob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            assert not any(n.startswith("simlib.games") for n in names), source.name


def test_report_spec_from_a_game_spec():
    from simlib.core.game import Game, ReportSpec

    class Spec(Game):
        name = "spec"
        outcomes = ("won", "lost")
        leave_columns = ("a",)
        measure_columns = ("m",)
        remaining_label = "cavers"
        time_column = "day"
        causes = (("deaths", "d", ("f",)),)

    spec = Spec().report_spec()
    assert spec == ReportSpec(outcomes=("won", "lost"), leave_columns=("a",),
                              measure_columns=("m",), remaining_label="cavers",
                              time_column="day", causes=(("deaths", "d", ("f",)),))
    bare = Game().report_spec()
    assert bare.time_column == "rounds" and bare.causes == () and bare.matchup is None
    assert bare.card_labels == () and bare.readings == ()


def test_report_puts_the_answer_first_and_flags_an_unfinished_study(df, tmp_path):
    page = _build(df, tmp_path / "r.html").read_text(encoding="utf-8")
    # headline first: the summary comes before how to reproduce it
    assert page.index("<h2>Summary</h2>") < page.index("<h2>How to reproduce</h2>")
    assert 'class="banner"' not in page
    assert '<div class="scroll"><table>' in page  # wide tables scroll, not the page
    partial = _build(df, tmp_path / "p.html", meta={"game": "subterra", "complete": False,
                                                      "games": 9000, "games_present": 3000,
                                                      "cells_present": 1, "cells_total": 3})
    text = partial.read_text(encoding="utf-8")
    assert "<strong>Incomplete:</strong> 1 of 3 cells started, 3,000 of 9,000 games" in text
    assert text.index('class="banner"') < text.index("<h2>Summary</h2>")


def test_overlaid_single_curves_keep_distinct_colours(df):
    # two calls with label= on one axes: each lone line takes matplotlib's next colour
    summ = tables.summary(df, by=["cavers"])
    ax = charts.difficulty_curve(summ, x="cavers", label="first")
    charts.difficulty_curve(summ, x="cavers", ax=ax, label="second")
    assert ax.lines[0].get_color() != ax.lines[1].get_color()
