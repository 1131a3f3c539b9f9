"""Tools a player learns with: game review (:mod:`.review`)."""
