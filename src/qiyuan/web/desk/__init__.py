"""Staff desk (工作台)"""
