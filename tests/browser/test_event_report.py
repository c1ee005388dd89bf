"""The event report file opened from disk in real Chromium, with no server and no network: every chart
is drawn (its canvas has pixels), nothing is fetched from anywhere, no console errors, and with
32-character names the page fits a 1920x1080 hall screen and a 390x844 phone without sideways scrolling."""
from __future__ import annotations

import pytest

from game.models import NAME_MAX_LENGTH
from game.report.page import report_from_logs
from tests.report.logs import parsed, played_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHARTS = ["chart-points", "chart-margins", "chart-accuracy", "chart-bots", "chart-histogram"]
LONG = "W" * NAME_MAX_LENGTH

# How many pixels of a canvas are painted (alpha above zero), how many datasets its chart has, how many
# of its values are not zero, and how many bars it drew with a height.
PAINTED = """(id) => {
  const canvas = document.getElementById(id);
  const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let painted = 0;
  for (let i = 3; i < pixels.length; i += 4) { if (pixels[i] > 0) painted++; }
  const chart = Chart.getChart(canvas);
  const values = chart.data.datasets.flatMap((d) => d.data).filter((v) => v !== null && v !== 0).length;
  const bars = chart.data.datasets.flatMap((d, i) => chart.getDatasetMeta(i).data)
    .filter((bar) => Math.abs(bar.height || 0) >= 1).length;
  return {painted, total: pixels.length / 4, datasets: chart.data.datasets.length, values, bars};
}"""


@pytest.fixture
def report_file(tmp_path):
    """Two played EfficientQA matches (a neg, an undo, a throw-out, an override, bot guesses and buzzes),
    one with 32-character names."""
    logs = [parsed(played_text("efficientqa", {"t0": LONG, "b500": LONG, "h0": LONG})), parsed(played_text("efficientqa"))]
    path = tmp_path / "report.html"
    path.write_text(report_from_logs(logs, f"{LONG} final", inline=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("width,height,mobile", [(1920, 1080, False), (390, 844, True)])
def test_the_report_file_draws_every_chart_offline(open_page, report_file, width, height, mobile):
    page = open_page(width, height, mobile)
    console, requests = [], []
    page.on("console", lambda message: console.append(message) if message.type in ("error", "warning") else None)
    page.on("request", lambda request: requests.append(request.url))
    page.goto(report_file.as_uri())
    page.wait_for_load_state("load")
    drawn = {chart: page.evaluate(PAINTED, chart) for chart in CHARTS}
    for chart, seen in drawn.items():
        assert seen["datasets"] >= 2, chart
        assert seen["painted"] > seen["total"] * 0.02, f"{chart} looks empty: {seen}"
        assert seen["bars"] == seen["values"], f"{chart}: a bar for every value that is not zero: {seen}"
    assert sum(seen["bars"] for seen in drawn.values()) >= 10
    assert all(url.startswith(("file:", "data:")) for url in requests), requests
    assert not [m.text for m in console]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.get_by_role("heading", level=1).inner_text().startswith(LONG)
    assert page.locator("table").count() == len(CHARTS) + 1  # each chart's table, and the bots beside and against humans


# The font size of every piece of text in the human-AI section, and how far its table reaches to the right.
SECTION_TEXT = """() => {
  const section = document.getElementById("human_ai-title").closest("section");
  const sizes = [...section.querySelectorAll("caption, th, td, dt, dd, .remark")].map(
    (e) => parseFloat(getComputedStyle(e).fontSize));
  return {smallest: Math.min(...sizes), count: sizes.length};
}"""


@pytest.mark.parametrize("width,height,mobile", [(1920, 1080, False), (1280, 720, False), (390, 844, True)])
def test_the_bots_beside_humans_table_is_hall_sized_and_fits(open_page, report_file, width, height, mobile, tmp_path):
    """At 1920x1080 the human-AI table, its remark and its definitions are at least 24 px; at every size the
    page does not scroll sideways (a wide table scrolls inside its own box)."""
    page = open_page(width, height, mobile)
    page.goto(report_file.as_uri())
    page.wait_for_load_state("load")
    seen = page.evaluate(SECTION_TEXT)
    assert seen["count"] > 20
    if width == 1920:
        assert seen["smallest"] >= 24, seen
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    section = page.locator("section", has=page.locator("#human_ai-title"))
    assert "No bot sat on a team with people" not in section.inner_text()  # Cho sits with the played bots
    assert section.get_by_role("cell", name="not reported").count() >= 1  # Big never guessed
    section.screenshot(path=str(tmp_path / f"human-ai-{width}x{height}.png"))
