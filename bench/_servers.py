"""Throwaway servers for bench/latency.py: a temp folder, a throwaway database, a redis-server of the
run's own (or Redis db 13), one or more Daphne processes, (with Redis)
one or more `manage.py conduct`, and the floor server; all stopped and removed again by Stack.close().

Everything listens on or talks to 127.0.0.1 only. Each process is started in its own session (so a
Ctrl-C in the terminal reaches only the benchmark, which then stops them in order) and, on Linux,
asks the kernel to SIGKILL it should the benchmark itself die without cleaning up.
"""
from __future__ import annotations

import asyncio
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_VENV_PY = ROOT / ".venv" / "bin" / "python"
PYTHON = str(_VENV_PY if _VENV_PY.exists() else Path(sys.executable))
DAPHNE = str(Path(PYTHON).parent / "daphne")
REDIS_URL = "redis://127.0.0.1:6379/13"
PG_HOST = "postgres://postgres@127.0.0.1:5432"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def flush_redis() -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=5)
    try:
        client.flushdb()
    finally:
        client.close()


def _pg_admin(statement) -> None:
    import psycopg

    with psycopg.connect(f"{PG_HOST}/postgres", autocommit=True, connect_timeout=5) as conn:
        conn.execute(statement)


class ServerError(RuntimeError):
    pass


def conductor_threads_cpu(process) -> float:
    """CPU seconds of the threads the conductor named for itself (game/conductor/threadname.py): in
    the embedded default they share the web process; the whole process when it is a conductor's own."""
    total = 0.0
    for thread in process.threads():
        try:
            name = Path(f"/proc/{process.pid}/task/{thread.id}/comm").read_text().strip()
        except OSError:
            continue
        if name.startswith("conductor"):
            total += thread.user_time + thread.system_time
    return total


class Stack:
    """One run's servers and their state. Use as a context manager; close() is safe to call twice."""

    def __init__(self, layer: str, db: str, tag: str, web: int = 1, conductors: int = 1, own_redis: bool = False):
        assert layer in ("memory", "redis") and db in ("sqlite", "postgres")
        self.layer, self.db = layer, db
        self.web, self.conductors = web, conductors
        self.redis_port = free_port() if own_redis else None
        self.dir = Path(tempfile.mkdtemp(prefix=f"exhibition-bench-{tag}-"))
        self.procs: dict[str, subprocess.Popen] = {}
        self.extra: dict[str, int] = {}  # other processes to measure (the bench's watcher processes), name -> pid
        self.traced: Path | None = None  # a folder: the Python servers run under bench/_traced.py, snapshots there
        self.pg_name: str | None = None
        self.redis_used = False
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env.update(DJANGO_SETTINGS_MODULE="exhibition.settings", LOG_LEVEL=os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
                   DEBUG="false",
                   SECRET_KEY=env.get("SECRET_KEY") or "bench-only-secret-key-" + "k" * 40, HTTPS="off",
                   PYTHONUNBUFFERED="1", EXHIBITION_BOT_DIR=str(self.dir / "bots"))
        if db == "postgres":
            self.pg_name = f"exhibition_bench_{os.getpid()}_{tag.replace('-', '_')}"
            env["DATABASE_URL"] = f"{PG_HOST}/{self.pg_name}"
        else:
            env["DATABASE_URL"] = f"sqlite:///{self.dir / 'bench.sqlite3'}"
        if layer == "redis":
            env["REDIS_URL"] = self.redis_url
        self.env = env
        self._pg_created = False

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0" if self.redis_port else REDIS_URL

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # -- preparing --------------------------------------------------------------------------------

    def prepare(self) -> None:
        """Flush Redis db 13, create the throwaway database and migrate it."""
        if self.redis_port:
            self.start_redis()
        elif self.layer == "redis":
            self.redis_used = True
            flush_redis()
        if self.pg_name:
            from psycopg import sql

            _pg_admin(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.pg_name)))
            self._pg_created = True
        self.run([PYTHON, "manage.py", "migrate", "--noinput"], "migrate", timeout=180)

    def run(self, args: list[str], name: str, timeout: float = 120) -> str:
        """Run a short Django child to completion; its stdout, or ServerError with its output."""
        done = subprocess.run(args, cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=_die_with_parent)
        if done.returncode != 0:
            raise ServerError(f"{name} failed ({done.returncode}):\n{(done.stdout + done.stderr)[-3000:]}")
        return done.stdout

    def django(self, script: str, arg: dict, name: str) -> dict:
        """Run a Django script (python -c) against this run's database; it prints JSON on its last line."""
        out = self.run([PYTHON, "-c", script, json.dumps(arg)], name)
        return json.loads(out.strip().splitlines()[-1])

    # -- servers ----------------------------------------------------------------------------------

    def start(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(self.dir / f"{name}.log", "ab")
        try:
            proc = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=_die_with_parent)
        finally:
            log.close()
        self.procs[name] = proc
        return proc

    def start_redis(self) -> None:
        """A redis-server of this run's own (a fault run kills and restarts it)."""
        self.start("redis", [shutil.which("redis-server") or "redis-server", "--port", str(self.redis_port),
                             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(self.dir)])
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", self.redis_port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise ServerError(f"redis-server did not start:\n{self.log_tail('redis')}")

    def kill(self, name: str) -> None:
        proc = self.procs.pop(name)
        proc.kill()
        proc.wait(10)

    def python(self, program: str, *args: str) -> list[str]:
        """The command line of a Python server: `program` run by the project's python (under
        bench/_traced.py when self.traced names a folder)."""
        traced = [str(ROOT / "bench" / "_traced.py"), str(self.traced)] if self.traced else []
        return [PYTHON, *traced, program, *args]

    def start_conductor(self, name: str) -> None:
        self.start(name, self.python("manage.py", "conduct"))

    def start_servers(self, ports: list[int]) -> None:
        """Daphne on each port (named daphne, daphne-2, ...) and, with Redis, the conductors."""
        for i, port in enumerate(ports):
            self.start("daphne" if i == 0 else f"daphne-{i + 1}",
                       self.python(DAPHNE, "-b", "127.0.0.1", "-p", str(port), "exhibition.asgi:application"))
        if self.layer == "redis":
            for i in range(self.conductors):
                self.start_conductor("conductor" if i == 0 else f"conductor-{i + 1}")

    def start_floor(self, ports: list[int]) -> None:
        for i, port in enumerate(ports):
            self.start(f"floor-{i + 1}", [PYTHON, str(ROOT / "bench" / "_floor.py"), str(port)])

    async def wait_ready(self, ports: list[int], timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        waiting = set(ports)
        while time.monotonic() < end:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    raise ServerError(f"{name} exited with {proc.returncode}:\n{self.log_tail(name)}")
            for port in list(waiting):
                try:
                    _, writer = await asyncio.open_connection("127.0.0.1", port)
                    writer.close()
                    waiting.discard(port)
                except OSError:
                    pass
            conductors = [n for n in self.procs if n.startswith("conductor")]
            if not waiting and all("Conductor listening" in self.log_tail(n) for n in conductors):
                return
            await asyncio.sleep(0.1)
        raise ServerError(f"servers not ready after {timeout:.0f}s:\n" +
                          "\n".join(self.log_tail(n) for n in self.procs))

    def pids(self) -> dict[str, int]:
        """Every process the stack measures, name -> pid: its servers and the extra ones."""
        return {**{n: p.pid for n, p in self.procs.items()}, **self.extra}

    def usage(self) -> dict:
        """Resident memory (bytes; "anon": of it, what no file backs) and CPU seconds so far of each server process."""
        import psutil

        out = {}
        for name, pid in self.pids().items():
            try:
                p = psutil.Process(pid)
                cpu = p.cpu_times()
                memory = p.memory_info()  # shared: the resident pages of files (code, libraries) and of shared memory
                out[name] = {"rss": memory.rss, "anon": memory.rss - memory.shared, "cpu": cpu.user + cpu.system,
                             "conductor_cpu": conductor_threads_cpu(p)}
            except psutil.Error:
                out[name] = None
        return out

    def memory_kinds(self) -> dict:
        """Each server process's resident memory by kind (bytes), read from its memory map: "main heap" (glibc's
        heap of the main thread), "thread heaps" (glibc's arenas of other threads: anonymous mappings on a 64 MiB
        boundary, the size they are reserved in), "other anonymous" (pymalloc's arenas, thread stacks, large
        blocks), "file pages" (code and libraries, which the kernel can read again)."""
        import psutil

        out = {}
        for name, pid in self.pids().items():
            kinds = dict.fromkeys(("main heap", "thread heaps", "other anonymous", "file pages"), 0)
            try:
                for region in psutil.Process(pid).memory_maps(grouped=False):
                    kinds["file pages"] += region.rss - region.anonymous
                    if region.path == "[heap]":
                        kinds["main heap"] += region.anonymous
                    elif region.path == "[anon]" and int(region.addr.split("-")[0], 16) % (64 << 20) == 0:
                        kinds["thread heaps"] += region.anonymous
                    else:
                        kinds["other anonymous"] += region.anonymous
            except psutil.Error:
                continue
            out[name] = kinds
        return out

    def log_tail(self, name: str, lines: int = 25) -> str:
        path = self.dir / f"{name}.log"
        try:
            text = path.read_text(errors="replace")
        except OSError:
            return ""
        return f"--- {name}.log (tail) ---\n" + "\n".join(text.splitlines()[-lines:])

    # -- cleaning up ------------------------------------------------------------------------------

    def stop_servers(self, keep: tuple = ("redis",)) -> None:
        """Stop the servers (not this run's own Redis, which the last dump may still need)."""
        procs = [self.procs.pop(n) for n in list(self.procs) if n not in keep]
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)

    def close(self) -> None:
        problems = []
        try:
            self.stop_servers(keep=())
        except Exception as e:  # keep cleaning up
            problems.append(f"stopping servers: {e}")
        if self.redis_used:
            try:
                flush_redis()
            except Exception as e:
                problems.append(f"flushing Redis db 13: {e}")
        if self._pg_created:
            try:
                from psycopg import sql

                _pg_admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.pg_name)))
                self._pg_created = False
            except Exception as e:
                problems.append(f"dropping database {self.pg_name}: {e}")
        keep = os.environ.get("BENCH_KEEP_LOGS")  # a folder to copy the servers' logs to, for a post-mortem
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            for log in self.dir.glob("*.log"):
                shutil.copy(log, Path(keep) / f"{self.dir.name}-{log.name}")
        shutil.rmtree(self.dir, ignore_errors=True)
        for problem in problems:
            print(f"cleanup: {problem}", file=sys.stderr)
