"""Holding a bot worker's processes to their tier's memory while the bots play, during every act.

Measuring what loading a bot added (bots.registry) lets a bot that grows while it plays keep being
served, and a check after each act would let one act overshoot by its whole allocation. So each pool
process of a tier's Celery worker is held, from the moment it starts, to what its tier's bots may add
to it (bots.budgets.memory_budget; bots sharing the process share that one budget), by whichever of
these the machine allows (describe() says which are in force, and the worker logs it at start):

- setrlimit(RLIMIT_DATA) at what the process holds when it starts plus the budget. The kernel refuses
  an allocation past it, inside the act: Python raises MemoryError there, and bots.acting stops the
  bot. Soft and hard limit are equal, so a bot cannot lift it (short of CAP_SYS_RESOURCE).
  RLIMIT_DATA counts the heap and private writable mappings, not pages of mapped files.
- a cgroup v2 memory.max of the process's own, where the worker's cgroup is delegated to it (the
  memory controller available, the directory writable, no other process in it, as in a container
  of its own): the worker's parent moves itself into a sub-cgroup and each pool process into another,
  capped at the process's whole share (WORKER_PROCESS_HEADROOM + budget; new pages and pages it
  copies on write are charged there). Past it the kernel kills the process; the worker's parent then
  reports the bot stopped (bots.tasks). Set EXHIBITION_BOT_CGROUP=off to leave cgroups alone.
- Celery's worker_max_memory_per_child at the same share: a pool process whose peak resident size
  went past it is replaced once its act is done (this catches mapped files, which RLIMIT_DATA misses).

The embedded default (no REDIS_URL) answers bots in the web process's threads: no process limit holds
there, and a MemoryError still stops the bot that raised it.
"""
from __future__ import annotations

import logging
import os
import resource
from dataclasses import dataclass
from pathlib import Path

from bots.budgets import memory_budget
from bots.tiers import TIER_LIMITS, WORKER_PROCESS_HEADROOM, human_bytes
from serving import environment

log = logging.getLogger(__name__)

PROC_SELF = Path("/proc/self")
CGROUP_PARENT = "worker-parent"  # the delegated cgroup's sub-cgroup for the Celery parent
CGROUP_PROCESS = "bot-process-"  # + pid: one per pool process
STOPPED = "It is stopped for the rest of the match; the other bots play on."


class WorkerMisconfigured(Exception):
    """A worker was started in a way that cannot hold its processes to one tier's memory."""


class CgroupUnavailable(Exception):
    """Why no cgroup of its own holds a worker process here (a sentence for the worker's log)."""


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def data_size() -> int:
    """What RLIMIT_DATA counts for this process now, in bytes: its data pages (statm's data field,
    VmData plus the main stack, which is a few hundred KiB); 0 where /proc is not Linux's. Read
    around every act, so it is the cheap file (14 us), not /proc/self/status (45 us)."""
    try:
        with open(PROC_SELF / "statm", "rb") as statm:
            return int(statm.read().split()[5]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def process_share(tier: str) -> int | None:
    """A pool process's whole size in tier: what it holds before any bot, plus the bots' budget."""
    budget = memory_budget(tier)
    return None if budget is None else WORKER_PROCESS_HEADROOM + budget


def worker_tier(queues) -> str | None:
    """The one bot tier a worker's queues serve (None: no bot queue). Several tiers cannot share a
    process's one limit, so a worker consuming more than one tier's queue is refused."""
    names = [queues] if isinstance(queues, str) else list(queues or ())
    names = [q.strip() for name in names for q in str(name).split(",") if q.strip()]
    tiers = sorted({q.removeprefix("bots.") for q in names if q.startswith("bots.") and q[5:] in TIER_LIMITS})
    if not names:
        tiers = list(TIER_LIMITS)  # no -Q: Celery consumes every queue
    if len(tiers) > 1:
        raise WorkerMisconfigured(
            f"This worker would take queries for the {', '.join(tiers)} tiers, but each tier's memory limit holds "
            f"its worker's processes: start one worker per tier, e.g. `celery -A exhibition worker -Q bots.500mib`.")
    return tiers[0] if tiers else None


# -- cgroup v2 ------------------------------------------------------------------------------------

def own_cgroup(proc: Path = PROC_SELF) -> Path | None:
    """This process's cgroup v2 directory, or None where there is no cgroup v2 hierarchy."""
    try:
        line = next((l for l in (proc / "cgroup").read_text().splitlines() if l.startswith("0::")), None)
        mounts = (proc / "mountinfo").read_text().splitlines()
    except OSError:
        return None
    mount = next((m.split()[4] for m in mounts if " - cgroup2 " in m), None)
    if line is None or mount is None:
        return None
    return Path(mount) / line[3:].lstrip("/")


def delegate(own: Path, pid: int) -> Path:
    """In the worker's parent: make own the root of its processes' cgroups, moving the parent into a
    sub-cgroup (a cgroup that hands the memory controller down may hold no process itself). Returns
    own, or raises CgroupUnavailable saying why the cgroup path is not in force."""
    try:
        controllers = (own / "cgroup.controllers").read_text().split()
        sharing = {int(p) for p in (own / "cgroup.procs").read_text().split()} - {pid}
    except (OSError, ValueError) as error:
        raise CgroupUnavailable(f"its cgroup {own} cannot be read ({error})") from None
    if "memory" not in controllers:
        raise CgroupUnavailable(f"the memory controller is not available in {own} (controllers: "
                                f"{' '.join(controllers) or 'none'})")
    if not os.access(own, os.W_OK):
        raise CgroupUnavailable(f"its cgroup {own} is not writable by this process")
    if sharing:
        raise CgroupUnavailable(f"{len(sharing)} other processes share its cgroup {own}; run the worker in a "
                                f"cgroup of its own (a container) for this")
    parent = own / CGROUP_PARENT
    try:
        parent.mkdir(exist_ok=True)
        (parent / "cgroup.procs").write_text(str(pid))
        subtree = own / "cgroup.subtree_control"
        if "memory" not in subtree.read_text().split():
            subtree.write_text("+memory")
    except OSError as error:
        try:
            (own / "cgroup.procs").write_text(str(pid))  # back where it was
        except OSError:
            pass
        raise CgroupUnavailable(f"its cgroup {own} could not be delegated ({error})") from None
    return own


def confine(root: Path, pid: int, max_bytes: int) -> Path:
    """In a pool process: a cgroup of its own under root, capped at max_bytes (no swap), with pid in it."""
    for old in root.glob(CGROUP_PROCESS + "*"):  # left by processes that ended: removable once empty
        try:
            old.rmdir()
        except OSError:
            pass
    mine = root / f"{CGROUP_PROCESS}{pid}"
    try:
        mine.mkdir(exist_ok=True)
        (mine / "memory.max").write_text(str(max_bytes))
        if (mine / "memory.swap.max").exists():
            (mine / "memory.swap.max").write_text("0")
        (mine / "cgroup.procs").write_text(str(pid))
    except OSError as error:
        raise CgroupUnavailable(f"no cgroup of its own could be made under {root} ({error})") from None
    return mine


# -- the worker's parent and its pool processes -------------------------------------------------------

@dataclass(frozen=True)
class Limit:
    """What holds this process's memory, and what does not (and why)."""

    tier: str | None
    budget: int | None  # what the tier's bots may add to the process (None: no limit)
    rlimit: int | None = None  # the RLIMIT_DATA set, in bytes
    cgroup: Path | None = None  # the cgroup whose memory.max holds the process
    cgroup_max: int | None = None
    recycle: int | None = None  # Celery's worker_max_memory_per_child, in bytes
    notes: tuple[str, ...] = ()  # what is not in force, and why

    @property
    def mechanisms(self) -> list[str]:
        held = []
        if self.rlimit is not None:
            held.append(f"setrlimit RLIMIT_DATA at {human_bytes(self.rlimit)}")
        if self.cgroup is not None:
            held.append(f"cgroup v2 memory.max {human_bytes(self.cgroup_max)} ({self.cgroup})")
        return held

    @property
    def in_force(self) -> bool:
        return bool(self.mechanisms)

    def describe(self) -> str:
        if self.budget is None:
            return f"no memory limit holds this process: {'; '.join(self.notes) or 'it serves no limited tier'}"
        held = " and ".join(self.mechanisms) or "nothing"
        text = (f"the {self.tier} tier's bots may add {human_bytes(self.budget)} ({self.budget:,} bytes) to this "
                f"process, held by {held}")
        if self.recycle:
            text += f"; Celery replaces it after an act once its peak resident size passed {human_bytes(self.recycle)}"
        return text + (f"; not in force: {'; '.join(self.notes)}" if self.notes else "")


_parent = {"tier": None, "cgroup": None, "recycle": None, "note": "cgroup v2: not a Celery worker's process"}
_limit: Limit | None = None


def current() -> Limit | None:
    """The limit this process was put under (None: it is not a tier's worker process)."""
    return _limit


def cgroup_wanted() -> bool:
    return environment.read("EXHIBITION_BOT_CGROUP") == "auto"  # read in the worker's parent, as it starts


def prepare_worker(queues, conf=None, pid: int | None = None, own: Path | None = None) -> str | None:
    """In the worker's parent, before its pool starts: the worker's tier (from its -Q queues), Celery's
    recycling of a pool process past its share, and the cgroup delegation where the machine allows it."""
    tier = worker_tier(queues)
    _parent.update(tier=tier, cgroup=None, recycle=None, note="")
    share = process_share(tier) if tier else None
    if share is None:
        return tier
    if conf is not None:
        if not conf.worker_max_memory_per_child:
            conf.worker_max_memory_per_child = share // 1024  # KiB, of the peak resident size
        _parent["recycle"] = conf.worker_max_memory_per_child * 1024
    if not cgroup_wanted():
        _parent["note"] = "cgroup v2: switched off (EXHIBITION_BOT_CGROUP=off)"
        return tier
    own = own or own_cgroup()
    try:
        if own is None:
            raise CgroupUnavailable("this machine has no cgroup v2 hierarchy")
        _parent["cgroup"] = delegate(own, pid or os.getpid())
    except CgroupUnavailable as why:
        _parent["note"] = f"cgroup v2: {why}"
    return tier


def hold_process(tier: str | None, pid: int | None = None) -> Limit:
    """Put this process under tier's limit for the rest of its life (a pool process, at its start)."""
    global _limit
    budget = memory_budget(tier) if tier else None
    if budget is None:
        _limit = Limit(tier, None, notes=(f"the {tier} tier has no memory limit" if tier else "no bot tier",))
        return _limit
    notes = [_parent["note"]] if _parent["note"] else []
    rlimit = data_size() + budget
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        rlimit = rlimit if hard == resource.RLIM_INFINITY else min(rlimit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (rlimit, rlimit))
    except (ValueError, OSError, AttributeError) as error:
        rlimit = None
        notes.append(f"setrlimit RLIMIT_DATA: {error}")
    cgroup = None
    share = process_share(tier)
    if _parent["cgroup"] is not None:
        try:
            cgroup = confine(_parent["cgroup"], pid or os.getpid(), share)
        except CgroupUnavailable as why:
            notes.append(f"cgroup v2: {why}")
    _limit = Limit(tier, budget, rlimit, cgroup, share if cgroup else None, _parent["recycle"], tuple(notes))
    return _limit


def start_worker_process() -> Limit | None:
    """A pool process starts: hold it to its worker's tier and log what holds it."""
    if _parent["tier"] is None:
        return None
    limit = hold_process(_parent["tier"])
    log.info("Bot worker process %s: %s", os.getpid(), limit.describe())
    return limit


# -- what the moderator reads ---------------------------------------------------------------------

def over_limit(name: str, tier: str | None, held: int) -> str:
    """Why a bot was stopped when its process hit its memory limit (or, with none, ran out)."""
    limit = current()
    if limit is not None and limit.in_force:
        return (f"Bot {name!r} went over its tier's memory limit while it played: the {limit.tier} tier's bots may "
                f"add {human_bytes(limit.budget)} ({limit.budget:,} bytes) to their worker process, held there by "
                f"{' and '.join(limit.mechanisms)}, and it held {human_bytes(held)} of it. {STOPPED}")
    return f"Bot {name!r} ran out of memory (MemoryError) while it played in the {tier} tier. {STOPPED}"


def lost_process(name: str, exception) -> str:
    """Why a bot was stopped when its worker process died under it (killed, or crashed)."""
    cgroup = _parent["cgroup"] is not None
    why = " The kernel kills a process over its cgroup memory limit so." if cgroup else ""
    return f"Bot {name!r}: its worker process died while it acted ({exception}).{why} {STOPPED}"
