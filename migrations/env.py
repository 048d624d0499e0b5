"""Alembic's environment for the score book, run by `flask db …`, `init-db` and `make run`."""

import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

from scorekeeper.platform import database

config = context.config
# Keep the app's own logging when run from inside it (tests, `make run`); `flask db` logs here.
if config.config_file_name is not None and not logging.getLogger().handlers:
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_db = current_app.extensions["migrate"].db


def run_migrations_offline():
    """Write the SQL for a database this machine cannot reach (`flask db upgrade --sql`)."""
    url = target_db.engine.url.render_as_string(hide_password=False)
    context.configure(url=url, target_metadata=target_db.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    """Migrate in one transaction: one process at a time, adopting a pre-migration database."""

    def skip_empty_autogenerate(context, revision, directives):
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []

    conf_args = dict(current_app.extensions["migrate"].configure_args)
    conf_args.setdefault("process_revision_directives", skip_empty_autogenerate)

    with database.migrating(target_db.engine) as connection:
        context.configure(connection=connection, target_metadata=target_db.metadata, **conf_args)
        with context.begin_transaction():
            database.adopt_legacy(connection, context)
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
