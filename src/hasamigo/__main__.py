"""``python -m hasamigo`` runs the command line."""

from hasamigo.cli import main

main()
