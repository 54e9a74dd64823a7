"""The event calendar's rules (赛事注册), pure: what can be told about an event before it is played.

``checks`` holds the conditions a registration is checked against besides the
rule set's eligibility conditions (``qiyuan.rating.eligibility``): the
Beijing–Shanghai 90-day rule for events outside the two regions (BJSH §3(三)),
the rules of play (CGA Art. 5(二), BJSH §7(二)(三)), clashes with other
registered events (BJSH §3), and how a registration's facts become the
eligibility module's ``EventFacts``. ``compare`` says what an arrived report
does differently from its registration. No Django, no I/O, no clock: the
office passes "today" and the other registrations in.
"""
