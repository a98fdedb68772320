"""What the engine's modules share: logging, the error answer, decoding audio."""
import os
import sys
import tempfile
import time

import numpy as np
from faster_whisper.audio import decode_audio

SAMPLE_RATE = 16000


def log(message):
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {message}", file=sys.stderr, flush=True)


class ApiError(Exception):
    """An answer other than 200, in OpenAI's error shape."""

    def __init__(self, status, message, kind="invalid_request_error"):
        super().__init__(message)
        self.status, self.message, self.kind = status, message, kind


# ---------------------------------------------------------------------------------------------
# Audio


def load_audio(data, filename):
    """Decodes any container/codec PyAV (FFmpeg) reads to 16 kHz mono float32, via a temp file."""
    suffix = os.path.splitext(filename or "")[1][:16] if filename else ""
    fd, path = tempfile.mkstemp(prefix="engine-upload-", suffix=suffix)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        try:
            return decode_audio(path, sampling_rate=SAMPLE_RATE)
        except MemoryError:
            raise
        except Exception as e:  # av.error.FFmpegError (InvalidDataError, ...), no audio stream, ...
            detail = getattr(e, "strerror", None) or str(e) or type(e).__name__  # (strerror: no temp path)
            raise ApiError(400, f"the audio could not be decoded: {detail}")
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


def to_pcm16(audio):
    return (np.clip(audio, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()


def r3(x):
    return round(float(x), 3)
