from enum import StrEnum

class ForcedAlignmentFormLanguage(StrEnum):
    ENGLISH = "english"
    FRENCH = "french"
    SPANISH = "spanish"

    def __str__(self) -> str:
        return str(self.value)
