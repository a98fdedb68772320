"""Forced alignment with Whisper itself, for languages without a phonetic aligner here (French,
Spanish): the known text is decoded against the audio and each word placed by Whisper's
cross-attention (faster-whisper's own word-timestamp method), window by window."""
import numpy as np
from faster_whisper.audio import pad_or_trim
from faster_whisper.tokenizer import Tokenizer
from faster_whisper.vad import VadOptions, get_speech_timestamps

FRAMES_PER_SECOND = 100  # Whisper's mel frames
WINDOW_FRAMES = 3000     # 30 s, what the model sees at once
# A word near a window's end may belong to the next window: only the first part is kept.
KEEP_FRACTION = 0.8
# Below this mean word probability the text is not what was said: correct text scored 0.375 to
# 0.85 on generated French and Spanish speech, unrelated text 0.07 to 0.12 (docs/engines.md).
MIN_MEAN_PROBABILITY = 0.22


def _align_window(model, tokenizer, features, tokens):
    """Start, end (s, from the window start) and probability of each text token in one window."""
    frames = min(features.shape[-1], WINDOW_FRAMES)
    encoded = model.encode(pad_or_trim(features[:, :frames]))
    pieces = model.find_alignment(tokenizer, [tokenizer.encode(" " + " ".join(tokens))], encoded, frames)[0]
    out, k = [], 0
    for token in tokens:
        # Whisper splits a token into word pieces ("tous," -> " tous", ","): gather them back.
        got, first, last = "", None, None
        while k < len(pieces) and len(got) < len(token):
            first = first or pieces[k]
            last = pieces[k]
            got += pieces[k]["word"].strip()
            k += 1
        if first is None:  # the decoder ran out of pieces: place at the end
            end = frames / FRAMES_PER_SECOND
            out.append((end, end, 0.0))
            continue
        probabilities = [float(p["probability"]) for p in pieces[pieces.index(first):pieces.index(last) + 1]]
        out.append((float(first["start"]), float(last["end"]), float(np.mean(probabilities))))
    return out


def force_align(model, audio, text, language):
    """[(token, start, end)] for every whitespace token of `text`, and the mean word probability."""
    tokens = text.split()
    tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language=language)
    features = model.feature_extractor(audio)
    total = features.shape[-1]
    # Characters per frame over the whole file: how much text one window is likely to hold.
    rate = max(1, sum(len(t) + 1 for t in tokens)) / max(1, total)
    result, probabilities, seek, i = [], [], 0, 0
    while i < len(tokens):
        frames = min(WINDOW_FRAMES, total - seek)
        last_window = total - seek <= WINDOW_FRAMES
        if frames <= 0:
            end = total / FRAMES_PER_SECOND
            result.extend((t, end, end) for t in tokens[i:])
            probabilities.extend([0.0] * (len(tokens) - i))
            break
        if last_window:
            batch = tokens[i:]
        else:
            budget, batch = rate * frames * 1.1, []
            while i + len(batch) < len(tokens) and budget > 0:
                batch.append(tokens[i + len(batch)])
                budget -= len(batch[-1]) + 1
        placed = _align_window(model, tokenizer, features[:, seek:seek + frames], batch)
        keep = len(placed) if last_window else max(1, sum(1 for s, e, p in placed if e * FRAMES_PER_SECOND <= frames * KEEP_FRACTION))
        offset = seek / FRAMES_PER_SECOND
        for token, (start, end, probability) in zip(batch[:keep], placed[:keep]):
            result.append((token, offset + start, offset + end))
            probabilities.append(probability)
        i += keep
        seek = max(seek + 1, int(round((offset + placed[keep - 1][1]) * FRAMES_PER_SECOND)))
    return snap_to_speech(result, audio), float(np.mean(probabilities)) if probabilities else 0.0


def snap_to_speech(words, audio):
    """Cross-attention tends to start a word where the silence before it starts (at a pause, or
    where a window begins): a start inside silence moves to where speech resumes (Silero VAD)."""
    rate = 16000
    speech = [(c["start"] / rate, c["end"] / rate)
              for c in get_speech_timestamps(audio, VadOptions(min_silence_duration_ms=300, speech_pad_ms=30))]
    out, k = [], 0
    for token, start, end in words:
        while k < len(speech) and speech[k][1] <= start:
            k += 1
        if k < len(speech) and speech[k][0] > start and speech[k][0] < end:
            start = speech[k][0]
        out.append((token, start, end))
    return out
