"""gpu-advisor: which GPUs to buy or rent to train, fine-tune or serve a model, and why.

The package is headless except for `advisor.tui`; everything else must import without Textual.
"""

__version__ = "0.1.0"
