"""The score of a game of Thousand played with real cards: the score file, the tables and the sheet.

Apart from the card game: these modules use the score engine (:mod:`koloda.thousand.scoring`) only.
:mod:`~koloda.thousand.sheet.scorefile` reads and writes the JSON Lines score file
(docs/thousand-score-file.md), :mod:`~koloda.thousand.sheet.table` prints the seed's score table (Markdown,
CSV, JSON, and for the web pages), :mod:`~koloda.thousand.sheet.terminal` is the interactive sheet of
``koloda thousand sheet`` (kept in the one store, so the browser's sheet page continues it), and
:mod:`~koloda.thousand.sheet.cli` adds ``score`` and ``sheet`` to ``koloda thousand``.
"""
