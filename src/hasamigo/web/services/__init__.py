"""Services: the logic behind the routes (games, analysis)."""
