"""Seeded games played to the end for people to look at: the README's sample pictures
(:mod:`bot.demos.samples`, :mod:`bot.demos.records`) and ``meadhall demo`` (:mod:`bot.demos.vikings`,
:mod:`bot.demos.brianboru`)."""
