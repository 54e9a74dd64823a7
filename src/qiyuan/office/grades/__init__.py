"""The office's dan and kyu grants (段级位授予): the policy in force, grading standards, proposals, grants.

A Django app (``grades``: the installed policies and the recorded standards) and
its use cases, one function per thing the officer does — install a policy,
record an event's grading standard, confirm an event's proposals, grant a grade
by hand — each checking everything at once, running in ``office.db.writing``,
writing its audit entry and raising ``GradeRefused`` (a ``RegistryError``) with
every problem. The rules themselves are pure, in ``qiyuan.grading``; the command
line (``qiyuan office dan``) and the desk call these functions and nothing else.

Modules: ``models``; ``errors``; ``history`` (the grade held on a date, a
player's grade history); ``policies`` (install, the policy in force);
``standards``; ``proposals`` (an event's facts → ``grading.proposal``);
``grants`` (the grant use cases); ``certificates`` (a grant's certificate data).
"""
