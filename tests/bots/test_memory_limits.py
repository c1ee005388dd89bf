"""A tier's memory limit holds a bot worker process during every act (bots.memory): the act that would
cross it fails inside, the bot holding the most of the process's one budget is stopped with the
figures, its memory goes back, and the other bots play on.

Each test that sets a limit runs in a forked process (the limit lasts for the life of a process);
tests/bots/test_worker_memory.py plays the same through a real Celery worker and a match."""
import multiprocessing
import os
import re

import pytest

from bots import kinds, memory, registry
from bots.acting import answer
from bots.tiers import WORKER_PROCESS_HEADROOM

MIB = 1024**2
BUDGET = 200 * MIB


@pytest.fixture(autouse=True)
def small_budget(settings, monkeypatch):
    settings.EXHIBITION_BOT_MEMORY_BUDGETS = {"500mib": BUDGET}
    monkeypatch.setattr(memory, "_parent", dict(memory._parent))  # what a test's worker set up stays its own
    kinds.plug_in("tests.bots.growing.GrowingBot")
    registry.forget_loaded()
    yield
    registry.forget_loaded()


def forked(function, *args):
    """function(*args) in a forked copy of this process, which ends with it; its result or its error."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def run():
        try:
            send.send(("ok", function(*args)))
        except BaseException as error:  # the test reads it
            send.send(("error", f"{error.__class__.__name__}: {error}"))

    process = context.Process(target=run)
    process.start()
    assert receive.poll(120), "the forked process gave no answer"
    outcome, value = receive.recv()
    process.join(30)
    assert outcome == "ok", value
    return value


def query(bot: dict, n: int, match: str = "M1") -> dict:
    return {"reply_to": "nobody", "match": match, "seat": bot["name"], "query_id": f"{bot['name']}.{n}", "bot": bot,
            "query": {"text": "which planet is red", "word_index": 4, "final": True, "tier": "500mib"},
            "private": {"answer": "Mars", "length_words": 4}}


def grower(name: str, mib: int) -> dict:
    return {"kind": "growing", "name": name, "grow_mib": mib}


SIMULATED = {"kind": "simulated", "name": "steady", "accuracy": 1.0, "buzz_mean": 0.0, "buzz_sd": 0.0}


def play_until_stopped(acts: int = 12) -> dict:
    limit = memory.hold_process("500mib")
    start = limit.rlimit - BUDGET
    replies = []
    for n in range(acts):
        replies.append(answer(query(grower("grower", 50), n), "500mib"))
        if replies[-1]["stopped"]:
            break
    after = memory.data_size()
    steady = answer(query(SIMULATED, 1), "500mib")
    fresh = answer(query(grower("grower", 50), 99, match="M2"), "500mib")  # a later match loads it anew
    return {"describe": limit.describe(), "rlimit": limit.rlimit, "start": start, "after": after,
            "replies": replies, "steady": steady, "fresh": fresh}


def test_a_bot_that_grows_is_stopped_inside_the_act_that_would_cross_its_tiers_limit():
    run = forked(play_until_stopped)
    *played, stop = run["replies"]
    # 50 MiB an act against a 200 MiB budget: at most four acts fit; the one that would not is cut
    # short inside (it returns no act): the limit held during it, not after it.
    assert 1 <= len(played) <= 4 and stop["stopped"] is True and stop["act"] is None
    assert [r["act"]["guess"] for r in played] == [f"grown {n}" for n in range(1, len(played) + 1)]
    assert not any(r["stopped"] or r["error"] for r in played)
    error = stop["error"]
    assert error.startswith("Bot 'grower' went over its tier's memory limit while it played: the 500mib tier's "
                            "bots may add 200 MiB (209,715,200 bytes) to their worker process, held there by "
                            "setrlimit RLIMIT_DATA at ")
    held = re.search(r"and it held ([\d.]+) MiB of it\. It is stopped for the rest of the match; the other bots "
                     r"play on\.$", error)
    assert held and 50 * (len(played) - 1) <= float(held.group(1)) <= 200  # what it kept, measured act by act
    assert "setrlimit RLIMIT_DATA" in run["describe"]
    # Its memory went back to the process: the other bot plays, and a later match may seat it again.
    assert run["after"] < run["start"] + 50 * MIB
    assert run["steady"]["error"] is None and run["steady"]["act"]["guess"] == "Mars"
    assert run["fresh"]["error"] is None and run["fresh"]["act"]["guess"] == "grown 1"


def two_bots_share_one_budget() -> dict:
    memory.hold_process("500mib")
    hog, spiky = grower("hog", 45), grower("spiky", 90)
    early = [answer(query(hog, n), "500mib") for n in range(3)]  # 135 MiB of the 200 held by the hog
    crossing = answer(query(spiky, 1), "500mib")  # 90 more would cross: the hog holds the most
    hog_next = answer(query(hog, 4), "500mib")
    spiky_next = answer(query(spiky, 2), "500mib")
    return {"early": early, "crossing": crossing, "hog_next": hog_next, "spiky_next": spiky_next}


def test_bots_sharing_a_process_share_one_budget_and_the_one_holding_the_most_is_stopped():
    run = forked(two_bots_share_one_budget)
    assert [r["act"]["guess"] for r in run["early"]] == ["grown 1", "grown 2", "grown 3"]
    # The act that hit the limit was the spiky bot's, but the hog held the most: the hog is dropped,
    # the spiky bot's act is tried again and answers, and the hog's next query is told it was stopped.
    assert run["crossing"]["error"] is None and run["crossing"]["act"]["guess"] == "grown 1"
    assert run["hog_next"]["stopped"] is True and run["hog_next"]["act"] is None
    assert run["hog_next"]["error"].startswith("Bot 'hog' went over its tier's memory limit while it played")
    assert re.search(r"and it held 1[23]\d(\.\d)? MiB of it", run["hog_next"]["error"])
    assert run["spiky_next"]["error"] is None and run["spiky_next"]["act"]["guess"] == "grown 2"


# -- which tier a worker serves ----------------------------------------------------------------------

def test_a_worker_is_held_to_the_one_tier_of_its_queues():
    assert memory.worker_tier(["bots.500mib"]) == "500mib"
    assert memory.worker_tier("celery,bots.6gib") == "6gib"
    assert memory.worker_tier(["celery"]) is None
    for queues in (["bots.500mib", "bots.6gib"], None):  # None: no -Q, so every queue
        with pytest.raises(memory.WorkerMisconfigured) as refused:
            memory.worker_tier(queues)
        assert "start one worker per tier, e.g. `celery -A exhibition worker -Q bots.500mib`" in str(refused.value)


def test_celery_recycles_a_process_past_its_share_unless_the_operator_chose_otherwise(monkeypatch):
    monkeypatch.setenv("EXHIBITION_BOT_CGROUP", "off")  # this test process's own cgroup is not to be touched

    class Conf:
        worker_max_memory_per_child = None

    conf = Conf()
    memory.prepare_worker(["bots.500mib"], conf, own=None)
    assert conf.worker_max_memory_per_child == (WORKER_PROCESS_HEADROOM + BUDGET) // 1024
    said = forked(lambda: memory.hold_process("500mib").describe())
    assert "; Celery replaces it after an act once its peak resident size passed 712 MiB; not in force: " \
           "cgroup v2: switched off (EXHIBITION_BOT_CGROUP=off)" in said
    conf.worker_max_memory_per_child = 12345
    memory.prepare_worker(["bots.500mib"], conf, own=None)
    assert conf.worker_max_memory_per_child == 12345


# -- cgroup v2, on a fake cgroup directory (no cgroup v2 memory controller is delegated where these
# tests run: the files written are checked, not the kernel's enforcement) ---------------------------

def fake_cgroup(path, controllers="cpu io memory pids", procs="4242"):
    path.mkdir()
    (path / "cgroup.controllers").write_text(controllers + "\n")
    (path / "cgroup.procs").write_text(procs + "\n")
    (path / "cgroup.subtree_control").write_text("\n")
    return path


def test_the_cgroup_of_this_process_is_read_from_proc(tmp_path):
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "cgroup").write_text("12:memory:/old\n0::/system.slice/bots.service\n")
    (proc / "mountinfo").write_text("30 25 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw\n")
    assert memory.own_cgroup(proc) == memory.Path("/sys/fs/cgroup/system.slice/bots.service")
    (proc / "mountinfo").write_text("30 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n")
    assert memory.own_cgroup(proc) is None  # cgroup v1 only: not ours to use


def test_a_delegated_cgroup_gets_the_parent_aside_and_each_process_its_own_memory_max(tmp_path):
    own = fake_cgroup(tmp_path / "worker")
    assert memory.delegate(own, 4242) == own
    assert (own / "worker-parent" / "cgroup.procs").read_text() == "4242"
    assert (own / "cgroup.subtree_control").read_text() == "+memory"
    mine = memory.confine(own, 5151, 712 * MIB)
    assert mine == own / "bot-process-5151"
    assert (mine / "memory.max").read_text() == str(712 * MIB)
    assert (mine / "cgroup.procs").read_text() == "5151"


@pytest.mark.parametrize("controllers, procs, why", [
    ("cpu io pids", "4242", "the memory controller is not available in"),
    ("cpu memory", "4242 77 78", "2 other processes share its cgroup"),
])
def test_a_cgroup_that_cannot_be_ours_is_left_alone_and_says_why(tmp_path, controllers, procs, why):
    own = fake_cgroup(tmp_path / "worker", controllers, procs)
    with pytest.raises(memory.CgroupUnavailable, match=why):
        memory.delegate(own, 4242)
    assert not (own / "worker-parent").exists() and (own / "cgroup.subtree_control").read_text() == "\n"


def held_by_both(own) -> dict:
    (own / "cgroup.procs").write_text(str(os.getpid()))  # the worker alone in its cgroup, as in a container
    memory.prepare_worker(["bots.500mib"], None, pid=os.getpid(), own=own)
    limit = memory.hold_process("500mib")
    return {"describe": limit.describe(), "cgroup": str(limit.cgroup), "in_force": limit.in_force}


def test_a_worker_process_says_which_limits_hold_it(tmp_path):
    own = fake_cgroup(tmp_path / "worker")
    run = forked(held_by_both, own)
    mine = own / f"bot-process-{run['cgroup'].rsplit('-', 1)[1]}"
    assert run["cgroup"] == str(mine) and (mine / "memory.max").read_text() == str(WORKER_PROCESS_HEADROOM + BUDGET)
    assert run["describe"].startswith("the 500mib tier's bots may add 200 MiB (209,715,200 bytes) to this process, "
                                      "held by setrlimit RLIMIT_DATA at ")
    assert f"and cgroup v2 memory.max 712 MiB ({mine})" in run["describe"]
    bare = forked(held_by_both, fake_cgroup(tmp_path / "shared", controllers="cpu"))
    assert bare["cgroup"] == "None" and bare["in_force"]
    assert "; not in force: cgroup v2: the memory controller is not available in" in bare["describe"]
