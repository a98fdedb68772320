from enum import StrEnum

class TurnaroundTime(StrEnum):
    VALUE_0 = "12_hours"
    VALUE_1 = "1_days"
    VALUE_2 = "3_days"
    VALUE_3 = "5_days"

    def __str__(self) -> str:
        return str(self.value)
