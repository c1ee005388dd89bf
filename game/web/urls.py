"""The addresses of the pages: host, import, report, join, play, moderate, watch, the buzzer station, the spoken words, the archive, replay, box score and exports."""
from django.urls import path

from game.web import views, views_archive, views_host, views_import, views_match, views_station
from game.report import views as report_views
from game.speech import views as speech_views

urlpatterns = [
    path("", views.home, name="home"),
    path("host/", views_host.host_home, name="host"),
    path("host/m/<str:code>/", views_host.host_match, name="host_match"),
    path("host/import/", views_import.host_import, name="host_import"),
    path("host/report", report_views.event_report, name="event_report"),
    path("host/bots/remote", views_host.register_remote_bot, name="register_remote_bot"),
    path("join", views_match.join_code, name="join_code"),
    path("m/<str:code>/join", views_match.join, name="join"),
    path("m/<str:code>/play", views_match.play, name="play"),
    path("m/<str:code>/moderate", views_match.moderate, name="moderate"),
    path("m/<str:code>/watch", views_match.watch, name="watch"),
    path("m/<str:code>/station", views_station.station, name="station"),
    path("m/<str:code>/speech/<str:key>.wav", speech_views.question_audio, name="question_audio"),
    path("archive/", views_archive.archive, name="archive"),
    path("host/m/<str:code>/hide", views_archive.toggle_hidden, name="toggle_hidden"),
    path("m/<str:code>/replay", views_archive.replay_page, name="replay"),
    path("m/<str:code>/replay.json", views_archive.replay_data, name="replay_data"),
    path("m/<str:code>/boxscore", views_archive.boxscore_page, name="boxscore"),
    path("m/<str:code>/export/<str:name>", views_archive.export, name="export"),
]
