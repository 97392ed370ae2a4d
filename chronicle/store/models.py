"""The chronicle store: SQLModel tables, one SQLite file per campaign.

The normalised tables (houses, persons, marriages, claims, units, provinces)
hold the state at the end of the last adjudicated turn, for the site and the
exports. ``TurnRow.snapshot`` keeps the state at the end of every turn
(zlib-compressed JSON, the living only; the dead are in ``ArchiveRow``) so
that ``rollback --to N`` is exact. Events and
rolls are append-only, keyed by turn.

The store is the arbiter's: it holds secrets (the epidemic threshold in the
snapshots, secret rolls, raw orders). The site generator reads only what is
public; see ``chronicle.views.data``.
"""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class CampaignRow(SQLModel, table=True):
    __tablename__ = "campaign"
    id: int = Field(default=1, primary_key=True)
    slug: str
    title: str
    ruleset: str
    start_year: int
    end_year: int | None = None
    target: int | None = None
    seed_commitment: str
    language: str = "en"
    world: str | None = None
    initial: bytes = b""           # compressed starting state (turn 0)
    seed_revealed: str | None = None  # set only when the campaign has ended
    revealed: str = "{}"           # JSON: what the end revealed besides the seed


class TurnRow(SQLModel, table=True):
    __tablename__ = "turns"
    number: int = Field(primary_key=True)
    year: int
    snapshot: bytes
    orders_digest: str = ""
    defaulted: str = "[]"          # JSON list of houses that sent no orders
    problems: str = "[]"           # JSON list of the order folder's file problems
    #: When the turn was adjudicated (UTC, ISO 8601 to the second; ``SOURCE_DATE_EPOCH``
    #: fixes it for reproducible runs). Null in stores made before it was kept.
    adjudicated_at: str | None = None


class HouseRow(SQLModel, table=True):
    __tablename__ = "houses"
    id: str = Field(primary_key=True)
    letter: str
    name: str
    law: str
    player: str = ""
    color: str = "#555555"
    capital: str | None = None
    ruler: str | None = None
    eliminated: bool = False
    eliminated_turn: int | None = None
    treasury: int = 0
    rulers: str = "[]"             # JSON [[person, from_year, to_year|null], ...]


class PersonRow(SQLModel, table=True):
    __tablename__ = "persons"
    id: str = Field(primary_key=True)
    seq: int = Field(index=True)
    name: str
    sex: str
    born: int
    died: int | None = None
    death_cause: str | None = None
    dynasty: str | None = Field(default=None, index=True)
    court: str | None = None
    father: str | None = Field(default=None, index=True)
    mother: str | None = Field(default=None, index=True)
    spouse: str | None = None
    constitution: int = 0
    command: int = 0
    ruse: int = 0
    founder: bool = False
    prisoner_of: str | None = None
    unit: str | None = None
    widowed_queen: bool = False
    king_consort: bool = False


class MarriageRow(SQLModel, table=True):
    __tablename__ = "marriages"
    id: str = Field(primary_key=True)
    husband: str = Field(index=True)
    wife: str = Field(index=True)
    turn: int
    year: int
    children_dynasty: str | None = None
    ended: int | None = None
    end_cause: str | None = None


class ClaimRow(SQLModel, table=True):
    """A reference number held, or renounced, in a dynasty (A3)."""

    __tablename__ = "claims"
    person: str = Field(primary_key=True)
    dynasty: str = Field(primary_key=True)
    ref: str = Field(index=True)
    renounced_turn: int | None = None


class UnitRow(SQLModel, table=True):
    __tablename__ = "units"
    id: str = Field(primary_key=True)
    house: str = Field(index=True)
    type: str
    armies: int
    province: str | None = None
    commanders: str = "[]"         # JSON list of person ids
    command_value: int = 0


class ProvinceRow(SQLModel, table=True):
    __tablename__ = "provinces"
    id: str = Field(primary_key=True)
    name: str
    kind: str
    kingdom: str | None = None
    capital: bool = False
    resource: str | None = None
    controller: str | None = None
    revolt: bool = False
    famine: bool = False
    x: float = 0.0
    y: float = 0.0
    neighbours: str = "[]"


class EventRow(SQLModel, table=True):
    __tablename__ = "events"
    id: int | None = Field(default=None, primary_key=True)
    turn: int = Field(index=True)
    seq: int
    phase: str
    kind: str = Field(index=True)
    public: bool = True
    payload: str                   # JSON
    subjects: str = "[]"           # JSON list of person ids
    houses: str = "[]"             # JSON list of house ids


class RollRow(SQLModel, table=True):
    __tablename__ = "rolls"
    id: int | None = Field(default=None, primary_key=True)
    turn: int = Field(index=True)
    seq: int
    phase: str
    purpose: str
    subject: str | None = None
    dice: str
    faces: str                     # JSON list
    total: int
    secret: bool = False


class ArchiveRow(SQLModel, table=True):
    """A dead person's final record (JSON of ``Person``), written in the turn of death.

    Turn snapshots hold only the living; the dead never change again, so they
    are stored once here instead of in every later snapshot.
    """

    __tablename__ = "archive"
    person: str = Field(primary_key=True)
    turn: int = Field(index=True)
    data: str


class OrderFileRow(SQLModel, table=True):
    """Each house's order file as received: private until the campaign ends."""

    __tablename__ = "order_files"
    turn: int = Field(primary_key=True)
    house: str = Field(primary_key=True)
    text: str
    refused: str | None = None
    file: str = ""                 # its name in the turn folder ("" in older stores)


class RejectionRow(SQLModel, table=True):
    __tablename__ = "rejections"
    id: int | None = Field(default=None, primary_key=True)
    turn: int = Field(index=True)
    house: str
    file: str
    line: int
    text: str
    reason: str
