"""竞赛: Gomoku Swiss pairing, who opens, round robins, standings and tie-breaks."""
