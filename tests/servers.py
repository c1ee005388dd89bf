"""Real server processes for integration tests: free ports, start/stop by pid, wait for a port."""
import asyncio
import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Processes:
    """The servers a test starts, stopped by their own pids at the end."""

    def __init__(self, env: dict, logs: Path):
        self.env, self.logs, self.running = env, logs, []

    def start(self, name: str, *args: str) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "ab")
        proc = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.running.append(proc)
        return proc

    def log(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"

    def stop_all(self):
        for proc in self.running:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


async def wait_for_port(port: int, what: str = "Daphne"):
    for _ in range(300):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.1)
    raise AssertionError(f"{what} did not open port {port}; see its log")


