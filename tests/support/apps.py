"""Apps made by hand for tests of the database itself."""

from __future__ import annotations

from scorekeeper import create_app
from tests.support.config import TEST_CONFIG


def app_on(url: str, tmp_path, name: str = "app", **config):
    """An app on the database at `url`, which is left as it is (not upgraded on start)."""
    settings = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url, "UPGRADE_ON_START": False}
    return create_app({**settings, **config}, instance_path=str(tmp_path / f"{name}-instance"))
