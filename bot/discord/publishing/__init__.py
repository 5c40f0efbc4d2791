"""How a host reply becomes Discord messages: the message policy (:mod:`bot.discord.publishing.policy`)."""
