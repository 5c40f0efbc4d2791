"""The offline table: the host in a terminal, chat-like lines in, narration and pictures out
(:mod:`bot.offline.table`)."""
