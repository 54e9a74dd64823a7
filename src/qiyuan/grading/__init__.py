"""段级位: the federation's dan/kyu grants as pure functions over plain data.

* ``policy`` — the grant policy file (TOML): the cap by date (第五条), the event
  classes and their placing → grade tables, the grading-event conditions (BJSH §9),
  the recognised bodies (BJSH §13(二));
* ``proposal`` — an event's final standings under the policy: who earns what, by
  which clause, and why the others do not;
* ``grant`` — the checks every grant passes (grade, body, cap on its date, lowering).

No Django, no files: the office (``qiyuan.office.grades``) builds the facts and calls these.
"""
