"""meadhall's slash commands by group, each a mixin of :class:`bot.discord.cog.MeadhallCog` over
:class:`bot.discord.publishing.answering.Answering`: ``lobby`` (join, leave, start), ``table`` (the
``/table`` group), ``looking`` (board, hand), ``help`` (rules, help), ``records`` (the ``/records``
group), ``hint`` (``/hint``, issue 25), ``moves`` (the verbs, ``/move`` and the moves made by components)."""
