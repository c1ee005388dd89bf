"""docker-compose.yml gives each limited tier's worker the budget its processes are held to (in the
environment the worker reads) and a container limit with room for each process's share (its own
512 MiB and the budget) and the Celery parent, no more, and no swap on top."""
from pathlib import Path

import yaml
from django.conf import settings

from bots.tiers import MEMORY_BUDGETS, WORKER_PROCESS_HEADROOM, parse_bytes
from bots.memory import process_share

COMPOSE = Path(settings.BASE_DIR) / "docker-compose.yml"


def megabytes(value: str) -> int:
    assert value.endswith("m"), f"write mem_limit in megabytes, like 3584m, not {value!r}"
    return int(value[:-1]) * 1024**2


def test_each_limited_tier_worker_has_room_for_its_budget_and_no_more():
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    for tier, budget in MEMORY_BUDGETS.items():
        worker = services[f"bots-{tier}"]
        command = worker["command"]
        processes = int(command[command.index("--concurrency") + 1])
        if budget is None:
            assert "mem_limit" not in worker and "memswap_limit" not in worker
            continue
        configured = parse_bytes(worker["environment"][f"EXHIBITION_BOT_MEMORY_{tier.upper()}"])
        assert configured == budget  # the worker enforces the budget the limit was sized for
        assert process_share(tier) == budget + WORKER_PROCESS_HEADROOM  # what each pool process is held to
        needed = WORKER_PROCESS_HEADROOM + processes * process_share(tier)
        assert megabytes(worker["mem_limit"]) == needed, tier
        assert worker["memswap_limit"] == worker["mem_limit"], tier
