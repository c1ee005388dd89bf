"""After the match, through the pages and commands people use: the archive, the replay page and its
data, the box score, the exports, and export_match / import_match with broken archives refused."""
from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from bots.replay_bot import read_responses
from game.archive.boxscore import box_score
from game.demo import ensure_demo_packet
from game.management.commands.simulate import play_simulated_match
from game.models import Match, MatchEvent, Packet
from game.archive.replay import Replay, load_log
from game.archive.replay_data import unpack_frames
from game.match_setup import TeamSpec, create_match_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """One finished simulated match per format (bots report a guess on every word)."""
    packet = ensure_demo_packet()
    return {fmt: play_simulated_match(packet, fmt, seed=3, questions=4)[1] for fmt in ("quizbowl", "efficientqa")}


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_user("host", password="x", is_staff=True)
    from django.test import Client

    c = Client()
    c.force_login(user)
    return c


def scores_of(match) -> dict:
    state = Replay(load_log(match)).final
    return {state.team_name(t): p for t, p in state.scores.items()}


def test_the_archive_lists_each_finished_match_with_its_final_score(client, played):
    live = create_match_record(title="Still playing", packet=Packet.objects.get(slug="demo"), format_name="quizbowl",
                               teams=[TeamSpec("A"), TeamSpec("B")])
    page = client.get("/archive/").content.decode()
    assert live.title not in page
    for match in played.values():
        assert match.title in page and f"/m/{match.code}/replay" in page and f"/m/{match.code}/boxscore" in page
        item = re.search(rf'data-code="{match.code}".*?</li>', page, re.S).group(0)
        for team, points in scores_of(match).items():
            assert re.search(rf"{team} <strong>{points}</strong>", item), (team, points, item)


def test_the_archive_filters_by_format_and_team(client, played):
    quizbowl = client.get("/archive/?format=quizbowl").content.decode()
    assert played["quizbowl"].code in quizbowl and played["efficientqa"].code not in quizbowl
    assert played["quizbowl"].code in client.get("/archive/?team=comput").content.decode()
    assert "No finished match matches that filter" in client.get("/archive/?team=nobody-here").content.decode()


def test_a_host_hides_a_match_from_the_public_list_and_only_staff_can(client, staff, played):
    code = played["quizbowl"].code
    assert client.post(f"/host/m/{code}/hide").status_code == 302  # to the login page
    assert not Match.objects.get(code=code).hidden
    staff.post(f"/host/m/{code}/hide", {"next": "/archive/?team=Humans"})
    assert Match.objects.get(code=code).hidden
    back = staff.post(f"/host/m/{code}/hide", {"next": "https://elsewhere.example/"})
    assert back["Location"] == "/archive/" and not Match.objects.get(code=code).hidden  # never sent off-site
    staff.post(f"/host/m/{code}/hide")
    assert code not in client.get("/archive/").content.decode()
    assert code in staff.get("/archive/").content.decode()
    assert client.get(f"/m/{code}/replay").status_code == 200  # hidden from the list, not deleted


def test_the_archive_is_paginated_newest_first(client):
    packet = ensure_demo_packet()
    codes = []
    for i in range(23):
        m = create_match_record(title=f"Old match {i}", packet=packet, format_name="quizbowl",
                                teams=[TeamSpec("A"), TeamSpec("B")])
        Match.objects.filter(pk=m.pk).update(status=Match.Status.FINISHED)
        from django.utils import timezone
        from datetime import timedelta
        Match.objects.filter(pk=m.pk).update(finished=timezone.now() - timedelta(minutes=100 - i))
        codes.append(m.code)
    first, second = client.get("/archive/").content.decode(), client.get("/archive/?page=2").content.decode()
    assert codes[-1] in first and codes[0] not in first and codes[0] in second
    assert first.index(codes[-1]) < first.index(codes[-2])
    assert "page 1 of 2" in first


def test_a_replay_opens_when_the_match_has_finished_and_staff_get_their_view(client, staff, played):
    live = create_match_record(title="Live", packet=Packet.objects.get(slug="demo"), format_name="quizbowl",
                               teams=[TeamSpec("A"), TeamSpec("B")])
    assert client.get(f"/m/{live.code}/replay").status_code == 404
    assert client.get(f"/m/{live.code}/replay.json").status_code == 404
    code = played["efficientqa"].code
    public = client.get(f"/m/{code}/replay.json?staff=1").json()  # asking is not enough
    assert public["audience"] == "spectator"
    frames = unpack_frames(public["frames"])
    kinds = {f["type"] for f in frames}
    # Every guess came while a human could still score on its question: held, then released at its close.
    assert "judge_suggested" not in kinds and "hidden" in kinds and "bot_guesses_released" in kinds
    assert "questions" not in frames[0]["data"]
    staff_view = staff.get(f"/m/{code}/replay.json?staff=1").json()
    assert staff_view["audience"] == "moderator"
    assert "judge_suggested" in {f["type"] for f in unpack_frames(staff_view["frames"])}
    assert "staff view" in staff.get(f"/m/{code}/replay?staff=1").content.decode()
    assert "Staff view" not in client.get(f"/m/{code}/replay").content.decode()


def test_the_box_score_page_and_command_give_the_statistics(client, played):
    match = played["quizbowl"]
    page = client.get(f"/m/{match.code}/boxscore").content.decode()
    replay = Replay(load_log(match))
    box = box_score(replay.final, replay.frames("spectator"))
    assert "Powers, tens and negs" in page and "Players and bots" in page
    for p in box["players"]:
        assert p["name"] in page
    out = io.StringIO()
    call_command("boxscore", match.code, stdout=out)
    text = out.getvalue()
    assert "Final score: " + " — ".join(f"{t} {p}" for t, p in scores_of(match).items()) in text
    assert "Powers/tens/negs" in text and "mean buzz position" in text
    efficientqa = client.get(f"/m/{played['efficientqa'].code}/boxscore").content.decode()
    assert "Margin per question and phase" in efficientqa


def test_the_buzz_csv_of_each_bot_plays_back_in_the_replay_bot(client, staff, played, tmp_path):
    match = played["quizbowl"]
    events = load_log(match)
    state = Replay(events).final
    bot = next(s for s in state.seats.values() if s["kind"] == "bot")
    # The staff file has every guess the bot reported; the public one what the hall was shown: guesses
    # held while a human could still score came out, every one of them, when the question closed.
    text = staff.get(f"/m/{match.code}/export/{bot['id']}.buzz.csv?staff=1").content.decode()
    assert text.splitlines()[0] == "question_id,token_position,guess,confidence,buzz"
    guesses = [e for e in events if e["type"] == "bot_guess" and e["data"]["seat"] == bot["id"]]
    rows = list(csv.DictReader(io.StringIO(text)))
    thrown = sum(1 for e in events if e["type"] == "question_thrown_out")
    assert len(rows) == len(guesses) and guesses and not thrown
    public = list(csv.DictReader(io.StringIO(client.get(f"/m/{match.code}/export/{bot['id']}.buzz.csv").content.decode())))
    held = [e for e in guesses if e["data"].get("held")]
    assert held and public == rows
    path = tmp_path / "run.buzz.csv"
    path.write_text(text)
    responses = read_responses(path)  # the file the replay bot plays from
    assert sum(len(v) for v in responses.values()) == len(guesses)
    assert client.get(f"/m/{match.code}/export/s99999.buzz.csv").status_code == 404


def test_the_gameplay_csv_has_a_row_per_buzz(client, played):
    match = played["quizbowl"]
    events = load_log(match)
    text = client.get(f"/m/{match.code}/export/gameplay.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    buzzes = [e for e in events if e["type"] == "buzz"]
    assert len(rows) == len(buzzes) > 0
    assert {r["kind"] for r in rows} <= {"human", "bot"}
    for row, buzz in zip(rows, buzzes):
        assert int(row["word_position"]) == buzz["data"]["word"]
        assert 0 <= float(row["fraction"]) <= 1 and row["ruling"] in {"accept", "reject", "replaced", "none", "prompt"}
    box = client.get(f"/m/{match.code}/export/boxscore.csv").content.decode()
    assert box.startswith("question_number,question_id,") and "mean_buzz_position" in box


def test_exports_write_a_typed_formula_as_text_and_the_replay_bot_reads_it_back_as_typed(client, staff, played,
                                                                                           tmp_path):
    """Exports are opened in spreadsheets: a name, answer or guess starting with = + - @ is a formula
    there, so it is written as text (a leading apostrophe); numbers stay numbers."""
    match = played["quizbowl"]
    created = MatchEvent.objects.get(match=match, seq=1)
    created.data["teams"][0]["name"] = '=HYPERLINK("http://evil.example","Humans")'
    created.save()
    guess = MatchEvent.objects.filter(match=match, type="bot_guess").order_by("seq").first()
    guess.data["guess"] = "@SUM(1+1)*cmd|' /C calc'!A0"
    guess.save()
    bot = guess.data["seat"]

    box = list(csv.reader(io.StringIO(client.get(f"/m/{match.code}/export/boxscore.csv").content.decode())))
    cells = [cell for row in box for cell in row]
    assert """'=HYPERLINK("http://evil.example","Humans")""" in cells
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
    gameplay = client.get(f"/m/{match.code}/export/gameplay.csv").content.decode()
    assert not any(cell.startswith(("=", "+", "@")) for row in csv.reader(io.StringIO(gameplay)) for cell in row)
    points = [row["points"] for row in csv.DictReader(io.StringIO(gameplay)) if row["points"]]
    assert points and [int(p) for p in points], "numbers (a -5 too) stay numbers: int() of a text cell raises"

    text = staff.get(f"/m/{match.code}/export/{bot}.buzz.csv?staff=1").content.decode()
    assert "'@SUM(1+1)" in text
    path = tmp_path / "run.buzz.csv"
    path.write_text(text)
    replayed = [g for rows in read_responses(path).values() for _, g, _, _ in rows]
    assert "@SUM(1+1)*cmd|' /C calc'!A0" in replayed, "the replay bot plays the guess as it was made"


def test_the_event_log_is_for_staff_only(client, staff, played):
    code = played["quizbowl"].code
    assert client.get(f"/m/{code}/export/events.jsonl").status_code == 302
    lines = b"".join(staff.get(f"/m/{code}/export/events.jsonl").streaming_content).decode().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "exhibition-match" and header["version"] == 1 and header["events"] == len(lines) - 1


# -- export_match and import_match -------------------------------------------------------------------

def exported(match, tmp_path) -> list[str]:
    call_command("export_match", match.code, "-o", str(tmp_path), stdout=io.StringIO())
    return (tmp_path / f"{match.code}.events.jsonl").read_text().splitlines(keepends=True)


@pytest.mark.parametrize("fmt", ["quizbowl", "efficientqa"])
def test_export_then_import_replays_the_same(played, tmp_path, fmt):
    match = played[fmt]
    lines = exported(match, tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert f"{match.code}.gameplay.csv" in names and f"{match.code}.boxscore.csv" in names
    assert [n for n in names if n.endswith(".buzz.csv")]
    before = Replay(load_log(match))
    Match.objects.filter(pk=match.pk).delete()  # as if in another installation
    out = io.StringIO()
    call_command("import_match", str(tmp_path / f"{match.code}.events.jsonl"), stdout=out)
    again = Match.objects.get(code=match.code)
    assert "Imported" in out.getvalue() and again.status == Match.Status.FINISHED
    after = Replay(load_log(again))
    for audience in ("spectator", "moderator"):
        assert after.bundle(audience) == before.bundle(audience)
    assert box_score(after.final, after.frames("spectator")) == box_score(before.final, before.frames("spectator"))
    assert [t.name for t in again.teams.order_by("position")] == [t["name"] for t in before.final.teams]


def _broken(lines, how):
    lines = list(lines)
    if how == "truncated line":
        lines[5] = lines[5][: len(lines[5]) // 2]
        return lines, 6, "not complete JSON"
    if how == "truncated file":
        return lines[:-3], len(lines) - 2, "promises"
    if how == "gap in seq":
        del lines[7]
        return lines, 8, "is missing"
    if how == "duplicate seq":
        lines.insert(7, lines[6])
        return lines, 8, "appears twice"
    if how == "unknown event type":
        event = json.loads(lines[9])
        event["type"] = "teleport"
        lines[9] = json.dumps(event) + "\n"
        return lines, 10, "unknown event type 'teleport'"
    if how == "question missing":
        created = json.loads(lines[1])
        created["data"]["questions"] = created["data"]["questions"][:1]
        lines[1] = json.dumps(created) + "\n"
        n = next(i for i, x in enumerate(lines, 1) if json.loads(x).get("type") == "question_started"
                 and json.loads(x)["data"]["index"] >= 1)
        return lines, n, "a question is missing"
    if how == "nested too deep":
        lines[9] = lines[9].replace('"data": {', '"data": {"x": ' + "[" * 100 + "]" * 100 + ", ", 1)
        return lines, 10, "the JSON nesting depth goes over the limit of 32 levels"
    if how == "question too long":
        created = json.loads(lines[1])
        created["data"]["questions"][2]["text"] = "x" * 2001
        lines[1] = json.dumps(created) + "\n"
        return lines, 2, "question 2: the question text length is 2,001 characters, over the limit of 2,000"
    raise AssertionError(how)


@pytest.mark.parametrize("how", ["truncated line", "truncated file", "gap in seq", "duplicate seq",
                                 "unknown event type", "question missing", "nested too deep", "question too long"])
def test_a_broken_archive_is_refused_with_its_line_and_nothing_is_stored(played, tmp_path, how):
    match = played["quizbowl"]
    lines, line, words = _broken(exported(match, tmp_path), how)
    Match.objects.filter(pk=match.pk).delete()
    path = tmp_path / "broken.jsonl"
    path.write_text("".join(lines))
    counts = (Match.objects.count(), MatchEvent.objects.count(), Packet.objects.count())
    with pytest.raises(CommandError) as refused:
        call_command("import_match", str(path), stdout=io.StringIO())
    message = str(refused.value)
    assert f"Line {line}" in message and words in message and "Nothing was imported" in message
    assert (Match.objects.count(), MatchEvent.objects.count(), Packet.objects.count()) == counts


def test_an_archive_line_over_the_record_limit_is_refused_unread(played, tmp_path, settings):
    lines = exported(played["quizbowl"], tmp_path)
    settings.EXHIBITION_IMPORT_MAX_RECORD_BYTES = max(map(len, lines[2:])) + 1  # match_created, line 2, is longer
    path = tmp_path / "long.jsonl"
    path.write_text("".join(lines))
    with pytest.raises(CommandError, match="long.jsonl: Line 2: the record length goes over the limit of .* Nothing was imported."):
        call_command("import_match", str(path), stdout=io.StringIO())


def test_importing_a_match_whose_code_is_taken_gives_it_a_new_code(played, tmp_path):
    match = played["quizbowl"]
    exported(match, tmp_path)
    call_command("import_match", str(tmp_path / f"{match.code}.events.jsonl"), stdout=io.StringIO())
    copies = Match.objects.filter(title=match.title)
    assert copies.count() == 2 and len({m.code for m in copies}) == 2
