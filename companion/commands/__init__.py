"""Subcommands of `companion`: one module each (see companion.cli)."""
