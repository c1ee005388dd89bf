"""Two devices racing for one seat on two web processes: exactly one keeps it, whatever order each
process hears the claims in, and whichever clock runs ahead (game/live/seat_holders.py)."""
import itertools

import pytest

from game.live.seat_holders import CLOSE_TAKEN_OVER, SeatHolders


class Device:
    """A player's socket as the hub sees it: an id, the stamp of its claim, and whether it was closed."""

    def __init__(self, socket_id: str):
        self.socket_id, self.claim, self.closed = socket_id, None, None

    def shut(self, code, reason):
        self.closed = (code, reason)


def race(first_heard: str, stamps: dict) -> dict:
    """Devices a (process 1) and b (process 2) claim seat s7 with the given stamps; each process hears
    the other's claim (and any answer) in the order given. Returns the devices."""
    processes = {"a": SeatHolders(), "b": SeatHolders()}
    devices = {name: Device(f"sock-{name}") for name in processes}
    outbox = []
    for name in ("a", "b"):  # the order they claimed locally does not matter: each process has one socket
        processes[name].holders[("M1", "s7")] = devices[name]
        devices[name].claim = stamps[name]
        outbox.append((name, {"type": "hub.seat_claim", "match": "M1", "seat": "s7", "claim": list(stamps[name])}))
    if first_heard == "b":
        outbox.reverse()
    while outbox:  # the group delivers every message to both processes, the sender too
        sender, message = outbox.pop(0)
        for name, process in processes.items():
            answer = process.heard("M1", "s7", tuple(message["claim"]))
            if answer is not None:
                outbox.append((name, answer))
    return devices


@pytest.mark.parametrize("first_heard, stamps", [
    (order, {"a": a, "b": b}) for order, (a, b) in itertools.product(
        "ab", [((1000, "sock-a"), (1001, "sock-b")), ((1001, "sock-a"), (1000, "sock-b")),
               ((1000, "sock-a"), (1000, "sock-b"))])])
def test_of_two_devices_racing_exactly_the_newer_claim_keeps_the_seat(first_heard, stamps):
    devices = race(first_heard, stamps)
    winner = max(devices, key=lambda name: stamps[name])
    assert devices[winner].closed is None
    loser = devices["b" if winner == "a" else "a"]
    assert loser.closed == (CLOSE_TAKEN_OVER, "This seat is now playing on another device.")


def test_a_new_socket_in_the_same_process_takes_the_seat_over():
    here = SeatHolders()
    phone, laptop = Device("phone"), Device("laptop")
    assert here.claim(phone, "M1", "s7")["claim"][1] == "phone"
    message = here.claim(laptop, "M1", "s7")
    assert phone.closed[0] == CLOSE_TAKEN_OVER and laptop.closed is None
    assert here.heard("M1", "s7", tuple(message["claim"])) is None  # its own claim coming back changes nothing
    here.release(phone, "M1", "s7")  # the closed phone's disconnect does not unseat the laptop
    assert here.holders[("M1", "s7")] is laptop
