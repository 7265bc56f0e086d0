"""Alembic's environment: run the migrations on the connection koloda passes, or on ``-x db=URL``.

koloda opens the store and passes its connection, already in a transaction, in
``config.attributes["connection"]`` (:mod:`koloda.store.migrate`): the whole upgrade is that one
transaction. From the command line (``alembic -c src/koloda/store/migrations/alembic.ini -x db=URL ...``)
it opens the database named by ``-x db``.
"""

from __future__ import annotations

from logging.config import fileConfig

import sqlalchemy as sa
from alembic import context

from koloda.store.schema import metadata


def _run(connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,  # SQLite changes a column by copying its table; batch mode writes that
        transactional_ddl=True,  # koloda's SQLite connections run DDL inside the transaction
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    if context.config.config_file_name is not None:
        fileConfig(context.config.config_file_name)
    url = context.get_x_argument(as_dictionary=True).get("db")
    if not url:
        raise SystemExit("name the database: alembic -c .../alembic.ini -x db=sqlite:///scratch.db COMMAND")
    from koloda.store.sql import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            _run(connection)
            connection.commit()
    finally:
        engine.dispose()


main()
