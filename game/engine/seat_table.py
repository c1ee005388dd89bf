"""Every setting of a bot seat, once, as data: how the bot buzzes and its weight class.

A bot may sit on the computer's team or on a human team beside people (QANTA 2026's AI teammates,
qanta-org/qb-tournament-runner). Each bot seat carries these settings in match_created's seats; the
host's form builds its fields from this table and game/match_setup.py checks every value with
`checked`. A log written before the settings existed lacks them: `complete` fills in what such a seat
played as (it buzzed on its own, its class followed its tier), where the seats are folded and projected.
Pure: no Django.
"""
from __future__ import annotations

from dataclasses import dataclass

from bots.tiers import TIER_LIMITS

# How a bot buzzes (its "buzz_mode"): what the host page calls each mode.
BUZZ_MODES = (
    ("autonomous", "autonomous: buzzes on its own"),
    ("after_k", "autonomous after k words: its buzz counts only from word k on"),
    ("muted", "muted: never buzzes (its guesses are still recorded)"),
    ("semi", "semi: a human teammate presses its buzzer, and its answer is the team's"),
)
WEIGHT_CLASSES = (("lightweight", "lightweight"), ("midweight", "midweight"), ("heavyweight", "heavyweight"))
# A bot's weight class unless the host says otherwise: the class of its tier (QANTA 2026 by our tiers).
TIER_WEIGHT = {"500mib": "lightweight", "6gib": "midweight", "unlimited": "heavyweight"}
assert set(TIER_WEIGHT) == set(TIER_LIMITS), "every tier has a weight class"


class SeatSettingError(ValueError):
    """A bot seat's setting is out of range; the message says which seat, which setting and what is allowed."""


@dataclass(frozen=True)
class SeatSetting:
    key: str
    kind: str  # "choice" or "int"
    label: str  # what the host page calls it
    help: str
    default: object  # None: worked out from the seat (the weight class from its tier)
    choices: tuple = ()
    low: int | None = None
    high: int | None = None

    def check(self, value, where: str):
        if self.kind == "choice":
            if value in [choice for choice, _ in self.choices]:
                return value
            allowed = ", ".join(repr(choice) for choice, _ in self.choices)
            raise SeatSettingError(f"{where}: {self.label.lower()} must be one of {allowed}; got {value!r}.")
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            raise SeatSettingError(f"{where}: {self.label.lower()} must be a whole number from {self.low} to "
                                   f"{self.high}; got {value!r}.")
        return value


SETTINGS = {s.key: s for s in (
    SeatSetting("buzz_mode", "choice", "Buzz mode", "how the bot buzzes", "autonomous", choices=BUZZ_MODES),
    SeatSetting("buzz_after", "int", "After k words", "autonomous after k words: a buzz the bot decided before "
                "word k does not count (1: no gate)", 1, low=1, high=500),
    SeatSetting("weight_class", "choice", "Weight class", "the bot's class for QANTA 2026 scoring; empty: its "
                "tier's (500mib lightweight, 6gib midweight, unlimited heavyweight)", None, choices=WEIGHT_CLASSES),
)}


def default_of(setting: SeatSetting, seat: dict):
    if setting.key == "weight_class":
        return TIER_WEIGHT.get(seat.get("tier") or "unlimited", "heavyweight")
    return setting.default


def checked(seat: dict, given: dict) -> dict:
    """A bot seat's settings from what the host gave (a setting left out or None: its default), each
    checked; SeatSettingError says what to fix. A person's seat has none."""
    if seat.get("kind") != "bot":
        return {}
    unknown = set(given) - set(SETTINGS)
    where = f"Bot {seat.get('name') or seat.get('id')!r}"
    if unknown:
        raise SeatSettingError(f"{where}: {', '.join(sorted(unknown))} is not a bot seat setting.")
    return {key: s.check(given[key] if given.get(key) is not None else default_of(s, seat), where)
            for key, s in SETTINGS.items()}


def complete(seat: dict) -> dict:
    """A seat as the fold keeps it: a bot seat from a log before these settings gets what it played as."""
    if seat.get("kind") != "bot" or all(key in seat for key in SETTINGS):
        return seat
    return {**seat, **{key: default_of(s, seat) for key, s in SETTINGS.items() if key not in seat}}


def buzzes_alone(seat: dict, seen: int) -> str | None:
    """None when a bot's own buzz, decided with `seen` words read, counts; else why not, in a sentence."""
    mode = seat.get("buzz_mode", "autonomous")
    if mode == "muted":
        return f"{seat['name']} is muted: it never buzzes."
    if mode == "semi":
        return f"{seat['name']} buzzes only when a teammate presses its buzzer."
    if mode == "after_k" and seen < seat["buzz_after"]:
        return f"{seat['name']} may buzz only from word {seat['buzz_after']} on."
    return None
