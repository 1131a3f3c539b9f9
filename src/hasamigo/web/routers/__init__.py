"""Routers by area: pages, games API, analysis API, websockets."""
