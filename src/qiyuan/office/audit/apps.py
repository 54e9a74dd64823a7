from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.office.audit"
    label = "audit"
    verbose_name = "Audit log: who did what (操作日志)"
    default_auto_field = "django.db.models.BigAutoField"
