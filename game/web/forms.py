"""Forms a person fills in: the host's new match, and a player's join.

Each form turns what was typed into the arguments of game.match_setup, and says in a sentence what to fix
when something is out of range.
"""
from __future__ import annotations

from django import forms

from bots.budgets import TierExceeded
from bots.tiers import TIER_LIMITS
from bots.errors import BotError
from bots.models import Bot

from game.engine.api import PRESETS, SEAT_SETTINGS, SeatSettingError, seat_settings
from game.models import COMPUTER_TEAMS, NAME_MAX_LENGTH, Match, Packet, Team, name_length
from game.seating import bot_seat
from game.match_setup import NO_BOT, SeatSpec, TeamSpec

SIMULATED = "simulated"


def normalise_code(raw: str) -> str:
    return "".join(raw.split()).upper()


def name_field(label: str, **kwargs) -> forms.CharField:
    """A player's or a team's name, at most NAME_MAX_LENGTH characters (the box says so and stops there)."""
    kwargs.setdefault("help_text", f"Up to {NAME_MAX_LENGTH} characters.")
    attrs = {"maxlength": NAME_MAX_LENGTH, **kwargs.pop("attrs", {})}
    return forms.CharField(label=label, validators=[name_length], widget=forms.TextInput(attrs=attrs), **kwargs)


BOT_TEAMS = (("2", "team 2"), ("1", "team 1"))


def _setting_field(tier: str, setting) -> forms.Field:
    """A bot seat setting's field, from the seat table: its choices (empty: the default) or its range."""
    label = f"{tier} bot: {setting.label.lower()}"  # what each setting means is said once under the rows
    if setting.kind == "choice":
        empty = "its tier's" if setting.default is None else setting.default
        return forms.ChoiceField(label=label, required=False,
                                 choices=[("", empty)] + [(v, v) for v, _ in setting.choices if v != setting.default])
    return forms.IntegerField(label=label, required=False, min_value=setting.low, max_value=setting.high,
                              widget=forms.NumberInput(attrs={"placeholder": str(setting.default)}))


class NewMatchForm(forms.Form):
    """A match: packet, format, two teams and the bot seats. The format's rules are fields of
    game/web/forms_host.py's HostMatchForm, built from the rule table."""

    title = forms.CharField(max_length=200, initial="Exhibition match")
    packet = forms.ModelChoiceField(queryset=Packet.objects.order_by("title"), empty_label=None)
    format_name = forms.ChoiceField(label="Format", choices=[(p["name"], p["label"]) for p in PRESETS.values()])
    team_1 = name_field("Team 1 (humans)", initial="Humans")
    team_2 = name_field("Team 2 (computer)", initial="Computer")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.bot_fields = []
        self.bot_rows = []  # per tier: the bot, where it sits, and its seat settings (game/engine/seat_table.py)
        for tier in TIER_LIMITS:
            name = f"bot_{tier}"
            choices = [("", "no bot"), (SIMULATED, "simulated opponent (60% accuracy)")]
            choices += [(str(b.pk), b.display_name) for b in Bot.objects.filter(tier=tier)]
            self.fields[name] = forms.ChoiceField(label=f"{tier} bot", choices=choices, required=False)
            self.fields[f"{name}_team"] = forms.ChoiceField(label=f"{tier} bot plays for", choices=BOT_TEAMS,
                                                            required=False, initial="2")
            for key, setting in SEAT_SETTINGS.items():
                self.fields[f"{name}_{key}"] = _setting_field(tier, setting)
            self.bot_fields.append(self[name])
            self.bot_rows.append([self[name], self[f"{name}_team"], *(self[f"{name}_{key}"] for key in SEAT_SETTINGS)])
        # What the bot seat settings mean, said once: (label, help, values) from the seat table.
        self.seat_setting_notes = [(setting.label, setting.help, ", ".join(text for _, text in setting.choices)
                                    if setting.kind == "choice" else f"{setting.low} to {setting.high}")
                                   for setting in SEAT_SETTINGS.values()]
        self.fields["team_2_people"] = forms.BooleanField(
            label="People on team 2 too", required=False,
            help_text="team 2 is a human team: its bots are its people's teammates (QANTA 2026)")
        self.fields["humans_only"] = forms.BooleanField(
            label="Humans only", required=False, help_text="no computer: both teams are people")

    def _check_computer(self, data) -> None:
        """A match has a bot unless the host ticked "humans only" (and then none)."""
        if data["humans_only"] and data["bot_seats"]:
            self.add_error("humans_only", "Humans only, yet a bot is chosen: untick this or choose no bot.")
        elif not data["humans_only"] and not data["bot_seats"] and not self.errors:
            self.add_error("humans_only", f"{NO_BOT} Or tick “Humans only” for a match of people alone.")

    def _bot_seats(self, data) -> list[SeatSpec]:
        seats = []
        for tier in TIER_LIMITS:
            choice = data.get(f"bot_{tier}")
            if not choice:
                continue
            try:
                seat = bot_seat(tier, None if choice == SIMULATED else Bot.objects.get(pk=int(choice)))
            except (TierExceeded, BotError) as exc:
                self.add_error(f"bot_{tier}", str(exc))
                continue
            seat.play = {key: data.get(f"bot_{tier}_{key}") for key in SEAT_SETTINGS
                         if data.get(f"bot_{tier}_{key}") not in (None, "")}
            try:  # the engine's own check of the seat's settings, with its sentence
                seat_settings({"kind": "bot", "name": seat.name, "tier": tier}, seat.play)
            except SeatSettingError as exc:
                self.add_error(f"bot_{tier}_buzz_mode", str(exc))
            seats.append(seat)
        return seats

    def teams(self) -> list[TeamSpec]:
        data = self.cleaned_data
        on = lambda team: [seat for seat in data["bot_seats"] if (data.get(f"bot_{seat.tier}_team") or "2") == team]  # noqa: E731
        second = "human" if data.get("team_2_people") else ""  # empty: the computer's when a bot sits on it
        return [TeamSpec(name=data["team_1"], seats=on("1"), kind="human"),
                TeamSpec(name=data["team_2"], seats=on("2"), kind=second)]


class JoinCodeForm(forms.Form):
    """The code shown on the big screen; the next step asks for a name and a team."""

    code = forms.CharField(max_length=12, label="Join code",
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "autofocus": True, "placeholder": "ABC123"}))

    def clean_code(self):
        code = normalise_code(self.cleaned_data["code"])
        match = Match.objects.filter(code=code).first()
        if match is None:
            raise forms.ValidationError(
                f"No match has the code {code}. Check the code on the big screen and type it again."
            )
        if match.status == Match.Status.FINISHED:
            raise forms.ValidationError(f"Match {code} has finished; ask the host for the code of the next one.")
        self.match = match
        return code


def human_teams(match: Match):
    """The teams people may join: the human teams (an AI teammate may sit on one), not the computer's."""
    return match.teams.exclude(COMPUTER_TEAMS).distinct().order_by("position")


class JoinForm(forms.Form):
    """A player's name and one of the human teams."""

    name = name_field("Your name", attrs={"autocomplete": "nickname", "autofocus": True, "aria-describedby": "name-help"},
                      help_text=f"Up to {NAME_MAX_LENGTH} characters; your team and the big screen see it.")
    team = forms.ModelChoiceField(
        queryset=Team.objects.none(), empty_label=None, widget=forms.RadioSelect,
        error_messages={"invalid_choice": "That team is the computer's (or not in this match); pick one of the "
                                          "human teams below."})

    def __init__(self, match: Match, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = human_teams(match)
        self.fields["team"].label_from_instance = lambda team: team.name
        only = list(self.fields["team"].queryset[:2])
        if len(only) == 1:  # one team people may join (the other is the computer's): chosen already
            self.fields["team"].initial = only[0].pk

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Type the name your team will see.")
        return name
