"""Simulations: many hands between bots, summarised with confidence intervals (:mod:`.simulate`)."""
