from enum import StrEnum

class GetResultFileFormat(StrEnum):
    DFXP = "dfxp"
    DOC = "doc"
    DOCX = "docx"
    HTML = "html"
    JSON = "json"
    JSON2 = "json2"
    PDF = "pdf"
    SRT = "srt"
    TEXT = "text"
    TTML = "ttml"
    VTT = "vtt"

    def __str__(self) -> str:
        return str(self.value)
