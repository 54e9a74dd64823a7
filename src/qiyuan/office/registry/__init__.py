"""The registry's use cases (棋手注册): every change to players, associations, clubs and arbiters.

One function per thing an officer does — register a player or a whole
registration list, correct an identity, change a status, rename, move to
another association, grant a dan, merge duplicates, add an association or an
arbiter. Each checks everything at once (``RegistryError`` lists every
problem), runs in one transaction and writes its audit entry. The command
line, the desk and the tests call these, nothing else writes the registry.
"""

from qiyuan.office.errors import RegistryError
from qiyuan.office.registry.bodies import add_arbiter, add_association, resolve_association, resolve_club
from qiyuan.office.registry.history import HistoryItem, association_on, name_on, names_known, player_history
from qiyuan.office.registry.lists import import_registration_list, register_many
from qiyuan.office.registry.merge import MergeResult, linked_rows, merge_players
from qiyuan.office.registry.players import (
    change_association,
    grant_dan,
    register_player,
    rename_player,
    set_status,
    update_identity,
)
from qiyuan.office.registry.search import find_player, search_players

__all__ = [
    "HistoryItem", "MergeResult", "RegistryError", "add_arbiter", "add_association", "association_on",
    "change_association", "find_player", "grant_dan", "import_registration_list", "linked_rows", "merge_players", "name_on", "names_known",
    "player_history", "register_many", "register_player", "rename_player", "resolve_association", "resolve_club",
    "search_players", "set_status", "update_identity",
]
