"""Hands entered by phone: the tablet opens a round to phones under a short code, each player
sends their own leftover cards from their phone, and the round form on the tablet fills itself.

The phones read and write only their own tables (`models`); the round itself is stored by the
score book when the scorekeeper saves it, so the dependencies point one way,
rules <- platform <- games <- phones, and the score book never imports this package.
"""

from __future__ import annotations

from flask import Flask

from . import api, stamps, views


def init_app(app: Flask) -> None:
    """Register the phones' JSON API, their pages (`views`) and their stamps (`stamps`)."""
    app.register_blueprint(api.bp)
    app.register_blueprint(views.bp)
    stamps.init_app(app)
