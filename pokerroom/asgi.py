"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets are wrapped in AllowedHostsOriginValidator (a page from another origin cannot open a
socket with our cookies) and AuthMiddlewareStack (consumers know who is asking).
"""
from __future__ import annotations

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
# Database work runs in threads beside the event loop that delivers every socket's events. At
# the default 5 ms switch interval a busy thread keeps the loop waiting for the GIL at each of
# its steps; 0.5 ms lets the loop in promptly.
sys.setswitchinterval(float(os.environ.get("ROOM_SWITCH_INTERVAL", "0.0005")))
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from pokerroom.routing import websocket_urlpatterns  # noqa: E402

# Everything imported so far lives as long as the process: keep it out of the collector's
# full passes, and collect young objects less often (a busy server allocates many per
# message), so a collection no longer stalls every socket of the process for tens of ms.
gc.freeze()
gc.set_threshold(*(int(n) for n in os.environ.get("ROOM_GC_THRESHOLD", "50000,20,100").split(",")))

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
