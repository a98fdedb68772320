"""English forced alignment with pocketsphinx (US-English model): the known words, placed
phonetically. Unknown words get pronunciations from espeak-ng, or from letter rules without it."""
import functools
import os
import re
import shutil
import subprocess
import unicodedata

import numpy as np
from pocketsphinx import Decoder, get_model_path

from common import ApiError, r3, to_pcm16

MAX_SILENCE_RATIO = 0.35
MIN_HEARD_RATIO = 0.5  # as the order service's recognition aligner (src/engines/align.ts)


PS_MODEL = os.path.join(get_model_path(), "en-us")
PS_HMM = os.path.join(PS_MODEL, "en-us")
PS_DICT = os.path.join(PS_MODEL, "cmudict-en-us.dict")
WIDE_BEAMS = dict(beam=1e-100, pbeam=1e-100, wbeam=1e-80, bestpath=False)
FRAMES_PER_SECOND = 100.0

# IPA (espeak-ng -q --ipa -v en-us) -> ARPAbet, longest match first.
IPA2ARPA = {
    "tʃ": "CH", "dʒ": "JH", "eɪ": "EY", "aɪ": "AY", "ɔɪ": "OY", "aʊ": "AW", "oʊ": "OW", "əʊ": "OW",
    "ɪə": "IH R", "eə": "EH R", "ʊə": "UH R", "ɑːɹ": "AA R", "ɔːɹ": "AO R", "ɜːɹ": "ER", "ɚ": "ER", "ɝ": "ER",
    "iː": "IY", "uː": "UW", "ɑː": "AA", "ɔː": "AO", "ɜː": "ER", "i": "IY", "ɪ": "IH", "e": "EH", "ɛ": "EH",
    "æ": "AE", "a": "AE", "ɐ": "AH", "ʌ": "AH", "ə": "AH", "ɑ": "AA", "ɒ": "AA", "ɔ": "AO", "o": "OW", "ʊ": "UH",
    "u": "UW", "ᵻ": "IH", "p": "P", "b": "B", "t": "T", "d": "D", "k": "K", "ɡ": "G", "g": "G", "f": "F",
    "v": "V", "θ": "TH", "ð": "DH", "s": "S", "z": "Z", "ʃ": "SH", "ʒ": "ZH", "h": "HH", "m": "M", "n": "N",
    "ŋ": "NG", "l": "L", "ɫ": "L", "ɹ": "R", "r": "R", "ɾ": "T", "j": "Y", "w": "W", "ʔ": "T", "x": "K"}
_IPA_KEYS = sorted(IPA2ARPA, key=len, reverse=True)

# Letters -> ARPAbet, a crude fallback when espeak-ng is not installed (longest match first).
LETTERS2ARPA = {
    "tch": "CH", "sch": "S K", "igh": "AY", "ough": "AO", "augh": "AO", "tion": "SH AH N", "sion": "ZH AH N",
    "sh": "SH", "ch": "CH", "th": "TH", "ph": "F", "ng": "NG", "ck": "K", "qu": "K W", "wh": "W", "gh": "G",
    "kn": "N", "wr": "R", "ee": "IY", "ea": "IY", "ie": "IY", "oo": "UW", "ou": "AW", "ow": "OW", "oa": "OW",
    "ai": "EY", "ay": "EY", "ei": "EY", "ey": "EY", "oi": "OY", "oy": "OY", "au": "AO", "aw": "AO", "ew": "UW",
    "er": "ER", "ir": "ER", "ur": "ER", "ar": "AA R", "or": "AO R",
    "a": "AE", "e": "EH", "i": "IH", "o": "AA", "u": "AH", "y": "IY",
    "b": "B", "c": "K", "d": "D", "f": "F", "g": "G", "h": "HH", "j": "JH", "k": "K", "l": "L", "m": "M",
    "n": "N", "p": "P", "q": "K", "r": "R", "s": "S", "t": "T", "v": "V", "w": "W", "x": "K S", "z": "Z"}
_LETTER_KEYS = sorted(LETTERS2ARPA, key=len, reverse=True)
DIGIT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


@functools.lru_cache(maxsize=4096)
def espeak_phones(word):
    """ARPAbet for a word from espeak-ng's IPA, or None when espeak-ng is unavailable or says nothing."""
    exe = shutil.which("espeak-ng")
    if not exe:
        return None
    try:
        ipa = subprocess.run([exe, "-q", "--ipa", "-v", "en-us", word], capture_output=True, text=True,
                             timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    ipa = re.sub(r"[ˈˌ\s_‿\u0303-]", "", ipa)
    out, i = [], 0
    while i < len(ipa):
        for k in _IPA_KEYS:
            if ipa.startswith(k, i):
                out.append(IPA2ARPA[k])
                i += len(k)
                break
        else:
            i += 1  # a symbol without an ARPAbet counterpart: skipped
    return " ".join(out) or None


def letter_phones(word, lookup):
    """Crude letters-to-sounds: digits spelled out one by one, doubled letters once, silent final e."""
    out = []
    for run in re.findall(r"[0-9]+|[a-z]+", word):
        if run[0].isdigit():
            out.extend(lookup(DIGIT_WORDS[int(c)]) or "" for c in run)
            continue
        run = re.sub(r"([b-df-hj-np-tv-z])\1", r"\1", run)
        if len(run) > 2 and run.endswith("e") and run[-2] not in "aeiouy":
            run = run[:-1]
        i = 0
        while i < len(run):
            for k in _LETTER_KEYS:
                if run.startswith(k, i):
                    ph = LETTERS2ARPA[k]
                    if k == "c" and run[i + 1:i + 2] in ("e", "i", "y"):
                        ph = "S"
                    if k == "y" and i == 0:
                        ph = "Y"
                    out.append(ph)
                    i += len(k)
                    break
            else:
                i += 1
    return " ".join(p for p in out if p) or None


def tokenize(text):
    """[(original token, [normalised words])] for every whitespace-separated token of the text."""
    result = []
    for token in text.split():
        t = unicodedata.normalize("NFKD", token)
        t = "".join(c for c in t if not unicodedata.combining(c)).lower().replace("’", "'").replace("‘", "'")
        words = [w.strip("'") for w in re.sub(r"[^a-z0-9']+", " ", t).split()]
        result.append((token, [w for w in words if w]))
    return result


def lcs_length(a, b):
    """Length of the longest common subsequence of two word lists (numpy, one row per word of a)."""
    if not a or not b:
        return 0
    ids = {}
    a_ids = np.array([ids.setdefault(w, len(ids)) for w in a], dtype=np.int32)
    b_ids = np.array([ids.setdefault(w, len(ids)) for w in b], dtype=np.int32)
    prev = np.zeros(len(b) + 1, dtype=np.int32)
    for x in a_ids:
        # cur[j] = max(prev[j], cur[j-1], prev[j-1] + match): a running maximum of the first and last
        tmp = prev.copy()
        np.maximum(tmp[1:], prev[:-1] + (b_ids == x), out=tmp[1:])
        prev = np.maximum.accumulate(tmp)
    return int(prev[-1])


def is_filler(word):
    return word.startswith("<") or word.startswith("[")


class Aligner:
    def __init__(self):
        for p in (PS_HMM, PS_DICT):
            if not os.path.exists(p):
                raise RuntimeError(f"the pocketsphinx model is missing: {p}")
        self._decoder(True)  # loads the acoustic model and dictionary once, to fail early

    @staticmethod
    def _decoder(filler):
        return Decoder(hmm=PS_HMM, dict=PS_DICT, lm=None, loglevel="FATAL", fsgusefiller=filler, **WIDE_BEAMS)

    def _pass(self, pcm, words, filler):
        d = self._decoder(filler)
        for w in dict.fromkeys(words):
            if d.lookup_word(w) is None:
                phones = espeak_phones(w) or letter_phones(w, d.lookup_word)
                if not phones:
                    raise ApiError(400, f"no pronunciation for the word {w!r}")
                d.add_word(w, phones, True)
        d.set_align_text(" ".join(words))
        d.start_utt()
        d.process_raw(pcm, full_utt=True)
        d.end_utt()
        if d.hyp() is None:  # "Final result does not match the grammar"
            return None, "no complete alignment was found"
        segs = [(re.sub(r"\(\d+\)$", "", s.word), s.start_frame, s.end_frame) for s in d.seg()]
        got = [w for w, _, _ in segs if not is_filler(w)]
        if got != words:
            return None, f"only {len(got)} of {len(words)} words were aligned"
        frames = max(1, d.n_frames())
        silence = sum(e - s + 1 for w, s, e in segs if is_filler(w)) / frames
        return ([(s / FRAMES_PER_SECOND, (e + 1) / FRAMES_PER_SECOND) for w, s, e in segs if not is_filler(w)],
                silence), None

    def align(self, audio, text, recognise):
        """recognise(audio) -> the text Whisper hears; used only to check a fallback alignment."""
        tokens = tokenize(text)
        words = [w for _, ws in tokens for w in ws]
        if not words:
            raise ApiError(400, "the text has no words to align")
        if audio.size == 0:
            raise ApiError(422, "the text does not match the audio: the audio is empty", "alignment_failed")
        pcm = to_pcm16(audio)
        result, why = self._pass(pcm, words, True)
        fallback = result is None
        if fallback:  # again without <sil> fillers: pauses are absorbed into the words
            result, why = self._pass(pcm, words, False)
        if result is None:
            raise ApiError(422, f"the text does not match the audio: {why}", "alignment_failed")
        times, silence = result
        if fallback:
            # Without fillers any text "aligns" (unrelated text too, and silence_ratio is then 0):
            # the text must also be what Whisper hears, at least MIN_HEARD_RATIO of its words in order.
            heard = [w for _, ws in tokenize(recognise(audio)) for w in ws]
            ratio = lcs_length(words, heard) / len(words)
            if ratio < MIN_HEARD_RATIO:
                raise ApiError(422, f"the text does not match the audio: only {ratio:.0%} of its words were heard "
                                    f"(at least {MIN_HEARD_RATIO:.0%} are needed)", "alignment_failed")
        if silence > MAX_SILENCE_RATIO:
            raise ApiError(422, f"the text does not match the audio: {silence:.0%} of it aligned as silence "
                                f"(at most {MAX_SILENCE_RATIO:.0%} is accepted)", "alignment_failed")
        # One entry per token of the text, in its original spelling; a token without words ("—")
        # takes the end of the previous word (or the start of the next) as a zero-length time.
        out, k, previous_end = [], 0, None
        for token, ws in tokens:
            if ws:
                start, end = times[k][0], times[k + len(ws) - 1][1]
                k += len(ws)
                out.append({"word": token, "start": r3(start), "end": r3(end)})
                previous_end = end
            else:
                out.append({"word": token, "start": None, "end": None, "_at": previous_end})
        next_start = None
        for w in reversed(out):
            if w["start"] is None:
                at = w.pop("_at")
                t = r3(at if at is not None else next_start)
                w["start"] = w["end"] = t
            else:
                next_start = w["start"]
        return {"words": out, "silence_ratio": r3(silence)}
