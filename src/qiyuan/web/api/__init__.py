"""The read-only JSON API of the published record (``/api/v1/``)."""
