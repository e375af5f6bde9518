def claim(claim_id): return lambda fn: (setattr(fn, "claim_id", claim_id), fn)[1]
