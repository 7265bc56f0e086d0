"""The store's tests: ``fixtures/make_fixtures.py`` runs only on the code of koloda 0.1.0, never here."""

collect_ignore = ["fixtures/make_fixtures.py"]
