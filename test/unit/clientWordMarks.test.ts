// The transcript editor's word marks and re-timing (src/web/client/pure/wordTiming.ts, and the
// CodeMirror field of src/web/client/wordMarks.ts driven through editor states, no page), and its
// speakers' list (src/web/client/pure/speakers.ts).
import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import type { Decoration } from '@codemirror/view';
import { heardWord, nextDoubtful, paragraphsOf, retimeWords, spreadRun, tokensIn, widenToWords, type TimedWord } from '../../src/web/client/pure/wordTiming.js';
import { confirmWord, marksFor, setCurrent, setWords, timesOf, wordsField } from '../../src/web/client/wordMarks.js';
import { newSpeakerName, renamedIn, speakerListAfter, speakerNameOf, speakersIn } from '../../src/web/client/pure/speakers.js';
import { importTextTranscript } from '../../src/domain/transcript.js';

const word = (text: string, start: number, end: number, confidence?: number): TimedWord => ({ text, start, end, confidence });

describe('paragraphs and words of the editor text', () => {
  const text = '[00:00:05] Anna Lee: Hello there, Bob.\n\nBob: Hi.\n \nand one without a speaker';

  it('finds each paragraph, its label and where its words start after the lead', () => {
    const paragraphs = paragraphsOf(text);
    expect(paragraphs.map((p) => p.label)).toEqual(['Anna Lee', 'Bob', undefined]);
    expect(paragraphs.map((p) => tokensIn(text, p.wordsFrom, p.to).map((t) => t.text))).toEqual([
      ['Hello', 'there,', 'Bob.'],
      ['Hi.'],
      ['and', 'one', 'without', 'a', 'speaker'],
    ]);
  });

  it('reads the same speakers as the service does from the same text', () => {
    const service = importTextTranscript(text).segments.map((s) => s.speaker);
    expect(paragraphsOf(text).map((p) => p.label)).toEqual(service);
  });

  it('gives each word its offsets', () => {
    expect(tokensIn('  one  two\nthree', 1, 16)).toEqual([
      { from: 2, to: 5, text: 'one' },
      { from: 7, to: 10, text: 'two' },
      { from: 11, to: 16, text: 'three' },
    ]);
  });

  it('widens a changed stretch to whole words', () => {
    // "wor|l|d" changed: the stretch becomes the word "world".
    expect(widenToWords('hello world again', 9, 10)).toEqual([6, 11]);
    // An insertion between two spaces stays where it is.
    expect(widenToWords('a  b', 2, 2)).toEqual([2, 2]);
  });
});

describe('re-timing a changed stretch', () => {
  const tokens = (text: string) => tokensIn(text, 0, text.length);

  it('keeps the times of a word still there, and its confidence only while its text is unchanged', () => {
    const timed = retimeWords(tokens('hello, World'), [word('Hello', 1, 1.5, 0.3), word('world', 1.6, 2, 0.9)], null, null);
    expect(timed.map((t) => t.word)).toEqual([
      { start: 1, end: 1.5, confidence: undefined, text: 'hello,' },
      { start: 1.6, end: 2, confidence: undefined, text: 'World' },
    ]);
    const same = retimeWords(tokens('world'), [word('world', 1.6, 2, 0.9)], null, null);
    expect(same[0]!.word.confidence).toBe(0.9);
  });

  it('lays words typed in place of others over their span, each by its share of the letters', () => {
    const cannot = word('cannot', 1, 2);
    const timed = retimeWords(tokens('can not'), [cannot], word('I', 0.5, 0.9), word('go', 2.1, 2.4));
    expect(timed.map(({ word: w }) => [w.text, w.start, w.end])).toEqual([
      ['can', 1, 1.5],
      ['not', 1.5, 2],
    ]);
    // They remember what they replaced: typing it back finds its times again.
    expect(timed[0]!.word.origins).toEqual([cannot]);
  });

  it('puts a new word between its kept neighbours, widened into their halves when they touch', () => {
    const [a, b] = [word('a', 1, 2), word('b', 2, 3)];
    const timed = retimeWords(tokens('a new b'), [a, b], null, null);
    expect(timed.map(({ word: w }) => [w.text, w.start, w.end])).toEqual([
      ['a', 1, 2],
      ['new', 1.5, 2.5],
      ['b', 2, 3],
    ]);
  });

  it('gives a word typed after the last word, or before the first, the half of the word beside it', () => {
    const [a, b] = [word('a', 1, 2), word('b', 2, 3)];
    expect(retimeWords(tokens('a b end'), [a, b], null, null).map(({ word: w }) => [w.text, w.start, w.end])).toEqual([
      ['a', 1, 2],
      ['b', 2, 3],
      ['end', 2.5, 3],
    ]);
    expect(spreadRun(tokens('so'), null, word('first', 0, 1), []).map((w) => [w.start, w.end])).toEqual([[0, 0.5]]);
  });

  it('spreads a run between two far neighbours over the gap', () => {
    const run = spreadRun(tokens('ab abcd'), word('x', 0, 1), word('y', 4, 5), []);
    expect(run.map((w) => [w.start, w.end])).toEqual([
      [1, 2],
      [2, 4],
    ]);
  });
});

describe('the word heard and the next doubtful word', () => {
  const words = [
    { ...word('one', 1, 1.2), from: 0, to: 3 },
    { ...word('two', 2, 2, 0.2), from: 4, to: 7 },
    { ...word('three', 3, 3.5, 0.9), from: 8, to: 13 },
    { ...word('four', 4, 4.5, 0.1), from: 14, to: 18 },
  ];

  it('hears a word until a quarter second after it, and a word without length for at least 50 ms', () => {
    expect(heardWord(words, 1.44)?.text).toBe('one');
    expect(heardWord(words, 1.46)).toBeNull();
    expect(heardWord(words, 2.29)?.text).toBe('two');
    expect(heardWord(words, 2.31)).toBeNull();
    expect(heardWord(words, 0.5)).toBeNull();
  });

  it('finds the next doubtful word at or after the caret, from the first again past the last', () => {
    expect(nextDoubtful(words, 5)).toMatchObject({ word: { text: 'four' }, number: 2, count: 2 });
    expect(nextDoubtful(words, 15)).toMatchObject({ word: { text: 'two' }, number: 1, count: 2 });
    expect(nextDoubtful(words.slice(0, 1), 0)).toBeNull();
  });
});

describe('the word marks through edits (the editor state)', () => {
  /** The marks as [word, start, end, class, aria-current]. */
  const marksOf = (state: EditorState) => {
    const out: [string, number, number, string, string | undefined][] = [];
    for (let it = state.field(wordsField).deco.iter(); it.value; it.next()) {
      const spec = it.value.spec as { class: string; attributes: Record<string, string> };
      const times = timesOf(it.value as Decoration);
      out.push([state.sliceDoc(it.from, it.to), times.start, times.end, spec.class, spec.attributes['aria-current']]);
    }
    return out;
  };
  const start = (text: string, words: TimedWord[][]) => {
    const state = EditorState.create({ doc: text, extensions: [wordsField] });
    return state.update({
      effects: setWords.of(
        marksFor(
          text,
          words.map((w) => ({ words: w })),
        ),
      ),
    }).state;
  };

  it('marks the words of each paragraph whose words match the service’s, the doubtful ones so', () => {
    const state = start('Anna: see you\n\nBob: two words here', [[word('see', 0, 0.4, 0.3), word('you', 0.5, 0.9)], [word('two', 1, 2)]]);
    expect(marksOf(state)).toEqual([
      ['see', 0, 0.4, 'word doubtful', undefined],
      ['you', 0.5, 0.9, 'word', undefined],
    ]);
  });

  it('gives two words joined for a moment their own times back when they are split again', () => {
    let state = start('see you to day now', [[word('see', 0, 0.4), word('you', 0.5, 0.9), word('to', 1, 1.3), word('day', 1.4, 2), word('now', 2.1, 2.5)]]);
    state = state.update({ changes: { from: 10, to: 11 } }).state;
    expect(marksOf(state).map((m) => m.slice(0, 3))).toEqual([
      ['see', 0, 0.4],
      ['you', 0.5, 0.9],
      ['today', 1, 2],
      ['now', 2.1, 2.5],
    ]);
    state = state.update({ changes: { from: 10, insert: ' ' } }).state;
    expect(marksOf(state).map((m) => m.slice(0, 3))).toEqual([
      ['see', 0, 0.4],
      ['you', 0.5, 0.9],
      ['to', 1, 1.3],
      ['day', 1.4, 2],
      ['now', 2.1, 2.5],
    ]);
  });

  it('moves aria-current to the word heard, and a confirmed word is no longer doubtful', () => {
    let state = start('one two', [[word('one', 0, 1, 0.2), word('two', 1, 2)]]);
    state = state.update({ effects: setCurrent.of({ from: 4, to: 7 }) }).state;
    state = state.update({ effects: confirmWord.of({ from: 0, to: 3 }) }).state;
    expect(marksOf(state)).toEqual([
      ['one', 0, 1, 'word', undefined],
      ['two', 1, 2, 'word', 'true'],
    ]);
    state = state.update({ effects: setCurrent.of({ from: 0, to: 3 }) }).state;
    expect(marksOf(state).map((m) => m[4])).toEqual(['true', undefined]);
  });
});

describe("the speakers' list", () => {
  it('lists the labels in order of first use, and keeps a speaker added by hand until the text uses it', () => {
    const text = 'Bob: hi\n\nAnna: hello\n\nBob: bye';
    expect(speakersIn(text)).toEqual(['Bob', 'Anna']);
    expect(speakerListAfter(text, ['Bob', 'Anna', 'Speaker 3', 'Gone'], new Set(['Speaker 3']))).toEqual(['Bob', 'Anna', 'Speaker 3']);
  });

  it('names a new speaker after the list, past the names taken, and a typed name as a label can hold it', () => {
    expect(newSpeakerName(['Anna', 'Speaker 3'])).toBe('Speaker 4');
    expect(newSpeakerName(['Anna'])).toBe('Speaker 2');
    expect(speakerNameOf('  Dr: Who\n ')).toBe('Dr Who');
    expect(renamedIn(['Speaker 1', 'Anna', 'Speaker 2'], 'Speaker 2', 'Anna')).toEqual(['Speaker 1', 'Anna']);
  });
});
