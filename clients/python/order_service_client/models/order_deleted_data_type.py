from enum import StrEnum

class OrderDeletedDataType(StrEnum):
    CAPTIONS = "captions"
    FORCED_ALIGNMENTS = "forced_alignments"
    HUMAN_OCR = "human_ocr"
    SUBTITLES = "subtitles"
    TRANSCRIPTIONS = "transcriptions"
    TRANSCRIPTION_PROOFREADINGS = "transcription_proofreadings"
    TRANSLATIONS = "translations"

    def __str__(self) -> str:
        return str(self.value)
