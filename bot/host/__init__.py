"""The host service split by concern (issue 18); :mod:`bot.host.service` is its import facade and
lists which module holds what."""
