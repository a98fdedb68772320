from enum import StrEnum

class ListLanguagesProduct(StrEnum):
    AI_TRANSCRIPTION = "ai_transcription"
    CAPTIONS = "captions"
    FORCED_ALIGNMENT = "forced_alignment"
    SUBTITLES = "subtitles"
    TRANSCRIPTION = "transcription"
    TRANSCRIPTION_PROOFREADING = "transcription_proofreading"
    TRANSLATION = "translation"

    def __str__(self) -> str:
        return str(self.value)
