from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.web.desk"
    label = "desk"
    verbose_name = "Staff desk (工作台)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from qiyuan.web import login_guard  # noqa: F401 - connects the failed-login counter
