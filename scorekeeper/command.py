"""The `scorekeeper` program that installing the package gives (pyproject.toml's
[project.scripts]), the same on Linux, macOS and Windows, with no `make`:

    scorekeeper serve            what `make run` starts (the same options and start message)
    scorekeeper where            where the data lives
    scorekeeper db upgrade       bring the database to this version (`init-db`)
    scorekeeper backup FILE      and `restore FILE`, `export`, `import`, `rules …`, the app's
                                 commands (`scorekeeper.cli`, under `flask --app scorekeeper` too)
    scorekeeper config nginx     and `config systemd`: a club server's files (`deployment`)

`--data FOLDER` (or the environment's SCOREKEEPER_DATA) chooses the data folder; else it is the
checkout's `instance/`, or, installed, the platform's user data folder
(`settings.instance_folder`). `python -m scorekeeper.command` is the same program.
"""

from __future__ import annotations

import os
import sys
from importlib import metadata
from pathlib import Path

import click
from flask import current_app
from flask.cli import FlaskGroup, with_appcontext
from flask_babel import gettext as _

from . import cli, create_app, deployment, serve
from .platform import settings
from .platform.database import db

DISTRIBUTION = "liverpool-scorekeeper"


def _choose_data(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    """`--data FOLDER`: the data folder of every app this run makes, commands' and server's."""
    if value is not None:
        os.environ[settings.DATA_VARIABLE] = str(value.expanduser().resolve())


def _version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # a checkout run without installing it
        return "unknown"


class Scorekeeper(FlaskGroup):
    """Flask's command group on `create_app`, with the app's commands and this module's, and
    none of Flask's own (`run`, `shell`, `routes`) or its `--app`, `--env-file`, `--debug`."""

    def __init__(self) -> None:
        super().__init__(
            name="scorekeeper",
            help="Liverpool Scorekeeper: serve the score book, back it up and restore it, and "
            "write a club server's configuration files.",
            create_app=create_app,
            add_default_commands=False,
            add_version_option=False,
            load_dotenv=False,
            set_debug_flag=False,
            params=[
                click.Option(
                    ["--data"],
                    type=click.Path(file_okay=False, path_type=Path),
                    envvar=settings.DATA_VARIABLE,
                    callback=_choose_data,
                    expose_value=False,
                    is_eager=True,
                    help="The data folder (database, keys, certificates, config.py).",
                ),
                click.Option(
                    ["--version"],
                    is_flag=True,
                    expose_value=False,
                    is_eager=True,
                    callback=lambda ctx, param, value: value and ctx.exit(print(_version())),
                    help="Show the version and exit.",
                ),
            ],
        )
        self.params = [p for p in self.params if p.name not in ("app", "env_file", "debug")]

    def _load_plugin_commands(self) -> None:
        """Other packages' `flask` commands stay `flask`'s: `db` here is this module's."""


main = Scorekeeper()


@main.command(
    "serve",
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
@click.argument("options", nargs=-1, type=click.UNPROCESSED)
def serve_command(options: tuple[str, ...]) -> None:
    """Serve the score book to the table: what `make run` does, with its options (--host,
    --port, --https auto|yes|no, --https-port, --threads; --help lists them)."""
    serve.main(list(options), program="scorekeeper serve")


@main.command("where")
@with_appcontext
def where_command() -> None:
    """Say where the data lives: the data folder, the database and the settings file."""
    folder = Path(current_app.instance_path)
    config = folder / "config.py"
    click.echo(_("Data folder: %(folder)s", folder=folder))
    click.echo(
        _("Database: %(url)s", url=db.engine.url.render_as_string(hide_password=True)),
    )
    state = _("read") if config.is_file() else _("none yet")
    click.echo(_("Settings file: %(file)s (%(state)s)", file=config, state=state))


@main.group("db")
def db_group() -> None:
    """The database's own steps."""


@db_group.command("upgrade")
@click.pass_context
def db_upgrade(ctx: click.Context) -> None:
    """Bring the database to this version (creating it), keeping every game."""
    ctx.invoke(cli.init_db, reset=False)


@main.group("config")
def config_group() -> None:
    """A club server's configuration files, printed (or written with -o)."""


def _write(text: str, output: Path | None, force: bool) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    target = cli.write_out(str(output), text, force)
    click.echo(_("Wrote %(target)s", target=target), err=True)


def _made(make, config):
    try:
        return make(config)
    except deployment.ConfigProblem as problem:
        raise click.UsageError("; ".join(problem.problems)) from None


@config_group.command("nginx")
@click.option(
    "--server-name", "server_names", multiple=True, help="A name the club opens (repeatable)."
)
@click.option(
    "--upstream",
    "upstreams",
    multiple=True,
    help=f"An app process, host:port (repeatable; {deployment.DEFAULT_UPSTREAM}).",
)
@click.option("--prefix", default="/", show_default=True, help="The sub-path, e.g. /cards/.")
@click.option("--certificate", default=deployment.DEBIAN_CERTIFICATE, show_default=True)
@click.option("--key", default=deployment.DEBIAN_KEY, show_default=True)
@click.option("--logs", default="/var/log/nginx", show_default=True, help="nginx's log folder.")
@click.option("--http-port", default=80, show_default=True, help="Plain HTTP, sent to HTTPS.")
@click.option("--https-port", default=443, show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace OUTPUT when it exists.")
@with_appcontext
def config_nginx(
    server_names, upstreams, prefix, certificate, key, logs, http_port, https_port, output, force
) -> None:
    """nginx in front of the app processes: HTTPS ended there, the X-Forwarded-* headers the
    app believes with TRUSTED_PROXIES=1."""
    config = deployment.Nginx(
        server_names=server_names or ("_",),
        upstreams=upstreams or (deployment.DEFAULT_UPSTREAM,),
        prefix=prefix,
        certificate=certificate,
        key=key,
        logs=logs,
        http_port=http_port,
        https_port=https_port,
    )
    _write(_made(deployment.nginx, config), output, force)


@config_group.command("systemd")
@click.option("--user", default="scorekeeper", show_default=True, help="The user it runs as.")
@click.option("--data", "data", default="/var/lib/scorekeeper", show_default=True)
@click.option("--environment-file", default="/etc/scorekeeper/environment", show_default=True)
@click.option("--command", "command", help="The scorekeeper program (default: this one).")
@click.option("--backup-at", default="*-*-* 04:00:00", show_default=True)
@click.option(
    "-o", "--output", type=click.Path(file_okay=False, path_type=Path), help="Write into FOLDER."
)
@click.option("--force", is_flag=True, help="Replace the files in FOLDER when they exist.")
@with_appcontext
def config_systemd(user, data, environment_file, command, backup_at, output, force) -> None:
    """systemd's units: `scorekeeper@PORT.service` for each app process, and the nightly backup
    (`scorekeeper-backup.service` and `.timer`)."""
    config = deployment.Systemd(
        command=(command,) if command else deployment.default_command(),
        user=user,
        data=data,
        environment_file=environment_file,
        backup_at=backup_at,
    )
    units = _made(deployment.systemd, config)
    if output is None:
        click.echo("\n".join(f"# --- {name} ---\n{text}" for name, text in units.items()), nl=False)
        return
    if not output.is_dir():
        raise click.ClickException(_("%(folder)s is not a folder", folder=output))
    for name, text in units.items():
        _write(text, output / name, force)


if __name__ == "__main__":
    sys.exit(main())
