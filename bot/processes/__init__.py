"""Running meadhall as several processes: the shards a process serves (:mod:`bot.processes.shards`),
a cluster of bot processes (:mod:`bot.processes.cluster`), and the pool of worker processes for
pictures and search players (:mod:`bot.processes.cpu`)."""
