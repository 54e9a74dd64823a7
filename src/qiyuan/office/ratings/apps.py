from django.apps import AppConfig

#: The lists a new office starts with: a CGA Gomoku list and a Go list, side by side.
DEFAULT_LISTS = (
    ("CGA", "中国五子棋等级分", "CGA Gomoku rating list", "gomoku", "cga-gomoku-2011"),
    ("GO", "中国围棋等级分", "Chinese Go rating list", "go", "cn-go-1995"),
)


class Config(AppConfig):
    name = "qiyuan.office.ratings"
    label = "ratings"
    verbose_name = "Rating lists, periods and published editions (等级分公布)"
    default_auto_field = "django.db.models.BigAutoField"

    def office_init(self, *, actor: str) -> str:
        """Create the default rating lists if missing (idempotent)."""
        from qiyuan.office.ratings.models import RatingList  # not on top: Django loads apps.py before any models

        made = []
        for code, title, title_en, game, rules in DEFAULT_LISTS:
            rl, created = RatingList.objects.get_or_create(
                code=code, defaults={"title": title, "title_en": title_en, "game": game, "rules_name": rules})
            if created:
                made.append(code)
            elif not rl.title_en:  # an office made before lists had English titles
                RatingList.objects.filter(pk=rl.pk).update(title_en=title_en)
        lists = ", ".join(RatingList.objects.order_by("code").values_list("code", flat=True))
        return f"rating lists {lists}" + (f" (created {', '.join(made)})" if made else "")
