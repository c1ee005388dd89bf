"""The broadcast's pages (the feed itself is routed in broadcast/feed_routes.py)."""
from django.urls import path

from broadcast import views

urlpatterns = [
    path("m/<str:code>/overlay", views.overlay, name="overlay"),
    path("host/m/<str:code>/broadcast", views.host_broadcast, name="host_broadcast"),
]
