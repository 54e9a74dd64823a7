"""Public portal (公开网站)"""
