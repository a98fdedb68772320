// The word-level transcript editor (issue 43) in a real browser (Debian's Chromium, the pages' own
// CSP) on live orders: espeak-ng speech drafted by the local engine, whose word times espeak-ng
// itself tells (word elements and their times, click to seek, the word heard while playing and said
// only when asked, a speaker named once, an edit that keeps the other words' times, the delivered
// json2 timed throughout and the typed word timed by the aligner); and a two-hour review of 18,000
// words that stays right as it is edited, saved and reloaded (its speed is bench:editor's).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { startEngineServer, verboseJson, type EngineServer } from '../helpers/engineServer.js';
import { axeCheck, failOnPageProblems, launchBrowser, newContext } from '../helpers/browser.js';
import { freePort, waitFor } from '../helpers/net.js';
import { speak, startOffsets } from '../helpers/speech.js';
import { mediaFile } from '../helpers/media.js';
import { placeOrder } from '../helpers/orders.js';
import { getTask, tasksOfOrder } from '../../src/db/tasks.js';
import { getOrder } from '../../src/db/orders.js';
import { draftWordsOf } from '../../src/orders/workWords.js';
import { comparable } from '../../src/domain/humanWork/wordTimes.js';
import { startLocalEngine, type LocalEngine } from '../../src/engines/localEngine.js';
import { buildEngines } from '../../src/engines/settings.js';
import { openAiCompatibleEngine } from '../../src/engines/openaiCompatible.js';

const ENGINES_DIR = process.env.ENGINES_DIR ?? '.engines';
type Word = { text: string; start: number; end: number };

/** Signs a worker in, in a context of its own, and claims the task; the page is on the task. */
async function claimIn(browser: Browser, contexts: BrowserContext[], service: TestService, skills: string, taskId: string): Promise<Page> {
  const created = await service.ops('POST', '/ops/workers', { name: skills, skills });
  const context = await newContext(browser, service.baseUrl);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/work/sign-in');
  await page.getByLabel('Worker token').fill(created.body.sign_in_token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/work/queue');
  await page.goto(`/work/tasks/${taskId}`);
  await page.getByRole('button', { name: 'Claim' }).click();
  await page.waitForURL(`**/work/tasks/${taskId}`);
  await page.locator('.cm-editor[data-words="ready"]').waitFor();
  return page;
}

const transcriptBox = (page: Page) => page.getByLabel('Transcript');
const formText = (page: Page) => () => page.locator('#work-text').inputValue();
const wordsOnScreen = (page: Page): Promise<Word[]> =>
  transcriptBox(page)
    .locator('[data-start]')
    .evaluateAll((els) =>
      els.map((w) => ({ text: w.textContent ?? '', start: Number((w as HTMLElement).dataset.start), end: Number((w as HTMLElement).dataset.end) })),
    );

describeNeeding(['chromium', 'localEngine'], 'the word-level editor on espeak-ng speech in Chromium', () => {
  failOnPageProblems();
  const SAID =
    'The old lighthouse keeper climbed the stairs every evening at sunset. He cleaned the great lamp and wound the clock by hand. ' +
    'Ships passing in the night would see the light sweep across the water. Nobody in the village remembered a time before the lighthouse stood there.';
  let engine: LocalEngine;
  let service: TestService;
  let docs: DocumentServer;
  let receiver: CallbackReceiver;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    engine = await startLocalEngine({ dir: ENGINES_DIR, host: '127.0.0.1', port: await freePort(), threads: 2 });
    const local = { kind: 'local' as const, url: engine.url };
    [service, docs, receiver, browser] = await Promise.all([
      startService({
        engines: buildEngines({ speech: local, alignment: local, diarizer: local }, { model: 'unused' }),
        rateLimits: { signInPerMinute: 10_000 },
      }),
      startDocumentServer(),
      startCallbackReceiver(),
      launchBrowser(),
    ]);
  }, 180_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await Promise.all([service?.close(), docs?.close(), receiver?.close(), engine?.stop()]);
  });

  it("marks each word with the engine's times, seeks and follows the player, names a speaker once, keeps times through an edit, and delivers every word timed", async () => {
    const speech = await speak(SAID);
    const { token } = await service.createAccount(10);
    const { orderId } = await placeOrder(service, {
      token,
      fields: { url: docs.serve('/keeper.wav', speech.wav, 'audio/wav'), language: 'english' },
      callbackUrl: receiver.url,
    });
    const taskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId)).find((t) => t.stage === 'work')?.id, 'the work task', 180_000);
    const draft = (await draftWordsOf(service.activityDeps.files, (await getOrder(service.database.db, orderId))!))!.flatMap((p) => p.words);
    expect(draft.length).toBeGreaterThan(30);
    const page = await claimIn(browser, contexts, service, 'transcription:english', taskId);
    const box = transcriptBox(page);

    // Each word of the draft an element with the engine's own times, where espeak-ng spoke it (90 % within 0.3 s).
    expect(await wordsOnScreen(page)).toEqual(draft.map(({ text, start, end }) => ({ text, start, end })));
    const offsets = startOffsets(SAID, speech, draft);
    expect(offsets.length).toBeGreaterThan(SAID.split(' ').length * 0.7);
    expect(offsets.filter((o) => o <= 0.3).length / offsets.length, offsets.join(' ')).toBeGreaterThanOrEqual(0.9);

    // A click on a word (one in the third sentence) plays from its start.
    const player = () => page.locator('#player').evaluate((a: HTMLAudioElement) => a.currentTime);
    const shipsStart = draft[Math.floor(draft.length * 0.6)]!.start;
    await box.locator(`[data-start="${shipsStart}"]`).click();
    await expect.poll(player).toBeCloseTo(shipsStart, 1);
    // While it plays, the word heard carries aria-current, one word at a time, and it moves on with the audio.
    await page.keyboard.press('Escape');
    const current = () => box.locator('[aria-current="true"]').allTextContents();
    await expect.poll(async () => (await current()).length, { timeout: 5_000 }).toBe(1);
    const first = (await current())[0];
    await expect.poll(async () => (await current())[0] !== first && (await current()).length === 1, { timeout: 8_000 }).toBe(true);
    // The word marked is the one the player is in (its time read in the same frame).
    const [time, heardStart, heardEnd] = await page.evaluate(() => {
      const word = document.querySelector<HTMLElement>('[aria-current="true"]')!;
      return [document.querySelector<HTMLAudioElement>('#player')!.currentTime, Number(word.dataset.start), Number(word.dataset.end)];
    });
    // A screen reader hears the word only when asked: nothing is said while it plays; Alt+K says it.
    expect(await page.locator('#editor-status').textContent()).toBe('');
    await page.keyboard.press('Alt+KeyK');
    await expect.poll(() => page.locator('#editor-status').textContent()).toMatch(/^Heard at 00:00:\d\d: \S+$/);
    await page.keyboard.press('Escape');
    expect(heardStart).toBeLessThanOrEqual(time + 0.05);
    expect(time).toBeLessThanOrEqual(Math.max(heardEnd, heardStart + 0.05) + 0.3);
    expect(await box.locator('[aria-current]').count()).toBe(1);

    // "lamp" typed over as "lantern": timed between its neighbours at once, every other word as it was, through a save and a reload.
    const lamp = draft.find((w) => comparable(w.text) === 'lamp')!;
    await box.locator(`[data-start="${lamp.start}"]`).dblclick();
    await page.keyboard.type('lantern');
    const lantern = () =>
      box.locator('[data-start]', { hasText: /^lantern\W*$/ }).evaluate((w: HTMLElement) => [Number(w.dataset.start), Number(w.dataset.end)]);
    expect((await lantern())[0]).toBeGreaterThanOrEqual(lamp.start - 0.5);
    await expect.poll(async () => (await getTask(service.database.db, taskId))!.draft, { timeout: 10_000 }).toContain('great lantern');
    await page.reload();
    await page.locator('.cm-editor[data-words="ready"]').waitFor();
    const kept = (await wordsOnScreen(page)).filter((w) => comparable(w.text) !== 'lantern');
    expect(kept).toEqual(draft.filter((w) => w !== lamp).map(({ text, start, end }) => ({ text, start, end })));

    // Speakers are data: the first two paragraphs are speaker 1's (typed where the draft has no
    // labels, chosen where it has), who is then named once in the list.
    const paragraphs = box.locator('.cm-line').filter({ has: page.locator('[data-start]') });
    expect(await paragraphs.count()).toBeGreaterThanOrEqual(2);
    const LABELLED = /^(\[[\d:]+\] )?[^:\n]{1,40}: /;
    for (const n of [0, 1]) {
      if (LABELLED.test((await formText(page)()).split('\n\n')[n]!)) await page.getByLabel(`Speaker of paragraph ${n + 1}`).selectOption('Speaker 1');
      else {
        await paragraphs.nth(n).locator('[data-start]').first().click();
        await page.keyboard.press('Control+ArrowLeft');
        await page.keyboard.press('Alt+1');
      }
      await expect.poll(async () => (await formText(page)()).split('\n\n')[n]).toMatch(/^(\[[\d:]+\] )?Speaker 1: /);
    }
    expect(await page.getByLabel('Name of speaker 1').inputValue()).toBe('Speaker 1');
    await page.getByLabel('Name of speaker 1').fill('The keeper');
    await page.getByLabel('Name of speaker 1').press('Tab');
    await expect
      .poll(async () =>
        (await formText(page)())
          .split('\n\n')
          .slice(0, 2)
          .every((p) => /^(\[[\d:]+\] )?The keeper: /.test(p)),
      )
      .toBe(true);
    for (const n of [1, 2]) expect(await page.getByLabel(`Speaker of paragraph ${n}`).inputValue()).toBe('The keeper');
    await axeCheck(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/work/queue');

    const review = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId)).find((t) => t.stage === 'review')?.id, 'the review task');
    const reviewer = await claimIn(browser, contexts, service, 'review:english', review);
    expect((await reviewer.locator('.diff ins').allTextContents()).join(' ')).toContain('keeper:');
    await reviewer.getByRole('button', { name: 'Approve' }).click();
    await reviewer.waitForURL('**/work/queue');

    // Delivered: every word timed, the speaker named, the kept words at the engine's times, and "lantern" where "lamp" was spoken (the aligner's).
    const callback = await waitFor(() => receiver.received.find((c) => c.fields.order_id === String(orderId)), 'the callback', 120_000);
    const json2 = await fetch(`${callback.fields.transcription_url}&format=json2`).then((r) => r.json());
    const segments = json2.segments as Array<{ speaker?: string; words: Word[] }>;
    expect(segments.slice(0, 2).map((s) => s.speaker)).toEqual(['The keeper', 'The keeper']);
    expect(segments.every((s) => s.words.length > 0)).toBe(true);
    const words = segments.flatMap((s) => s.words);
    expect(words.map((w) => w.text)).toEqual(draft.map((w) => (w === lamp ? w.text.replace(/lamp/i, 'lantern') : w.text)));
    words.forEach((w, i) => {
      if (draft[i] !== lamp) expect([w.start, w.end]).toEqual([draft[i]!.start, draft[i]!.end]);
    });
    const spokenLamp = speech.words.find((s) => s.index === SAID.split(' ').indexOf('lamp'))!;
    expect(Math.abs(words[draft.indexOf(lamp)]!.start - spokenLamp.start)).toBeLessThanOrEqual(0.3);
  }, 400_000);
});

describeNeeding(['chromium', 'ffmpeg'], 'the word-level editor on a two-hour review in Chromium', () => {
  failOnPageProblems();
  let service: TestService;
  let engine: EngineServer;
  let docs: DocumentServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  /** Two hours of speech as the engine hears it: 18,000 words, a word every 0.4 s, a sentence every 30 words. */
  const vocabulary =
    'the keeper climbed stairs every evening at sunset and cleaned great lamp wound clock by hand ships passing night would see light sweep water'.split(' ');
  const heard: Array<[string, number, number]> = Array.from({ length: 18_000 }, (_, n) => {
    const word = vocabulary[(n * 7) % vocabulary.length]!;
    return [n % 30 === 29 ? `${word}.` : word, Math.round(n * 40) / 100, Math.round(n * 40 + 32) / 100];
  });

  beforeAll(async () => {
    [engine, docs, browser] = await Promise.all([startEngineServer(), startDocumentServer(), launchBrowser()]);
    engine.behaviour = { kind: 'transcript', body: verboseJson(heard) };
    // One part of two hours: the transcriber's page holds the whole review's words.
    service = await startService({
      engines: { speech: openAiCompatibleEngine({ baseUrl: engine.url, model: 'whisper-test' }) },
      workbench: { partSeconds: 7200 },
      rateLimits: { signInPerMinute: 10_000 },
    });
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await Promise.all([service?.close(), engine?.close(), docs?.close()]);
  });

  it('stays right on 18,000 words: the words on screen carry their times, a word typed in the middle is timed between its neighbours, and the text saved and reloaded is the text typed', async () => {
    const recording = await readFile(await mediaFile('two-hours.mp3'));
    const { token } = await service.createAccount(500);
    const { orderId } = await placeOrder(service, { token, fields: { url: docs.serve('/meeting.mp3', recording, 'audio/mpeg'), language: 'english' } });
    const taskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId)).find((t) => t.stage === 'work')?.id, 'the work task', 120_000);
    const draft = (await draftWordsOf(service.activityDeps.files, (await getOrder(service.database.db, orderId))!))!.flatMap((p) => p.words);
    expect(draft).toHaveLength(18_000);
    const page = await claimIn(browser, contexts, service, 'transcription:english', taskId);
    const box = transcriptBox(page);
    const timesOf = (words: Word[]) => words.map((w) => [comparable(w.text), w.start, w.end]);
    const draftAt = (from: number, n: number) => timesOf(draft.slice(from, from + n));

    // Only what is on screen is drawn, and what is drawn is the draft's: the first words, then the last.
    const top = await wordsOnScreen(page);
    expect(top.length).toBeGreaterThan(20);
    expect(top.length).toBeLessThan(3_000);
    expect(timesOf(top)).toEqual(draftAt(0, top.length));
    await box.locator('[data-start]').first().click();
    await page.keyboard.press('Control+End');
    await expect.poll(async () => (await wordsOnScreen(page)).at(-1)?.start).toBe(draft.at(-1)!.start);

    // A word typed in the middle: timed between its neighbours at once; the words around keep their times.
    await page.locator('.cm-scroller').evaluate((s) => (s.scrollTop = s.scrollHeight / 2));
    // Drawn again where it scrolled to (around the first hour), beside the caret's line at the end.
    const middle = async () => (await wordsOnScreen(page)).filter((w) => w.start > 2_000 && w.start < 5_200);
    await expect.poll(async () => (await middle()).length).toBeGreaterThan(60);
    const before = (await middle())[40]!;
    const target = box.locator(`[data-start="${before.start}"]`);
    const index = draft.findIndex((w) => w.start === before.start);
    await target.click();
    await page.keyboard.press('Control+ArrowLeft');
    await page.keyboard.type('inserted ', { delay: 20 });
    const inserted = () =>
      box.locator('[data-start]', { hasText: /^inserted$/ }).evaluate((w: HTMLElement) => [Number(w.dataset.start), Number(w.dataset.end)]);
    const [start, end] = await inserted();
    expect(start).toBeGreaterThanOrEqual(draft[index - 1]!.start);
    expect(end).toBeLessThanOrEqual(draft[index]!.end);
    const around = (await wordsOnScreen(page)).filter((w) => w.text !== 'inserted');
    for (const w of around) {
      const i = draft.findIndex((d) => d.start === w.start);
      expect([comparable(w.text), w.end]).toEqual([comparable(draft[i]!.text), draft[i]!.end]);
    }

    // Saved as typed (the autosave sends the change), and after a reload the same words with the same times.
    await expect.poll(async () => (await formText(page)()).includes(` inserted ${before.text}`)).toBe(true);
    const typed = await formText(page)();
    expect(typed.length).toBeGreaterThan(100_000);
    await expect.poll(async () => (await getTask(service.database.db, taskId))!.draft, { timeout: 15_000 }).toBe(typed);
    await page.reload();
    await page.locator('.cm-editor[data-words="ready"]').waitFor();
    expect(await formText(page)()).toBe(typed);
    expect(timesOf((await wordsOnScreen(page)).slice(0, 20))).toEqual(draftAt(0, 20));
    // Scrolled to where the word typed is (its share of the text), it has the same times.
    const share = typed.indexOf('inserted ') / typed.length;
    await page.locator('.cm-scroller').evaluate((s, at) => (s.scrollTop = at * s.scrollHeight - s.clientHeight / 2), share);
    await expect.poll(inserted).toEqual([start, end]);
  }, 300_000);
});
