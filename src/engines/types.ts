// The seam between the order service and a speech engine: what a transcription request carries,
// what comes back, and the two kinds of failure the caller must tell apart (retry or not).
import type { SpeakerTurn } from '../domain/speakers.js';

export interface EngineWord {
  text: string;
  start: number; // seconds
  end: number;
  /** The engine's probability of the word (0–1), where it gives one. */
  probability?: number;
}
/** A segment, with Whisper's figures of its decoding where the engine gives them (OpenAI's verbose_json does). */
export interface EngineSegment {
  start: number;
  end: number;
  text: string;
  words: EngineWord[];
  avgLogprob?: number;
  /** The text's length over its zlib-compressed length: repetition runs high. */
  compressionRatio?: number;
  noSpeechProb?: number;
}
export interface EngineTranscript {
  segments: EngineSegment[];
  /** The language the engine transcribed in: the one asked for, or the one it heard. */
  language?: string;
  duration?: number;
  /** Seconds in which the engine's voice activity detector found speech, where it says. */
  speechDuration?: number;
  /** When the engine chose the language: how likely the likeliest ones were (keys as it names them). */
  languageProbabilities?: Record<string, number>;
}

/** The engine answered clearly that it cannot transcribe this input (HTTP 400, 413, 415, 422): do not retry. */
export class EngineRejectedError extends Error {
  override name = 'EngineRejectedError';
}

/** A fault worth retrying: 5xx, 408, 429, network error, timeout, an answer that is not the expected JSON. */
export class EngineFaultError extends Error {
  override name = 'EngineFaultError';
}

export interface TranscribeRequest {
  /** The audio: bytes, or a Blob read from disk as it is sent (the order's kept media, never held in memory whole). */
  audio: Uint8Array | Blob;
  fileName: string;
  contentType?: string;
  /** ISO 639-1 code, e.g. 'en'; absent: the engine names the language it hears (EngineTranscript.language). */
  language?: string;
  /** Terms of the recording (names, places, product words) the engine is prompted with. */
  vocabulary?: readonly string[];
  /** Deadline for the whole request, answer body included. */
  timeoutMs: number;
  /** Cancellation from the caller. */
  signal?: AbortSignal;
  /**
   * Work nobody waits on now (a draft of a person's task): sent with RFC 9218's lowest urgency,
   * `Priority: u=7`, which the local engine runs only on CPU time nothing else wants.
   */
  background?: boolean;
}

export interface SpeechEngine {
  readonly name: string;
  transcribe(req: TranscribeRequest): Promise<EngineTranscript>;
  /** The speech translated into English (Whisper's own translation task), with times. */
  translateToEnglish(req: TranscribeRequest): Promise<EngineTranscript>;
}

export interface AlignRequest extends Omit<TranscribeRequest, 'language'> {
  /** The words spoken in the audio. */
  text: string;
  /** ISO 639-1 code. */
  language: string;
}

/** One alignment interface, whatever does the work (a phonetic aligner, or recognition). */
export interface Aligner {
  readonly name: string;
  /** Every word of `text` in order, with times; EngineRejectedError when the text does not fit the audio. */
  align(req: AlignRequest): Promise<Array<{ word: string; begin: number; end: number }>>;
}

export interface DiarizeRequest extends Omit<TranscribeRequest, 'language'> {
  /** The number of speakers when it is known; absent: the diarizer estimates it. */
  speakers?: number;
}

/** Who speaks when (speaker diarization), for the speaker labels of a draft. */
export interface Diarizer {
  readonly name: string;
  diarize(req: DiarizeRequest): Promise<SpeakerTurn[]>;
}

/** The engines a worker uses; a missing one leaves its orders to a person. */
export interface EngineSettings {
  /** Transcribes AI transcription orders. */
  speech?: SpeechEngine;
  /** Aligns forced-alignment orders. */
  alignment?: Aligner;
  /** Speaker turns for the drafts of transcripts people finish. */
  diarizer?: Diarizer;
  /** Machine translation: drafts of translations, AI transcripts ordered in another language than the spoken one. */
  translators?: Translators;
}

// ---- Machine translation (translators.ts: Apertium, a LibreTranslate-compatible server) ----

export interface TranslateRequest {
  texts: string[];
  /** ISO 639-1 codes, e.g. 'en', 'es'. */
  from: string;
  to: string;
  /** Terms kept as they are (the order's vocabulary: names, product words). */
  vocabulary?: readonly string[];
  /** Deadline for the whole request, every batch included. */
  timeoutMs: number;
  /** Cancellation from the caller. */
  signal?: AbortSignal;
}

export interface Translator {
  readonly name: string;
  /** Whether it translates `from` into `to` (ISO 639-1 codes; a region such as 'pt-BR' falls back to 'pt' where the engine has no code for it). */
  covers(from: string, to: string): boolean;
  /** One output per input text, in the same order; a text's leading and trailing whitespace is kept. */
  translate(req: TranslateRequest): Promise<string[]>;
}

export interface Translators {
  /** In the order they are asked. */
  readonly all: readonly Translator[];
  /** The first that covers the pair (the user's server before Apertium); undefined: a person translates. */
  covering(from: string, to: string): Translator | undefined;
}
