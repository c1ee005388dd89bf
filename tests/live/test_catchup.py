"""The per-process state cache behind snapshots (game/live/catchup.py): a thousand sockets resyncing at
once share reads of the event log, and none of them gets a state older than when it asked."""
import asyncio

from game.live import catchup
async def test_callers_share_reads_and_none_gets_a_state_from_before_it_asked(monkeypatch):
    stored = {"seq": 1}
    reads = []
    gate = asyncio.Event()

    async def fold(state, match_id):
        reads.append(stored["seq"])
        seen = stored["seq"]  # what the log holds when the read starts
        if len(reads) == 1:
            await gate.wait()  # the first read is slow
        return {"seq": seen}

    monkeypatch.setattr(catchup, "_fold_onto", fold)
    cache = catchup.StateCache()
    first = asyncio.create_task(cache.state(7))
    while not reads:
        await asyncio.sleep(0)
    stored["seq"] = 2  # an event is stored while the first read is under way ...
    later = [asyncio.create_task(cache.state(7)) for _ in range(1000)]  # ... and then a thousand sockets ask
    await asyncio.sleep(0)
    gate.set()
    assert (await first)["seq"] == 1
    assert all(s["seq"] == 2 for s in await asyncio.gather(*later)), "nobody who asked after seq 2 gets seq 1"
    assert len(reads) == 2, f"a thousand callers shared one read: {len(reads)} reads"
