"""The event report as a file and as a page: `manage.py event_report` builds one self-contained HTML
file from a folder of exported logs (no URL outside it, its data inside, every name escaped); a bad
log is refused by name and line with nothing written; the page is for staff only."""
from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from game.demo import ensure_demo_packet
from game.management.commands.simulate import play_simulated_match
from tests.report.logs import played_text

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("team")</script>'


def report_data(html: str) -> dict:
    found = re.search(r'<script id="report-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


@pytest.fixture
def logs(tmp_path):
    """A folder with two simulated matches exported by export_match and a hand-played one whose human
    team has a hostile name."""
    folder = tmp_path / "logs"
    packet = ensure_demo_packet()
    codes = []
    for seed in (1, 2):
        _, match = play_simulated_match(packet, "efficientqa", seed=seed, questions=6)
        call_command("export_match", match.code, "-o", str(folder), stdout=io.StringIO())
        codes.append(match.code)
    (folder / "PLAYEF.events.jsonl").write_text(played_text("efficientqa", {"t0": HOSTILE}), encoding="utf-8")
    return folder, codes + ["PLAYEF"]


def test_the_report_file_is_self_contained_and_carries_the_figures(logs, tmp_path):
    folder, codes = logs
    out = tmp_path / "report.html"
    call_command("event_report", "--logs", str(folder), "-o", str(out), "--title", "Hall <b>night</b>",
                 stdout=io.StringIO())
    html = out.read_text(encoding="utf-8")
    assert not re.search(r'(src|href)\s*=\s*["\']?(https?:|//|/static/)', html)
    assert "/static/" not in html and "sourceMappingURL" not in html and "<link rel=\"stylesheet\"" not in html
    assert "Chart.js v4.6.1" in html and "chart-points" in html  # the library and the drawing script are inline
    data = report_data(html)
    # In the order they were played: the hand-played match's clock starts at 0, before the simulated ones.
    assert [m["code"] for m in data["matches"]] == [codes[2], codes[0], codes[1]]
    assert data["points"][0]["humans"] > 0 and data["tiers"] == ["500mib", "6gib", "unlimited"]
    # Names are escaped where shown, and the JSON cannot close its script element.
    assert HOSTILE not in html and "&lt;script&gt;alert(&quot;team&quot;)&lt;/script&gt;" in html
    assert "Hall &lt;b&gt;night&lt;/b&gt;" in html and "<b>night" not in html
    assert data["margins"][0]["label"] == HOSTILE


def test_a_broken_log_is_named_and_nothing_is_written(logs, tmp_path):
    folder, _ = logs
    text = (folder / "PLAYEF.events.jsonl").read_text(encoding="utf-8")
    (folder / "PLAYEF.events.jsonl").write_text(text[: len(text) // 2], encoding="utf-8")  # cut mid-line
    out = tmp_path / "report.html"
    with pytest.raises(CommandError, match=r"PLAYEF.events.jsonl: Line \d+ .*No report was written"):
        call_command("event_report", "--logs", str(folder), "-o", str(out), stdout=io.StringIO())
    assert not out.exists()


def test_an_empty_folder_says_how_to_fill_it(tmp_path):
    with pytest.raises(CommandError, match="export_match CODE"):
        call_command("event_report", "--logs", str(tmp_path), "-o", str(tmp_path / "r.html"), stdout=io.StringIO())


def test_too_many_logs_are_refused_before_any_is_read(tmp_path, settings):
    settings.EXHIBITION_REPORT_MAX_MATCHES = 2
    for code in ("AAAA", "BBBB", "CCCC"):
        (tmp_path / f"{code}.events.jsonl").write_text("not even json\n", encoding="utf-8")
    with pytest.raises(CommandError, match="number of matches in a report is 3 matches, over the limit of 2"):
        call_command("event_report", "--logs", str(tmp_path), "-o", str(tmp_path / "r.html"), stdout=io.StringIO())


def test_the_page_is_for_staff_and_gives_the_file_too(client, django_user_model):
    packet = ensure_demo_packet()
    codes = [play_simulated_match(packet, "efficientqa", seed=s, questions=4)[1].code for s in (3, 4)]
    url = f"/host/report?codes={codes[0]},{codes[1].lower()}"
    assert client.get(url).status_code == 302  # to the login
    client.force_login(django_user_model.objects.create_user("player", password="pw-player-1"))
    assert client.get(url).status_code == 302
    client.force_login(django_user_model.objects.create_user("host", password="pw-host-1", is_staff=True))
    page = client.get(url).content.decode()
    assert "/static/vendor/chartjs/chart.umd.min.js" in page and "/static/js/report.js" in page
    assert [m["code"] for m in report_data(page)["matches"]] == codes
    download = client.get(url + "&download=1")
    assert download["Content-Disposition"] == 'attachment; filename="event-report.html"'
    assert "/static/" not in download.content.decode()
    missing = client.get("/host/report?codes=NOSUCH")
    assert missing.status_code == 400 and "There is no match with code NOSUCH" in missing.content.decode()
    odd = client.get("/host/report?codes=%3Cb%3E")
    assert odd.status_code == 400 and "is not a match code" in odd.content.decode()
    assert "<b>" not in odd.content.decode().split("<main")[1]
    assert client.get("/host/report").status_code == 200  # the form to type codes into


def test_a_bot_with_nothing_to_count_reads_in_words_not_as_nought_of_nought():
    """A bot that played only team phases: no question read to its end with a guess, no buzz phase."""
    from game.report.page import tables

    bot = {"name": "reader", "tier": "unlimited", "questions": 4, "start_accuracy": None, "end_accuracy": None,
           "end_questions": 0, "buzzes": 0, "buzz_questions": 0, "buzz_precision": None, "expected_wins": None,
           "expected_wins_curve": None, "histogram": {"right": [], "wrong": []}}
    counted = dict(bot, name="buzzer", end_accuracy=0.5, end_questions=4, buzzes=0, buzz_questions=4)
    figures = {"phases": [], "tiers": [], "points": [], "margins": [], "accuracy": [], "bots": [bot, counted],
               "human_buzzes": {"right": [], "wrong": []}, "bonuses": [], "players": [], "human_ai": []}
    silent, buzzer = tables(figures)["bots"]
    assert silent[3:5] == ["none read to the end", "no buzz phase"]
    assert buzzer[3:5] == ["50% of 4", "0 of 4"]
    assert not any(re.search(r"\bof 0\b", str(cell)) for cell in silent + buzzer)
