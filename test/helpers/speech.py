"""Speech with known word timings, for engine tests: libespeak-ng (Debian's espeak-ng) through
ctypes, recording the sample at which each word starts.
Usage: speech.py VOICE RATE OUT.wav "text"  -> prints JSON [{"start": seconds, "offset": character}, ...]"""
import array, ctypes, json, sys, wave


class Event(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("unique_identifier", ctypes.c_uint), ("text_position", ctypes.c_int),
                ("length", ctypes.c_int), ("audio_position", ctypes.c_int), ("sample", ctypes.c_int),
                ("user_data", ctypes.c_void_p), ("id", ctypes.c_char * 8)]


Callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(Event))
SYNCHRONOUS, RATE, WORD_EVENT, LIST_END = 2, 1, 1, 0


def synthesize(voice, rate, text):
    lib = ctypes.CDLL("libespeak-ng.so.1")
    sample_rate = lib.espeak_Initialize(SYNCHRONOUS, 0, None, 0)
    lib.espeak_SetVoiceByName(voice.encode())
    lib.espeak_SetParameter(RATE, rate, 0)
    pcm, words, encoded = array.array("h"), [], text.encode()

    def on_audio(wav, samples, events):
        if samples > 0:
            pcm.extend(wav[:samples])
        i = 0
        while events[i].type != LIST_END:
            e = events[i]
            if e.type == WORD_EVENT:
                # text_position is 1-based and counts characters (it can lag a character after
                # accented letters): callers match it to the nearest word of the text.
                words.append({"start": e.sample / sample_rate, "offset": e.text_position - 1})
            i += 1
        return 0

    keep = Callback(on_audio)  # referenced until synthesis ends
    lib.espeak_SetSynthCallback(keep)
    lib.espeak_Synth(encoded, len(encoded) + 1, 0, 0, 0, 0, None, None)
    lib.espeak_Synchronize()
    return sample_rate, pcm, words


if __name__ == "__main__":
    voice, rate, out, text = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    sample_rate, pcm, words = synthesize(voice, rate, text)
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(sample_rate)
        w.writeframes(pcm.tobytes())
    print(json.dumps(words))
