"""Tournament routes: the host's pages under /host/tournaments/, the public standings and room screens
under /tournaments/."""
from django.urls import path

from . import views

urlpatterns = [
    path("host/tournaments/", views.tournaments_home, name="tournaments"),
    path("host/tournaments/<int:tournament_id>/", views.tournament_host, name="tournament_host"),
    path("host/tournaments/<int:tournament_id>/rounds/<int:round_id>/start", views.start_next_round,
         name="tournament_start_round"),
    path("host/tournaments/<int:tournament_id>/playoffs", views.next_playoff_round, name="tournament_playoffs"),
    path("host/tournaments/<int:tournament_id>/tournament.json", views.tournament_download, {"kind": "json"},
         name="tournament_json"),
    path("host/tournaments/<int:tournament_id>/tournament.qbj", views.tournament_download, {"kind": "qbj"},
         name="tournament_qbj"),
    path("tournaments/<int:tournament_id>/", views.tournament_standings, name="tournament_standings"),
    path("tournaments/<int:tournament_id>/rooms/<int:room>/", views.tournament_room, name="tournament_room"),
]
