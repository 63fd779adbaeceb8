"""A client of the room, not part of it: bots that play over the public WebSocket protocol
exactly as the browser page does (`client.py`). The room never imports this package; its
`bots` management command (`manage.py bots`, an app only for that), the tests and the
benchmarks do."""
