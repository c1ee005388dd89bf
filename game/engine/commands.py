"""Every command in one table: who may send it, and the fields a socket frame of it may carry.

The engine's role check (rules.decide) and the sockets' frame check (game/live/client_frames.py) both read
this table, so a command cannot be allowed in one and unknown to the other. Every field is optional
here: the engine says what is missing, in words.
"""
from __future__ import annotations

MODERATOR = frozenset({"moderator"})
SYSTEM = frozenset({"system"})  # the conductor itself: its clock, joins it stored, bots that failed, the judge
PLAYER = frozenset({"player"})
BOT = frozenset({"bot"})
SEAT = frozenset({"player", "bot"})  # whoever sits in a seat: a person or a bot

# type -> (who may send it, {field: python type} for a socket frame, or None: never sent on a socket)
COMMANDS: dict[str, tuple[frozenset, dict | None]] = {
    "tick": (SYSTEM, None), "join": (SYSTEM, None), "bot_missed": (SYSTEM, None), "bot_stopped": (SYSTEM, None),
    "judge": (SYSTEM, None), "snippets": (SYSTEM, None), "voice_timings": (SYSTEM, None),
    "start": (MODERATOR, {}), "next": (MODERATOR, {}), "end": (MODERATOR, {}), "resume": (MODERATOR, {}),
    "reveal": (MODERATOR, {"word": int}),
    # "answer": the seq of the event that put the ruled answer on the floor (the console's floor_seq).
    # In a bonus, "part" (0-based) names the part ruled (game/engine/bonus.py).
    "rule": (MODERATOR, {"verdict": str, "heard": str, "answer": int, "reason": str, "public": bool, "part": int}),
    "read_part": (MODERATOR, {"part": int}),  # the moderator read this bonus part (the next one) aloud
    "undo": (MODERATOR, {"ruling": int}),
    "override": (MODERATOR, {"ruling": int, "verdict": str, "reason": str, "public": bool, "confirm": bool}),
    "adjust": (MODERATOR, {"team": str, "points": int, "reason": str, "public": bool, "scores_seq": int,
                           "confirm": bool}),
    "throw_out": (MODERATOR, {"reason": str, "public": bool, "question": int}),
    "pause": (MODERATOR, {"reason": str, "public": bool}),
    "kick": (MODERATOR, {"seat": str}),
    "voice": (MODERATOR, {"voice": str, "wpm": int}),  # reading aloud: the voice and its speed (engine/voice.py)
    "resolve_protest": (MODERATOR, {"protest": int, "outcome": str, "reason": str, "public": bool, "confirm": bool}),
    # "question" (its index) and "phase" name what a player's command was meant for: late ones are refused.
    # A buzz's "pressed": when the key was pressed, in server time as the phone estimates it (engine/buzzrace.py).
    "buzz": (SEAT, {"seen": int, "question": int, "phase": int, "pressed": int}),
    # A person's buzz for a semi bot on their own team (game/engine/seat_table.py): "bot" names its seat.
    "buzz_for": (PLAYER, {"bot": str, "seen": int, "question": int, "phase": int, "pressed": int}),
    "answer": (SEAT, {"text": str, "question": int}),
    "submit": (SEAT, {"text": str, "question": int, "phase": int}),
    "pass": (SEAT, {"question": int, "phase": int}),
    "bonus_answer": (SEAT, {"text": str, "question": int, "part": int}),  # a team's answer to a bonus part
    # A team's decision on a bonus part (own, consult or abstain) where the format has them: its captain's or the moderator's.
    "decide_part": (MODERATOR | PLAYER, {"decision": str, "part": int}),
    "chat": (PLAYER, {"text": str}),
    "leave": (PLAYER, {}),
    "protest": (PLAYER, {"ruling": int, "text": str}),  # the text: at most game/engine/protests.py MAX_PROTEST
    "bot_guess": (BOT, None),
}


def senders(kind: str) -> frozenset:
    """Who may send a command of this type."""
    return COMMANDS[kind][0]


def socket_commands(role: str) -> dict[str, dict]:
    """The commands a socket of this role may send, with their fields."""
    return {kind: fields for kind, (roles, fields) in COMMANDS.items() if fields is not None and role in roles}
