from django.apps import AppConfig


class Config(AppConfig):
    name = "qiyuan.office.ratings"
    label = "ratings"
    verbose_name = "Rating lists, periods and published editions (等级分公布)"
    default_auto_field = "django.db.models.BigAutoField"
