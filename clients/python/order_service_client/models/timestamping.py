from enum import StrEnum

class Timestamping(StrEnum):
    CHANGE_OF_SPEAKER = "change_of_speaker"
    EVERY_10_SECONDS = "every_10_seconds"
    EVERY_2_MINUTES = "every_2_minutes"
    EVERY_30_SECONDS = "every_30_seconds"
    NOT_REQUIRED = "not_required"

    def __str__(self) -> str:
        return str(self.value)
