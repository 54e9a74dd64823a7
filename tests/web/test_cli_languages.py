"""The command line speaks the user's language (issue 24, item 1): the main commands run under a Chinese locale
print no English line — their messages, refusals, --help texts and Typer's/Click's own texts (Usage, Options,
"Show this message and exit.", error lines) — and under an English one no Chinese; ``QIYUAN_LANG`` wins over
``LANG``/``LC_MESSAGES``. Like the desk's crawl, the check fails on any untranslated line."""

from __future__ import annotations

import getpass
import re
from unittest import mock

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app
from qiyuan.cli import lang
from qiyuan.errors import problem
from qiyuan.rating.rules import BUILTIN_RULES, SETTING_HELP

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
#: what a Chinese terminal line may hold in Latin letters: option names, files, addresses, programs' names,
#: the values an option takes (codes the user types), and the user's own input echoed back
_LATIN_OK = re.compile(
    r"--?[\w-]+|[\w./-]*\.(?:csv|toml|md|txt|trf|jsonl\.gz|gz|xml|h9|xlsx|pdf|json|png|html)\b|\bCN\d+\b|https?://\S+|/[\w./-]*|\b(?:"
    r"qiyuan|QIYUAN_\w+|TRF|OpenGotha|PDF|A4|xlsx|TOML|CSV|TCP|TLS|HTTP|Unix|nginx|gunicorn|gthread|Django|NumPy|Ctrl-C|localhost|"
    r"fast|reference|arbiter|officer|admin|cga-gomoku-2011|bjsh-gomoku-2007|cn-go-1995|nosuch|bogus|slow|boss|"
    r"abc|wang\.li|docs/deploy\.md|UTF|x|migrate|URL|CHN|KOR|JPN|"
    # the values options take, typed as they are: formats, printouts, categories, points, groupings
    r"swiss|round_robin|double_round_robin|knockout|match|team|go_mcmahon|go_swiss|entries|schedule|pairings|slips|cards|"
    r"women|U\d+|rating|zero|half|full|association|club|family|resident|passport|other|international|national|first|"
    r"second|third|CHN|SQLite|PostgreSQL|JSON|YYYY-MM-DD|key=value|trf|opengotha|history|report|state|regional|local|"
    r"csv|txt|pdf|xlsx|new|Elo|Glicko-2|WHR|PNG|HTML|RIF|rif|registered|approved|refused|withdrawn|min|KOR|JPN)\b")
#: commands whose modules are not translated yet (their rows are left out of the lists that show them): the
#: list shrinks as each module is translated (docs/decisions.md, "words: the command line's language")
PENDING: set[str] = set()
_COMMAND_ROW = re.compile(r"^(\w[\w-]*)(\s{2,}).*")
_WORD = re.compile(r"[A-Za-z]{2,}")


def command_names(command=None) -> set[str]:
    """Every command name of the tree (they are typed as they are, so a usage line shows them)."""
    command = command or lang.command(app, lang.ENGLISH)
    names = set()
    for name, sub in getattr(command, "commands", {}).items():
        names |= {name} | command_names(sub)
    return names


NAMES = command_names()


_NAMES = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(NAMES, key=len, reverse=True))) + r")(?![\w-])")


def english_words(line: str) -> list[str]:
    return _WORD.findall(_LATIN_OK.sub(" ", _NAMES.sub(" ", line)))


def without_pending(lines: list[str]) -> list[str]:
    """The lines of a command list without the rows (and their wrapped continuations) of pending commands."""
    out, skipping, indent = [], False, 0
    for line in lines:
        row = _COMMAND_ROW.match(line)
        if row and row.group(1) in NAMES:
            skipping, indent = row.group(1) in PENDING, len(row.group(1)) + len(row.group(2))
        elif skipping and not line[:indent].strip() and line.strip():
            continue
        else:
            skipping = False
        if not skipping:
            out.append(line)
    return out


_BUILT = {}


def run(args: list[str], language: str, **kwargs):
    """One command line run in ``language`` (as ``qiyuan.cli.main`` runs it), in this process (the translated
    tree is built once per language)."""
    lang.activate(language)
    built = _BUILT.get(language) or _BUILT.setdefault(language, lang.command(app, language))
    try:
        with mock.patch("typer.testing._get_command", lambda _app: built):
            return CliRunner().invoke(app, args, env={"COLUMNS": "160", "QIYUAN_SECRET_KEY": ""}, **kwargs)
    finally:
        lang.activate(lang.ENGLISH)


def assert_in_language(output: str, language: str, args) -> None:
    lines = without_pending([line.strip("│╭╮╰╯─\t").removeprefix(" ").rstrip() for line in output.splitlines()])
    if language == lang.CHINESE:
        bad = [line for line in lines if english_words(line)]
        assert not bad, f"English in `qiyuan {' '.join(args)}`:\n" + "\n".join(bad)
    else:
        bad = [line for line in lines if CJK.search(line)]
        assert not bad, f"Chinese in `qiyuan {' '.join(args)}`:\n" + "\n".join(bad)


HELP = [["--help"], ["rate", "--help"], ["serve", "--help"], ["office", "user", "--help"],
        ["office", "user", "add", "--help"], ["office", "user", "list", "--help"],
        ["pair", "--help"], ["standings", "--help"], ["report", "--help"], ["event", "--help"],
        ["event", "new", "--help"], ["event", "result", "--help"], ["event", "add-player", "--help"],
        ["event", "print", "--help"], ["event", "tie", "--help"], ["office", "--help"], ["office", "player", "--help"],
        ["office", "player", "add", "--help"], ["office", "arbiter", "add", "--help"], ["office", "backup", "--help"],
        ["office", "audit", "--help"], ["demo", "--help"], ["office", "import", "--help"], ["office", "period", "--help"],
        ["office", "period", "compute", "--help"], ["office", "period", "publish", "--help"],
        ["office", "list", "--help"], ["office", "list", "export", "--help"], ["office", "verify", "--help"],
        ["rules", "--help"], ["rules", "show", "--help"], ["rules", "evaluate", "--help"], ["rules", "compare", "--help"],
        ["rules", "audit", "--help"], ["office", "flags", "--help"], ["office", "flags", "check", "--help"],
        ["office", "integrity", "--help"], ["office", "integrity", "hold", "--help"],
        ["office", "integrity", "release", "--help"], ["office", "integrity", "held", "--help"],
        ["office", "calendar", "--help"], ["office", "calendar", "add", "--help"], ["office", "calendar", "approve", "--help"], ["office", "dan", "--help"],
        ["office", "dan", "grant", "--help"], ["office", "dan", "policy", "--help"], ["office", "dan", "standard", "--help"]]
ERRORS = [["rate"], ["rate", "--bogus"], ["nosuch"], ["serve", "--port", "abc"], ["serve", "--port", "99999"],
          ["serve", "--host", "1.2.3.4"], ["serve", "--production"], ["serve", "--debug", "--workers", "3"],
          ["rate", "--engine", "slow"], ["office", "user", "add", "x", "--role", "boss"], ["serve", "a", "b"],
          ["event", "tie", "x.trf", "1,2"], ["event", "excuse", "x.trf", "3", "x"], ["event", "new"],
          ["event", "new", "x.trf", "--name", "x", "--start", "bogus"], ["office", "list", "export", "--format", "doc", "--out", "x"]]


@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
@pytest.mark.parametrize("args", HELP + ERRORS, ids=" ".join)
def test_help_and_errors_in_the_users_language(args, language):
    result = run(args, language)
    assert result.exit_code in (0, 2), result.output
    assert result.output.strip()
    assert_in_language(result.output, language, args)


@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_rate_refuses_bad_input_in_the_users_language(tmp_path, language):
    (tmp_path / "out").write_text("a file", encoding="utf-8")
    args = ["rate", "--rules", "nosuch", "--players", str(tmp_path / "p.csv"), "--events", str(tmp_path / "e.csv"),
            "--games", str(tmp_path / "g.csv"), "--out", str(tmp_path / "out")]
    result = run(args, language)
    assert result.exit_code == 2
    assert_in_language(result.output, language, args)
    assert ("没有这个文件" if language == lang.CHINESE else "no such file") in result.output
    assert result.output.count(str(tmp_path)) >= 4  # every problem says where it is


@pytest.mark.django_db
@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_desk_users_are_added_refused_and_listed_in_the_users_language(tmp_path, language):
    pw = tmp_path / "pw.txt"
    pw.write_text("a-long-password\n", encoding="utf-8")
    steps = [(["office", "user", "add", "wang.li", "--role", "arbiter", "--password-file", str(pw)], 0),
             (["office", "user", "add", "wang.li", "--role", "officer", "--password-file", str(pw)], 2),
             (["office", "user", "add", "x", "--role", "officer", "--password-file", str(tmp_path / "no")], 2),
             (["office", "user", "list"], 0)]
    for args, code in steps:
        result = run(args, language)
        assert result.exit_code == code, result.output
        assert_in_language(result.output, language, args)
    assert ("wang.li\t裁判员" if language == lang.CHINESE else "wang.li\tarbiter") in result.output


def test_the_language_comes_from_qiyuan_lang_first_then_the_locale():
    choose = lang.choose_language
    assert choose({"LANG": "zh_CN.UTF-8"}) == lang.CHINESE
    assert choose({"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}) == lang.CHINESE
    assert choose({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}) == lang.ENGLISH
    assert choose({"QIYUAN_LANG": "en", "LANG": "zh_CN.UTF-8"}) == lang.ENGLISH
    assert choose({"QIYUAN_LANG": "zh-hans", "LANG": "en_US.UTF-8"}) == lang.CHINESE
    assert choose({}) == lang.ENGLISH


def test_a_problem_is_located_and_translated():
    p = problem("the directory {directory} does not exist", file="out", line=3, column="B", directory="x")
    lang.activate(lang.CHINESE)
    try:
        assert lang.problem_line(p) == "out，第 3 行，B：目录 x 不存在"
    finally:
        lang.activate(lang.ENGLISH)
    assert lang.problem_line(p) == "out, line 3, B: the directory x does not exist"


def test_the_check_catches_an_untranslated_line():
    assert english_words("用法：qiyuan rate [选项]") == []
    PENDING.add("dan")  # a pending command's row, and its wrapped line, are left out
    try:
        assert without_pending(["rate   计算", "dan   Dan and kyu", "      grades", "serve  运行"]) == [
            "rate   计算", "serve  运行"]
    finally:
        PENDING.discard("dan")
    assert english_words("Missing option '--rules'.") == ["Missing", "option"]
    assert english_words("players.csv：cannot read the file") == ["cannot", "read", "the", "file"]


EVENT_STEPS = [
    (["event", "new", "{ev}", "--name", "测试赛", "--rounds", "3"], 0),
    *[(["event", "add-player", "{ev}", name, "--rating", str(rating)], 0)
      for name, rating in (("王一", 1786), ("李二", 1745), ("张三", 1658), ("赵四", 1744), ("钱五", 1650))],
    (["event", "draw", "{ev}", "--seed", "3"], 0),
    (["event", "pair", "{ev}"], 0),
    (["event", "result", "{ev}", "1", "1 1-0", "3 ½-½"], 0),
    (["event", "result", "{ev}", "1", "1 0-1"], 2),
    (["event", "result", "{ev}", "1", "1 0-1", "--change"], 0),
    (["standings", "{ev}"], 0),
    (["event", "crosstable", "{ev}"], 0),
    (["event", "withdraw", "{ev}", "2"], 0),
    (["event", "keep-apart", "{ev}", "--by", "club", "--rounds", "2"], 0),
    (["event", "show", "{ev}", "1"], 0),
    (["event", "add-player", "{ev}", "孙六", "--rating", "x"], 2),
]


@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_an_event_is_run_in_the_users_language(tmp_path, language):
    """An event from the terminal (new, entries, draw, pair, results, standings, crosstable …) speaks the user's
    language; the Chinese standings are headed 辅分一…辅分七 as the texts say, the English TB1…TB7."""
    ev = str(tmp_path / "e.trf")
    outputs = {}
    for step, code in EVENT_STEPS:
        args = [a.format(ev=ev) for a in step]
        result = run(args, language)
        assert result.exit_code == code, (args, result.output)
        assert_in_language(re.sub("测试赛|王一|李二|张三|赵四|钱五|孙六", "", result.output.replace(ev, "")), language, args)
        outputs[step[0] if step[0] != "event" else step[1]] = result.output
    head = next(line for line in outputs["standings"].splitlines() if "1786" not in line and line.strip())
    if language == lang.CHINESE:
        assert "辅分一" in head and "辅分七" in head and "TB1" not in head
    else:
        assert "TB1" in head and "TB7" in head


@pytest.mark.django_db
@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_the_registry_is_kept_in_the_users_language(language):
    """Associations, arbiters and players added, listed, shown and refused: headings, grades, levels and the
    registry's bilingual choices (男 male, 注册 active) in the user's language only."""
    steps = [(["office", "association", "add", "ZJ", "浙江五子棋协会"], 0),
             (["office", "association", "list"], 0),
             (["office", "arbiter", "add", "裁判甲", "--level", "national", "--recognised"], 0),
             (["office", "arbiter", "list"], 0),
             (["office", "player", "add", "--name", "张三", "--gender", "M", "--birth", "1990-13-01"], 2),
             (["office", "player", "add", "--name", "张三", "--gender", "M", "--birth", "1990-01-01", "-a", "ZJ",
               "--dan", "3d"], 0),
             (["office", "player", "search", "zhangsan"], 0),
             (["office", "player", "show", "张三"], 0),
             (["office", "player", "status", "CN000001", "retired"], 0),
             # the registry's refusals (templates, office/registry): each in the user's language
             (["office", "association", "add", "ZJ", "浙江五子棋协会"], 2),
             (["office", "arbiter", "add", "裁判甲", "--level", "national"], 2),
             (["office", "player", "status", "CN000001", "retired"], 2),
             (["office", "player", "rename", "CN000001", "张三"], 2),
             (["office", "player", "move", "CN000001", "nosuch"], 2),
             (["office", "player", "add", "--name", "张三", "--gender", "M", "--birth", "2990-01-01", "-a", "ZJ",
               "--nationality", "abcd"], 2)]
    for args, code in steps:
        result = run(args, language)
        assert result.exit_code == code, (args, result.output)
        text = re.sub("浙江五子棋协会|裁判甲|张三|zhang san|CHN|ZJ|ABCD", "", result.output)
        assert_in_language(text, language, args)
    shown = run(["office", "player", "show", "张三"], language).output
    for args, code in [(["office", "list", "add", "BJSH", "--rules", "bjsh-gomoku-2007", "--title", "京沪"], 0),
                       (["office", "list", "show"], 0), (["office", "period", "compute"], 2),
                       (["office", "period", "compute", "--list", "X"], 2), (["office", "period", "compute", "--list", "BJSH"], 2),
                       (["office", "verify"], 0)]:
        result = run(args, language)
        assert result.exit_code == code, (args, result.output)
        assert_in_language(re.sub("京沪|中国五子棋等级分|中国围棋等级分|BJSH|CGA|GO|X|bjsh-gomoku-2007|cga-gomoku-2011|cn-go-1995", "",
                                  result.output), language, args)
    assert ("三段" in shown and "男" in shown) if language == lang.CHINESE else ("3 dan" in shown and "male" in shown)


@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_rule_sets_are_shown_in_the_users_language(language):
    """`rules list` and `rules show`: the headings and every setting's meaning in the user's language (the settings'
    names and values are the TOML file's codes; the titles are the official texts' own)."""
    listed = run(["rules", "list"], language)
    assert listed.exit_code == 0
    titles = "|".join(re.escape(r.title) for r in BUILTIN_RULES.values())
    assert_in_language(re.sub(titles, "", listed.output), language, ["rules", "list"])
    shown = run(["rules", "show", "cga-gomoku-2011"], language)
    assert shown.exit_code == 0
    meanings = [re.split(r"\s{2,}", line.strip())[-1] for line in shown.output.splitlines()[2:] if line.strip()]
    assert len(meanings) >= len(SETTING_HELP)
    # the meanings name the TOML file's keys and values and the texts' symbols (Ru, Ra, dp, We), as typed
    codes = re.compile(r"\b(?:\w+_\w+|none|averaging|provisional|performance|months|repeat|once|off|pinyin|strokes|id|"
                       r"rating|cga-2011|bjsh-2007|go-1995|star|cap|ra|Ru|Ra|dp|We|non…|provisional …)(?!\w)")
    assert_in_language(codes.sub("", "\n".join(meanings).replace("冠军不降分", "")), language, ["rules", "show"])
    assert ("含义" if language == lang.CHINESE else "meaning") in shown.output


@pytest.mark.django_db
@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_the_calendar_and_its_check_in_the_users_language(language):
    """A registration's check names its clauses and says what fails in the user's language (中国棋协办法第五条（一）/
    CGA Art. 5(1)); list and show too."""
    run(["office", "init"], language)
    run(["office", "arbiter", "add", "裁判甲", "--level", "national"], language)
    steps = [(["office", "calendar", "add", "测试公开赛", "--list", "CGA", "--start", "2099-05-01", "--city", "杭州",
               "--rounds", "3", "--players", "20", "--time-control", "90 min", "--chief", "裁判甲", "--format", "swiss",
               "--organiser-level", "state", "--national"], 0),
             (["office", "calendar", "list"], 0), (["office", "calendar", "show", "R2099-001"], 0),
             (["office", "calendar", "list", "--status", "bogus"], 2)]
    for args, code in steps:
        result = run(args, language)
        assert result.exit_code == code, (args, result.output)
        typed = r"测试公开赛|杭州|裁判甲|R2099-001|CGA|90 min|\bmin\b|bogus|\broot\b|\b" + re.escape(getpass.getuser())
        assert_in_language(re.sub(typed, "", result.output), language, args)
    shown = run(["office", "calendar", "show", "R2099-001"], language).output
    assert ("中国棋协办法第五条（一）" if language == lang.CHINESE else "CGA Art. 5(1)") in shown
    assert ("范围：全国性赛事" if language == lang.CHINESE else "scope: national event") in shown  # not 国家级 (a level)
    # an imported event's status in words (its code, "rated", is the program's)
    from qiyuan.cli.calendar import EVENT_STATUS_NAMES
    from qiyuan.office.events.models import Event

    assert set(EVENT_STATUS_NAMES) == set(Event.Status.values)
    assert all(lang._load(lang.CHINESE).gettext(w) != w for w in EVENT_STATUS_NAMES.values())


@pytest.mark.django_db
@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_grades_are_listed_in_the_users_language(language):
    """`office dan events`, `standard list` and a player's `history` (no grant yet: the registry's grade in words)."""
    run(["office", "init"], language)
    run(["office", "player", "add", "--name", "张三", "--gender", "M", "--birth", "1990-01-01", "--dan", "3d"], language)
    for args in (["office", "dan", "events"], ["office", "dan", "standard", "list"], ["office", "dan", "history", "张三"]):
        result = run(args, language)
        assert result.exit_code == 0, (args, result.output)
        assert_in_language(re.sub("张三|CN000001", "", result.output), language, args)
    shown = run(["office", "dan", "history", "张三"], language).output
    assert ("三段" in shown) if language == lang.CHINESE else ("3 dan" in shown)


@pytest.mark.django_db
@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_the_grant_policy_and_proposals_in_the_users_language(tmp_path, resident_id, make_association, language):
    """`office dan policy example|check|install|show`, `propose` (a grading event and one that is not), `grant`
    and its refusals, `history`: headings, labels, clauses and reasons in the user's language, grades in words
    (六段 / 6 dan), never a code (6d)."""
    from qiyuan.office.federation.models import Player

    from tests.office._dan_fixtures import imported_event, office_setup

    office_setup(make_association)
    policy, bad = tmp_path / "p.toml", tmp_path / "bad.toml"
    bad.write_text('name = "x"\nfederation = "某"\n[[cap]]\nsince = "2000-01-01"\ngrade = "1k"\n', encoding="utf-8")
    outputs = []

    def runs(steps, typed=r"\b\B"):
        for args, code in steps:
            args = ["office", "dan", *args]
            result = run(args, language)
            assert result.exit_code == code, (args, result.output)
            text = re.sub(typed + r"|CGA-[\w-]+|\bCGA\b|DEMO-[\d-]+|\bexample\b|national-women|\bx\b|某|\w+\[\d+\]\.\w+|\b" + re.escape(getpass.getuser()) + r"\b", "",
                          result.output.replace(str(tmp_path), ""))
            assert_in_language(text, language, args)
            outputs.append(result.output)

    runs([(["policy", "show"], 0), (["policy", "example", "--out", str(policy)], 0),
          (["policy", "example", "--out", str(policy)], 2), (["policy", "check", str(policy)], 0),
          (["policy", "check", str(bad)], 2), (["policy", "install", str(policy)], 0), (["policy", "show"], 0)])
    ev = imported_event(tmp_path, resident_id)
    other = imported_event(tmp_path, resident_id, n=10, name="2024年测试赛", standard=None)
    first = Player.objects.get(entries__event=ev, entries__rank=1).federation_id
    names = {p.name for p in Player.objects.all()} | {ev.name, other.name, "中国棋院", "演示五子棋协会"}
    runs([(["propose", ev.code], 0), (["propose", other.code], 0), (["grant", ev.code], 2),
          (["grant", ev.code, "--all", "--player", first], 2), (["grant", ev.code, "--all", "--on", "2024-01-01"], 2),
          (["grant", first, "5d", "--all"], 2), (["grant", first, "5d", "--by", "中国棋院"], 2),
          (["grant", ev.code, "--player", first], 0), (["history", first], 0)],
         "|".join(map(re.escape, sorted(names, key=len, reverse=True))))
    shown, proposal = outputs[6], outputs[7]
    assert not re.search(r"\b\dd\b", shown + proposal)  # grades in words, never their codes
    if language == lang.CHINESE:
        assert "六段" in shown and "京沪细则第九条" in shown and "公开组第 1 名" in proposal and "不是等级赛" in outputs[8]
    else:
        assert "6 dan" in shown and "BJSH §9" in shown and "national open 1" in proposal and "not a grading event" in outputs[8]


HISTORY = {"players": "id,name,gender,rating,games\nA,甲,M,2100,40\nB,乙,F,1900,10\nC,丙,M,2000,31\nD,丁,M,,\n",
           "events": "id,name,start_date,end_date,format\nE1,一,2011-03-01,2011-03-02,swiss\n"
                     "E2,二,2012-09-01,2012-09-02,swiss\nE3,三,2013-06-01,2013-06-02,swiss\n",
           "games": "event_id,round,player1,player2,result\n" + "".join(
               f"E{e},{r},{a},{b},{res}\n" for e in (1, 2, 3) for r, (a, b, res) in enumerate(
                   (("A", "D", "1-0"), ("B", "C", "0-1"), ("D", "B", "½-½"), ("C", "A", "1-0")), 1))}


@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_the_rule_sandbox_reports_in_the_users_language(tmp_path, language):
    """`rules evaluate` (its whole report: the score tables and their legend, the tuned baselines, WHR's refits, the
    calibration, drift, volatility and first ratings, the files written), `compare`, `audit` and their refusals."""
    files = []
    for name, text in HISTORY.items():
        (tmp_path / f"{name}.csv").write_text(text, encoding="utf-8")
        files += [f"--{name}", str(tmp_path / f"{name}.csv")]
    steps = [(["rules", "evaluate", "--rules", "cga-gomoku-2011", *files, "--from", "2012-01-01", "--csv",
               str(tmp_path / "t.csv")], 0),
             (["rules", "evaluate", "--rules", "cga-gomoku-2011", *files, "--from", "bogus", "--csv", str(tmp_path)], 2),
             (["rules", "compare", "cga-gomoku-2011", "bjsh-gomoku-2007", *files, "--top", "0"], 2),
             (["rules", "compare", "cga-gomoku-2011", "bjsh-gomoku-2007", *files, "--top", "2"], 0),
             (["rules", "audit", "cga-gomoku-2011", *files], 0)]
    outputs = []
    for args, code in steps:
        result = run(args, language)
        assert result.exit_code == code, (args, result.output)
        text = re.sub(r"cga-gomoku-2011|bjsh-gomoku-2007|\bRD\b|\bBrier\b|\bG\b|\b[A-E]\d?\b|logit|\bse\b|\bPD\b|\bK\b|\bD\b|[甲乙丙丁]",
                      "", result.output.replace(str(tmp_path), ""))
        assert_in_language(text, language, args)
        outputs.append(result.output)
    report = outputs[0]
    assert ("前向检验" in report and "预热期对数损失" in report and "WHR：拟合" in report) if language == lang.CHINESE \
        else ("Forward protocol" in report and "burn-in log loss" in report and "whr: " in report)


@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_a_trf_files_encoding_note_in_the_users_language(tmp_path, language):
    """An event file saved as GB18030 by a Chinese Windows tool: read, and the reader's note on its encoding said in
    the user's language."""
    ev = tmp_path / "e.trf"
    for args in (["event", "new", str(ev), "--name", "测试赛", "--rounds", "3"],
                 ["event", "add-player", str(ev), "王一", "--rating", "1786"],
                 ["event", "add-player", str(ev), "李二", "--rating", "1745"]):
        assert run(args, language).exit_code == 0
    ev.write_bytes(ev.read_text(encoding="utf-8").encode("gb18030"))
    args = ["event", "withdraw", str(ev), "2"]
    result = run(args, language)
    assert result.exit_code == 0, result.output
    assert_in_language(re.sub("测试赛|王一|李二|GB18030|GBK", "", result.output.replace(str(ev), "")), language, args)
    assert ("已按 GB18030（GBK）读入" if language == lang.CHINESE else "read as GB18030 (GBK)") in result.output


@pytest.mark.django_db
@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_verify_names_the_differences_in_the_users_language(tmp_path, language):
    """`office verify` of a tampered office: the heading and every difference — altered rows, a player's entry, a
    change's stored column (named in words), a game no longer giving the change — in the user's language; the
    stored and recomputed values themselves are data, quoted as stored."""
    from qiyuan.office.events.models import Game
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due
    from tests.office._o2_fixtures import history_dir, make_list
    from tests.support import sheets

    rl = make_list()
    import_file(history_dir(tmp_path), rl, "tester")
    editions = publish_due(rl, "officer")
    entry = next(e for e in sheets.entries(editions[1]) if e["rating"] is not None)
    sheets.edit_row(editions[1], "entries", lambda e: e["player"] == entry["player"], rating=entry["rating"] + 1)
    change = next(c for c in sheets.changes(editions[2]) if c["before"] is not None)
    sheets.edit_row(editions[2], "changes", lambda c: c["before"] is not None, before=change["before"] + 1)
    game = Game.objects.filter(event__in=editions[3].events.all(), result="1-0").first()
    Game.objects.filter(pk=game.pk).update(result="0-1")
    result = run(["office", "verify"], language)
    assert result.exit_code == 1, result.output
    shown = result.output
    assert (("赛前等级分" in shown) if language == lang.CHINESE else ("stored before" in shown)), shown
    data = re.sub(r"'\[.*?\\n'|CN\d+|CGA|[A-Z]+\d*-[\w-]+|\b[0-9a-f]{12}\b", "", shown)  # (stored rows, ids)
    assert_in_language(data, language, ["office", "verify"])
