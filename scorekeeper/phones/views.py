"""The phones' pages: the tablet opens a round to phones and collects the hands on its round
form; a phone types the code, picks its seat and sends its hand.

Every page works without JavaScript. The tablet's pages need the game's edit key (its cookie,
as the round form does); a phone never gets one: its own token (an HttpOnly cookie, `access`)
holds one seat of one round, and can only send that seat's hand.
The round itself is saved by the score book's own round form route (`rounds.record_round`), so
Save is the one write it always was, with every check.

The pages' forms (the seat a phone takes, the hand it sends, the tablet's buttons) are each a
write-once form (`platform.writeonce`): a double tap, or a phone sending again once its Wi-Fi is
back, writes once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, HiddenField, StringField
from wtforms.widgets import NumberInput

from ..games import errors, keys, ledger
from ..games.forms import (
    HandFields,
    RoundForm,
    WriteOnceForm,
    form_context,
    pack_copies,
    round_form,
    whole_number,
)
from ..games.roundvalues import Hand
from ..platform import limits, writeonce
from ..platform.formpages import answer_script_posts, form_page, shown_after_redirect
from ..platform.http import csrf
from ..platform.network import on_loopback, qr_data_uri, qr_svg
from ..tls import addresses
from . import api, service, stamps
from .access import CODE_WRITES, give_phone_token, held_token, join_url, phone_required
from .service import BadSeatToken, NoSuchCode

bp = Blueprint("phones", __name__)
bp.after_request(answer_script_posts)
shown_after_redirect(bp)


class SeatForm(WriteOnceForm):
    """The seat picker: each name is a button posting its seat number as `seat` (the button's
    own value, so no field of the form may carry that name)."""

    def seat_number(self) -> int | None:
        return whole_number(request.form.get("seat"))


class PhoneHandForm(HandFields, WriteOnceForm):
    """One player's hand, as a plain form a phone without its script sends: the hand
    (`HandFields`, worded for the player holding it), or "I went out"."""

    cards = StringField(
        _l("Cards left in my hand"),
        render_kw={
            "autocomplete": "off",
            "spellcheck": "false",
            "autocapitalize": "characters",
            "class": "cards-input",
            "placeholder": _l("e.g. A K 7 JK"),
        },
    )
    counted = BooleanField(_l("Count points instead"), render_kw={"class": "points-toggle"})
    points = StringField(
        _l("Points"),
        widget=NumberInput(step=1, min=0),
        render_kw={"inputmode": "numeric", "autocomplete": "off", "class": "points-input"},
    )
    went_out = BooleanField(_l("I went out"), render_kw={"class": "out-toggle"})
    # Asked only where the rules give a bonus for it (R12.3 `out_in_one_turn_bonus`).
    one_turn = BooleanField(
        _l("I went down and out in one turn"), render_kw={"class": "one-turn-toggle"}
    )
    # The round the page was opened for: a phone left on an old round is told so.
    round_number = HiddenField()
    # What the phone's script says (`data-words`): why a hand's penalty cannot be counted, as the
    # round form says it, and how its send is going.
    live_words = {
        "not_card": RoundForm.live_words["not_card"],
        "over": RoundForm.live_words["over"],
        "sending": _l("Sending…"),
        "waiting": _l("Not sent yet — will send when the Wi-Fi is back."),
    }

    def sent(self) -> Hand:
        """The hand as the phones' service takes it: as typed (`HandFields.hand`), or that the
        player went out."""
        if self.went_out.data:
            return Hand("out", one_turn=bool(self.one_turn.data))
        return self.hand()

    def for_round(self) -> int | None:
        return whole_number(self.round_number.data)


class TabletForm(WriteOnceForm):
    """A tablet's button on the collecting page (Release a seat, Close to phones)."""

    seat = HiddenField()

    def seat_number(self) -> int | None:
        return whole_number(self.seat.data)


# How often the collecting page asks for the seats' state (the hands arrive within 2 s).
POLL_MS = 1000
# How often a phone whose send did not arrive tries again (and at once when `online` fires).
RETRY_MS = 3000
TABLET = "/games/<int:game_id>/rounds/<int:number>/phones"
# What the tablet says of each seat (the page's script uses the same words).
SEAT_WORDS = {
    "waiting": _l("Waiting for a phone"),
    "joined": _l("Joined — entering the hand"),
    "received": _l("Received ✓"),
    "here": _l("Entered here"),
}


# --- The tablet ------------------------------------------------------------------------------


@bp.post(TABLET)
# The button sits on the game page, which is cached and shared and so carries no CSRF token.
# Opening is safe to leave unguarded: it needs the edit key's cookie (SameSite=Lax, so another
# site's post never carries it), it is idempotent (the open round again) and it shows nothing.
@csrf.exempt
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def open_round(game_id: int, number: int):
    """Open the round to phones (the one open already, again), then the collecting page."""
    try:
        service.open_round(g.game, number)
    except errors.ScorebookError as error:
        flash(capital(error.message), "warning")
        return redirect(url_for("games.show_game", game_id=game_id), 303)
    return redirect(url_for("phones.collect", game_id=game_id, number=number), 303)


@bp.get(TABLET)
def collect(game_id: int, number: int):
    """The code and its QR code, each seat's state, and the round form filled with the hands
    the phones sent, saved by the score book's own round form route. The page holds the seats'
    tag, read before the game (see `stamps`): its script's first poll is a 304."""
    seen = seats_seen(game_id, number)
    return _collect(game_id=game_id, number=number, tag=seen.tag if seen else "")


@keys.editor_required
def _collect(game_id: int, number: int, tag: str):
    game = g.game
    if ledger.next_round(game) != number:
        flash(
            _(
                "Round %(number)s is not the round to play: nothing is open to phones.",
                number=number,
            ),
            "warning",
        )
        return redirect(url_for("games.show_game", game_id=game_id), 303)
    opening = service.live_opening(game, number)
    seats = service.seats(opening) if opening is not None else []
    form = round_form(game, number, filled=filled_from(seats))
    secure_join = join_url(opening.code) if opening is not None else None
    guest_url = guest_join_url(secure_join) if secure_join else None
    page = render_template(
        "phones/collect.html",
        **form_context(game, number, form, editing=False),
        names=game.names,
        opening=opening,
        seats=seats,
        words=SEAT_WORDS,
        join_url=secure_join,
        guest_url=guest_url,
        guest_qr=qr_data_uri(guest_url) if guest_url else None,
        tag=tag,
        poll_ms=POLL_MS,
        # Each button its own one-time token: a second seat released is another change.
        new_token=writeonce.new_token,
        loopback=on_loopback(request.host_url),
    )
    return form_page(page)


def guest_join_url(secure_join: str) -> str | None:
    """The plain-HTTP address of the same join page, when the tablet is on the secure one and
    the server serves both: a guest's phone that never trusted the score book opens it with no
    certificate warning. None otherwise (the tablet's own address is the plain one already)."""
    plain = addresses.plain_address()
    return plain.rstrip("/") + urlsplit(secure_join).path if plain else None


def filled_from(seats: list[service.SeatState]) -> dict[str, Any]:
    """The round form's entries from the hands received: each hand's cards or points, and who
    went out when exactly one phone said so."""
    hands = []
    for seat in seats:
        counted = seat.kind == "points"
        hands.append(
            {
                "cards": seat.cards if seat.kind == "cards" else "",
                "counted": counted,
                "points": str(seat.points) if counted else "",
            }
        )
    out = [seat for seat in seats if service.went_out(seat.kind)]
    filled: dict[str, Any] = {"hands": hands} if seats else {}
    if len(out) == 1:
        filled["out"] = str(out[0].seat)
        filled["out_in_one_turn"] = out[0].kind == service.ONE_TURN
    return filled


@dataclass(frozen=True)
class Seen:
    """What the seats' stamps say before the game is loaded: the seats' tag, and whether this
    request holds the game's edit key."""

    tag: str
    editor: bool


def seats_seen(game_id: int, number: int) -> Seen | None:
    """The seats' tag of round `number` from the stamps and the seats' rows (`stamps`, two
    statements), and whether this request holds the key; None: no such game, or no stamps to
    tell."""
    found = stamps.seats_stamps(game_id)
    if found is None:
        return None
    key_hash, read = found
    tag = stamps.seats_tag(read, stamps.seat_rows(game_id, number), number, request.root_url)
    return Seen(tag, keys.matches(key_hash, keys.request_key(game_id)))


@bp.get(TABLET + "/state")
def state(game_id: int, number: int):
    """Each seat's state for the collecting page's script, every second: 304 with no body while
    the tag it holds is current, told from the stamps alone before anything of the game is
    loaded (`stamps`); the seats read and answered only when the tag moved."""
    seen = seats_seen(game_id, number)
    if seen is not None and seen.editor and request.if_none_match.contains_weak(seen.tag):
        return _tagged({"tag": seen.tag}, seen.tag)
    return _state(game_id=game_id, number=number, tag=seen.tag if seen else None)


@keys.editor_required(scores=False)
def _state(game_id: int, number: int, tag: str | None):
    game = g.game
    answer = api.opening_json(game, service.live_opening(game, number), number)
    tag = tag or stamps.answer_tag(answer)
    return _tagged({**answer, "tag": tag}, tag)


def _tagged(answer: dict[str, Any], tag: str):
    """The answer under its tag: 304 with no body when the request holds that tag."""
    response = make_response(answer)
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get(TABLET + "/qr.svg")
@keys.editor_required
def code_qr(game_id: int, number: int):
    """The phones' address of the open round as a QR code, for a phone's camera."""
    opening = service.live_opening(g.game, number)
    if opening is None:
        abort(404)
    response = make_response(qr_svg(join_url(opening.code)))
    response.headers["Content-Type"] = "image/svg+xml"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post(TABLET + "/release")
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def release(game_id: int, number: int):
    """Free a seat a phone holds (the wrong name picked, a phone gone): its token stops working."""
    form = TabletForm()
    seat = form.seat_number()
    back = redirect(url_for("phones.collect", game_id=game_id, number=number), 303)
    if not form.validate_on_submit() or seat is None or seat >= len(g.game.players):
        flash(_("That seat could not be released: tap Release beside the name again."), "warning")
        return back
    try:
        service.release_seat(g.game, number, seat)
    except errors.ScorebookError as error:
        flash(capital(error.message), "warning")
        return back
    name = g.game.names[seat]
    flash(_("%(name)s's seat is free: %(name)s can pick it again on a phone.", name=name))
    return back


@bp.post(TABLET + "/close")
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def close(game_id: int, number: int):
    """Close the round to phones: every phone's token of it stops working; the game page."""
    form = TabletForm()
    if form.validate_on_submit() and service.close_round(g.game, number):
        flash(_("Round %(number)s is closed to phones: its code no longer works.", number=number))
    return redirect(url_for("games.show_game", game_id=game_id), 303)


# --- The phone -------------------------------------------------------------------------------


@bp.errorhandler(NoSuchCode)
def _no_such_code(error: NoSuchCode):
    return no_round(str((request.view_args or {}).get("code", ""))[:40])


def no_round(code: str, status: int = 404):
    """The same answer for a wrong, a closed and an expired code: the code form again, with
    what was typed and why; nothing of any game."""
    message = NoSuchCode(code).message
    page = render_template("phones/join.html", typed=code, error=capital(message))
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"
    return response


def capital(message: str) -> str:
    """A service's message as a page says it: a sentence."""
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")


@bp.get("/join")
@limits.limited(limits.JOINS)
def join():
    """Type the code the tablet shows; a plain GET form, so it works without a script."""
    typed = request.args.get("code")
    if typed is None:
        return form_page(render_template("phones/join.html", typed="", error=None))
    written = service.normal_code(typed)
    if written is None:
        return no_round(typed[:40])
    return redirect(url_for("phones.pick_seat", code=written), 303)


@bp.get("/join/<code>")
@phone_required
def pick_seat(code: str):
    """The players' names as big buttons: tap yours."""
    opening = g.opening
    if code != opening.code:
        return redirect(url_for("phones.pick_seat", code=opening.code), 303)
    if not service.is_live(opening):  # this phone's round, saved or closed since
        return redirect(url_for("phones.hand", code=opening.code), 303)
    return _picker(opening, SeatForm())


def _picker(opening, form: SeatForm, taken: str | None = None, status=200):
    token = held_token()
    mine = None
    if token:
        try:
            mine = service.seat_for_token(opening, token).seat
        except BadSeatToken:
            mine = None
    page = render_template(
        "phones/join.html",
        opening=opening,
        setup=ledger.setup_for(opening.game, opening.number),
        names=opening.game.names,
        seats=service.seats(opening),
        mine=mine,
        form=form,
        taken=taken,
        typed=opening.code,
        error=None,
    )
    response = form_page(page)
    response.status_code = status
    # The phone's own token, given before it picks, so that a double tap or a retried post
    # claims the seat with the same token, whichever answer the phone gets.
    return give_phone_token(response)


@bp.post("/join/<code>")
@phone_required
@writeonce.write_once(scope=CODE_WRITES)
def take_seat(code: str):
    """Take the seat tapped; a seat another phone holds says so, and what to do."""
    opening = g.opening
    form = SeatForm()
    seat = form.seat_number()
    if not form.validate_on_submit() or seat is None:
        return _picker(opening, form, "Tap your name to pick your seat.")
    token = held_token()
    try:
        _row, token = service.claim_seat(opening, seat, token)
    except errors.Conflict as error:
        return _picker(opening, form, capital(error.message), 409)
    except errors.ScorebookError as error:
        return _picker(opening, form, capital(error.message))
    response = redirect(url_for("phones.hand", code=opening.code), 303)
    return give_phone_token(response, token)


@bp.route("/join/<code>/hand", methods=["GET", "POST"])
@phone_required(seat=True)
@writeonce.write_once(scope=CODE_WRITES)
def hand(code: str):
    """One player's hand: the cards left (the card pad, or typed), or the points, or "I went
    out"; Send. Changeable until the round is saved; then what the ledger holds for the seat."""
    opening, row = g.opening, g.seat
    form = PhoneHandForm(data=_sent_data(row, opening) if request.method == "GET" else None)
    problem = None
    if form.is_submitted():
        if not form.validate_on_submit():
            problem = "This page had expired: check your hand and press Send again."
        else:
            try:
                service.send_hand(row, form.sent(), form.for_round())
            except errors.ScorebookError as error:
                problem = capital(error.message)
            else:
                flash(service.sent_message(row))
                return redirect(url_for("phones.hand", code=opening.code), 303)
    return _hand_page(opening, row, form, problem)


def _sent_data(row, opening) -> dict[str, Any]:
    """The form as the hand was last sent, ready to be changed."""
    return {
        "cards": row.cards if row.kind == "cards" else "",
        "counted": row.kind == "points",
        "points": str(row.points) if row.kind == "points" else "",
        "went_out": service.went_out(row.kind),
        "one_turn": row.kind == service.ONE_TURN,
        "round_number": str(opening.number),
    }


def _hand_page(opening, row, form: PhoneHandForm, problem: str | None):
    game = opening.game
    rules = ledger.rules_of(game)
    page = render_template(
        "phones/hand.html",
        opening=opening,
        state=service.phone_state(opening, row),
        name=game.names[row.seat],
        setup=ledger.setup_for(game, opening.number),
        rules=rules,
        last_round=rules.last_deal,
        form=form,
        problem=problem,
        retry_ms=RETRY_MS,
        copies=pack_copies(rules, len(game.players)),
    )
    return form_page(page)
