from enum import StrEnum

class NumberOfSpeakers(StrEnum):
    VALUE_0 = "1_or_2"
    VALUE_1 = "3_or_more"

    def __str__(self) -> str:
        return str(self.value)
