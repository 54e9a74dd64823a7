"""URLs of the staff desk (工作台). Every view here is wrapped in ``role_required``."""

from django.urls import path

from .views import home, users

app_name = "desk"
urlpatterns = [
    path("login/", home.LoginView.as_view(), name="login"),
    path("logout/", home.LogoutView.as_view(), name="logout"),
    path("", home.home, name="home"),
    path("users/", users.users, name="users"),
    path("users/<int:user_id>/roles/", users.user_roles, name="user_roles"),
]

#: Views reachable without a role (signing in and out).
PUBLIC_VIEWS = frozenset({"login", "logout"})
