from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.office.federation"
    label = "federation"
    verbose_name = "Registry: players, associations, clubs, arbiters (棋手注册)"
    default_auto_field = "django.db.models.BigAutoField"
