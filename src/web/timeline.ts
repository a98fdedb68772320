// An order's history as one list: paid, the work on it, finished or refunded, each callback
// attempt, the workbench's stages (work, review, the second review paid for), the quality check and
// its fix, the deletion of its data. Built from the database (and the workflow for live work).
// Workers are not named to customers.
import type { CallbackAttemptRow, OrderFileRow, OrderRow, TaskRow } from '../db/schema.js';
import { usd, when } from './format.js';
import { taskRowOf } from '../contracts/tasks.js';
import { html, type Html } from './html.js';
import { kindName, orderLink } from './orderView.js';
import type { WorkProgress } from './progress.js';
import type { LedgerRow } from '../db/accountArea.js';

interface Entry {
  at: Date | null;
  text: Html;
}

function workEntry(order: OrderRow, progress: WorkProgress | undefined): Entry | undefined {
  if (order.status !== 'paid') return undefined;
  const engine = progress?.engine;
  if (engine) {
    const elapsed = engine.elapsedMs !== undefined ? `, ${Math.round(engine.elapsedMs / 1000)} s so far` : '';
    return {
      at: null,
      text: html`Speech engine at work${engine.phase ? html`: ${engine.phase}` : ''}${engine.engine ? html` (${engine.engine})` : ''}${elapsed}${engine.attempt > 1 ? html`, attempt ${engine.attempt}` : ''}`,
    };
  }
  if (progress?.workingOn === 'engine' || order.assignee === 'engine') return { at: null, text: html`A speech engine is working on the order` };
  return { at: null, text: html`Waiting for a transcriber` };
}

function ledgerEntry(order: OrderRow, entry: LedgerRow): Entry | undefined {
  if (entry.kind === 'charge') {
    const minutes = entry.aiMinutes < 0 ? html` and ${-entry.aiMinutes} AI minutes` : '';
    return { at: entry.createdAt, text: html`Paid: ${usd(-entry.amountCents)} from the wallet${minutes}` };
  }
  if (entry.kind !== 'refund') return undefined;
  const money = html`${usd(entry.amountCents)}${entry.aiMinutes > 0 ? html` and ${entry.aiMinutes} AI minutes` : ''} refunded`;
  if (order.status === 'canceled') return { at: entry.createdAt, text: html`Canceled; ${money}` };
  if (order.status === 'retranscribed' && order.retranscribedOrderId !== null) {
    return { at: entry.createdAt, text: html`Retranscribed as human transcription order ${orderLink(order.retranscribedOrderId)}; ${money}` };
  }
  return { at: entry.createdAt, text: html`Refunded: ${money}${entry.note ? html` (${entry.note})` : ''}` };
}

/** A workbench stage done: the work handed in, a review's verdict. The quality check has its own entry. */
function taskEntry(task: TaskRow): Entry | undefined {
  if (task.submittedBy === null || !['submitted', 'approved', 'sent_back'].includes(task.status)) return undefined;
  if (task.stage === 'work') return { at: task.closedAt, text: task.partNo > 0 ? html`Part ${task.partNo} of the work handed in` : html`The work handed in` };
  const review = taskRowOf(task.stage)?.timeline;
  if (!review) return undefined;
  return { at: task.closedAt, text: task.status === 'approved' ? html`${review}: approved` : html`${review}: sent back for changes` };
}

function attemptEntry(a: CallbackAttemptRow): Entry {
  const answer = a.statusCode !== null ? html`HTTP ${a.statusCode}` : html`no answer`;
  const event = a.event === 'quality_fix' ? 'quality-check fix' : a.event;
  const next = a.nextAttemptAt ? html`; next attempt at ${when(a.nextAttemptAt)}` : '';
  return {
    at: a.createdAt,
    text: html`Callback (${event}), attempt ${a.attempt}: ${a.outcome === 'ok' ? 'delivered' : a.outcome.replace(/_/g, ' ')} (${answer})${next}`,
  };
}

export function timelineEntries(
  order: OrderRow,
  ledger: LedgerRow[],
  attempts: CallbackAttemptRow[],
  files: OrderFileRow[],
  progress?: WorkProgress,
  tasks: TaskRow[] = [],
): Entry[] {
  const entries: Entry[] = [];
  if (order.parentOrderId !== null)
    entries.push({ at: order.createdAt, text: html`Created from proofreading order ${orderLink(order.parentOrderId)}, whose transcript was retranscribed` });
  const charged = ledger.some((e) => e.kind === 'charge');
  if (!charged && order.paidAt) entries.push({ at: order.paidAt, text: html`Paid: ${usd(order.priceCents)}` });
  for (const e of ledger) {
    const entry = ledgerEntry(order, e);
    if (entry) entries.push(entry);
  }
  if (order.engineNote) entries.push({ at: order.engineNotedAt, text: html`${order.engineNote}` });
  if (order.mediaNote) entries.push({ at: order.mediaNotedAt, text: html`${order.mediaNote}` });
  if (order.handedOverAt) {
    const due = order.deliveryEstimate ? html`; new delivery estimate ${when(order.deliveryEstimate)}` : '';
    entries.push({
      at: order.handedOverAt,
      text: html`Handed to a person, as no speech engine could do it (${order.handedOverReason ?? 'no reason given'})${due}`,
    });
  }
  for (const task of tasks) {
    const entry = taskEntry(task);
    if (entry) entries.push(entry);
  }
  if (order.finishedAt && order.draftEditRate !== null) {
    entries.push({ at: order.finishedAt, text: html`The people changed ${Math.round(order.draftEditRate * 100)}% of the machine draft's words` });
  }
  if (order.finishedAt) entries.push({ at: order.finishedAt, text: html`Finished: ${files.map((f) => kindName(f.kind)).join(', ') || 'result files'} ready` });
  for (const f of files) {
    if (f.version > 1) entries.push({ at: f.updatedAt, text: html`Quality-check fix: the ${kindName(f.kind)} file was replaced (version ${f.version})` });
  }
  // The check's own times are not kept: shown beside the finishing.
  if (order.qcStatus && order.finishedAt) {
    const verdict = order.qcStatus === 'pending' ? 'in progress' : order.qcStatus === 'fixed' ? 'errors found and fixed' : order.qcStatus;
    entries.push({ at: order.finishedAt, text: html`Picked for a quality check: ${verdict}` });
  }
  entries.push(...attempts.map(attemptEntry));
  if (order.deletedAt) entries.push({ at: order.deletedAt, text: html`Data deleted: the media, transcript, result files and share link` });
  const work = workEntry(order, progress);
  if (work) entries.push(work);
  // Timed entries in order; the ones happening now last.
  return entries
    .map((e, i) => ({ e, i }))
    .sort((x, y) => {
      const [a, b] = [x.e.at?.getTime() ?? Infinity, y.e.at?.getTime() ?? Infinity];
      return a === b ? x.i - y.i : a - b;
    })
    .map(({ e }) => e);
}

export function timelineHtml(entries: Entry[]): Html {
  return html`<ol id="timeline">${entries.map((e) => html`<li>${e.at ? when(e.at) : html`<span class="muted">now</span>`} — ${e.text}</li>`)}</ol>`;
}
