"""Files people exchange: history CSV, TRF-16, the competition report, list exports."""
