"""Where the app's own files are: the checkout's top-level folders, or the installed copies.

A checkout keeps `templates/`, `static/` and `migrations/` at its top level; a wheel carries them
inside the `scorekeeper` package (see pyproject.toml), so an installed app runs from anywhere.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
CHECKOUT = PACKAGE.parent if (PACKAGE.parent / "pyproject.toml").is_file() else None


def shipped(folder: str) -> Path:
    """The folder inside the installed package, or else the checkout's."""
    inside = PACKAGE / folder
    return inside if inside.is_dir() or CHECKOUT is None else CHECKOUT / folder


def instance_folder() -> str | None:
    """The checkout's `instance/`; None for an installed app (Flask's own `var/` place)."""
    return str(CHECKOUT / "instance") if CHECKOUT is not None else None
