// The rules behind a task's pay and the draft's edit rate, out of the activities that record them
// (src/activities/tasks.ts). Pure.
import type { TaskInput } from '../contracts/tasks.js';
import type { WorkPlan } from '../contracts/orders.js';
import { wordEditRate } from '../domain/humanWork/diff.js';
import { transcriptFromEditor } from '../domain/humanWork/editorText.js';
import { payForTask, type PayRates } from '../products/payRates.js';
import { languagesOf } from '../products/shared.js';
import type { OrderParams } from '../products/registry.js';

/**
 * What a task earns once approved. A task sent back is the same work again: paid once, with the
 * work it fixes (0 here). A part is paid by its own minutes; a word-paid task by the order's words.
 * The rate's language is the result's (a translation's target).
 */
export function payForOpenedTask(
  rates: PayRates,
  order: { product: string; params: OrderParams; words: number },
  task: Pick<TaskInput, 'stage' | 'assignedTo' | 'span' | 'partNo'>,
): number {
  if (task.assignedTo !== undefined) return 0;
  const { turnaround_time: turnaround } = order.params;
  return payForTask(rates, {
    product: order.product,
    stage: task.stage,
    language: languagesOf(order.params).result ?? '',
    ...(turnaround ? { turnaround } : {}),
    seconds: task.span.end - task.span.start,
    words: task.partNo > 0 ? 0 : order.words,
  });
}

/**
 * How much of the machine draft the people changed: the word edit distance ÷ the delivered words.
 * The words only: a transcript's marks and speaker labels are not what a draft saves.
 */
export function draftEditRate(draft: string, delivered: string, editor: WorkPlan['editor']): number {
  const wordsOf = (text: string) =>
    editor === 'transcript'
      ? transcriptFromEditor(text)
          .segments.map((s) => s.text)
          .join('\n')
      : text;
  return wordEditRate(wordsOf(draft), wordsOf(delivered));
}
