from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.web.portal"
    label = "portal"
    verbose_name = "Public portal (公开网站)"
    default_auto_field = "django.db.models.BigAutoField"
