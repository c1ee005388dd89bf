"""The floor for bench/latency.py: the least any websocket server in Python can do for the same room.

A minimal plain-`websockets` server (no Django, no Channels, no channel layer, no database): clients
connect to /room/<n> and say hello, and when the bench says go on /control, each room broadcasts
the same number of frames, of the same size, at the same rate as the match it stands for, to every
client of the room with `websockets.broadcast` (one encoding, written to each socket). Frames look
like the match's word frames ({"seq", "t", "type": "word_revealed", "data"}), `t` being when the frame
was due, so the bench measures them with the very client code it measures Exhibition with, in the
same run, on the same machine: the ratio of the two is what Exhibition's own work costs.

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

        order = json.loads(await ws.recv())
        frames, interval, size = order["frames"], order["interval_ms"], order["size"]
        padding = "x" * max(0, size - len(self.frame(1, 0, 0, "")))

        async def play(name: str, clients: set):
            await asyncio.sleep(random.random() * interval / 1000)  # rooms start out of step, as matches do
            start = now_ms()
            for seq in range(1, frames + 1):
                due = start + (seq - 1) * interval
                await asyncio.sleep(max(0, due - now_ms()) / 1000)
                broadcast(clients, self.frame(seq, due, seq - 1, padding))

        await asyncio.gather(*(play(name, clients) for name, clients in list(self.rooms.items())))
        await ws.send(json.dumps({"type": "done"}))

    @staticmethod
    def frame(seq: int, t: int, index: int, padding: str) -> str:
        return json.dumps({"seq": seq, "t": t, "type": "word_revealed",
                           "data": {"index": index, "word": "river", "pad": padding}}, separators=(",", ":"))


async def main(port: int):
    from websockets.asyncio.server import serve

    async with serve(Floor().handle, "127.0.0.1", port, ping_interval=None, max_queue=None):
        print("floor listening", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
