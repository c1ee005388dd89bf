"""Event routes: the host's pages under /host/events/, the public leaderboard under /events/."""
from django.urls import path

from . import views

urlpatterns = [
    path("host/events/", views.events_home, name="events"),
    path("host/events/<int:event_id>/", views.event_host, name="event_host"),
    path("host/events/<int:event_id>/teams", views.add_team, name="event_add_team"),
    path("host/events/<int:event_id>/teams/<int:team_id>/start", views.start_team_preliminary,
         name="event_start_preliminary"),
    path("host/events/<int:event_id>/final", views.start_event_final, name="event_start_final"),
    path("host/events/<int:event_id>/event.qbj", views.event_download, {"kind": "qbj"}, name="event_qbj"),
    path("host/events/<int:event_id>/report.html", views.event_download, {"kind": "report"}, name="event_report_file"),
    path("events/<int:event_id>/", views.event_board, name="event_board"),
]
