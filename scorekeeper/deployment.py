"""The configuration files of a club's server, written for it: nginx in front (HTTPS ended there,
the tablets spread over the app processes) and systemd's units for the app processes and the
nightly backup. `scorekeeper config nginx` and `scorekeeper config systemd` print them.

Each file says the settings the app needs behind it (`TRUSTED_PROXIES`), so the two halves agree.
"""

from __future__ import annotations

import ipaddress
import re
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from flask_babel import gettext as _

# Debian's own certificate (package ssl-cert), until the club's is in place.
DEBIAN_CERTIFICATE = "/etc/ssl/certs/ssl-cert-snakeoil.pem"
DEBIAN_KEY = "/etc/ssl/private/ssl-cert-snakeoil.key"
DEFAULT_UPSTREAM = "127.0.0.1:5001"
# The largest body the app's own server takes (`serve.BODY_CAP`); the app answers past 64 KiB.
BODY_MEGABYTES = 8
# One proxy in front of the app: the X-Forwarded-* headers of one hop are believed.
PROXIES = 1
# A server name nginx takes: labels of letters, digits and hyphens, or `_` (any name).
SERVER_NAME = re.compile(r"^(_|\*?\.?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?)$")
# What may stand in a path written into the files unquoted.
PLAIN_PATH = re.compile(r"^[A-Za-z0-9_./@%+=:,-]+$")


def path_problem(option: str, path: str) -> str | None:
    """Why `path` cannot be written into a file for `option`; None when it can."""
    if PurePosixPath(path).is_absolute() and PLAIN_PATH.match(path):
        return None
    return _(
        "%(option)s %(path)s: name an absolute path with no spaces or quotes",
        option=option,
        path=repr(path),
    )


class ConfigProblem(ValueError):
    """An option that cannot be written into the file, with every reason."""

    def __init__(self, problems: Sequence[str]):
        super().__init__("; ".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class Nginx:
    """What the nginx file serves: its names, the app processes, the sub-path and the certificate."""

    server_names: tuple[str, ...] = ("_",)
    upstreams: tuple[str, ...] = (DEFAULT_UPSTREAM,)
    prefix: str = "/"
    certificate: str = DEBIAN_CERTIFICATE
    key: str = DEBIAN_KEY
    logs: str = "/var/log/nginx"
    http_port: int = 80
    https_port: int = 443

    def problems(self) -> list[str]:
        """Every option that cannot be written (empty: all can)."""
        found = [
            _("--server-name %(name)s is not a host name", name=repr(name))
            for name in self.server_names
            if not _server_name(name)
        ]
        found += [
            _("--upstream %(upstream)s is not host:port", upstream=repr(upstream))
            for upstream in self.upstreams
            if not _upstream(upstream)
        ]
        found += [
            _("--%(option)s %(port)s is not a port", option=option, port=port)
            for option, port in (("http-port", self.http_port), ("https-port", self.https_port))
            if not 0 < port < 65536
        ]
        if not self.upstreams:
            found.append(_("give at least one --upstream"))
        if not self.prefix.startswith("/") or not PLAIN_PATH.match(self.prefix):
            found.append(
                _("--prefix %(prefix)s is not a path like /cards/", prefix=repr(self.prefix))
            )
        paths = (("--certificate", self.certificate), ("--key", self.key), ("--logs", self.logs))
        found += filter(None, (path_problem(option, path) for option, path in paths))
        return found


def _server_name(name: str) -> bool:
    return bool(SERVER_NAME.match(name)) and len(name) <= 253


def _upstream(value: str) -> bool:
    """host:port, an IPv6 address in brackets ([::1]:5001), or unix:/path."""
    if value.startswith("unix:/"):
        return bool(PLAIN_PATH.match(value))
    host, _, port = value.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536 or not host:
        return False
    if host.startswith("[") and host.endswith("]"):
        try:
            return ipaddress.ip_address(host[1:-1]).version == 6
        except ValueError:
            return False
    return _server_name(host) and host != "_"


def nginx_prefix(prefix: str) -> str:
    """The sub-path as the location takes it: `/cards/` (one slash at each end) or `/`."""
    inner = prefix.strip("/")
    return f"/{inner}/" if inner else "/"


def nginx(config: Nginx) -> str:
    """A whole nginx.conf (for `nginx -c`; its `http` block's contents do as a site of
    Debian's /etc/nginx/sites-enabled/ too)."""
    problems = config.problems()
    if problems:
        raise ConfigProblem(problems)
    location = nginx_prefix(config.prefix)
    names = " ".join(config.server_names)
    servers = "\n".join(f"        server {upstream};" for upstream in config.upstreams)
    prefix_header = (
        f"            proxy_set_header X-Forwarded-Prefix {location.rstrip('/')};\n"
        if location != "/"
        else ""
    )
    # Under a sub-path nginx takes it off (the trailing slash of proxy_pass), and the app is
    # told it by X-Forwarded-Prefix: its links and cookies then carry it.
    target = "http://scorekeeper/" if location != "/" else "http://scorekeeper"
    bare = (
        f"        location = {location.rstrip('/')} {{ return 301 {location}; }}\n"
        if location != "/"
        else ""
    )
    secure = "https://$host" + ("" if config.https_port == 443 else f":{config.https_port}")
    return f"""\
# nginx in front of Liverpool Scorekeeper: HTTPS ends here, and the tablets are spread over
# the app processes below. Made by `scorekeeper config nginx`; check it with `nginx -t -c FILE`.
#
# Each app process runs with the settings this proxy needs (the units of
# `scorekeeper config systemd` set them):
#   TRUSTED_PROXIES={PROXIES}    believe this one proxy's X-Forwarded-For/Proto/Host/Port/Prefix
#   scorekeeper serve --host 127.0.0.1 --port PORT --https no
# With several processes, set DATABASE_URL (PostgreSQL), one SECRET_KEY for all of them and a
# REDIS_URL that all of them share (docs/serving.md).

worker_processes auto;
error_log {config.logs}/scorekeeper.error.log;

events {{
    worker_connections 1024;
}}

http {{
    server_tokens off;
    access_log {config.logs}/scorekeeper.access.log;

    upstream scorekeeper {{
{servers}
        keepalive 16;
    }}

    server {{
        listen {config.http_port};
        listen [::]:{config.http_port};
        server_name {names};
        return 301 {secure}$request_uri;
    }}

    server {{
        listen {config.https_port} ssl;
        listen [::]:{config.https_port} ssl;
        server_name {names};

        ssl_certificate     {config.certificate};
        ssl_certificate_key {config.key};
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:scorekeeper:10m;

        client_max_body_size {BODY_MEGABYTES}m;

{bare}        location {location} {{
            proxy_pass {target};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-Host $host;
            proxy_set_header X-Forwarded-Port $server_port;
{prefix_header}            proxy_read_timeout 60s;
        }}
    }}
}}
"""


@dataclass(frozen=True)
class Systemd:
    """What the units run: the command, as whom, where the data lives, and the backups."""

    command: tuple[str, ...] = field(default_factory=lambda: default_command())
    user: str = "scorekeeper"
    data: str = "/var/lib/scorekeeper"
    environment_file: str = "/etc/scorekeeper/environment"
    backup_at: str = "*-*-* 04:00:00"

    def problems(self) -> list[str]:
        found = []
        if not re.fullmatch(r"[a-z_][a-z0-9_-]{0,31}", self.user):
            found.append(_("--user %(user)s is not a user name", user=repr(self.user)))
        paths = (
            ("--data", self.data),
            ("--environment-file", self.environment_file),
            ("--command", self.command[0]),
        )
        found += filter(None, (path_problem(option, path) for option, path in paths))
        if not re.fullmatch(r"[0-9*:, ./~-]+", self.backup_at):
            found.append(
                _("--backup-at %(when)s is not a calendar time (04:00)", when=repr(self.backup_at))
            )
        return found


def default_command() -> tuple[str, ...]:
    """The `scorekeeper` program beside this Python (in its virtual environment), else this
    Python running the command's module."""
    python = Path(sys.executable)
    beside = python.with_name("scorekeeper")
    if beside.is_file():
        return (str(beside),)
    return (str(python), "-m", "scorekeeper.command")


def _exec(command: Sequence[str], *args: str) -> str:
    """A command line for ExecStart (systemd reads it as a shell quotes it; `%` doubled)."""
    return shlex.join([*command, *args]).replace("%", "%%")


def systemd(config: Systemd) -> dict[str, str]:
    """The unit files by name: the app on a port (`scorekeeper@PORT.service`), and the backup's
    service and nightly timer."""
    problems = config.problems()
    if problems:
        raise ConfigProblem(problems)
    environment = f"""\
User={config.user}
Group={config.user}
Environment=SCOREKEEPER_DATA={config.data}
Environment=TRUSTED_PROXIES={PROXIES}
# DATABASE_URL, SECRET_KEY (the same in every process), ORGANISER_PASSWORD, RATELIMIT_STORAGE_URI
EnvironmentFile=-{config.environment_file}
StateDirectory={PurePosixPath(config.data).name}
StateDirectoryMode=0700
UMask=0077
NoNewPrivileges=yes
PrivateTmp=yes
ProtectSystem=full
ProtectHome=read-only"""
    serve = _exec(config.command, "serve", "--host", "127.0.0.1", "--port")
    backups = PurePosixPath(config.data) / "backups"
    # One file a weekday: a week of nights to go back to; `restore` reads either kind.
    backup = shlex.join(
        ["/bin/sh", "-c", f'exec "$0" "$@" --force {backups}/scorekeeper-"$(date +%a)".backup']
        + list(config.command)
        + ["backup"]
    )
    backup = backup.replace("%", "%%").replace("$", "$$")
    return {
        "scorekeeper@.service": f"""\
# Liverpool Scorekeeper on one port, behind the reverse proxy (`scorekeeper config nginx`):
#   systemctl enable --now scorekeeper@5001 scorekeeper@5002
[Unit]
Description=Liverpool Scorekeeper on port %i
After=network-online.target postgresql.service
Wants=network-online.target

[Service]
Type=simple
{environment}
ExecStart={serve} %i --https no
Restart=on-failure
RestartSec=2

[Install]
WantedBy=multi-user.target
""",
        "scorekeeper-backup.service": f"""\
# A backup of the score book into {backups}/, one file a weekday (started by its timer).
[Unit]
Description=Back up Liverpool Scorekeeper
After=postgresql.service

[Service]
Type=oneshot
{environment}
ExecStartPre=/bin/mkdir -p {backups}
ExecStart={backup}
""",
        "scorekeeper-backup.timer": f"""\
# The backup every night: systemctl enable --now scorekeeper-backup.timer
[Unit]
Description=Back up Liverpool Scorekeeper every night

[Timer]
OnCalendar={config.backup_at}
RandomizedDelaySec=15min
Persistent=true

[Install]
WantedBy=timers.target
""",
    }
