"""The desk app has no models of its own: the events arbiters run (``LiveEvent`` and its
versions) moved to the office's events app (``qiyuan.office.events.models``), so that the
portal and the desk both read them from the office and not from each other.  The desk's
migrations stay: they created the tables, which the events app took over with their data
(``events.0007_liveevent_from_desk``)."""
