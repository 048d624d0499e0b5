"""Every setting the app reads, declared once: its name, its default, where it can be set and
what it does; and where the app's own files are.

`create_app` starts from these defaults, so every module reads `app.config[NAME]` and none keeps
a default of its own. The settings table of docs/settings.md is written from this list (`python
-m scorekeeper.platform.settings` prints it), and a test keeps the two the same.

A checkout keeps `templates/`, `static/`, `migrations/` and the `instance/` folder (where
`instance/config.py` is read) at its top level; a wheel carries the first three inside the
`scorekeeper` package (see pyproject.toml), so an installed app runs from anywhere (`shipped`),
its data in the user's data folder of the platform (`instance_folder`).
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

CONFIG_FILE = "`instance/config.py`"

PACKAGE = Path(__file__).resolve().parent.parent
CHECKOUT = PACKAGE.parent if (PACKAGE.parent / "pyproject.toml").is_file() else None


def shipped(folder: str) -> Path:
    """The folder inside the installed package, or else the checkout's."""
    inside = PACKAGE / folder
    return inside if inside.is_dir() or CHECKOUT is None else CHECKOUT / folder


# The environment variable naming the data folder (`scorekeeper --data` sets it too).
DATA_VARIABLE = "SCOREKEEPER_DATA"
# The folder's name under the platform's data folder.
DATA_NAME = "scorekeeper"


def instance_folder() -> str:
    """The data folder (the SQLite database, the secret key, the certificates, config.py):
    `SCOREKEEPER_DATA` when set; else the checkout's `instance/`; else, installed, the user's
    data folder of the platform (`~/.local/share/scorekeeper`, `~/Library/Application
    Support/scorekeeper`, `%LOCALAPPDATA%\\scorekeeper`)."""
    chosen = os.environ.get(DATA_VARIABLE)
    if chosen:
        return str(Path(chosen).expanduser().resolve())
    if CHECKOUT is not None:
        return str(CHECKOUT / "instance")
    return platformdirs.user_data_dir(DATA_NAME, appauthor=False)


@dataclass(frozen=True)
class Setting:
    """One setting: `from_env` when the environment may give it (over instance/config.py)."""

    name: str
    default: Any
    doc: str
    from_env: bool = False
    # The default in words, for one that is worked out when the app starts.
    shown: str | None = None
    # Where it is set, for one that is not a user's to set in instance/config.py.
    set_by: str | None = None

    @property
    def default_text(self) -> str:
        return self.shown if self.shown is not None else f"`{self.default!r}`"

    @property
    def where(self) -> str:
        if self.set_by is not None:
            return self.set_by
        return f"environment or {CONFIG_FILE}" if self.from_env else CONFIG_FILE


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "SECRET_KEY",
        None,
        "Signs the session and the forms' tokens; every process of one server needs the same.",
        from_env=True,
        shown="made once in `instance/secret_key`",
    ),
    Setting(
        "DATABASE_URL",
        None,
        "The database: `postgresql://…` for PostgreSQL (psycopg 3); replaces the SQLite file.",
        from_env=True,
        shown="none",
    ),
    Setting(
        "SQLALCHEMY_DATABASE_URI",
        None,
        "The SQLAlchemy URL of the database, when `DATABASE_URL` does not give one.",
        shown="the SQLite file `scorekeeper.sqlite` in the instance folder",
    ),
    Setting(
        "SQLALCHEMY_ENGINE_OPTIONS",
        {},
        "Options for SQLAlchemy's `create_engine`; PostgreSQL always gets `pool_pre_ping`.",
    ),
    Setting(
        "UPGRADE_ON_START",
        False,
        "Upgrade the database to the newest revision whenever the app is made (tests do).",
    ),
    Setting(
        "DATABASE_BUSY_SECONDS",
        10,
        "Seconds a write waits for the one before it (SQLite's write lock, PostgreSQL's lock on"
        " the game) before it is answered 503 busy.",
        from_env=True,
        shown="`10`",
    ),
    Setting(
        "DATABASE_STATEMENT_SECONDS",
        30,
        "On PostgreSQL, seconds one statement of a page that only reads may run before it is"
        " answered 503 busy (`0`: no limit; a write's get `DATABASE_BUSY_SECONDS`); commands and"
        " migrations are never cut off.",
        from_env=True,
    ),
    Setting(
        "SEASON_WAIT_SECONDS",
        0.1,
        "Seconds a page waits for the season's figures to be worked out again after a change"
        " (about 0.05 s at 100 games, seconds at 20,000) before it shows the figures as they were, says so (the API:"
        ' `"up_to_date": false`), and the new ones are finished in the background (a merge'
        " takes them as kept, without the wait); where none were worked out yet (a server just"
        " started), a season page says so (503) and opens itself again; `None`: every page"
        " waits for them.",
    ),
    Setting(
        "TRUSTED_PROXIES",
        0,
        "How many reverse proxies' `X-Forwarded-*` headers to believe (Werkzeug's `ProxyFix`):"
        " the client's address, scheme, host, and the sub-path the score book is served under"
        " (`X-Forwarded-Prefix`).",
        from_env=True,
    ),
    Setting(
        "TRUSTED_PROXY_ADDRESSES",
        "",
        "The addresses or networks the trusted proxies ask from (`127.0.0.1`,"
        " `172.30.32.0/23`; several separated by commas): a request from any other address"
        " keeps its own, its `X-Forwarded-*` headers unread. Empty: every request comes"
        " through the proxies.",
        from_env=True,
    ),
    Setting(
        "HSTS_SECONDS",
        365 * 24 * 60 * 60,
        "How long a browser that opened the score book over HTTPS by a name keeps to HTTPS there"
        " (`Strict-Transport-Security`); `0` sends none.",
        from_env=True,
        shown="`31536000` (a year)",
    ),
    Setting(
        "RATELIMIT_NEW_GAMES",
        "60 per hour; 300 per day",
        "Games one client address may start (new-game page, API, play again); an evening is a"
        " dozen. Over it: 429 with `Retry-After`.",
        from_env=True,
    ),
    Setting(
        "RATELIMIT_IMPORTS",
        "30 per hour",
        "Rule sets one client address may open from a file or a shared link, or save through"
        " the API, and paper sheets it may import.",
        from_env=True,
    ),
    Setting(
        "RATELIMIT_BAD_EDIT_LINKS",
        "20 per hour",
        "Wrong edit links (`/games/<id>/join?key=…`) one client address may try; right ones"
        " are not counted.",
        from_env=True,
    ),
    Setting(
        "RATELIMIT_JOINS",
        "20 per minute",
        "Tries at a round's code from phones one client address may make: every request under"
        " `/join/<code>` and `/api/join/<code>` (and the `/join` form) from a phone holding no"
        " seat of that round: a phone joins in three (the code, its seats, its tap); once seated it"
        " is not counted.",
        from_env=True,
    ),
    Setting(
        "RATELIMIT_ORGANISER_SIGN_INS",
        "10 per hour",
        "Wrong organiser passwords one client address may try (the sign-in form, or an API"
        " client's `Authorization`); right ones are not counted.",
        from_env=True,
    ),
    Setting(
        "REDIS_URL",
        None,
        "A Redis server the app's processes share (`redis://host:6379/0`, `rediss://…`,"
        " `unix:///path`; `pip install '.[club]'`): the limits are counted there and a refused"
        " form's page is kept there for whichever process the proxy sends its next request to."
        " Unset, each process keeps its own, as `make run`'s one needs.",
        from_env=True,
        shown="none",
    ),
    Setting(
        "RATELIMIT_STORAGE_URI",
        "memory://",
        "Where the limits are counted: in memory, each process apart (`make run` is one), or"
        " with `REDIS_URL` set in that Redis; another store they share that the `limits` library"
        " speaks takes the place of either: `memcached://host:11211`, `mongodb://host` (with its"
        " client package).",
        from_env=True,
    ),
    Setting(
        "RATELIMIT_ENABLED",
        True,
        "Count and limit at all (Flask-Limiter); turn off only on a development machine.",
    ),
    Setting(
        "ORGANISER_PASSWORD",
        None,
        "The club's organiser password, as the argon2 hash `flask --app scorekeeper"
        " organiser-password` prints (a password in clear is refused at start). Set, only an"
        " organiser may merge players, rename or delete saved rule sets, and archive, restore or"
        " delete games; unset, everyone may, as always.",
        from_env=True,
        shown="none",
    ),
    Setting(
        "ORGANISER_SESSION_HOURS",
        12,
        "Hours an organiser's sign-in lasts on one device before they sign in again; changing"
        " `ORGANISER_PASSWORD` ends every sign-in at once.",
        from_env=True,
    ),
    Setting(
        "MAX_CONTENT_LENGTH",
        64 * 1024,
        "The largest request body, in bytes; a larger one is answered 413.",
        shown="`65536` (64 KiB)",
    ),
    Setting(
        "WTF_CSRF_TIME_LIMIT",
        12 * 60 * 60,
        "Seconds a form stays good to submit: a whole game evening.",
        shown="`43200` (12 hours)",
    ),
    Setting(
        "DEFAULT_LANGUAGE",
        "en",
        "The language of a page when the device chose none and the browser asks for none the"
        " score book speaks: `en`, `es` (`es_CL`, `es_MX`, `es_ES`), `fi`, `de` or `fr`.",
        from_env=True,
    ),
    Setting(
        "BABEL_TRANSLATION_DIRECTORIES",
        None,
        "Folders of catalogs (`<code>/LC_MESSAGES/messages.mo`), `;` between them.",
        shown="the package's `translations/`",
    ),
    Setting("WTF_CSRF_ENABLED", True, "Check every form post's token (tests turn it off)."),
    Setting("WTF_CSRF_FIELD_NAME", "csrf_token", "The form field that carries the token."),
    Setting(
        "WTF_CSRF_SECRET_KEY",
        None,
        "The key that signs the forms' tokens.",
        shown="`SECRET_KEY`",
    ),
    Setting("SESSION_COOKIE_HTTPONLY", True, "Keep the session cookie away from scripts."),
    Setting(
        "SESSION_COOKIE_SAMESITE", "Lax", "Never send the session cookie with another site's posts."
    ),
    Setting(
        "COMPRESS_MIMETYPES",
        [
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/json",
            "application/manifest+json",
            "image/svg+xml",
        ],
        "The answers compressed for a client that accepts it (Flask-Compress).",
        shown="pages, styles, scripts, JSON, the manifest, SVG",
    ),
    Setting(
        "SERVE_HOST",
        "0.0.0.0",
        "The address the server listens on; the home page shows the tablet's address from it.",
        set_by="`make run HOST=…` (`python -m scorekeeper.serve --host`)",
    ),
    Setting(
        "SERVE_PORT",
        None,
        "The port the server listens on, for the home page's tablet address.",
        shown="the request's port",
        set_by="`make run PORT=…` (`python -m scorekeeper.serve --port`)",
    ),
    Setting(
        "HTTPS_PORT",
        5443,
        "The port `make run` serves HTTPS on, beside `PORT`'s plain HTTP.",
        from_env=True,
        set_by="`make run HTTPS_PORT=…` (`python -m scorekeeper.serve --https-port`)",
    ),
    Setting(
        "HTTPS_NAMES",
        "",
        "More names for the certificate, comma-separated: a name the router gives this machine"
        " (`scores.lan`).",
        from_env=True,
    ),
    Setting(
        "TLS_FOLDER",
        None,
        "Where the certificate authority and the server's certificate are kept.",
        from_env=True,
        shown="`instance/tls`",
    ),
    Setting(
        "SERVE_HTTPS_PORT",
        None,
        "The HTTPS port being served, for the pages' secure address; none when HTTPS is not"
        " served.",
        shown="none",
        set_by="`make run` (`python -m scorekeeper.serve`)",
    ),
    Setting(
        "TESTING",
        False,
        "Test mode: errors reach the caller, and each app gets a fresh key instead of the file's.",
    ),
)

BY_NAME = {setting.name: setting for setting in SETTINGS}
ENVIRONMENT = tuple(setting.name for setting in SETTINGS if setting.from_env)


def defaults() -> dict[str, Any]:
    """Every setting at its default; each app gets its own copy of a list or a dict."""
    return {setting.name: copy.deepcopy(setting.default) for setting in SETTINGS}


def default(name: str) -> Any:
    return BY_NAME[name].default


def markdown_table() -> str:
    """The table of settings in docs/settings.md."""
    rows = [
        "| Setting | Default | Set in | What it does |",
        "| --- | --- | --- | --- |",
    ]
    rows += [f"| `{s.name}` | {s.default_text} | {s.where} | {s.doc} |" for s in SETTINGS]
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
