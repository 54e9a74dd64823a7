"""Views of the public portal, one module per page kind: home, lists, players, events, rules."""
