// A worker's text through the service as it runs (HTTP, /work, the worker, the database, the run's
// Temporal dev server): an autosave, a Submit or a review that would split a character or store a
// lone surrogate is a 400 naming the field and changes nothing; a text at MAX_WORK_TEXT (CJK and
// emoji) saves and reads back byte for byte, goes through the form (9 bytes a CJK character
// percent-encoded) and on to the review; one character over is a 400 naming the field, never the
// body parser's 413.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { getTask, tasksOfOrder } from '../../src/db/tasks.js';
import { changeBetween, textDigest } from '../../src/domain/humanWork/textChange.js';
import { MAX_WORK_NOTE, MAX_WORK_TEXT } from '../../src/domain/humanWork/workText.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { WorkerSession } from '../helpers/workerSession.js';

/** Exactly `length` code units of CJK, emoji and ASCII, never ending on half an emoji. */
function mixedText(length: number): string {
  const head = 'Speaker 1: ';
  const body = '漢字かな🎉 words 😀'.repeat(Math.ceil(length / 12)).slice(0, length - head.length);
  const text = head + body;
  return /[\ud800-\udbff]$/.test(text) ? `${text.slice(0, -1)}x` : text;
}

describeOnEachDatabase("a worker's text through the running service", (engine) => {
  let service: TestService;
  let media: MediaServer;
  let worker: WorkerSession;
  let reviewer: WorkerSession;

  beforeAll(async () => {
    [service, media] = await Promise.all([startService({ engine, maxHeldTasks: 100 }), startMediaServer()]);
    const create = async (name: string, skills: string) => (await service.ops('POST', '/ops/workers', { name, skills })).body.sign_in_token as string;
    [worker, reviewer] = await Promise.all([
      WorkerSession.signIn(service.baseUrl, await create('wendy', 'transcription:english')),
      WorkerSession.signIn(service.baseUrl, await create('rory', 'review:english')),
    ]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  async function claimedTask(): Promise<{ orderId: number; taskId: string }> {
    const account = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token: account.token, fields: englishAudio(media, 30) });
    const taskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0]?.id, 'the work task');
    expect((await worker.request('POST', `/work/tasks/${taskId}/claim`, {})).location).toBe(`/work/tasks/${taskId}`);
    return { orderId, taskId };
  }
  const draftOf = async (taskId: string) => (await getTask(service.database.db, taskId))!.draft;
  const refusal = (answer: { status: number; text: string }): [number, string] => [
    answer.status,
    answer.status === 204 ? '' : (JSON.parse(answer.text).error as string),
  ];

  it('an autosave that splits an emoji or holds a lone surrogate is a 400 naming the field; the draft stays and the next change is taken', async () => {
    const { taskId } = await claimedTask();
    const save = (body: object) => worker.request('POST', `/work/tasks/${taskId}/save`, body, true);
    const saved = 'Speaker 1: the party 🎉 began';
    expect((await save({ text: saved })).status).toBe(204);
    const party = saved.indexOf('🎉');
    const base = textDigest(saved);

    const refused: Array<[object, string]> = [
      [{ change: { from: party + 1, to: party + 2, insert: '' }, base }, 'change.from: splits a character (a surrogate pair)'],
      [{ change: { from: party - 1, to: party + 1, insert: '!' }, base }, 'change.to: splits a character (a surrogate pair)'],
      [{ change: { from: party, to: party, insert: 'x\ud83c' }, base }, 'change.insert: holds a lone surrogate'],
      [{ text: 'Speaker 1: the party \udf89 began' }, 'text: holds a lone surrogate'],
    ];
    for (const [body, error] of refused) {
      const [status, message] = refusal(await save(body));
      expect([status, message.slice(0, error.length)], JSON.stringify(body)).toEqual([400, error]);
      expect(await draftOf(taskId)).toBe(saved);
    }

    // The page's next change is made against the text it holds, which the service still holds.
    const edited = 'Speaker 1: the party 🎉🥳 began at noon';
    expect((await save({ change: changeBetween(saved, edited), base })).status).toBe(204);
    expect(await draftOf(taskId)).toBe(edited);

    // Submit and review take the same rule (JSON can carry a lone surrogate; a form cannot).
    const submitted = await worker.request('POST', `/work/tasks/${taskId}/submit`, { text: 'Speaker 1: \ud83c' }, true);
    expect(submitted.status).toBe(400);
    expect(submitted.text).toContain('text: holds a lone surrogate');
    expect(await draftOf(taskId)).toBe(edited);
  });

  it('a text of exactly MAX_WORK_TEXT characters (CJK and emoji) saves whole and reads back byte for byte; one over is a 400 naming the field', async () => {
    const { taskId } = await claimedTask();
    const save = (body: object) => worker.request('POST', `/work/tasks/${taskId}/save`, body, true);
    const text = mixedText(MAX_WORK_TEXT);
    expect(text.length).toBe(MAX_WORK_TEXT);
    expect((await save({ text })).status).toBe(204);
    const stored = await draftOf(taskId);
    expect(Buffer.from(stored).equals(Buffer.from(text))).toBe(true);
    expect(stored === text).toBe(true);

    expect(refusal(await save({ text: `${text}x` }))).toEqual([400, 'text: longer than 600,000 characters']);
    expect(refusal(await save({ change: { from: text.length, to: text.length, insert: 'x' }, base: textDigest(text) }))).toEqual([
      400,
      'change: the text would be longer than 600,000 characters',
    ]);
    // Control characters, which a page does not show, cannot make a text too large to carry on.
    const [status, message] = refusal(await save({ text: '\u0001'.repeat(400_000) }));
    expect([status, message]).toEqual([400, expect.stringMatching(/^text: too large to store/)]);
    expect((await draftOf(taskId)) === text).toBe(true);
    // As multipart/form-data too (its fields were limited to 64 KB).
    const multipart = new FormData();
    multipart.append('text', `${text.slice(0, -1)}!`);
    const headers = { cookie: worker.cookieHeader(), 'x-csrf-token': worker.csrf };
    expect((await fetch(`${service.baseUrl}/work/tasks/${taskId}/save`, { method: 'POST', headers, body: multipart })).status).toBe(204);
    expect((await draftOf(taskId)) === `${text.slice(0, -1)}!`).toBe(true);
    expect((await save({ text })).status).toBe(204);
    // Without a worker's session the body keeps the service's 1 MB limit: nobody else makes it parse megabytes.
    const anonymous = await fetch(`${service.baseUrl}/work/tasks/${taskId}/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'work_session=not-a-session' },
      body: JSON.stringify({ text }),
    });
    expect(anonymous.status).toBe(413);
    // A change at the limit is taken too.
    const change = { from: 11, to: 12, insert: '字' };
    expect((await save({ change, base: textDigest(text) })).status).toBe(204);
    expect((await draftOf(taskId)) === `${text.slice(0, 11)}字${text.slice(12)}`).toBe(true);
  });

  it('a form Submit of MAX_WORK_TEXT CJK characters goes to the review; one over, and a review note too long or broken, are 400s naming the field', async () => {
    const { orderId, taskId } = await claimedTask();
    // Lines of CJK, as the editor holds them (LF); a browser's form sends each line break as CRLF.
    const text = `Speaker 1: ${`${'漢'.repeat(999)}\n`.repeat(MAX_WORK_TEXT / 1000)}`.slice(0, MAX_WORK_TEXT);
    const asForm = (t: string) => t.replace(/\n/g, '\r\n');
    const over = await worker.request('POST', `/work/tasks/${taskId}/submit`, { text: asForm(`${text}漢`) });
    expect(over.status).toBe(400);
    expect(over.text).toContain('text: longer than 600,000 characters');
    expect((await getTask(service.database.db, taskId))!.status).toBe('claimed');

    const submitted = await worker.request('POST', `/work/tasks/${taskId}/submit`, { text: asForm(text) });
    expect([submitted.status, submitted.location]).toEqual([303, '/work/queue']);
    const review = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId)).find((t) => t.stage === 'review'), 'the review task');
    expect(review.draft === text).toBe(true);

    // The review's form carries the text and the note at their limits; past them, or broken, the field is named.
    expect((await reviewer.request('POST', `/work/tasks/${review.id}/claim`, {})).location).toBe(`/work/tasks/${review.id}`);
    const reviewWith = (fields: Record<string, string>, json = false) =>
      reviewer.request('POST', `/work/tasks/${review.id}/review`, { decision: 'send_back', text: asForm(text), ...fields }, json);
    const refusals: Array<[Record<string, string>, boolean, string]> = [
      [{ note: '漢'.repeat(MAX_WORK_NOTE + 1) }, false, 'note: longer than 10,000 characters'],
      [{ note: 'Check \udf89' }, true, 'note: holds a lone surrogate'],
      [{ text: asForm(`${text}漢`), note: 'Check the name.' }, false, 'text: longer than 600,000 characters'],
    ];
    for (const [fields, json, error] of refusals) {
      const answer = await reviewWith(fields, json);
      expect([answer.status, answer.text.includes(error)], error).toEqual([400, true]);
    }
    expect((await getTask(service.database.db, review.id))!.status).toBe('claimed');
    const note = `${'漢'.repeat(MAX_WORK_NOTE / 2 - 1)}\n`.repeat(2);
    const sentBack = await reviewWith({ note: asForm(note) });
    expect([sentBack.status, sentBack.location]).toEqual([303, '/work/queue']);
    const fix = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId)).find((t) => t.id.endsWith('-fix-1')), 'the fix task');
    expect([fix.draft === text, fix.note === note.trim()]).toEqual([true, true]);
  });
});
