"""The conversation: questions, slot-filling parsers, dialogue flow. Pure Python, no Textual."""
