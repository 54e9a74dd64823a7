"""等级分: the official rating rules as pure functions over plain data.

Modules, in the order the texts use them:

* ``model``: players, events, games, standings (the input contract);
* ``tables``: 附表1 (p → dp) and 附表2 (D → PD), exact hundredths;
* ``exact``: 四舍五入 and exact means;
* ``rules``: the rule sets (``cga-gomoku-2011``, ``bjsh-gomoku-2007``, ``cn-go-1995``) and TOML variants;
* ``expected``: We and ΔR = K(W − We) per game, by averaging, and the Go round robin;
* ``newcomer``: Ra, Ru and a first rating (CGA Art. 6–7);
* ``champion``: who is champion (冠军不降分);
* ``event``: one rated event, every player, with the explanation;
* ``state``: a player's state between two lists (what the office stores);
* ``period``: one rating period and its published list, activity and removal;
* ``calendar``: publication dates;
* ``history``: a whole history, period after period;
* ``results`` / ``explain``: changes, lists and their plain-text explanation.
"""
