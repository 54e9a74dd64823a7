from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.web.desk"
    label = "desk"
    verbose_name = "Staff desk (工作台)"
    default_auto_field = "django.db.models.BigAutoField"
