"""``qiyuan rules list|show``: the rule sets and their settings; ``qiyuan rules evaluate|compare``: the
rule sandbox (规则沙盘), measured on a history."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from qiyuan.cli.lang import N_, _, file_error, problem_line
from qiyuan.errors import InputError, Problem, problem
from qiyuan.formats.rules_toml import rules_toml, toml_value

from qiyuan.rating.rules import BUILTIN_RULES, SETTING_HELP, RulesError, base_name, load_rules, rules_as_dict

rules_app = typer.Typer(help=N_("Rating rule sets and their settings."), no_args_is_help=True)


def rules_problem(rules: str, exc: RulesError) -> Problem:
    """Why ``--rules`` cannot be used, as a template the catalogue translates (the rule file's own checks say
    their English sentence as the detail)."""
    if rules not in BUILTIN_RULES and Path(rules).suffix.lower() != ".toml":
        return problem("unknown rule set '{name}' (built in: {names}; or give a .toml file)", file=rules,
                       column="--rules", name=rules, names=_(", ").join(BUILTIN_RULES))
    if not Path(rules).is_file():
        return problem("no such file", file=rules, column="--rules")
    return problem("the rule file cannot be used: {detail}", file=rules, column="--rules", detail=str(exc))


@rules_app.command("list")
def list_rules() -> None:
    """List the built-in rule sets."""
    table = Table(_("rule set"), _("title"), _("lists on the 1st of"), box=None)
    for name, rules in BUILTIN_RULES.items():
        table.add_row(name, rules.title, _(", ").join(f"{m:02d}" for m in rules.publication_months))
    Console().print(table)


@rules_app.command("show")
def show_rules(
    name: str = typer.Argument(..., help="A built-in rule set name, or a TOML variant file."),
    toml: bool = typer.Option(False, "--toml", help="Print as a TOML variant file (base plus every setting): a starting point for a variant."),
) -> None:
    """Print every setting of a rule set."""
    try:
        rules = load_rules(name)
        base = base_name(name)
    except RulesError as exc:
        typer.echo(_("error: ") + problem_line(rules_problem(name, exc)), err=True)
        raise typer.Exit(2) from None
    settings = rules_as_dict(rules, every=True)
    if toml:  # a variant file: its base, then every setting (overriding all of the base's)
        typer.echo(rules_toml(rules, base), nl=False)
        return
    table = Table(_("setting"), _("value"), _("meaning"), title=f"{rules.name} — {rules.title}", box=None)
    from rich.markup import escape

    for key, value in settings.items():
        shown = toml_value(value) if isinstance(value, list) and any(isinstance(v, list) for v in value) else (
            ", ".join(map(str, value)) if isinstance(value, list) else str(value))
        table.add_row(key, escape(shown), escape(_(SETTING_HELP.get(key, ""))))
    Console().print(table)


# --------------------------------------------------------------------------------------------
# The rule sandbox: `rules evaluate` and `rules compare` (the computation is qiyuan.sandbox)

if TYPE_CHECKING:
    from qiyuan.formats.history_csv import HistoryInput
    from qiyuan.rating.rules import RuleSet

_PLAYERS = Annotated[Path, typer.Option("--players", help="players.csv")]
_EVENTS = Annotated[Path, typer.Option("--events", help="events.csv")]
_GAMES = Annotated[Path, typer.Option("--games", help="games.csv")]
_STANDINGS = Annotated[Optional[Path], typer.Option("--standings", help="standings.csv (official ranks).")]


def _sandbox_console() -> Console:
    """Standard output; wide enough for the tables when it is not a terminal."""
    return Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 140)


def _sandbox_fail(problems: list[Problem]) -> None:
    console = Console(stderr=True, highlight=False, soft_wrap=True)
    console.print("[bold red]" + _("{count} problem(s) in the input; nothing written:").format(count=len(problems))
                  + "[/]")
    for p in problems:
        console.print(f"  {problem_line(p)}", markup=False)
    raise typer.Exit(2)


def _sandbox_rules(names: list[str], problems: list[Problem], option: str = "--rules") -> list[RuleSet]:
    found = []
    for name in names:
        try:
            found.append(load_rules(name))
        except RulesError as exc:
            problems.append(Problem(name, None, option, str(exc)))
    return found


def _sandbox_date(text: Optional[str], option: str, problems: list[Problem]) -> Optional[date]:
    """A date option (YYYY-MM-DD), None when not given (a problem when it is not a date)."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        problems.append(problem("expected a date YYYY-MM-DD, got {value!r}", column=option, value=text))
        return None


def _sandbox_out(path: Optional[Path], option: str, problems: list[Problem]) -> None:
    """An output file must be a file in an existing directory."""
    if path is None:
        return
    if path.is_dir():
        problems.append(problem("is a directory; give a file name", file=str(path), column=option))
    elif not path.resolve().parent.is_dir():
        problems.append(problem("the directory {directory} does not exist", file=str(path), column=option,
                                directory=str(path.resolve().parent)))


def _sandbox_history(players: Path, events: Path, games: Path, standings: Optional[Path],
                     problems: list[Problem]) -> HistoryInput:
    """The history files, read and checked; every problem (with the earlier ones) reported at once."""
    from qiyuan.formats.history_csv import read_history

    try:
        data = read_history(players, events, games, standings)
    except InputError as exc:
        _sandbox_fail(problems + list(exc.problems))
    if problems:
        _sandbox_fail(problems)
    return data


def _sandbox_write(console: Console, outputs: list[tuple[Optional[Path], str, str, Callable[[Path], None]]]) -> None:
    """Write the asked-for files (each one atomically); if one cannot be written, the files this run
    created are removed again, the problem is reported and the command exits 2."""
    created: list[Path] = []
    for path, option, what, write in outputs:
        if path is None:
            continue
        existed = path.exists()
        try:
            write(path)
        except OSError as exc:
            for done in created:
                done.unlink(missing_ok=True)
            _sandbox_fail([problem("cannot write the file: {why}", file=str(path), column=option, why=file_error(exc))])
        if not existed:
            created.append(path)
        console.print(_("{what} written to {path}").format(what=_(what), path=path), markup=False)


class _Bars:
    """A Rich progress bar per stage of the computation (only on a terminal)."""

    def __init__(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=Console(stderr=True), transient=True,
                                 disable=not sys.stderr.isatty())
        self.tasks: dict[str, int] = {}

    def __enter__(self) -> _Bars:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage not in self.tasks:
            self.tasks[stage] = self.progress.add_task(stage, total=total)
        self.progress.update(self.tasks[stage], completed=done, total=total)


@rules_app.command("evaluate")
def evaluate_rules(
    rules: Annotated[list[str], typer.Option("--rules", help="A rule set name or TOML variant file (repeatable).")],
    players: _PLAYERS,
    events: _EVENTS,
    games: _GAMES,
    standings: _STANDINGS = None,
    from_date: Annotated[Optional[str], typer.Option(
        "--from", help="Predict the events ending on or after this date, YYYY-MM-DD (default: two years "
                       "after the first event).")] = None,
    csv_out: Annotated[Optional[Path], typer.Option("--csv", help="Write the table as CSV here (and beside it "
                                                    "NAME-both-rated.csv, NAME-calibration.csv, NAME-lists.csv).")] = None,
    plot: Annotated[Optional[Path], typer.Option("--plot", help="Write calibration charts (PNG) here (and the drift "
                                                 "and volatility charts beside it, NAME-lists.png).")] = None,
    predictions_out: Annotated[Optional[Path], typer.Option(
        "--predictions", help="Write every prediction as CSV here: one row per test game and system (event, round, "
                              "both players, probability, outcome, listed or prior).")] = None,
) -> None:
    """How well rule sets and the baselines (constant, elo, glicko2, whr) predict the same games: the
    baselines tuned on the burn-in before --from, every game predicted, calibration, drift."""
    from qiyuan.formats.sandbox_files import (beside, plot_available, write_calibration_csv, write_calibration_png,
                                              read_colours, read_handicaps, write_list_measures_csv,
                                              write_list_measures_png,
                                              write_predictions_csv, write_scores_csv)
    from qiyuan.sandbox.evaluate import check_rule_sets, evaluate

    problems: list[Problem] = []
    rule_sets = _sandbox_rules(rules, problems)
    if len(rule_sets) == len(rules):
        try:
            check_rule_sets(rule_sets)
        except InputError as exc:
            problems.extend(exc.problems)
    start = _sandbox_date(from_date, "--from", problems)
    _sandbox_out(csv_out, "--csv", problems)
    _sandbox_out(plot, "--plot", problems)
    _sandbox_out(predictions_out, "--predictions", problems)
    if plot is not None and not plot_available():
        problems.append(problem("the chart needs matplotlib: {command}", file=str(plot), column="--plot",
                                command="pip install 'qiyuan[plot]'"))
    data = _sandbox_history(players, events, games, standings, problems)
    try:
        colours = read_colours(games, data.games)
        handicaps = read_handicaps(games, data.games)
        with _Bars() as bars:
            result = evaluate(rule_sets, data.players, data.events, data.games, data.standings, from_date=start,
                              colours=colours, progress=bars)
    except InputError as exc:
        _sandbox_fail(list(exc.problems))
    _print_evaluation(result)
    console = _sandbox_console()
    if handicaps is not None and colours is not None:
        _print_handicaps(console, data.games, colours, *handicaps)
    gs = result.games
    title = _("calibration by rating gap ({games} games from {day})").format(games=f"{gs.predicted.sum():,}",
                                                                            day=gs.from_date.isoformat())
    _sandbox_write(console, [
        (csv_out, "--csv", N_("table"), lambda path: write_scores_csv(path, result.scores)),
        (beside(csv_out, "both-rated", ".csv"), "--csv", N_("both-rated table"),
         lambda path: write_scores_csv(path, result.both_rated)),
        (beside(csv_out, "calibration", ".csv"), "--csv", N_("calibration table"),
         lambda path: write_calibration_csv(path, result.calibration)),
        (beside(csv_out, "lists", ".csv"), "--csv", N_("drift, volatility and first ratings"),
         lambda path: write_list_measures_csv(path, result.lists)),
        (predictions_out, "--predictions", N_("predictions"),
         lambda path: write_predictions_csv(path, result.games, result.predictions)),
        (plot, "--plot", N_("calibration charts"), lambda path: write_calibration_png(path, result.calibration, title)),
        (beside(plot, "lists", ".png"), "--plot", N_("drift and volatility charts"),
         lambda path: write_list_measures_png(path, result.lists)),
    ])


#: the score table's columns: the CSV's names (for programs) → how people read them
SCORE_COLUMNS = {"system": N_("system"), "log_loss": N_("log loss"), "se": N_("SE"), "brier": N_("Brier score"),
                 "prediction_rate": N_("prediction rate"), "games": N_("games"), "coverage": N_("coverage"),
                 "listed_log_loss": N_("listed games' log loss"), "prior_log_loss": N_("prior games' log loss"),
                 "diff_vs_best": N_("vs best"), "se_vs_best": N_("SE vs best")}
#: the baselines' names as people read them (a rule set is named by its own name)
BASELINE_NAMES = {"constant": N_("constant"), "elo": N_("elo"), "glicko2": N_("glicko2"), "whr": N_("whr"),
                  "elo+colour": N_("elo+colour"), "glicko2+colour": N_("glicko2+colour")}


def system_name(system: str) -> str:
    return _(BASELINE_NAMES[system]) if system in BASELINE_NAMES else system


def _score_table(rows: list, title: str) -> Table:
    finite = [s for s in rows if s.games]
    best = min(finite, key=lambda s: s.log_loss) if finite else None
    table = Table(*(_(c) for c in SCORE_COLUMNS.values()), box=None, title=title)
    for s in rows:
        table.add_row(system_name(s.system) + (" *" if s is best else ""), f"{s.log_loss:.4f}", f"{s.se:.4f}",
                      f"{s.brier:.4f}", f"{s.prediction_rate:.4f}", f"{s.games:,}", f"{s.coverage:.3f}",
                      f"{_f1(s.listed_log_loss, 4)} ({s.listed_games:,})", _f1(s.prior_log_loss, 4),
                      f"{s.diff_vs_best:+.4f}", f"{s.se_vs_best:.4f}")
    return table


def _print_evaluation(result) -> None:
    gs = result.games
    console = _sandbox_console()
    console.print(_score_table(result.scores, _("{games} games of {events} events ending on or after {day}").format(
        games=f"{gs.predicted.sum():,}", events=f"{len(gs.predicted_events):,}", day=gs.from_date.isoformat())))
    console.print(_("* best (lowest log loss). Every system predicts every game; for a player it has no rating for, "
                    "from one prior fitted on the burn-in (the entry mean of his group, the same for every row; a rule "
                    "set's own entry rating only seeds its events). {se}: standard error, clustered by event. "
                    "{coverage}: how often it had both players' ratings; the loss on those listed games (their number) "
                    "and on the prior-driven rest. {prediction_rate}: the predicted favourite won (draws and even "
                    "predictions ½). {diff_vs_best} and {se_vs_best}: the paired per-game difference of log loss to "
                    "the best row and its standard error, clustered by event.").format(
        **{c: _(SCORE_COLUMNS[c]) for c in ("se", "coverage", "prediction_rate", "diff_vs_best", "se_vs_best")}),
        markup=False)
    colour = result.colour
    if colour.games:
        console.print(_("Black's advantage: Black scored {score} ± {se} (clustered by event) in the {games} predicted "
                        "games with known colours, {elo} Elo-equivalent; {burn} in the burn-in — the colour term of "
                        "{elo_c} and {glicko_c}.").format(
            score=f"{colour.score:.4f}", se=f"{colour.se:.4f}", games=f"{colour.games:,}", elo=f"{colour.elo:+.0f}",
            burn=f"{result.colour_burn_in.elo:+.0f}", elo_c=system_name("elo+colour"),
            glicko_c=system_name("glicko2+colour")), markup=False)
    else:
        console.print(_("Black's advantage: not measured (games.csv has no black column)."), markup=False)
    prior = result.prior
    console.print(_("Prior (fitted on the {games} burn-in games): entry mean men {men}, women {women} ({m} and {f} "
                    "newcomers); spread {sd} — {glicko2}'s newcomer RD {sd}, {whr}'s virtual draws {draws}.").format(
        games=f"{prior.games:,}", men=f"{prior.entry['M']:.0f}", women=f"{prior.entry['F']:.0f}",
        m=prior.newcomers["M"], f=prior.newcomers["F"], sd=f"{prior.sd:.0f}", glicko2=system_name("glicko2"),
        whr=system_name("whr"), draws=prior.virtual_draws), markup=False)
    both = result.both_rated[0].games if result.both_rated else 0
    console.print(_score_table(result.both_rated, _("the {games} of them in which every system that keeps ratings had "
                                                    "both players' ratings").format(games=f"{both:,}")))
    console.print(_("Forward protocol: the {games} games of the events ending before {day} are the burn-in; the "
                    "baselines' settings were chosen on them by grid search (lowest burn-in log loss), then frozen "
                    "for the test:").format(games=f"{result.tuned.burn_in_games:,}", day=gs.from_date.isoformat()),
                  markup=False)
    for choice in (result.tuned.elo, result.tuned.glicko2, result.tuned.whr):
        console.print("  " + _line(choice.describe()), markup=False)
    console.print(_line(result.whr.describe()), markup=False)
    names = [p.system for p in result.predictions]
    first = next(iter(result.calibration.values()))
    cal = Table(_("favourite's gap G"), *map(system_name, names), box=None,
                title=_("calibration by the favourite's rating gap: his expected → observed score (games); the slope "
                        "b of s on logit p (1: calibrated, below 1: overconfident) and the test of b = 1"))
    slopes = [result.calibration[n].slope for n in names]
    cal.add_row(_("slope b (se)"), *(f"{sl.slope:.3f} ({sl.se:.3f})" for sl in slopes))
    cal.add_row(_("z, p (b = 1)"), *(f"{sl.z:+.1f}, {sl.p_value:.2g}" for sl in slopes))
    for i, b in enumerate(first.bins):
        cells = []
        for n in names:
            c = result.calibration[n].bins[i]
            cells.append(f"{c.predicted:.2f}→{c.observed:.2f} ({c.count})" if c.count else "")
        cal.add_row(_gap_label(b), *cells)
    console.print(cal)
    colour = Table(_("Black's gap G"), *map(system_name, names), box=None,
                   title=_("calibration in both directions: Black's expected → observed score by his own signed gap "
                           "(below 0: White the favourite), on the games with known colours"))
    for i, b in enumerate(first.by_colour):
        cells = []
        for n in names:
            c = result.calibration[n].by_colour[i]
            cells.append(f"{c.predicted:.2f}→{c.observed:.2f} ({c.count})" if c.count else "")
        if any(cells):
            colour.add_row(_gap_label(b), *cells)
    if first.by_colour:
        console.print(colour)
    for m in result.lists:
        system = system_name(m.system)
        drift = Table(*(_(h) for h in (N_("list date"), N_("cohort"), N_("cohort mean"), N_("cohort sd"), N_("listed"),
                                       N_("list mean"))), box=None,
                      title=_("{system}: drift of the cohort published on {day}").format(
                          system=system, day=m.cohort_date.isoformat()))
        for d in m.drift:
            drift.add_row(d.date.isoformat(), str(d.cohort), _f1(d.cohort_mean), _f1(d.cohort_sd), str(d.listed),
                          _f1(d.list_mean))
        console.print(drift)
        vol = Table(*(_(h) for h in (N_("rated games before"), N_("changes"), N_("games"), N_("mean |ΔR| per game"))),
                    box=None, title=_("{system}: volatility from list to list (from {day})").format(
                        system=system, day=m.cohort_date.isoformat()))
        for v in m.volatility:
            vol.add_row(f"{v.lo}–{v.hi - 1}" if v.hi is not None else f"{v.lo}+", str(v.changes), str(v.games),
                        _f1(v.per_game, 2))
        console.print(vol)
        e = m.establishment
        console.print(_("{system}: games to a first rating — {players} newcomers published, after a median of {median} "
                        "played games (mean {mean}; median {rated} rated games on that list); {never} played but were "
                        "never published.").format(system=system, players=e.players, median=_f1(e.played_median) or "—",
                                                   mean=_f1(e.played_mean) or "—", rated=_f1(e.rated_median) or "—",
                                                   never=e.never), markup=False)


def _print_handicaps(console: Console, games, black, stones, komi) -> None:
    """Go: Black's advantage per handicap (stones) and komi, over every played game with known colours."""
    from qiyuan.sandbox.colour import advantage_by_handicap

    for st, k, adv in advantage_by_handicap(games, black, stones, komi):
        console.print(_("Black's advantage with {stones} stone(s), komi {komi}: Black scored {score} ± {se} in {games} "
                        "games, {elo} Elo-equivalent.").format(
            stones=st, komi="—" if k != k else f"{k:g}", score=f"{adv.score:.4f}", se=f"{adv.se:.4f}",
            games=f"{adv.games:,}", elo=f"{adv.elo:+.0f}"), markup=False)


def _line(p: Problem) -> str:
    """A sandbox line kept as a template (a tuned baseline, WHR's refits): its system named for people, then in
    the run's language."""
    from dataclasses import replace

    system = (p.params or {}).get("system")
    return problem_line(replace(p, params={**p.params, "system": system_name(system)}) if system else p)


def _gap_label(b) -> str:
    if b.lo == -float("inf"):
        return f"G < {b.hi:g}"
    return f"G {b.lo:g}–{b.hi:g}" if b.hi != float("inf") else f"G ≥ {b.lo:g}"


def _f1(x: float, digits: int = 1) -> str:
    return "" if x != x else f"{x:.{digits}f}"


@rules_app.command("compare")
def compare_rules(
    a: Annotated[str, typer.Argument(help="Rule set A (name or TOML variant file).")],
    b: Annotated[str, typer.Argument(help="Rule set B (name or TOML variant file).")],
    players: _PLAYERS,
    events: _EVENTS,
    games: _GAMES,
    standings: _STANDINGS = None,
    top: Annotated[int, typer.Option("--top", help="How many of the players who move most to list.")] = 10,
    csv_out: Annotated[Optional[Path], typer.Option("--csv", help="Write the per-date table as CSV here.")] = None,
    report: Annotated[Optional[Path], typer.Option(
        "--report", help="Write the impact pack (HTML): B retroactively and from --from side by side, per player, "
                         "the distributions, who crosses a grade or --threshold.")] = None,
    from_date: Annotated[Optional[str], typer.Option(
        "--from", help="For --report: B applies from this list date (a publication date of both), YYYY-MM-DD "
                       "(default: 1 January of the history's middle year).")] = None,
    on: Annotated[Optional[str], typer.Option(
        "--on", help="For --report: the list shown per player, YYYY-MM-DD (default: two years after --from).")] = None,
    thresholds: Annotated[Optional[list[int]], typer.Option(
        "--threshold", help="For --report: an eligibility rating threshold (repeatable); grades are always shown.")]
        = None,
) -> None:
    """Two rule sets' published lists of one history, list date by list date, and who moves most; with
    --report, the impact pack of adopting B."""
    from qiyuan.formats.sandbox_files import write_comparison_csv, write_impact_html
    from qiyuan.sandbox.compare import compare
    from qiyuan.sandbox.impact import impact

    problems: list[Problem] = []
    rule_a = _sandbox_rules([a], problems, "A")
    rule_b = _sandbox_rules([b], problems, "B")
    if top < 1:
        problems.append(problem("must be at least 1, not {value}", column="--top", value=top))
    days = {option: _sandbox_date(text, option, problems) for option, text in (("--from", from_date), ("--on", on))}
    _sandbox_out(report, "--report", problems)
    _sandbox_out(csv_out, "--csv", problems)
    data = _sandbox_history(players, events, games, standings, problems)
    try:
        with _Bars() as bars:
            result = compare(rule_a[0], rule_b[0], data.players, data.events, data.games, data.standings, top=top,
                             progress=bars)
    except InputError as exc:
        _sandbox_fail(list(exc.problems))
    console = _sandbox_console()
    table = Table(_("list date"), "A", "B", _("both"), _("only A"), _("only B"), _("mean B−A"), _("mean |B−A|"),
                  _("largest B−A"), _("player"), box=None,
                  title=_("A = {a}, B = {b}: players published on each list").format(a=result.a, b=result.b))
    for r in result.dates:
        table.add_row(r.date.isoformat(), str(r.published_a), str(r.published_b), str(r.both), str(r.only_a),
                      str(r.only_b), "" if r.mean_diff is None else f"{r.mean_diff:+.1f}",
                      "" if r.mean_abs_diff is None else f"{r.mean_abs_diff:.1f}",
                      "" if r.largest_diff is None else f"{r.largest_diff:+d}", r.largest_player or "")
    console.print(table)
    names = {p.id: p.name for p in data.players}
    movers = Table(_("player"), _("name"), _("list date"), "A", "B", "B−A", box=None,
                   title=_("who moves most (top {top}): the largest |B − A| of each player").format(top=top))
    for m in result.movers:
        movers.add_row(m.player_id, names.get(m.player_id, ""), m.date.isoformat(), str(m.rating_a),
                       str(m.rating_b), f"{m.diff:+d}")
    console.print(movers)
    pack = None
    if report is not None:
        try:
            pack = impact(rule_a[0], rule_b[0], data.players, data.events, data.games, data.standings,
                          from_date=days["--from"], on=days["--on"], thresholds=thresholds or ())
        except InputError as exc:
            _sandbox_fail(list(exc.problems))
    _sandbox_write(console, [
        (csv_out, "--csv", N_("table"), lambda path: write_comparison_csv(path, result)),
        (report, "--report", N_("impact pack"), lambda path: write_impact_html(path, pack, names)),
    ])


@rules_app.command("audit")
def audit_rules(
    rules: Annotated[str, typer.Argument(help="A rule set name or TOML variant file.")],
    players: _PLAYERS,
    events: _EVENTS,
    games: _GAMES,
    standings: _STANDINGS = None,
    csv_out: Annotated[Optional[Path], typer.Option("--csv", help="Write the table as CSV here.")] = None,
) -> None:
    """The incentives a rule set gives on a history: cap farming, sitting out, withdrawing after a loss,
    the champion and board protections, each with the best gain per game it yields."""
    from qiyuan.formats.sandbox_files import write_audit_csv
    from qiyuan.sandbox.audit import FOUND, audit

    problems: list[Problem] = []
    found = _sandbox_rules([rules], problems, "RULES")
    _sandbox_out(csv_out, "--csv", problems)
    data = _sandbox_history(players, events, games, standings, problems)
    try:
        with _Bars() as bars:
            result = audit(found[0], data.players, data.events, data.games, data.standings, progress=bars)
    except InputError as exc:
        _sandbox_fail(list(exc.problems))
    console = _sandbox_console()
    table = Table(_("strategy"), _("found"), _("effect/game"), _("SE"), _("mean/game (cases)"),
                  _("control mean/game (cases)"), _("example"), box=None,
                  title=_("incentive audit of {rules}: rating points a game a strategy gains that the play does not earn "
                          "(appendix table 2 without a cap as the truth), against a control group; found when the "
                          "effect is at least {found} at two standard errors, clustered").format(rules=result.rules,
                                                                                               found=FOUND))
    for s in result.strategies:
        table.add_row(_(STRATEGY_NAMES.get(s.name, s.name)), _("yes") if s.found else _("no"), _f1(s.effect, 3),
                      _f1(s.se, 3), f"{_f1(s.mean_per_game, 3)} ({s.cases})",
                      f"{_f1(s.control_mean, 3)} ({s.control_cases})", problem_line(s.example) if s.example else "")
    console.print(table)
    for s in result.strategies:
        console.print(f"{_(STRATEGY_NAMES.get(s.name, s.name))}{_(': ')}{problem_line(s.how)}", markup=False)
    _sandbox_write(console, [(csv_out, "--csv", N_("table"), lambda path: write_audit_csv(path, result))])


@rules_app.command("tune")
def tune_rules_command(
    rules: Annotated[str, typer.Argument(help="The rule set to tune (a name or TOML variant file).")],
    players: _PLAYERS,
    events: _EVENTS,
    games: _GAMES,
    standings: _STANDINGS = None,
    from_date: Annotated[Optional[str], typer.Option(
        "--from", help="The test: the events ending on or after this date, YYYY-MM-DD (default: two years after the "
                       "first event); the search sees only the games before it.")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write the chosen variant as a TOML rule file here.")]
        = None,
    report: Annotated[Optional[Path], typer.Option(
        "--report", help="Write the chosen variant's impact pack (HTML, with charts and its prediction evidence) "
                         "here.")] = None,
) -> None:
    """Search the rule set's own arithmetic (K by band, the newcomer's entry and first rating, the cap,
    the protections; integers the tables can express) for the variant that predicts the burn-in best
    within the limits (drift at most 5 points a year, no new audit finding), then score it once on the
    test against the rule set, paired, with standard errors clustered by event."""
    from qiyuan.formats.sandbox_files import write_impact_html, write_text
    from qiyuan.sandbox.impact import impact
    from qiyuan.sandbox.tune import DRIFT_LIMIT, changed_settings, tune_rules

    problems: list[Problem] = []
    found = _sandbox_rules([rules], problems, "RULES")
    start = _sandbox_date(from_date, "--from", problems)
    _sandbox_out(out, "--out", problems)
    _sandbox_out(report, "--report", problems)
    data = _sandbox_history(players, events, games, standings, problems)
    base = found[0]
    try:
        with _Bars() as bars:
            result = tune_rules(base, data.players, data.events, data.games, data.standings, from_date=start,
                                progress=bars)
    except InputError as exc:
        _sandbox_fail(list(exc.problems))
    console = _sandbox_console()
    changes = changed_settings(result)
    tried = result.tried
    rejected = [c for c in tried if not c.admissible]
    console.print(_("Search on the {games} burn-in games before {day}: {tried} variants of {rules} tried; {rejected} "
                    "outside the limits (drift above {limit} a year, or a new audit finding). Burn-in log loss: "
                    "{rules} {base}, the choice {best}.").format(
        games=f"{result.burn_in_games:,}", day=result.games.from_date.isoformat(), tried=len(tried), rules=base.name,
        rejected=len(rejected), limit=f"{DRIFT_LIMIT:g}", base=f"{tried[0].log_loss:.4f}",
        best=f"{min(c.log_loss for c in tried if c.admissible):.4f}"), markup=False)
    if changes:
        console.print(_("The choice changes: {changes}").format(
            changes=_(", ").join(f"{k} = {v}" for k, v in changes.items())), markup=False)
    else:
        console.print(_("No variant predicts the burn-in better within the limits: the rule set stays as it is."),
                      markup=False)
    table = _score_table([dataclasses.replace(s, system=base.name if s.system == "base" else _("the choice"))
                          for s in result.test], _("the test, once: {games} games of the events ending on or after "
                                                   "{day}").format(games=f"{result.test[0].games:,}",
                                                                   day=result.games.from_date.isoformat()))
    console.print(table)
    a, b = result.test
    d, se = a.log_loss - b.log_loss, max(a.se_vs_best, b.se_vs_best)
    if result.beats:
        console.print(_("The choice beats {rules} by {diff} ± {se} a game (paired, clustered by event): at least two "
                        "standard errors.").format(rules=base.name, diff=f"{d:.4f}", se=f"{se:.4f}"), markup=False)
    else:
        console.print(_("The choice does not beat {rules} by two standard errors: {diff} ± {se} a game (paired, "
                        "clustered by event; z = {z}). The rule sets had both players' ratings in {a} and {b} of the "
                        "test games; every other game is predicted from the shared prior whatever the rules.").format(
            rules=base.name, diff=f"{d:+.4f}", se=f"{se:.4f}", z="—" if se == 0 else f"{d / se:+.1f}",
            a=f"{a.listed_games:,}", b=f"{b.listed_games:,}"), markup=False)
    console.print(_("Drift of the cohort of {day} over the test: {rules} {base} a year, the choice {chosen} a year; "
                    "audit findings (two clustered standard errors above 0.05 a game): {rules} {found_a}; the choice "
                    "{found_b}.").format(
        day=result.games.from_date.isoformat(), rules=base.name, base=_f1(result.test_drift["base"]),
        chosen=_f1(result.test_drift["chosen"]),
        found_a=_(", ").join(_(STRATEGY_NAMES.get(s.name, s.name)) for s in result.test_audit["base"].strategies
                             if s.found) or _("none"),
        found_b=_(", ").join(_(STRATEGY_NAMES.get(s.name, s.name)) for s in result.test_audit["chosen"].strategies
                             if s.found) or _("none")), markup=False)
    pack = None
    if report is not None and changes:
        try:
            pack = impact(base, result.chosen, data.players, data.events, data.games, data.standings,
                          from_date=result.games.from_date)
        except InputError:
            pack = impact(base, result.chosen, data.players, data.events, data.games, data.standings)
    elif report is not None:
        console.print(_("No impact pack: the choice is the rule set itself."), markup=False)
    names = {p.id: p.name for p in data.players}
    evidence = _tune_evidence(result)
    from qiyuan.formats.rules_toml import rules_toml

    _sandbox_write(console, [
        (out if changes else None, "--out", N_("tuned variant"),
         lambda path: write_text(path, rules_toml(result.chosen, base_name(rules)))),
        (report if pack is not None else None, "--report", N_("impact pack"),
         lambda path: write_impact_html(path, pack, names, result.calibration, evidence)),
    ])


def _tune_evidence(result) -> str:
    """The prediction evidence of a tuned variant for its impact pack (HTML)."""
    from html import escape

    rows = "".join(f"<tr><td>{escape(n)}</td><td>{s.log_loss:.4f}</td><td>{s.se:.4f}</td><td>{s.listed_games}</td>"
                   f"<td>{s.diff_vs_best:+.4f}</td><td>{s.se_vs_best:.4f}</td></tr>"
                   for n, s in zip((result.base.name, result.chosen.name), result.test))
    return (f"<table><caption>预测检验 Prediction evidence: {result.test[0].games} test games from "
            f"{result.games.from_date.isoformat()} (paired, SE clustered by event)</caption><tr><th>规则 rules</th>"
            f"<th>log loss</th><th>SE</th><th>listed games</th><th>vs best</th><th>SE vs best</th></tr>{rows}</table>")


#: the audited strategies (``sandbox.audit``) in words
STRATEGY_NAMES = {"cap farming": N_("cap farming"), "sitting out": N_("sitting out"),
                  "withdrawing after a loss": N_("withdrawing after a loss"),
                  "champion protection": N_("champion protection"), "board protection": N_("board protection")}


def register_rules(app: typer.Typer) -> None:
    """Add the ``rules`` command group to the qiyuan app."""
    app.add_typer(rules_app, name="rules")
