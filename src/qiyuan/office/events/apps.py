from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.office.events"
    label = "events"
    verbose_name = "Rated events, entries, games and imports (赛事)"
    default_auto_field = "django.db.models.BigAutoField"
