"""Results and check-in from the players' phones in the hall (赛场手机报分与签到): the claims the phones
make, kept until the arbiter signs them; the check-ins of each round."""
