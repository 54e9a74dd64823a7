"""Pure facts about people: identity document numbers, names in pinyin, dan/kyu grades (no Django)."""
