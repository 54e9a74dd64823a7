"""Registry: players, associations, clubs, arbiters (棋手注册)"""
