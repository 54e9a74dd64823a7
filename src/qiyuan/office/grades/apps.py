from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.office.grades"
    label = "grades"
    verbose_name = "Dan and kyu grants (段级位授予)"
    default_auto_field = "django.db.models.BigAutoField"
