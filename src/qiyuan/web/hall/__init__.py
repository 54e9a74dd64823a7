"""The hall's pages for phones (赛场手机页面): a player's own page (his board's result, his check-in), the
check-in poster, the live round — no log-in; a player's page reached only through his personal credential
(a signed link on his entry card and his half of each slip)."""
