"""Derive the OpenGotha test files of issue 31 from the real ones in ../shared/data/opengotha (run from the
worktree: ``python tests/formats/opengotha_cases/derive.py``). Each file is a real file with one thing changed,
so it reads as OpenGotha wrote it:

* ``both-results.xml`` — Juvisy with a both-win, a both-lose, a both-win by default, a jigo by default, a win by
  default and a game whose colours are not known;
* ``criteria-nbw-sosw-exr-rating.xml`` — Juvisy placed by NBW, SOSW, EXR, Rating (the issue's four: the last two
  were dropped);
* ``criteria-more.xml`` — Juvisy placed by MMS, SOSM-1, SODOSM, EXT, SDC, CAT with two categories and a clubs
  group (Paris: 75Ju, 75Op, 75OB, 75Al);
* ``teams-14.xml`` — the Championnat as a team tournament of 14 teams (boards by round, as OpenGotha writes them);
* ``online.xml`` — Juvisy played on the internet (``bInternet``);
* ``chinese-names.xml`` — Juvisy whose players have Chinese names (高传德, 曾庆红, 欧阳修 …).
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[3] / "shared" / "data" / "opengotha"
JUVISY = (SHARED / "tournoi-de-juvisy-2019.xml").read_text(encoding="utf-8")
CDF = (SHARED / "championnat-de-france-open-2020.xml").read_text(encoding="utf-8")


def _criteria(text: str, names: list[str]) -> str:
    block = "".join(f'<PlacementCriterion name="{names[i] if i < len(names) else "NULL"}" number="{i + 1}"/>\n'
                    for i in range(6))
    head = text.index("<PlacementParameterSet>")
    start = text.index("<PlacementCriteria>", head) + len("<PlacementCriteria>\n")
    end = text.index("</PlacementCriteria>", start)
    return text[:start] + block + text[end:]


def _game(text: str, black: str, white: str, rnd: int, result: str, known: bool = True) -> str:
    pattern = re.compile(rf'<Game blackPlayer="{black}" ([^>]*)result="[A-Z_]+" roundNumber="{rnd}" '
                         rf'([^>]*)whitePlayer="{white}"/>')
    m = pattern.search(text)
    assert m, (black, white, rnd)
    new = m.group(0).replace(m.group(0)[m.group(0).index("result="):].split(" ")[0], f'result="{result}"')
    if not known:
        new = new.replace('knownColor="true"', 'knownColor="false"')
    return text.replace(m.group(0), new)


def both_results() -> str:
    t = _game(JUVISY, "DAGUENETMATHIEU", "MINIERIDAVIDE", 1, "RESULT_BOTHWIN")
    t = _game(t, "ROULLIERLOUISE", "NEMOANDRÉ", 1, "RESULT_BOTHLOSE")
    t = _game(t, "REBELOMANUELA", "RAVERASYLVAIN", 4, "RESULT_BOTHWIN_BYDEF")
    t = _game(t, "LEMOINETHEO", "LIBOYUAN", 1, "RESULT_EQUAL_BYDEF")
    t = _game(t, "SEBOUKDAVID", "BURQFRANÇOIS", 1, "RESULT_WHITEWINS_BYDEF", known=False)
    return t


def teams_14() -> str:
    keys = [m.group(2).upper() + m.group(1).upper() for m in
            re.finditer(r'<Player [^>]*firstName="([^"]*)"[^>]*name="([^"]*)"', CDF)]
    teams = []
    for i in range(14):
        members = keys[i::14][:2]
        boards = "".join(f'<Board boardNumber="{b}" player="{k}" roundNumber="{r}"/>\n'
                         for r in range(1, 21) for b, k in enumerate(members, start=1))
        teams.append(f'<Team teamName="Équipe {i + 1}" teamNumber="{i + 1}">\n{boards}</Team>\n')
    block = "<Teams>\n" + "".join(teams) + "</Teams>\n"
    return CDF.replace("<TeamTournamentParameterSet>", block + "<TeamTournamentParameterSet>", 1) \
        .replace('teamSize="4"', 'teamSize="2"')


def chinese_names() -> str:
    names = [("高", "传德"), ("曾", "庆红"), ("欧阳", "修"), ("单", "雄信"), ("解", "晓东"), ("吕", "安红"),
             ("仇", "英"), ("区", "志远"), ("查", "良镛"), ("朴", "永勋")]
    text = JUVISY
    for (surname, given), m in zip(names, list(re.finditer(
            r'<Player [^>]*firstName="([^"]*)"[^>]*name="([^"]*)"', JUVISY)), strict=False):
        first, last = m.group(1), m.group(2)
        old_key, new_key = (last + first).upper(), surname + given
        text = text.replace(f'firstName="{first}" grade', f'firstName="{given}" grade', 1)
        text = text.replace(f'name="{last}" participating', f'name="{surname}" participating', 1)
        text = text.replace(f'"{old_key}"', f'"{new_key}"')
    return text.replace('name="Tournoi de Juvisy"', 'name="2027年围棋公开赛"', 1)


def main() -> None:
    more = _criteria(JUVISY, ["MMS", "SOSM-1", "SODOSM", "EXT", "SDC", "CAT"])
    more = more.replace('numberOfCategories="1"', 'numberOfCategories="2"') \
        .replace('stdByoYomiTime="30"/>', 'stdByoYomiTime="30">\n<Category lowerLimit="5K" number="1"/>\n'
                 '</GeneralParameterSet>', 1) \
        .replace("</Tournament>", '<ClubsGroups>\n<ClubsGroup name="Paris intra-muros">\n<Club name="75Ju"/>\n'
                 '<Club name="75Op"/>\n<Club name="75OB"/>\n<Club name="75Al"/>\n</ClubsGroup>\n</ClubsGroups>\n'
                 '</Tournament>')
    files = {
        "both-results.xml": both_results(),
        "criteria-nbw-sosw-exr-rating.xml": _criteria(JUVISY, ["NBW", "SOSW", "EXR", "Rating"]),
        "criteria-more.xml": more,
        "teams-14.xml": teams_14(),
        "online.xml": JUVISY.replace("<GeneralParameterSet ", '<GeneralParameterSet bInternet="true" ', 1),
        "chinese-names.xml": chinese_names(),
    }
    for name, text in files.items():
        (HERE / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
