"""Flask extensions, created unbound and initialised by the app factory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base whose constraint names are stable across migrations."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
login_manager = LoginManager()
limiter = Limiter(get_remote_address, default_limits=[])
compress = Compress()

# Models subclass db.Model: Base plus table names taken from class names. Flask-SQLAlchemy
# builds that class at run time, where mypy cannot follow it, so mypy checks the models
# against Base, whose typed API (Mapped columns, metadata, registry) db.Model has.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
