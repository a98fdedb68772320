from enum import StrEnum

class GetResultFileKind(StrEnum):
    CAPTIONS = "captions"
    FORCED_ALIGNMENT = "forced_alignment"
    HUMAN_OCR = "human_ocr"
    PROOFREAD_CAPTIONS = "proofread_captions"
    PROOFREAD_TRANSCRIPTION = "proofread_transcription"
    SUBTITLES = "subtitles"
    TRANSCRIPTION = "transcription"
    TRANSLATION = "translation"

    def __str__(self) -> str:
        return str(self.value)
