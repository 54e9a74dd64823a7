from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.office.hall"
    label = "hall"
    verbose_name = "The hall: results and check-in from players' phones (赛场手机报分)"
    default_auto_field = "django.db.models.BigAutoField"
