from enum import StrEnum

class ForcedAlignmentMultipartMode(StrEnum):
    LIVE = "live"
    TEST = "test"

    def __str__(self) -> str:
        return str(self.value)
