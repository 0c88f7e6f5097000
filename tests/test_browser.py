"""Reports checked in a real browser: headless Chromium driven by Playwright for Python.

Each report is opened at 1280 x 800 px and must: not scroll sideways, load every image,
show its headline (the first section and the start of its table) in the first viewport,
and give each chart's plot panels at least ``PLOT_SHARE`` of the chart's pixels (a legend
or labels that squeeze the plot into a strip fail; ``data-plot-share`` is written by the
report from the figure's own layout, and the browser checks the image is not shrunk
below a readable scale either).

The reports: the Sub Terra difficulty grid (presets x bots x cavers, the shape of
``experiments/subterra_difficulty.toml``, at a few games a cell), a sweep's, and the
README's main study (``experiments/overview.toml``) at a few games a step.

Debian's ``chromium`` and the ``playwright`` package are installed by ``.ci/run``; where
``SIMLIB_REQUIRE_BROWSER=1`` (CI) a missing browser fails instead of skipping.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import simlib
from simlib.cli import main

ROOT = Path(__file__).resolve().parents[1]
VIEWPORT = {"width": 1280, "height": 800}
#: Least share of a chart's pixels inside its plot panels.
PLOT_SHARE = 0.2
#: Least scale a chart is shown at (displayed width / its own width).
MIN_SCALE = 0.8
#: Flags for Chromium on a machine without a network or a display.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser():
    required = os.environ.get("SIMLIB_REQUIRE_BROWSER") == "1"
    exe = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if exe is None or sync_playwright is None:
        missing = "Debian's chromium" if exe is None else "the playwright package"
        if required:
            pytest.fail(f"{missing} is not installed (.ci/run installs it)")
        pytest.skip(f"{missing} is not installed")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


def check_report(browser, path: Path, headline: str) -> dict:
    """Open ``path`` and assert the layout; return what was measured (for messages)."""
    page = browser.new_page(viewport=VIEWPORT)
    try:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        sizes = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert sizes[0] <= sizes[1], f"{path.name} scrolls sideways: {sizes[0]} > {sizes[1]} px"
        images = page.evaluate(
            """Array.from(document.images).map(i => ({
                alt: i.alt, complete: i.complete, natural: i.naturalWidth,
                shown: i.getBoundingClientRect().width, share: i.dataset.plotShare}))"""
        )
        assert images, f"{path.name} has no charts"
        for img in images:
            assert img["complete"] and img["natural"] > 0, f"image {img['alt']!r} did not load"
            assert img["share"] is not None, f"chart {img['alt']!r} has no data-plot-share"
            assert float(img["share"]) >= PLOT_SHARE, (
                f"chart {img['alt']!r}: plot panels are {float(img['share']):.0%} of it, under "
                f"{PLOT_SHARE:.0%}"
            )
            assert img["shown"] >= MIN_SCALE * img["natural"], (
                f"chart {img['alt']!r} is shown at {img['shown'] / img['natural']:.0%} of its "
                "size: too small to read"
            )
        first = page.evaluate(
            """(text) => {
                const h = Array.from(document.querySelectorAll('h2'))
                    .find(e => e.textContent.trim() === text);
                if (!h) return null;
                let t = h.nextElementSibling;
                while (t && !t.querySelector('table') && t.tagName !== 'TABLE')
                    t = t.nextElementSibling;
                return [h.getBoundingClientRect().top,
                        t ? t.getBoundingClientRect().top : null];
            }""",
            headline,
        )
        assert first is not None, f"{path.name} has no {headline!r} section"
        h_top, table_top = first
        assert h_top < VIEWPORT["height"], f"{headline!r} starts below the first viewport"
        assert table_top is not None and table_top < VIEWPORT["height"], (
            f"{headline!r}'s table starts below the first viewport"
        )
        return {"images": images}
    finally:
        page.close()


def test_difficulty_grid_report_in_a_browser(browser, tmp_path):
    # 27 cells, as the shipped difficulty study: 9 lines per panel, 3 panels
    exp = tmp_path / "grid.toml"
    exp.write_text(
        'title = "Sub Terra grid"\ngame = "subterra"\ngames = 60\nseed = 7\n'
        f'out = "{(tmp_path / "grid").as_posix()}"\n'
        'presets = ["normal", "advanced", "expert"]\nbots = ["explorer", "cautious", "racer"]\n'
        '[grid]\ncavers = [4, 5, 6]\n'
        '[report]\nsweep = ["cavers"]\ngroup_by = ["preset", "bot", "cavers"]\n'
    )
    simlib.run_experiment(simlib.load_experiment(exp), progress=False)
    got = check_report(browser, tmp_path / "grid" / "report.html", "Summary")
    alts = [i["alt"] for i in got["images"]]
    assert "win rate by cavers" in alts and "cavers still in the cave by round" in alts


def test_sweep_report_in_a_browser(browser, tmp_path, capsys):
    out = tmp_path / "sweep"
    assert main(["sweep", "subterra", "--param", "hazard_cards", "--values", "12,16,20,24",
                 "--games", "80", "--seed", "3", "--out", str(out), "--no-progress"]) == 0
    assert main(["report", str(out)]) == 0
    capsys.readouterr()
    got = check_report(browser, out / "report.html", "Summary")
    assert any(i["alt"] == "win rate by hazard_cards" for i in got["images"])


def test_main_study_report_in_a_browser(browser, tmp_path, capsys):
    out = tmp_path / "overview"
    assert main(["experiment", str(ROOT / "experiments" / "overview.toml"), "--games", "150",
                 "--out", str(out), "--no-progress"]) == 0
    capsys.readouterr()
    reports = [out / "report.html", *sorted(out.glob("*/report.html"))]
    assert len(reports) == 5, reports  # the overview's and one per game
    check_report(browser, reports[0], "Difficulty steps")
    for path in reports[1:]:
        check_report(browser, path, "Summary")


def test_plot_share_flags_a_squeezed_chart():
    # the metric the browser checks: a legend of 27 lines inside one small axes squeezes
    # the plot (the report's old "units still in play" chart); small multiples do not
    import numpy as np
    import pandas as pd

    from simlib.report import charts, html

    rng = np.random.default_rng(1)
    df = pd.DataFrame({"g": np.repeat([f"group {i}" for i in range(27)], 20),
                       "rounds": rng.integers(1, 30, 540), "leave_round_0": -1})
    squeezed = html.figure_img(
        lambda fig: charts.remaining_by_round(df, ["leave_round_0"], by="g",
                                              ax=fig.add_subplot()),
        alt="squeezed", figsize=(7.5, 4.5),
    )
    share = float(squeezed.split('data-plot-share="')[1].split('"')[0])
    assert share < PLOT_SHARE
