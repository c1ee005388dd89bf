"""URL routes for the web pages."""
from django.contrib import admin
from django.urls import include, path

handler500 = "serving.busy.server_error"  # a database that did not answer in time: "busy, try again" (503)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("game.web.urls")),
    path("", include("events.urls")),
    path("", include("tournaments.urls")),
    path("", include("broadcast.urls")),
]
