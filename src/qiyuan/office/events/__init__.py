"""Rated events, entries, games and imports (赛事)"""
