"""The hall's pages for phones (赛场手机页面): a board's result, check-in, the live round — no log-in;
each phone page reached only through a signed link printed on a slip."""
