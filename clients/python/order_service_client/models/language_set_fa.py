from enum import StrEnum

class LanguageSetFA(StrEnum):
    ENGLISH = "english"
    FRENCH = "french"
    SPANISH = "spanish"

    def __str__(self) -> str:
        return str(self.value)
