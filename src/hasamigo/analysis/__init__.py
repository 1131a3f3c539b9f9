"""Tools a player learns with: game review (:mod:`.review`), variations tried from a
game's positions (:mod:`.variations`)."""
