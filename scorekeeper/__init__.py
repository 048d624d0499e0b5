"""Liverpool Scorekeeper: the scorebook and referee for a Liverpool Rummy table.

Importing the package loads nothing but the standard library, so the engine
(`scorekeeper.rules`) imports alone; the web app is built by `create_app`, which loads Flask,
the database and the features only when it is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(
    test_config: dict[str, Any] | None = None, instance_path: str | None = None
) -> Flask:
    """Build the app: defaults, then instance/config.py, then the environment, then test_config
    (see `scorekeeper.factory`, and the settings in `scorekeeper.platform.settings`)."""
    from .factory import make_app

    return make_app(test_config, instance_path)
