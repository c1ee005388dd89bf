"""How Exhibition is served: the one place that knows the web servers, channel layers and network.

Adapters to Daphne, Twisted and channels-redis internals (server_internals, redis_layer; checked against
pinned versions by tests/test_server_internals.py), the in-process channel layer, who a request is behind
trusted proxies, hall mode's LAN addresses, socket limits, the busy and lockout pages, and the table of
the environment variables every process reads (environment). It imports only Django and libraries,
never the project's own packages, so every layer above may use it.
"""
