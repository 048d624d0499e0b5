"""When the last backup was taken: one row per successful `backup`, kept in the database itself
so that every process serving it (and /healthz on each) reads the same answer."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from .database import db, utcnow

# How many rows are kept: the newest backups, a record to read, not a log to grow for ever.
KEEP = 30
KINDS = ("sqlite", "export")


class Backup(db.Model):
    """A backup that was written whole: when (UTC), and which kind (an SQLite copy, an export)."""

    __tablename__ = "backups"

    id: Mapped[int] = mapped_column(primary_key=True)
    taken_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    kind: Mapped[str] = mapped_column(String(12))


def record(kind: str) -> Backup:
    """Note a backup just written, forgetting all but the newest KEEP; committed."""
    row = Backup(kind=kind, taken_at=utcnow())
    db.session.add(row)
    db.session.flush()
    kept = db.select(Backup.id).order_by(Backup.taken_at.desc(), Backup.id.desc()).limit(KEEP)
    db.session.execute(db.delete(Backup).where(Backup.id.not_in(kept.scalar_subquery())))
    db.session.commit()
    return row


def last() -> Backup | None:
    """The newest backup, or None when none was ever taken (or the table is not there yet)."""
    return db.session.scalars(
        db.select(Backup).order_by(Backup.taken_at.desc(), Backup.id.desc()).limit(1)
    ).first()


def age_seconds(row: Backup, now: datetime | None = None) -> int:
    """Whole seconds since the backup (never below 0, for a clock set back)."""
    return max(0, int(((now or utcnow()) - row.taken_at).total_seconds()))
