"""Bot kinds for tests only: one keeps `grow_mib` MiB more on every act, as a bot that leaks would;
one kills its own process as it acts.

Plugged in by name where a test needs them: EXHIBITION_BOT_KINDS=tests.bots.growing.GrowingBot for a
worker process, bots.kinds.plug_in in the test's own process."""
import os
import signal

from bots.base_bot import BaseBot
from bots.protocol import Act

MIB = 1024**2


class GrowingBot(BaseBot):
    kind = "growing"

    def __init__(self, config, artefact_dir=None, name=""):
        super().__init__(config, artefact_dir, name)
        self.grow = int(float(self.config.get("grow_mib", 50)) * MIB)
        self.kept: list[bytes] = []

    def act(self, query):
        self.kept.append(b"g" * self.grow)  # written, so resident too, not only reserved
        return Act(guess=f"grown {len(self.kept)}", confidence=0.1, buzz=False)


class KilledBot(BaseBot):
    """Its act kills its own process with SIGKILL, as the kernel does to a process past its cgroup's memory.max."""

    kind = "killed"

    def act(self, query):
        os.kill(os.getpid(), signal.SIGKILL)
