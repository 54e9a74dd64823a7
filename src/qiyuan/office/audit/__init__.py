"""Audit log: who did what (操作日志)"""
