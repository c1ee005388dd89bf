"""The production stack as an operator runs it, left idle and broken on purpose.

Daphne, `manage.py conduct` and Redis run as separate processes, on PostgreSQL where marked, and
the clients behave as browsers do (tests/stack.py): they reconnect with their last seq and retry a
command with its id until it is answered. Review found the stack dead after 6 s of silence, a
conductor that never came back after Redis restarted, commands that were never answered after a
conductor died, and two conductors fighting over one match; each test below is one of those.

Needs Redis at 127.0.0.1:6379 (db 10 is flushed), redis-server on the PATH and, for the tests
marked postgres, PostgreSQL at 127.0.0.1:5432; skips without them (fails under CI=true).
"""
import asyncio
import json

import pytest

from game.conductor.host import LAYER_REASON, RESTART_REASON
from tests.conftest import LIVE_WORDS, need_service
from tests.redis_dbs import fresh_redis, redis_url
from tests.servers import wait_for_port
from tests.stack import Client, PrivateRedis, Stack, postgres_available

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REDIS_URL = redis_url("faults")
# longer than the blocking pop (5 s), the Redis socket time-out (15 s), a lease (6 s) and two heartbeats
# (15 s each, found by a probe up to 2 s late) from any moment the clients joined
IDLE_S = 36

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.models import Packet, Question
from game.live.seat_tokens import make_seat_token
from game.match_setup import SeatSpec, TeamSpec, create_match_record
spec = json.loads(SPEC)
packet = Packet.objects.create(slug="stack", title="Stack")
for i in range(6):
    Question.objects.create(packet=packet, position=i, kind=spec["kind"], text=WORDS + f" Number {i}?", answer=f"Answer {i}")
matches = []
for n in range(spec.get("matches", 1)):
    match = create_match_record(title=f"Stack {n}", packet=packet, format_name=spec["format"], overrides=spec["rules"],
                                teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True), SeatSpec("Bob")]),
                                       TeamSpec("Others", [SeatSpec("Zed", captain=True)])])
    seats = {s.name: s for t in match.teams.all() for s in t.seats.all()}
    matches.append({"code": match.code, "id": match.id, "tokens": {k: make_seat_token(v) for k, v in seats.items()}})
client = Client()
client.force_login(get_user_model().objects.create_user("mod", password="x", is_staff=True))
print(json.dumps({"matches": matches, "session": client.cookies["sessionid"].value}))
"""
QUIZBOWL = {"format": "quizbowl", "kind": "tossup",
            "rules": {"reveal": "clock", "words_per_minute": 240, "lead_in_seconds": 0.5, "questions": 2, "tiebreakers": 0,
                      "answer_seconds": 0, "prompt_seconds": 0}}
TEAM_PHASE = {"format": "efficientqa", "kind": "short",
              "rules": {"questions": 1, "tiebreakers": 0, "phases": [{"mode": "team", "points": 2, "discussion_seconds": 600}]}}


def setup_script(spec: dict) -> str:
    return f"WORDS = {LIVE_WORDS!r}\nSPEC = {json.dumps(spec)!r}\n{SETUP}"


async def clients(stack: Stack, info: dict, match: int = 0) -> tuple[Client, Client, Client]:
    m = info["matches"][match]
    mod = Client(stack.port, f"/ws/m/{m['code']}/moderate", cookie=f"sessionid={info['session']}")
    ann = Client(stack.port, f"/ws/m/{m['code']}/play", seat_token=m['tokens']['Ann'])
    watch = Client(stack.port, f"/ws/m/{m['code']}/watch")
    for c in (mod, ann, watch):
        await c.open()
        await c.wait(lambda c=c: c.last_seq >= 1)
    return mod, ann, watch


async def running(stack: Stack, spec: dict, *conductors: str) -> tuple[dict, list]:
    """Set the stack's database up with `spec`'s matches, then start Daphne and the named conductors."""
    info = stack.setup(setup_script(spec))
    stack.start_daphne()
    procs = [stack.start_conductor(name) for name in conductors]
    await stack.ready()
    return info, procs


async def play_out(mod: Client, ann: Client):
    """Ann wins both questions of the quizbowl match; the moderator moves on after each."""
    for _ in range(2):
        await win_question(mod, ann)
        await ack(mod, "next")


def stored(stack: Stack, match_id: int) -> list[tuple[int, str, dict]]:
    out = stack.manage("shell", "-c", (
        "import json; from game.models import MatchEvent; "
        f"print(json.dumps(list(MatchEvent.objects.filter(match_id={match_id}).order_by('seq')"
        ".values_list('seq', 'type', 'data'))))"))
    return [tuple(row) for row in json.loads(out.strip().splitlines()[-1])]


def assert_whole(events):
    assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1)), "the event log has a gap or a repeat"


async def ack(client: Client, kind: str, data: dict | None = None) -> dict:
    answer = await client.command(kind, data)
    assert answer["type"] == "ack", answer
    return answer


async def win_question(mod: Client, ann: Client):
    """Ann buzzes after two words of the current question, answers, and the moderator accepts."""
    started = await ann.event("question_started", after=max((f["seq"] for f in ann.frames
                                                              if f["type"] == "question_closed"), default=0))
    index = started["data"]["index"]
    await ann.wait(lambda: any(f["type"] == "word_revealed" and f["seq"] > started["seq"] and f["data"]["index"] >= 1
                               for f in ann.frames))
    await ack(ann, "buzz", {"seen": 2, "question": index})
    answered = await ack(ann, "answer", {"text": f"Answer {index}", "question": index})
    await ack(mod, "rule", {"verdict": "accept", "answer": answered["data"]["seqs"][-1]})
    await ann.event("question_closed", after=started["seq"])


@pytest.fixture
def shared_redis():
    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    return REDIS_URL


@pytest.fixture
def stacks(tmp_path):
    made = []

    def make(redis_url: str, db: str = "sqlite") -> Stack:
        if db == "postgres":
            need_service(postgres_available(), "PostgreSQL is not reachable at 127.0.0.1:5432 (start it)")
        stack = Stack(tmp_path, redis_url, db)
        made.append(stack)
        return stack

    yield make
    for stack in made:
        stack.stop()


@pytest.mark.postgres
async def test_the_real_stack_stays_up_through_a_long_silence_and_plays_on(shared_redis, stacks):
    stack = stacks(shared_redis, db="postgres")
    info, (conductor,) = await running(stack, QUIZBOWL, "conductor")
    mod, ann, watch = await clients(stack, info)

    await asyncio.sleep(IDLE_S)  # nobody sends anything
    assert conductor.poll() is None, stack.procs.log("conductor")
    for c in (mod, ann, watch):
        assert c.alive and c.closes == [], f"{c.path} was closed during the silence: {c.closes}"
        assert sum(f["type"] == "heartbeat" for f in c.other) >= 2, "heartbeats kept coming"

    await ack(mod, "start")
    await play_out(mod, ann)
    ended = await watch.event("match_ended")
    assert ended["data"]["winner"] == "t0"
    events = stored(stack, info["matches"][0]["id"])
    assert_whole(events)
    assert [kind for _, kind, _ in events].count("paused") == 0
    assert watch.last_seq == events[-1][0] and watch.closes == []


@pytest.mark.postgres
async def test_a_match_pauses_when_redis_restarts_and_plays_on_after_the_moderator_resumes(stacks, tmp_path):
    need_service(PrivateRedis.installed(), "redis-server is not installed (apt-get install redis-server)")
    redis = PrivateRedis(tmp_path)
    redis.start()
    try:
        await wait_for_port(redis.port, "redis-server")
        stack = stacks(redis.url, db="postgres")
        info, (conductor,) = await running(stack, QUIZBOWL, "conductor")
        mod, ann, watch = await clients(stack, info)
        await ack(mod, "start")
        await ann.wait(lambda: any(f["type"] == "word_revealed" and f["data"]["index"] >= 2 for f in ann.frames))

        redis.kill()  # mid-question, words still to read
        await asyncio.sleep(1.5)
        redis.start()
        await wait_for_port(redis.port, "redis-server")

        paused = await mod.event("paused", timeout=90)
        assert paused["data"]["reason"] == LAYER_REASON
        assert conductor.poll() is None, "the conductor outlived the restart"
        await ack(mod, "resume")
        await play_out(mod, ann)
        ended = await watch.event("match_ended", timeout=90)
        events = stored(stack, info["matches"][0]["id"])
        assert_whole(events)
        assert watch.last_seq == ended["seq"] == events[-1][0]
        assert [kind for _, kind, _ in events].count("resumed") == 1
        assert 1011 not in mod.closes + ann.closes + watch.closes, "no socket died with an internal error"
    finally:
        redis.kill()


async def test_commands_in_flight_when_the_conductor_dies_are_each_applied_once(shared_redis, stacks):
    stack = stacks(shared_redis)
    info, (first,) = await running(stack, TEAM_PHASE, "conductor-1")
    mod, ann, watch = await clients(stack, info)
    await ack(mod, "start")
    await ann.event("phase_started")

    chats = [ann.start_command("chat", {"text": f"idea number {i}"}) for i in range(10)]
    adjust = mod.start_command("adjust", {"team": "t0", "points": 3, "reason": "protest upheld", "scores_seq": 0})
    stack.kill(first)  # with commands in flight (a command and its ack cross Redis in a few ms now)
    stack.start_conductor("conductor-2")

    answers = [await ann.settle(cid) for cid in chats] + [await mod.settle(adjust)]
    await mod.event("paused", timeout=60)  # the new conductor takes the match over once the lease runs out
    assert all(a["type"] == "ack" for a in answers), answers
    for client, ids in ((ann, chats), (mod, [adjust])):
        for cid in ids:
            seen = [json.dumps(a["data"], sort_keys=True) for a in client.answers[cid] if a["type"] == "ack"]
            assert len(set(seen)) == 1, f"{cid} got different answers: {seen}"
    events = stored(stack, info["matches"][0]["id"])
    assert_whole(events)
    texts = [d["text"] for _, kind, d in events if kind == "chat"]
    assert sorted(texts) == sorted(f"idea number {i}" for i in range(10)), "each chat is stored exactly once"
    assert [kind for _, kind, _ in events].count("score_adjusted") == 1
    paused = [d for _, kind, d in events if kind == "paused"]
    assert [p["reason"] for p in paused] == [RESTART_REASON], "the match nobody ran meanwhile is paused once"


async def test_two_conductors_share_matches_with_one_writer_each_and_take_over_a_dead_one(shared_redis, stacks):
    stack = stacks(shared_redis)
    info, conductors = await running(stack, {**TEAM_PHASE, "matches": 2}, "conductor-1", "conductor-2")
    pairs = [await clients(stack, info, n) for n in range(2)]
    for mod, ann, _ in pairs:
        await ack(mod, "start")
        await ann.event("phase_started")
    for round_ in range(8):  # commands arrive at whichever conductor reads the shared channel first
        for mod, ann, _ in pairs:
            await ack(ann, "chat", {"text": f"round {round_}"})
    for n in range(2):
        events = stored(stack, info["matches"][n]["id"])
        assert_whole(events)
        assert "paused" not in [kind for _, kind, _ in events], "neither conductor paused a match the other runs"

    owner = stack.manage("shell", "-c", (
        "from game.models import MatchLease; "
        f"print(MatchLease.objects.get(match_id={info['matches'][0]['id']}).owner)")).strip().splitlines()[-1]
    logs = {i: stack.procs.log(f"conductor-{i + 1}") for i in range(2)}
    dead = next(i for i in range(2) if owner in logs[i])
    stack.kill(conductors[dead])  # the one that runs match 0 dies; the other takes it over
    mod, ann, watch = pairs[0]
    paused = await mod.event("paused", timeout=60)
    assert paused["data"]["reason"] == RESTART_REASON
    await ack(mod, "resume")
    await ack(ann, "chat", {"text": "still here"})
    submitted = await ack(ann, "submit", {"text": "Answer 0"})  # the humans have the first question's floor
    await ack(mod, "rule", {"verdict": "accept", "answer": submitted["data"]["seqs"][-1]})
    await watch.event("question_closed")
    for n in range(2):
        assert_whole(stored(stack, info["matches"][n]["id"]))
