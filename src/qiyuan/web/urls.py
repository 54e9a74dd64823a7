"""Root URLs: the public portal at /, the open-data API at /api/, the staff desk at /desk/, Django admin at /admin/."""

from django.contrib import admin
from django.urls import include, path

from qiyuan.web.login_guard import ThrottledAdminLoginForm

admin.site.login_form = ThrottledAdminLoginForm  # the admin's logins throttled as the desk's

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/", include("qiyuan.web.api.urls")),
    path("desk/", include("qiyuan.web.desk.urls")),
    path("hall/", include("qiyuan.web.hall.urls")),
    path("", include("qiyuan.web.portal.urls")),
]
