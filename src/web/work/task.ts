// A task's page and its actions: autosave (JSON, from work.js or sendBeacon), Submit, review,
// release, and the files the editor shows (the media with range requests, the page image), read
// from the service's copy: a worker never sees a customer's URL.
import type { Router, Request, Response } from 'express';
import { z } from 'zod';
import type { WebDeps } from '../context.js';
import { FetchError } from '../../net/outbound.js';
import {
  releaseTask,
  reviewWork,
  saveWork,
  servedWorkFile,
  sourcePdfPage,
  sourcePdfPages,
  submitWork,
  SubmissionProblemsError,
  taskForWorker,
  TaskRefusedError,
} from '../../orders/tasks.js';
import { DocumentRefusedError } from '../../documents/limits.js';
import { TranscriptImportError } from '../../domain/transcript.js';
import { editorText } from '../../domain/humanWork/editorText.js';
import { editorLineBreaks, MAX_WORK_NOTE, MAX_WORK_TEXT, workTextProblem } from '../../domain/humanWork/workText.js';
import { RequestError } from '../../contracts/failures.js';
import { workPlanOfOrder } from '../../products/registry.js';
import { timedWork } from '../../orders/workWords.js';
import { editorSettingsOf } from '../../domain/humanWork/editorSettings.js';
import { PageError, sendPage, styleNonce } from '../errors.js';
import { setFlash } from '../session.js';
import { customerFileHeaders, sendRange } from '../customerFiles.js';
import { taskPage, type TaskPage } from './editor.js';
import { signedWorker, WORK_PATH } from './session.js';
import { caseSensitiveRouter } from '../../http/router.js';

/** A worker's text, named by its field, refused by the one rule of src/domain/humanWork/workText.ts (limit, lone surrogates, size as JSON). */
const workText = (field: string, max = MAX_WORK_TEXT) =>
  z.string({ error: `${field}: must be text` }).superRefine((value, ctx) => {
    const problem = workTextProblem(field, value, max);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const text = workText('text');
/** Submit's and review's fields, sent by the page's form: their line breaks back to the editor's before they are counted. */
const formField = (field: string, max = MAX_WORK_TEXT) =>
  z
    .string({ error: `${field}: must be text` })
    .transform(editorLineBreaks)
    .pipe(workText(field, max));
const submitted = formField('text');
const offset = (name: string) => z.int({ error: `change.${name}: must be a whole number` }).min(0, `change.${name}: must not be negative`);
/** One stretch of the text replaced, against the text last saved (src/domain/humanWork/textChange.ts). */
const changeSave = z.object({
  change: z.object(
    { from: offset('from'), to: offset('to'), insert: workText('change.insert') },
    { error: 'change: must be an object of from, to and insert' },
  ),
  base: z.string({ error: 'base: must be the digest of the text saved' }).max(64, 'base: must be the digest of the text saved'),
});
const reviewForm = z.object({
  decision: z.enum(['approve', 'send_back'], { error: 'decision: approve or send_back' }),
  text: submitted,
  note: formField('note', MAX_WORK_NOTE).optional(),
});

export function taskRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();

  async function pageOf(req: Request, res: Response, extra: Partial<TaskPage> = {}): Promise<TaskPage> {
    const { worker, csrf } = signedWorker(res);
    const { task, order, holds } = await taskForWorker(deps.db, worker, String(req.params.id));
    const plan = workPlanOfOrder(order);
    if (!plan) throw new PageError(404, 'This order is not done in the workbench.');
    const source = order.inputFiles.source;
    const sourceIsImage = !!source && /\.(png|jpe?g|gif|webp|bmp|tiff?)$/i.test(source.fileName);
    // OCR types from the page: an image as it is, a PDF's pages drawn; other sources are shown as text.
    const sourcePages = plan.editor === 'ocr' ? await sourcePdfPages(deps, order) : undefined;
    let sourceText: string | undefined;
    if (source && !sourceIsImage && sourcePages === undefined) {
      sourceText = editorText(await deps.documentReader.importDocument(await deps.files.get(source.key), source.fileName)).replace(/\n\n/g, '\n');
    }
    return {
      task,
      order,
      plan,
      csrf,
      holds,
      hasMedia: !!plan.mediaParam,
      hasSourceImage: sourceIsImage,
      ...(sourceText !== undefined ? { sourceText } : {}),
      ...(sourcePages !== undefined ? { sourcePages } : {}),
      styleNonce: styleNonce(res),
      settings: editorSettingsOf(worker.editorSettings),
      ...extra,
    };
  }

  router.get('/tasks/:id', async (req, res) => {
    sendPage(res, 200, taskPage(await pageOf(req, res)));
  });

  // The words of the task's text with their times, for the editor to mark: the draft's, kept across the saved edits.
  router.get('/tasks/:id/words', async (req, res) => {
    const { task, order } = await taskForWorker(deps.db, signedWorker(res).worker, String(req.params.id));
    const span = task.partNo > 0 ? { start: task.spanStart, end: task.spanEnd } : undefined;
    const timed = await timedWork(deps.files, order, task.draft, span);
    res.set('Cache-Control', 'no-store').json({ segments: timed?.segments ?? [] });
  });

  // Autosave: 204; 412 when a change was made against another text than the one saved (the page then
  // sends all of its text); 409 when the claim is gone (the page tells the worker to keep their text).
  router.post('/tasks/:id/save', async (req, res) => {
    const given = req.body as Record<string, unknown> | undefined;
    const body = given && 'change' in given ? changeSave.safeParse(given) : z.object({ text }).safeParse(given ?? {});
    if (!body.success) return void res.status(400).json({ error: body.error.issues[0]!.message });
    try {
      if (!(await saveWork(deps, signedWorker(res).worker, String(req.params.id), body.data)))
        return void res.status(412).json({ error: 'the text saved is not the one this change was made to; send the whole text' });
    } catch (err) {
      if (err instanceof TaskRefusedError) return void res.status(409).json({ error: err.message });
      // A change that splits a character of the text saved, or makes it too long: named, as the page shows it.
      if (err instanceof RequestError) return void res.status(err.status).json({ error: err.message });
      throw err;
    }
    res.status(204).end();
  });

  router.post('/tasks/:id/submit', async (req, res) => {
    const given = submitted.parse((req.body as Record<string, unknown> | undefined)?.text ?? '');
    try {
      await submitWork(deps, signedWorker(res).worker, String(req.params.id), given);
    } catch (err) {
      if (err instanceof SubmissionProblemsError) return void sendPage(res, 422, taskPage(await pageOf(req, res, { problems: err.problems, text: given })));
      if (err instanceof TaskRefusedError) throw new PageError(409, err.message);
      throw err;
    }
    setFlash(req, res, deps.publicBaseUrl, 'submitted');
    res.redirect(303, `${WORK_PATH}/queue`);
  });

  router.post('/tasks/:id/review', async (req, res) => {
    const form = reviewForm.safeParse(req.body);
    if (!form.success) throw new PageError(400, form.error.issues[0]!.message);
    try {
      await reviewWork(deps, signedWorker(res).worker, String(req.params.id), { ...form.data, note: form.data.note?.trim() || undefined });
    } catch (err) {
      if (err instanceof TaskRefusedError) return void sendPage(res, 409, taskPage(await pageOf(req, res, { problems: [err.message], text: form.data.text })));
      if (err instanceof SubmissionProblemsError)
        return void sendPage(res, 422, taskPage(await pageOf(req, res, { problems: err.problems, text: form.data.text })));
      throw err;
    }
    setFlash(req, res, deps.publicBaseUrl, form.data.decision === 'approve' ? 'approved' : 'sent-back');
    res.redirect(303, `${WORK_PATH}/queue`);
  });

  router.post('/tasks/:id/release', async (req, res) => {
    const { worker } = signedWorker(res);
    const { holds } = await taskForWorker(deps.db, worker, String(req.params.id));
    if (!holds) throw new PageError(409, 'You do not hold this task.');
    await releaseTask(deps, String(req.params.id), `given back by worker ${worker.id}`).catch((err) => {
      throw err instanceof TaskRefusedError ? new PageError(409, err.message) : err;
    });
    setFlash(req, res, deps.publicBaseUrl, 'released');
    res.redirect(303, `${WORK_PATH}/queue`);
  });

  const serveFile = (name: 'media' | 'source') => async (req: Request, res: Response) => {
    const { order } = await taskForWorker(deps.db, signedWorker(res).worker, String(req.params.id));
    let file: { key: string; type: string } | undefined;
    try {
      file = await servedWorkFile(deps, order, name);
    } catch (err) {
      if (err instanceof FetchError) throw new PageError(502, "The media cannot be read from the customer's server now; try again later.");
      throw err;
    }
    if (!file) throw new PageError(404, `This task has no ${name} file.`);
    await sendRange(req, res, deps, file.key, file.type);
  };
  router.get('/tasks/:id/media', serveFile('media'));
  router.get('/tasks/:id/source', serveFile('source'));
  // A PDF source's page, drawn in the sandbox (the file is the customer's).
  router.get('/tasks/:id/source/pages/:page', async (req, res) => {
    const { order } = await taskForWorker(deps.db, signedWorker(res).worker, String(req.params.id));
    const page = /^\d{1,5}$/.test(String(req.params.page)) ? Number(req.params.page) : NaN;
    let png: Buffer;
    try {
      png = await sourcePdfPage(deps, order, page);
    } catch (err) {
      if (err instanceof TranscriptImportError || err instanceof DocumentRefusedError) throw new PageError(404, `This page cannot be shown: ${err.message}.`);
      throw err;
    }
    res.set(customerFileHeaders('image/png')).send(png);
  });
  return router;
}
