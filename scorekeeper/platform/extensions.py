"""Extensions live apart from the app so blueprints and models can import them freely."""

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Typed declarative base for every model."""


# Objects stay readable after a commit, so answering a write needs no second transaction.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
csrf = CSRFProtect()
migrate = Migrate()
