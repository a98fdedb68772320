from enum import StrEnum

class TextFormat(StrEnum):
    CLEAN_VERBATIM = "clean_verbatim"
    FULL_VERBATIM = "full_verbatim"

    def __str__(self) -> str:
        return str(self.value)
