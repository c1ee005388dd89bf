"""The floor for bench/latency.py: the least any websocket server in Python can do for the same room.

A minimal plain-`websockets` server (no Django, no Channels, no channel layer, no database): clients
connect to /room/<n> and say hello, and when the bench sends the match's schedule on /control, each
room broadcasts the match's frames again, each of the same type and size at the same moment (from the
stored event log: every event, not only the words), to every client of the room with
`websockets.broadcast` (one encoding, written to each socket). `t` is when the frame was due, so the
bench measures them with the very client code it measures Exhibition with, in the same run, on the
same machine: the ratio of the two is what Exhibition's own work costs.

Run by the bench as a child process: python bench/_floor.py PORT
"""
from __future__ import annotations

import asyncio
import json
import random
import sys
import time


def now_ms() -> int:
    return int(time.time() * 1000)


class Floor:
    def __init__(self):
        self.rooms: dict[str, set] = {}

    async def handle(self, ws):
        path = ws.request.path
        if path == "/control":
            return await self.control(ws)
        room = self.rooms.setdefault(path.rsplit("/", 1)[-1], set())
        try:
            async for raw in ws:
                if json.loads(raw).get("type") == "hello":
                    room.add(ws)
                    await ws.send(json.dumps({"type": "snapshot", "data": {"seq": 0}}))
        finally:
            room.discard(ws)

    async def control(self, ws):
        from websockets.asyncio.server import broadcast

        schedule = json.loads(await ws.recv())["schedule"]  # [[seq, type, ms after the first, size], ...]

        async def play(clients: set):
            await asyncio.sleep(random.random() * 0.2)  # rooms start out of step, as matches do
            start = now_ms()
            index = 0
            for seq, kind, offset, size in schedule:
                index = 0 if kind == "question_started" else index
                due = start + offset
                await asyncio.sleep(max(0, due - now_ms()) / 1000)
                broadcast(clients, self.frame(seq, due, kind, index, size))
                index += kind == "word_revealed"

        await asyncio.gather(*(play(clients) for clients in list(self.rooms.values())))
        await ws.send(json.dumps({"type": "done"}))

    @staticmethod
    def frame(seq: int, t: int, kind: str, index: int, size: int) -> str:
        bare = {"seq": seq, "t": t, "type": kind, "data": {"index": index, "pad": ""}}
        bare["data"]["pad"] = "x" * max(0, size - len(json.dumps(bare, separators=(",", ":"))))
        return json.dumps(bare, separators=(",", ":"))


async def main(port: int):
    from websockets.asyncio.server import serve

    async with serve(Floor().handle, "127.0.0.1", port, ping_interval=None, max_queue=None):
        print("floor listening", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
