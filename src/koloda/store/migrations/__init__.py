"""The store's schema migrations (Alembic): ``env.py`` and one file a revision in ``versions/``.

koloda runs them itself when it opens a store (:func:`koloda.store.migrate.upgrade`); the developer's
command line is ``alembic -c src/koloda/store/migrations/alembic.ini`` (docs/architecture.md, "Storage").
"""
