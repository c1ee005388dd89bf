"""Spectators for bench/latency.py, in a process of their own: a thousand watchers are a thousand
phones, not one program that also plays the match. A client process reading a thousand sockets
takes a good part of a second to read one burst of frames; in the players' process that delayed
their own acks and frames by as much, and measured the client rather than the server.

Run by the bench: python bench/_watchers.py SPEC.json. The spec lists the sockets ([port, path,
name, match]) and whether they reconnect. It prints "joined" once all are open, then a line
{"at": {match: lowest seq every socket of the match has}} whenever that changes, and on "stop" on
standard input closes the sockets, writes every socket's frames to the spec's "out" file and prints
"done".
"""
from __future__ import annotations

import asyncio
import json
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True

from _client import LoopLag, connect, open_all  # noqa: E402

REPORT_S = 0.02


async def main(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    makers = [lambda port=port, path=path, name=name, match=match:
              connect(port, path, name, "spectator", None, spec["reconnect"], match)
              for port, path, name, match in spec["sockets"]]
    try:
        socks = await open_all(makers, "watchers")
    except Exception as problem:
        print(json.dumps({"failed": str(problem)}), flush=True)
        return
    print("joined", flush=True)
    probe = LoopLag()
    probe.start()
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    stop = asyncio.get_running_loop().create_task(asyncio.to_thread(sys.stdin.readline))
    reported = None
    while not stop.done():
        at = {}
        for s in socks:
            at[s.match] = min(at.get(s.match, s.last_seq), s.last_seq)
        if at != reported:
            print(json.dumps({"at": at}), flush=True)
            reported = at
        await asyncio.wait([stop], timeout=REPORT_S)
    end = resource.getrusage(resource.RUSAGE_SELF)
    await probe.stop()
    out = [{"name": s.name, "audience": "spectator", "match": s.match, "snapshots": s.snapshots, "events": s.events,
            "join_ms": s.join_ms, "closes": list(s.closes), "last_seq": s.last_seq,
            "closed_by": s.closed_by if s.reader.done() else None,
            "frame_bytes": s.frame_bytes if i == 0 else {}} for i, s in enumerate(socks)]
    Path(spec["out"]).write_text(json.dumps({"socks": out, "loop_lag": probe.samples,
                                             "cpu": (end.ru_utime + end.ru_stime) - (cpu.ru_utime + cpu.ru_stime)}))
    await asyncio.gather(*(s.close() for s in socks), return_exceptions=True)
    print("done", flush=True)


if __name__ == "__main__":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(main(sys.argv[1]))
