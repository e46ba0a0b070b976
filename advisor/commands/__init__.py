"""Headless subcommands of `gpu-advisor`; each module has `add_arguments(parser, name)` and `run(args)`."""
