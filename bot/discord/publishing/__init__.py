"""How a host reply becomes Discord messages: which message it goes to (``policy``), its text
(``messages``: names escaped, mentions, splitting), posting it into the table's messages
(``posting``), and answering the interaction that asked (``answering``)."""
