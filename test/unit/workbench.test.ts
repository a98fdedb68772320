import { describe, expect, it } from 'vitest';
import { TranscriptImportError } from '../../src/domain/transcript.js';
import { wordDiff, wordEditDistance, wordEditRate } from '../../src/domain/humanWork/diff.js';
import { editorText, formatMark, onSourceCues, transcriptFromEditor } from '../../src/domain/humanWork/editorText.js';
import { checksOwnWork } from '../../src/domain/humanWork/ownWork.js';
import { mergeParts, planParts } from '../../src/domain/humanWork/parts.js';
import { taskPayCents } from '../../src/domain/humanWork/pay.js';
import { parseSkills, SKILL_KINDS, SkillError, skillCovers } from '../../src/domain/humanWork/skills.js';
import { submissionProblems } from '../../src/domain/humanWork/submission.js';

describe('skills', () => {
  it('normalises a list: trimmed, lowercased, empties dropped, deduplicated in order', () => {
    expect(parseSkills(' Transcription:English, review:english ,, TRANSCRIPTION:english, translation:brazilian_portuguese>english, ocr:german ')).toEqual([
      'transcription:english',
      'review:english',
      'translation:brazilian_portuguese>english',
      'ocr:german',
    ]);
    expect(SKILL_KINDS).toEqual(['transcription', 'review', 'translation', 'ocr']);
  });

  it('names the bad item and what is expected', () => {
    expect(() => parseSkills('transcription:english, typing:english')).toThrow(
      new SkillError("skill 'typing:english' is not kind:language (kinds: transcription, review, translation, ocr; translation takes source>target)"),
    );
  });

  it.each([
    'translation:english',
    'transcription:english>french',
    'ocr:',
    'review:english1',
    'english',
    'review:english:us',
    'translation:english>',
    'review:_english',
  ])('refuses %j', (item) => {
    expect(() => parseSkills(item)).toThrow(SkillError);
    expect(() => parseSkills(item)).toThrow(`skill '${item}' is not kind:language`);
  });

  it.each(['', ' , ,', ','])('needs at least one skill in %j', (list) => {
    expect(() => parseSkills(list)).toThrow(new SkillError('at least one skill is needed'));
  });

  it('covers only an exact skill, whatever the case', () => {
    const skills = ['transcription:english', 'translation:english>french'];
    expect(skillCovers(skills, 'Transcription:ENGLISH')).toBe(true);
    expect(skillCovers(skills, 'translation:english>french')).toBe(true);
    expect(skillCovers(skills, 'translation:french>english')).toBe(false);
    expect(skillCovers(skills, 'review:english')).toBe(false);
    expect(skillCovers(skills, 'transcription:english_us')).toBe(false);
    expect(skillCovers([], 'transcription:english')).toBe(false);
  });
});

describe('planParts', () => {
  it('keeps a remainder of at least a quarter part as its own part', () => {
    expect(planParts(1200, 360)).toEqual([
      { start: 0, end: 360 },
      { start: 360, end: 720 },
      { start: 720, end: 1080 },
      { start: 1080, end: 1200 },
    ]);
    expect(planParts(810, 360)).toEqual([
      { start: 0, end: 360 },
      { start: 360, end: 720 },
      { start: 720, end: 810 },
    ]);
  });

  it('joins a shorter remainder to the previous part', () => {
    expect(planParts(1100, 360)).toEqual([
      { start: 0, end: 360 },
      { start: 360, end: 720 },
      { start: 720, end: 1100 },
    ]);
    expect(planParts(809, 360)).toEqual([
      { start: 0, end: 360 },
      { start: 360, end: 809 },
    ]);
  });

  it('splits an exact multiple evenly', () => {
    expect(planParts(720, 360)).toEqual([
      { start: 0, end: 360 },
      { start: 360, end: 720 },
    ]);
  });

  it('gives one part for short media or no part length', () => {
    expect(planParts(360, 360)).toEqual([{ start: 0, end: 360 }]);
    expect(planParts(100.5, 360)).toEqual([{ start: 0, end: 100.5 }]);
    expect(planParts(1000, 0)).toEqual([{ start: 0, end: 1000 }]);
    expect(planParts(1000, -5)).toEqual([{ start: 0, end: 1000 }]);
    expect(planParts(0, 360)).toEqual([{ start: 0, end: 0 }]);
  });

  it('covers fractional lengths without gaps', () => {
    const parts = planParts(1000.7, 0.1 * 3000);
    expect(parts.at(-1)!.end).toBe(1000.7);
    parts.slice(1).forEach((p, i) => expect(p.start).toBe(parts[i]!.end));
  });

  it('refuses a length that is not a number of seconds', () => {
    expect(() => planParts(Number.NaN, 360)).toThrow(RangeError);
    expect(() => planParts(-1, 360)).toThrow(RangeError);
  });
});

describe('editor text', () => {
  it('formats marks, flooring and clamping', () => {
    expect(formatMark(0)).toBe('[00:00:00]');
    expect(formatMark(3725.9)).toBe('[01:02:05]');
    expect(formatMark(59.999)).toBe('[00:00:59]');
    expect(formatMark(-3)).toBe('[00:00:00]');
  });

  it('writes paragraphs with a mark and speaker only when known', () => {
    expect(
      editorText({
        segments: [
          { start: 5, speaker: 'Speaker 1', text: 'Hello there.' },
          { speaker: 'Speaker 2', text: 'Hi.' },
          { start: 12.4, text: 'Yes.' },
          { text: 'Bye.' },
        ],
      }),
    ).toBe('[00:00:05] Speaker 1: Hello there.\n\nSpeaker 2: Hi.\n\n[00:00:12] Yes.\n\nBye.');
    expect(editorText({ segments: [] })).toBe('');
  });

  it('reads the editor text back, each timed paragraph ending where the next timed one starts', () => {
    const text =
      '[00:00:05] Speaker 1: Hello there.\n\n[00:00:09] Speaker 2: Hi. [inaudible 00:00:11] yes.\n\nSpeaker 1: Untimed.\n\n[00:00:20] Speaker 2: Last.';
    expect(transcriptFromEditor(text, 30)).toEqual({
      segments: [
        { start: 5, end: 9, speaker: 'Speaker 1', text: 'Hello there.' },
        { start: 9, end: 20, speaker: 'Speaker 2', text: 'Hi. [inaudible 00:00:11] yes.' },
        { speaker: 'Speaker 1', text: 'Untimed.' },
        { start: 20, end: 30, speaker: 'Speaker 2', text: 'Last.' },
      ],
    });
    expect(transcriptFromEditor(text).segments[3]).toEqual({ start: 20, speaker: 'Speaker 2', text: 'Last.' });
    expect(editorText(transcriptFromEditor(text))).toBe(text);
  });

  it('leaves an end unknown where marks run backwards', () => {
    expect(transcriptFromEditor('[00:00:30] A: One.\n\n[00:00:10] B: Two.', 5).segments).toEqual([
      { start: 30, speaker: 'A', text: 'One.' },
      { start: 10, speaker: 'B', text: 'Two.' },
    ]);
  });

  it('refuses empty text', () => {
    expect(() => transcriptFromEditor('  \n\n ')).toThrow(TranscriptImportError);
  });
});

describe('mergeParts', () => {
  const first = { start: 0, end: 360, text: '[00:00:00] Speaker 1: Hello.\n\n[00:00:04] Speaker 2: Hi, how are' };
  const second = { start: 360, end: 720, text: 'you doing today?\n\nAnd more.\n\n[00:06:10] Speaker 1: Fine.' };

  it('puts parts in time order, anchors an unmarked first paragraph and carries the speaker over', () => {
    expect(mergeParts([second, first])).toBe(
      [
        '[00:00:00] Speaker 1: Hello.',
        '[00:00:04] Speaker 2: Hi, how are',
        '[00:06:00] Speaker 2: you doing today?',
        'Speaker 2: And more.',
        '[00:06:10] Speaker 1: Fine.',
      ].join('\n\n'),
    );
  });

  it('skips blank parts and carries a speaker through a part with no labels', () => {
    const parts = [
      { start: 0, end: 10, text: '[00:00:00] Ann: One.' },
      { start: 10, end: 20, text: '  \n ' },
      { start: 20, end: 30, text: '[00:00:21] Two.' },
      { start: 30, end: 40, text: 'Three.\n\nBob: Four.' },
    ];
    expect(mergeParts(parts)).toBe('[00:00:00] Ann: One.\n\n[00:00:21] Ann: Two.\n\n[00:00:30] Ann: Three.\n\nBob: Four.');
  });

  it('leaves unlabelled text unlabelled when no earlier part named a speaker', () => {
    expect(
      mergeParts([
        { start: 0, end: 10, text: 'One.' },
        { start: 10, end: 20, text: 'Two.' },
      ]),
    ).toBe('[00:00:00] One.\n\n[00:00:10] Two.');
    expect(mergeParts([])).toBe('');
    expect(mergeParts([{ start: 0, end: 10, text: '' }])).toBe('');
  });

  it('does not change the parts it is given', () => {
    const parts = [second, first];
    mergeParts(parts);
    expect(parts).toEqual([second, first]);
  });
});

describe('submissionProblems', () => {
  const clean = '[00:00:00] Speaker 1: Hello.\n\n[00:00:25] Speaker 2: Hi. [00:00:50] Still me.\n\n[00:01:10] Speaker 1: Bye.';

  it('finds nothing wrong with a text that follows the order', () => {
    expect(submissionProblems(clean, { timestamping: 'every_30_seconds', numberOfSpeakers: '1_or_2' })).toEqual([]);
    expect(submissionProblems(clean, { timestamping: 'change_of_speaker', numberOfSpeakers: '1_or_2' })).toEqual([]);
    expect(submissionProblems('Just words.', { timestamping: 'not_required' })).toEqual([]);
  });

  it.each(['', '   \n\n  '])('reports only emptiness for %j', (text) => {
    expect(submissionProblems(text, { timestamping: 'every_10_seconds', numberOfSpeakers: '3_or_more' })).toEqual(['The transcript is empty.']);
  });

  it.each([
    ['every_10_seconds', 'every 10 seconds'],
    ['every_30_seconds', 'every 30 seconds'],
    ['every_2_minutes', 'every 2 minutes'],
  ])('asks for marks when %s is ordered', (timestamping, words) => {
    expect(submissionProblems('Speaker 1: Hello. [inaudible 00:00:11] yes.', { timestamping })).toEqual([
      `The order asks for timestamps ${words}; the transcript has no [hh:mm:ss] marks.`,
    ]);
  });

  it('names the first gap longer than one and a half intervals', () => {
    const text = '[00:00:00] A: One.\n\n[00:00:30] B: Two.\n\n[00:01:40] A: Three. [00:03:00] Four.';
    expect(submissionProblems(text, { timestamping: 'every_30_seconds' })).toEqual([
      'No timestamp between 00:00:30 and 00:01:40 (every 30 seconds was ordered).',
    ]);
    expect(submissionProblems('[00:00:00] One. [00:00:45] Two.', { timestamping: 'every_30_seconds' })).toEqual([]);
    expect(submissionProblems('[00:00:00] One. [00:03:00] Two.', { timestamping: 'every_2_minutes' })).toEqual([]);
    expect(submissionProblems('[00:00:00] One. [00:03:01] Two.', { timestamping: 'every_2_minutes' })).toEqual([
      'No timestamp between 00:00:00 and 00:03:01 (every 2 minutes was ordered).',
    ]);
    expect(submissionProblems('[00:00:00] One. [00:00:16] Two.', { timestamping: 'every_10_seconds' })).toEqual([
      'No timestamp between 00:00:00 and 00:00:16 (every 10 seconds was ordered).',
    ]);
  });

  it('asks for a mark on every labelled paragraph at change of speaker', () => {
    expect(submissionProblems('[00:00:00] A: One.\n\nB: Two.\n\n[00:00:09] A: Three.', { timestamping: 'change_of_speaker' })).toEqual([
      '1 of 3 paragraphs with a speaker label has no [hh:mm:ss] mark (timestamps at each change of speaker were ordered).',
    ]);
    expect(submissionProblems('A: One.\n\nB: Two.', { timestamping: 'change_of_speaker' })).toEqual([
      'The order asks for timestamps at each change of speaker; the transcript has no [hh:mm:ss] marks.',
      '2 of 2 paragraphs with a speaker label have no [hh:mm:ss] mark (timestamps at each change of speaker were ordered).',
    ]);
  });

  it('asks for speaker labels when a number of speakers was ordered', () => {
    expect(submissionProblems('[00:00:00] Hello.', { timestamping: 'not_required', numberOfSpeakers: '1_or_2' })).toEqual([
      'Speaker labels are missing (the order has 1 or 2 speakers).',
    ]);
    expect(submissionProblems('Hello.', { timestamping: 'not_required', numberOfSpeakers: '3_or_more' })).toEqual([
      'Speaker labels are missing (the order has 3 or more speakers).',
    ]);
    expect(submissionProblems('Hello.', { timestamping: 'not_required' })).toEqual([]);
  });

  it('wants two labels at least for three or more speakers', () => {
    expect(submissionProblems('Ann: One.\n\nAnn: Two.', { timestamping: 'not_required', numberOfSpeakers: '3_or_more' })).toEqual([
      'Only one speaker is labelled (Ann); the order has 3 or more speakers.',
    ]);
    expect(submissionProblems('Ann: One.\n\nAnn: Two.', { timestamping: 'not_required', numberOfSpeakers: '1_or_2' })).toEqual([]);
    expect(submissionProblems('Ann: One.\n\nBob: Two.', { timestamping: 'not_required', numberOfSpeakers: '3_or_more' })).toEqual([]);
  });

  it('reports timestamp and speaker problems together', () => {
    expect(submissionProblems('Hello.', { timestamping: 'every_30_seconds', numberOfSpeakers: '1_or_2' })).toEqual([
      'The order asks for timestamps every 30 seconds; the transcript has no [hh:mm:ss] marks.',
      'Speaker labels are missing (the order has 1 or 2 speakers).',
    ]);
  });
});

describe('a subtitle file translated', () => {
  const source = {
    segments: [
      { start: 0.5, end: 2.25, speaker: 'Ann', text: 'Hello there.' },
      { start: 2.25, end: 4.1, text: 'JOHN: Who is it?' },
      { start: 5, end: 6.75, text: 'The end.' },
    ],
  };

  it('asks for one paragraph per cue at Submit, naming both counts', () => {
    expect(submissionProblems('Bonjour.\n\nJOHN : Qui est-ce ?\n\nFin.', { timestamping: 'not_required', cues: 3 })).toEqual([]);
    expect(submissionProblems('Bonjour.\n\nJOHN : Qui est-ce ? Fin.', { timestamping: 'not_required', cues: 3 })).toEqual([
      'The subtitle file has 3 cues and the translation 2 paragraphs: translate each cue as one paragraph, in order (the source beside shows them).',
    ]);
  });

  it("puts each paragraph on its cue's times; the cue's voice is kept, another label stays in the text", () => {
    const translated = transcriptFromEditor('[00:00:00] Ann: Bonjour.\n\n[00:00:02] JOHN: Qui est-ce ?\n\nFin.');
    expect(onSourceCues(translated, source)).toEqual({
      segments: [
        { start: 0.5, end: 2.25, speaker: 'Ann', text: 'Bonjour.' },
        { start: 2.25, end: 4.1, text: 'JOHN: Qui est-ce ?' },
        { start: 5, end: 6.75, text: 'Fin.' },
      ],
    });
  });

  it('joins a surplus onto the last cue rather than lose words', () => {
    const translated = transcriptFromEditor('Bonjour.\n\nQui ?\n\nFin.\n\nEncore.');
    expect(onSourceCues(translated, source).segments.map((s) => s.text)).toEqual(['Bonjour.', 'Qui ?', 'Fin. Encore.']);
  });
});

describe('wordDiff', () => {
  it('shows a one-word change as a deletion and an addition between the same words', () => {
    expect(wordDiff('the cat sat down', 'the dog sat down')).toEqual([
      { op: 'same', text: 'the' },
      { op: 'del', text: 'cat' },
      { op: 'add', text: 'dog' },
      { op: 'same', text: 'sat down' },
    ]);
  });

  it('merges runs and normalises whitespace', () => {
    expect(wordDiff('a  b\nc', 'a b c d e')).toEqual([
      { op: 'same', text: 'a b c' },
      { op: 'add', text: 'd e' },
    ]);
    expect(wordDiff('x y z', 'z')).toEqual([
      { op: 'del', text: 'x y' },
      { op: 'same', text: 'z' },
    ]);
    expect(wordDiff('same text', 'same text')).toEqual([{ op: 'same', text: 'same text' }]);
  });

  it('handles empty sides', () => {
    expect(wordDiff('', '')).toEqual([]);
    expect(wordDiff('', 'new words')).toEqual([{ op: 'add', text: 'new words' }]);
    expect(wordDiff('old words', '  ')).toEqual([{ op: 'del', text: 'old words' }]);
  });

  it('replaces the whole text past the work bound, and diffs up to it', () => {
    const words = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
    expect(wordDiff(words(2001, 'a'), words(2000, 'a'))).toEqual([
      { op: 'del', text: words(2001, 'a') },
      { op: 'add', text: words(2000, 'a') },
    ]);
    expect(wordDiff(`${words(2000, 'a')} extra`, `${words(1999, 'a')} extra`)).toEqual([
      { op: 'del', text: `${words(2000, 'a')} extra` },
      { op: 'add', text: `${words(1999, 'a')} extra` },
    ]);
    expect(wordDiff(words(2000, 'a'), `${words(1999, 'a')} changed`)).toEqual([
      { op: 'same', text: words(1999, 'a') },
      { op: 'del', text: 'a1999' },
      { op: 'add', text: 'changed' },
    ]);
  });
});

describe('wordEditDistance', () => {
  it('counts word edits, ignoring case and punctuation', () => {
    expect(wordEditDistance('Hello, world!', 'hello world')).toBe(0);
    expect(wordEditDistance('the cat sat', 'the dog sat')).toBe(1);
    expect(wordEditDistance('the cat sat', 'the cat sat down')).toBe(1);
    expect(wordEditDistance('kitten sitting on', 'sitting on a mat')).toBe(3);
    expect(wordEditDistance('a b c', 'c b a')).toBe(2);
  });

  it('is symmetric and handles empty texts', () => {
    expect(wordEditDistance('', '')).toBe(0);
    expect(wordEditDistance('', 'one two three')).toBe(3);
    expect(wordEditDistance('one two three', '')).toBe(3);
    expect(wordEditDistance('a b c d', 'x b')).toBe(wordEditDistance('x b', 'a b c d'));
    expect(wordEditDistance('— well …', 'well')).toBe(0);
  });
});

describe('taskPayCents', () => {
  it('pays per audio minute or per 1000 words, rounded', () => {
    expect(taskPayCents({ unit: 'minute', cents: 120 }, { seconds: 90, words: 5000 })).toBe(180);
    expect(taskPayCents({ unit: 'minute', cents: 100 }, { seconds: 1, words: 0 })).toBe(2);
    expect(taskPayCents({ unit: 'word', cents: 500 }, { seconds: 600, words: 1234 })).toBe(617);
    expect(taskPayCents({ unit: 'word', cents: 3 }, { seconds: 600, words: 100 })).toBe(0);
  });

  it('is never negative', () => {
    expect(taskPayCents({ unit: 'minute', cents: -50 }, { seconds: 60, words: 0 })).toBe(0);
    expect(taskPayCents({ unit: 'word', cents: 50 }, { seconds: 0, words: -1000 })).toBe(0);
    expect(taskPayCents({ unit: 'minute', cents: 50 }, { seconds: Number.NaN, words: 0 })).toBe(0);
  });
});

describe('wordEditRate', () => {
  it('counts word edits (case and punctuation aside) against the delivered words', () => {
    expect(wordEditRate('Hello from the machine.', 'Hello from the machine.')).toBe(0);
    expect(wordEditRate('Hello from the machine.', 'Hello from the worker.')).toBe(1 / 4);
    expect(wordEditRate('Hello from the machine.', 'Hello there, from the machine today.')).toBeCloseTo(2 / 6);
    expect(wordEditRate('', 'All typed by a person.')).toBe(1);
    expect(wordEditRate('Anything.', '')).toBe(1);
  });

  it('estimates very long texts from the words they share', () => {
    const long = Array.from({ length: 6000 }, (_, i) => `w${i}`).join(' ');
    expect(wordEditRate(long, long)).toBe(0);
    expect(wordEditRate(long, `${long} extra`)).toBeCloseTo(1 / 6001);
  });
});

describe('nobody checks their own work', () => {
  const ann = 1,
    rita = 2,
    quinn = 3;
  // Ann did the work and a fix; Rita sent it back once.
  const done = [
    { stage: 'work' as const, submittedBy: ann },
    { stage: 'review' as const, submittedBy: rita },
    { stage: 'work' as const, submittedBy: ann },
    { stage: 'review' as const, submittedBy: null },
  ];

  it("a review is closed to whoever submitted any of the order's work, not to a reviewer who sent it back", () => {
    expect(checksOwnWork('review', done, ann)).toBe(true);
    expect(checksOwnWork('review', done, rita)).toBe(false);
    expect(checksOwnWork('review', done, quinn)).toBe(false);
  });

  it('a second review is closed to the worker and the first reviewer; a second reviewer may review the fix they asked for', () => {
    expect(checksOwnWork('second_review', done, ann)).toBe(true);
    expect(checksOwnWork('second_review', done, rita)).toBe(true);
    expect(checksOwnWork('second_review', done, quinn)).toBe(false);
    expect(checksOwnWork('second_review', [...done, { stage: 'second_review', submittedBy: quinn }], quinn)).toBe(false);
    expect(checksOwnWork('qc', [...done, { stage: 'second_review', submittedBy: quinn }], quinn)).toBe(true);
  });

  it('a quality check is closed to everyone who submitted a task of the order, reviewers included', () => {
    expect(checksOwnWork('qc', done, ann)).toBe(true);
    expect(checksOwnWork('qc', done, rita)).toBe(true);
    expect(checksOwnWork('qc', done, quinn)).toBe(false);
  });

  it('work is open to anyone (a fix goes to its author by assignment, not by this rule)', () => {
    expect(checksOwnWork('work', done, ann)).toBe(false);
    expect(checksOwnWork('review', [], ann)).toBe(false);
  });
});
