"""The host's forms for an event: the event itself, a team with its players, and the computer team's
bots for a match (the same bot choices as the new-match form)."""
from __future__ import annotations

from django import forms

from game.engine.api import MATCH_RULES, PRESETS
from game.web.forms import NewMatchForm, name_field
from game.models import NAME_MAX_LENGTH, Packet, Question, check_name
from game.match_setup import new_seed

from .models import FINAL_QUESTIONS, MAX_PRELIM_MINUTES, MAX_TEAMS, TEAM_SIZE_CAP, Event, EventTeam

MAX_PLAYERS_TEXT = 2000  # characters of the players box, checked before it is split
# The rules an event sets for its matches, with the ranges and choices of the rule table.
QUESTIONS, SEATS, STOP, REVEAL, SPEED = (MATCH_RULES[key] for key in (
    "questions", "team_seats", "stop_after_questions", "reveal", "words_per_minute"))


class EventForm(forms.Form):
    name = forms.CharField(max_length=200, initial="Exhibition event")
    format_name = forms.ChoiceField(label="Format", choices=[(p["name"], p["label"]) for p in PRESETS.values()])
    packets = forms.ModelMultipleChoiceField(queryset=Packet.objects.order_by("title"), label="Question pool",
                                             widget=forms.CheckboxSelectMultiple,
                                             help_text="one packet or several; their questions of the format's kind")
    prelim_minutes = forms.IntegerField(label="Preliminary minutes", required=False, min_value=1,
                                        max_value=MAX_PRELIM_MINUTES,
                                        help_text="the preliminary stops at the first question boundary after this")
    prelim_questions = forms.IntegerField(label="or preliminary questions", required=False, min_value=STOP.low,
                                          max_value=STOP.high, help_text="give minutes or questions, not both")
    final_questions = forms.IntegerField(label="Final questions", initial=FINAL_QUESTIONS, min_value=QUESTIONS.low,
                                         max_value=QUESTIONS.high)
    team_size_cap = forms.IntegerField(label="Players per team at most", initial=TEAM_SIZE_CAP, min_value=SEATS.low,
                                       max_value=SEATS.high)
    draw = forms.ChoiceField(label="Questions", choices=Event.Draw.choices, initial=Event.Draw.FRESH,
                             widget=forms.RadioSelect)
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**53 - 1,
                              help_text="shuffles the pool; empty: a new seed")
    reveal = forms.ChoiceField(choices=REVEAL.choices)
    words_per_minute = forms.IntegerField(min_value=SPEED.low, max_value=SPEED.high, initial=SPEED.default)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if (data.get("prelim_minutes") is None) == (data.get("prelim_questions") is None):
            raise forms.ValidationError("Give the preliminary's length in minutes or in questions (one of the two).")
        kind = PRESETS[data["format_name"]]["question_kind"]
        if not Question.objects.filter(packet__in=data["packets"], kind=kind).exists():
            self.add_error("packets", f"These packets have no {kind} questions, the kind the "
                                      f"{PRESETS[data['format_name']]['label']} format plays; choose others.")
        return data

    def save(self) -> Event:
        data = self.cleaned_data
        event = Event.objects.create(
            name=data["name"], format_name=data["format_name"], prelim_minutes=data["prelim_minutes"],
            prelim_questions=data["prelim_questions"], final_questions=data["final_questions"],
            team_size_cap=data["team_size_cap"], draw=data["draw"],
            seed=new_seed() if data["seed"] is None else data["seed"],
            overrides={"reveal": data["reveal"], "words_per_minute": data["words_per_minute"]})
        event.packets.set(data["packets"])
        return event


class TeamForm(forms.Form):
    name = name_field("Team name")
    players = forms.CharField(required=False, max_length=MAX_PLAYERS_TEXT, widget=forms.Textarea(attrs={"rows": 4}),
                              help_text=f"one name a line, each up to {NAME_MAX_LENGTH} characters")

    def __init__(self, event: Event, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        self.fields["players"].help_text += f"; at most {event.team_size_cap} players"

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Type the team's name.")
        if self.event.teams.filter(name__iexact=name).exists():
            raise forms.ValidationError(f"The event has a team called {name} already; choose another name.")
        if self.event.teams.count() >= MAX_TEAMS:
            raise forms.ValidationError(f"An event has at most {MAX_TEAMS} teams.")
        return name

    def clean_players(self):
        names = [" ".join(line.split()) for line in self.cleaned_data["players"].splitlines()]
        names = list(dict.fromkeys(n for n in names if n))
        if len(names) > self.event.team_size_cap:
            raise forms.ValidationError(f"A team has at most {self.event.team_size_cap} players in this event; "
                                        f"this list has {len(names)}.")
        for name in names:
            try:
                check_name(name)
            except forms.ValidationError:
                raise forms.ValidationError(f"{name[:40]}… is longer than {NAME_MAX_LENGTH} characters; shorten it.") from None
        return names

    def save(self) -> EventTeam:
        return EventTeam.objects.create(event=self.event, name=self.cleaned_data["name"],
                                        players=self.cleaned_data["players"])


class BotsForm(forms.Form):
    """The computer team's bots for one match: the new-match form's bot choices, one per tier."""

    _bot_seats = NewMatchForm._bot_seats

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        offered = NewMatchForm()
        # The bot of each tier; an event's bots play for the computer with their seats' defaults.
        self.fields.update({field.name: offered.fields[field.name] for field in offered.bot_fields})
        self.bot_fields = [self[name] for name in self.fields]

    def seats(self):
        return self._bot_seats(self.cleaned_data)
