from enum import StrEnum

class GetResultFileMode(StrEnum):
    TEST = "test"

    def __str__(self) -> str:
        return str(self.value)
