"""Recording, explaining, correcting and removing hands."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from wtforms import HiddenField

from .. import words
from ..access import Level, require_match
from ..ids import whole_number
from ..models import TOKEN_LENGTH, Hand, Match
from ..rules.hand import MAX_DEAL
from ..rules.stored import well_formed
from ..services import seated
from ..services.audit import audit_rows
from ..services.hand_changes import correct_hand, remove_hand
from ..services.hand_writes import (
    Saved,
    confirmable,
    fingerprint,
    number_by_token,
    record_hand,
)
from ..services.hands import evaluate, hand_names
from ..services.match_lock import HandConflict, HandNotFound, MatchError, NeedsConfirmation
from ..services.match_state import match_rules, match_state, side_names
from ..services.rulebook import describe, describe_record
from ..services.storage import StorageUnavailable, transaction
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from .common import actor_of, add_problems, match_for, match_or_404
from .hand_form import (
    errors_at_fields,
    field_for_problem,
    field_specs,
    form_data_from_records,
    hand_form_class,
    hand_from_form,
    layout,
    modes_of,
    new_token,
    pair_notes,
    submitted_data,
    with_empty_sides_named,
)

bp = Blueprint("hands", __name__, url_prefix="/matches/<int:match_id>/hands")


class RemoveForm(FlaskForm):
    hand_id = HiddenField()
    version = HiddenField()


@dataclass
class Outcome:
    """What became of a posted hand form: saved, or shown again with what to fix or confirm."""

    saved: Saved | None = None
    top: list[str] = field(default_factory=list)
    status: int = 422
    warnings: tuple[FieldError, ...] = ()


def _int(raw: object) -> int | None:
    """A number the form sent back (a version, a hand's id or number), if it is one."""
    return whole_number(raw)


def _scoreboard(match_id: int) -> ResponseReturnValue:
    return redirect(url_for("matches.scoreboard", match_id=match_id), code=303)


def _hand_or_404(match: Match, number: int) -> Hand:
    hand = next((h for h in match.hands if h.number == number), None)
    if hand is None:
        abort(404, description=gettext("This match has no hand %(number)s.", number=str(number)))
    return hand


def _render_form(
    mode: str, match_id: int, form: FlaskForm, outcome: Outcome, **extra: Any
) -> ResponseReturnValue:
    """The hand form page; state is reloaded, since a failed write rolled the session back."""
    match = match_or_404(match_id)
    state = match_state(match)
    top_fields, sections = layout(state.rules, side_names(match))
    base = [side.total for side in state.sides]
    number = extra.get("number")
    form.deal.data = str(number or state.next_number)  # the live preview scores this deal
    if number is not None and number <= len(state.hands):
        row = state.hands[number - 1]
        base = [run - total for run, total in zip(row.running, row.totals, strict=True)]
    status = outcome.status if request.method == "POST" else 200
    return render_template(
        "hand_form.html",
        mode=mode,
        state=state,
        form=form,
        top_fields=top_fields,
        sections=sections,
        top_errors=outcome.top,
        field_errors=errors_at_fields(form, side_names(match)),
        warnings=outcome.warnings,
        base=base,
        pairs=pair_notes(state.rules, side_names(match)),
        **extra,
    ), status


def _submit(
    form: FlaskForm,
    match: Match,
    deal: int,
    save: Callable[[list[Any], str, list[list[int]] | None], Saved],
) -> Outcome:
    """Check the posted hand with the engine and, when all is well, save it.

    Problems of single inputs are attached to them; the rest go to the top. Rule
    problems are looked for even when some inputs failed to parse, so the scorer
    sees everything at once. An unlikely hand is shown again to be confirmed.
    Raises MatchError when the match itself refuses the write.
    """
    if not form.validate() and form.errors.get("csrf_token"):
        return Outcome(
            top=[gettext("This form had expired. Your entries are kept: please send it again.")]
        )
    rules = match_rules(match)
    names = side_names(match)
    posted = hand_from_form(rules, len(names), submitted_data(form))
    records, lineup = posted.records, posted.lineup
    specs = field_specs(rules, len(names))
    try:
        if form.errors:
            phase = seated.phase_for_hand(match, rules, deal)
            capped = min(deal, MAX_DEAL)
            evaluate(rules, records, match.players_per_side, names, capped, lineup, phase)
            return Outcome()
        with transaction():
            saved = save(records, form.confirmed.data or "", lineup)
        return Outcome(saved=saved)
    except ValidationError as error:
        top = add_problems(
            form,
            error.problems,
            lambda p: field_for_problem(specs, posted.at_inputs(p), posted.penalty_fields),
        )
        return Outcome(top=top)
    except NeedsConfirmation as question:
        form.confirmed.data = fingerprint(confirmable(records, lineup))
        count = len(records) if isinstance(records, list) else 0
        who = hand_names(rules, count, match.players_per_side, lineup or (), names)
        warnings = with_empty_sides_named(form, specs, posted, question.warnings, who)
        return Outcome(status=200, warnings=warnings)
    except StorageUnavailable as error:
        kept = gettext("%(problem)s Your entries are kept below.", problem=error.message)
        return Outcome(top=[kept], status=503)


@bp.route("/new", methods=["GET", "POST"])
def record(match_id: int) -> ResponseReturnValue:
    match, access = match_for(match_id, Level.SCORER)
    state = match_state(match)
    if state.over:
        flash(gettext("The game is over: no more hands can be recorded."))
        return _scoreboard(match_id)
    form_class = hand_form_class(state.rules, side_names(match), seated.next_phase(match))
    if request.method == "GET":
        last = [well_formed(side.record) for side in match.hands[-1].sides] if match.hands else []
        form = form_class(data=modes_of(state.rules, last))
        form.token.data = new_token()
        form.expected_number.data = str(state.next_number)
        return _render_form("new", match_id, form, Outcome())
    form = form_class()
    token = (form.token.data or "")[:TOKEN_LENGTH] or None
    expected = _int(form.expected_number.data)
    try:
        outcome = _submit(
            form,
            match,
            state.next_number,
            lambda records, confirmed, lineup: record_hand(
                match_id,
                records,
                token=token,
                expected_number=expected,
                confirmed=confirmed,
                actor=actor_of(access),
                lineup=lineup,
            ),
        )
    except MatchError as error:
        outcome = Outcome(top=[error.message], status=error.status)
    if outcome.saved is None:
        return _render_form("new", match_id, form, outcome)
    if outcome.saved.changed:
        flash(gettext("Hand %(number)s recorded.", number=words.number(outcome.saved.number)))
    else:
        flash(
            gettext(
                "Hand %(number)s was already recorded; it was not added twice.",
                number=words.number(outcome.saved.number),
            )
        )
    return _scoreboard(match_id)


@bp.get("/sent/<token>")
def sent(match_id: int, token: str) -> ResponseReturnValue:
    """Which hand the form with this one-time token was recorded as (null: none). A phone
    that sent a hand from its outbox asks, since a redirect alone does not say."""
    require_match(match_id, Level.SCORER)
    response = jsonify(number=number_by_token(match_id, token[:TOKEN_LENGTH]))
    response.cache_control.no_store = True
    return response


@bp.post("/preview")
def preview(match_id: int) -> ResponseReturnValue:
    """The posted hand form scored as it stands, saving nothing: the page's live preview.

    It reads the form exactly as saving does, so the page's script never repeats the
    mapping from inputs to hand records.
    """
    match, _ = match_for(match_id, Level.SCORER)
    rules = match_rules(match)
    names = side_names(match)
    deal = _int(form_deal := request.form.get("deal", ""))  # the hand number the form is for
    deal = min(deal, MAX_DEAL) if deal is not None and deal > 0 else None
    phase = seated.phase_for_hand(match, rules, deal or 1) if form_deal else None
    form = hand_form_class(rules, names, phase)()
    if not form.validate() and form.errors.get("csrf_token"):
        message = gettext("This form had expired. Your entries are kept: please send it again.")
        return jsonify(
            errors=[{"side": None, "field": None, "message": message}], said=_said()
        ), 400
    posted = hand_from_form(rules, len(names), submitted_data(form))
    try:
        evaluation = evaluate(
            rules, posted.records, match.players_per_side, names, deal, posted.lineup, phase
        )
    except ValidationError as error:
        problems = [posted.at_inputs(problem).to_dict() for problem in error.problems]
        return jsonify(errors=problems, said=_said()), 422
    if form.errors:
        errors = [
            {
                "side": None,
                "field": name,
                "message": message
                if name == "out"
                else gettext(
                    "%(field)s: %(problem)s", field=str(form[name].label.text), problem=message
                ),
            }
            for name, messages in form.errors.items()
            for message in messages
        ]
        return jsonify(errors=errors, said=_said()), 422
    # A seated game's preview is by seat: each seat's share, next to its inputs.
    return jsonify(
        sides=[
            words.scored(side, rules.vocabulary) for side in evaluation.seats or evaluation.scores
        ],
        warnings=[warning.to_dict() for warning in evaluation.warnings],
        said=_said(),
    )


def _said() -> dict[str, str]:
    """What the page's script says around a preview, in the reader's language (it has no
    words of its own; `%(total)s` it fills in)."""
    return {
        "saved": gettext("If saved now:"),
        "invalid": gettext("Not valid yet:"),
        "below": gettext("Not valid yet: see the preview below"),
        "total": gettext("(total %(total)s)", total="%(total)s"),
    }


@bp.get("/<int:number>")
def detail(match_id: int, number: int) -> ResponseReturnValue:
    match, access = match_for(match_id)
    state = match_state(match)
    hand = _hand_or_404(match, number)
    row = state.hands[number - 1]
    return render_template(
        "hand_detail.html",
        state=state,
        hand=hand,
        row=row,
        before=[run - total for run, total in zip(row.running, row.totals, strict=True)],
        history=audit_rows(match, hand_id=hand.id),
        entered=[describe_record(state.rules, side.record) for side in hand.sides],
        lineup=seated.lineup_words(hand.lineup, side_names(match)),
        book=describe(state.rules),
        level=access.level,
    )


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def correct(match_id: int, number: int) -> ResponseReturnValue:
    match, access = match_for(match_id, Level.SCORER)
    state = match_state(match)
    hand = _hand_or_404(match, number)
    names = side_names(match)
    phase = seated.phase_for_hand(match, state.rules, number)
    form_class = hand_form_class(state.rules, names, phase)
    if request.method == "GET":
        records = [well_formed(side.record) for side in hand.sides]
        data = form_data_from_records(state.rules, records, hand.lineup)
        form = form_class(formdata=None, data=data)
        form.version.data = str(hand.version)
        return _render_form("edit", match_id, form, Outcome(), number=number)
    form = form_class()
    version = _int(form.version.data)
    conflict = None
    try:
        if version is None:
            raise HandConflict(gettext("This form lost track of the hand's version."))
        outcome = _submit(
            form,
            match,
            number,
            lambda records, confirmed, lineup: correct_hand(
                match_id,
                number,
                records,
                version,
                confirmed=confirmed,
                actor=actor_of(access),
                lineup=lineup,
            ),
        )
    except HandConflict as error:
        current = _hand_or_404(match_or_404(match_id), number)
        conflict = [(name, s.total) for name, s in zip(names, current.sides, strict=True)]
        form.version.data = str(current.version)
        said = gettext("%(problem)s Nothing was overwritten.", problem=error.message)
        outcome = Outcome(top=[said], status=409)
    except MatchError as error:
        outcome = Outcome(top=[error.message], status=error.status)
    if outcome.saved is not None:
        flash(
            gettext(
                "Hand %(number)s corrected. Every later total has been recomputed.",
                number=str(number),
            )
        )
        return _scoreboard(match_id)
    return _render_form("edit", match_id, form, outcome, number=number, conflict=conflict)


@bp.route("/<int:number>/remove", methods=["GET", "POST"])
def remove(match_id: int, number: int) -> ResponseReturnValue:
    match, access = match_for(match_id, Level.SCORER)
    form = RemoveForm()
    problem: str | None = None
    status = 422 if request.method == "POST" else 200
    sent = (form.hand_id.data or "", form.version.data or "")
    if request.method == "POST" and any(raw and _int(raw) is None for raw in sent):
        problem = gettext("This form does not name a hand of this match: nothing was removed.")
    elif form.validate_on_submit():
        try:
            with transaction():
                remove_hand(
                    match_id,
                    number,
                    version=_int(form.version.data),
                    hand_id=_int(form.hand_id.data),
                    actor=actor_of(access),
                )
            flash(
                gettext(
                    "Hand %(number)s removed. Every later total has been recomputed.",
                    number=str(number),
                )
            )
            return _scoreboard(match_id)
        except HandNotFound:
            flash(
                gettext(
                    "There is no hand %(number)s any more: nothing was removed.", number=str(number)
                )
            )
            return _scoreboard(match_id)
        except MatchError as error:
            flash(error.message)
            return _scoreboard(match_id)
        except StorageUnavailable as error:
            problem, status = error.message, 503
        match = match_or_404(match_id)
    elif request.method == "POST":
        flash(gettext("That page had expired. Check the hand and confirm again."))
    hand = next((h for h in match.hands if h.number == number), None)
    if hand is None:
        flash(
            gettext(
                "There is no hand %(number)s to remove (it may have been removed already).",
                number=str(number),
            )
        )
        return _scoreboard(match_id)
    form.hand_id.data = str(hand.id)
    form.version.data = str(hand.version)
    state = match_state(match)
    return render_template(
        "remove_hand.html",
        state=state,
        hand=hand,
        form=form,
        row=state.hands[number - 1],
        problem=problem,
    ), status
