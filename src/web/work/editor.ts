// The task pages: the transcript editor (audio through the service, hotkeys, the draft's segments,
// autosave), the translation editor (source beside target), the OCR editor (page beside text, with
// zoom), and the review page (a diff against the draft, Approve or Send back). Behaviour is
// assets/work.js; these pages work as forms without it (no autosave, no hotkeys).
import type { OrderRow, TaskRow } from '../../db/schema.js';
import type { WorkPlan } from '../../contracts/orders.js';
import { splitWords, wordDiff } from '../../domain/humanWork/diff.js';
import { formatMark, transcriptFromEditor } from '../../domain/humanWork/editorText.js';
import { doubtsIn } from '../../domain/doubts.js';
import { languageTag, writingDirection } from '../../domain/languages.js';
import { languagesOf } from '../../products/shared.js';
import { usd } from '../format.js';
import { html, type Html } from '../html.js';
import { alert, csrfInput, layout } from '../layout.js';
import { clock, productLabel, timeLeft } from './queue.js';
import { STAGES } from '../../contracts/tasks.js';
import { WORK_PATH } from './session.js';
import { HOTKEY_ACTIONS, type EditorSettings, type HotkeyAction } from '../../domain/humanWork/editorSettings.js';

export interface TaskPage {
  task: TaskRow;
  order: OrderRow;
  plan: WorkPlan;
  csrf: string;
  holds: boolean;
  /** The text of a source document (translation), when it has one. */
  sourceText?: string;
  hasMedia: boolean;
  hasSourceImage: boolean;
  /** OCR of a PDF: its page count (each page drawn as an image). */
  sourcePages?: number;
  /** What Submit found missing, and the text as it was sent. */
  problems?: string[];
  text?: string;
  /** The response's CSP nonce for the editor's own style sheet. */
  styleNonce?: string;
  /** The worker's editor settings: back-track, skip length, keys. */
  settings: EditorSettings;
}

/** The hotkey list under the player: the worker's keys (editor settings), then the fixed ones. */
function hotkeys(settings: EditorSettings): Html {
  const rows: Array<[string, string]> = [
    ...(Object.keys(HOTKEY_ACTIONS) as HotkeyAction[]).map((action): [string, string] => [settings.keys[action], HOTKEY_ACTIONS[action].label]),
    ['Alt+1 … Alt+9', 'Insert “Speaker N: ”'],
    ['Click on a word', 'Play from it'],
  ];
  return html`<details id="hotkeys"><summary>Hotkeys</summary><dl>${rows.map(([keys, what]) => html`<dt><kbd>${keys}</kbd></dt><dd>${what}</dd>`)}</dl>
<p>Back-track ${settings.backTrackSeconds} s, skip ${settings.skipSeconds} s. <a href="${WORK_PATH}/settings">Change keys and lengths</a></p></details>`;
}

function player(page: TaskPage): Html {
  if (!page.hasMedia) return html``;
  const base = `${WORK_PATH}/tasks/${page.task.id}`;
  return html`<section class="player" aria-label="Player">
<audio id="player" controls preload="auto" src="${base}/media" data-start="${page.task.spanStart}"></audio>
<p id="player-problem" class="alert" role="alert" hidden>The media cannot be played: it is not audio or video the service can serve, or it cannot be read now. Tell an operator if this persists.</p>
<p>Time <span id="clock">${formatMark(page.task.spanStart)}</span> · Speed <output id="speed">1×</output></p>
${hotkeys(page.settings)}
</section>`;
}

/** The draft's timed paragraphs as buttons that seek the player. */
function segments(page: TaskPage): Html {
  if (!page.hasMedia || !page.task.draft.trim()) return html``;
  let timed;
  try {
    timed = transcriptFromEditor(page.task.baseText ?? page.task.draft).segments.filter((s) => s.start !== undefined);
  } catch {
    return html``;
  }
  if (!timed.length) return html``;
  return html`<nav aria-label="Draft segments" class="segments"><ol>${timed.map(
    (s) =>
      html`<li><button type="button" data-seek="${s.start}">${formatMark(s.start!)} ${s.speaker ? `${s.speaker}: ` : ''}${s.text.slice(0, 80)}</button></li>`,
  )}</ol></nav>`;
}

/** `lang` and `dir` of text in `language` (a catalog slug): right-to-left languages read and are typed right to left. */
function textAttributes(language: string | undefined): Html {
  const tag = languageTag(language);
  return html`${tag ? html` lang="${tag}"` : ''} dir="${writingDirection(language)}"`;
}

function beside(page: TaskPage): Html {
  // A translation's source: a document, or the engine's transcript an AI order's translator works from.
  if (page.plan.editor !== 'ocr' && page.sourceText !== undefined) {
    const { source } = languagesOf(page.order.params);
    return html`<section class="source" aria-labelledby="source-title"><h2 id="source-title">Source</h2><div class="source-text" tabindex="0"${textAttributes(source)}>${page.sourceText}</div></section>`;
  }
  if (page.plan.editor === 'ocr' && (page.hasSourceImage || page.sourcePages)) {
    const base = `${WORK_PATH}/tasks/${page.task.id}/source`;
    const images = page.sourcePages
      ? Array.from(
          { length: page.sourcePages },
          (_, i) =>
            html`<img class="page-image" loading="lazy" src="${base}/pages/${i + 1}" alt="The page to type: page ${i + 1} of ${page.sourcePages}, order ${page.order.id}">`,
        )
      : [html`<img class="page-image" src="${base}" alt="The page to type, order ${page.order.id}">`];
    return html`<section class="source" aria-labelledby="source-title"><h2 id="source-title">${page.sourcePages ? 'Pages' : 'Page'}</h2>
<p><button type="button" data-zoom="-1">Zoom out</button> <button type="button" data-zoom="1">Zoom in</button></p>
<div class="page-frame" tabindex="0">${images}</div></section>`;
  }
  return html``;
}

const textLabel = (plan: WorkPlan) => (plan.editor === 'translation' ? 'Translation' : plan.editor === 'ocr' ? 'Text' : 'Transcript');

/** The reviewer's diff; a term of the order the worker changed away from its spelling is marked (and named for screen readers). */
function diff(before: string, after: string, terms: readonly string[]): Html {
  const termWords = new Set(terms.flatMap((term) => term.split(/\s+/)));
  const changesTerm = (text: string) => text.split(/\s+/).some((word) => termWords.has(word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')));
  return html`<section aria-labelledby="diff-title"><h2 id="diff-title">Changes against the draft</h2><p class="diff">${wordDiff(before, after).map((part) =>
    part.op === 'same'
      ? html`${part.text} `
      : part.op === 'add'
        ? html`<ins>${part.text}</ins> `
        : changesTerm(part.text)
          ? html`<del class="term-changed" title="A term of this order, as the customer spells it">${part.text}<span class="visually-hidden"> (a term of this order)</span></del> `
          : html`<del>${part.text}</del> `,
  )}</p></section>`;
}

/**
 * The order's terms (its vocabulary), as the customer spells them: beside the editor, offered while
 * typing; each isolated (`<bdi>`), so a bidi control in an older order's term reorders nothing else.
 */
function terms(page: TaskPage): Html {
  const vocabulary = page.order.params.vocabulary ?? [];
  if (!vocabulary.length) return html``;
  return html`<section class="terms" aria-labelledby="terms-title"><h2 id="terms-title">Terms of this order</h2>
<p class="muted">Spell them as the customer does; the editor offers them as you type.</p>
<ul id="terms"${textAttributes(languagesOf(page.order.params).result)}>${vocabulary.map((term) => html`<li><bdi>${term}</bdi></li>`)}</ul></section>`;
}

/**
 * The draft's doubtful words in the text (paragraphs the worker has not changed): named under the
 * editor, for everyone and for screen readers; the transcript editor underlines them (assets/work.js).
 */
function doubtfulWords(page: TaskPage, text: string): { tokens: number[]; help: Html } {
  const doubts = page.task.stage === 'work' ? page.order.draftDoubts : null;
  const tokens = doubts?.length ? doubtsIn(text, doubts) : [];
  if (!tokens.length) return { tokens, help: html`` };
  const words = splitWords(text);
  const named = tokens.slice(0, 30).map((t) => words[t]);
  const more = tokens.length > named.length ? `, and ${tokens.length - named.length} more` : '';
  return {
    tokens,
    help: html`<p id="doubt-help" class="doubt-help">The engine was unsure of ${tokens.length} word${tokens.length === 1 ? '' : 's'} of the draft, underlined with dots in the text (<kbd>Alt+N</kbd> selects the next): ${named.join(', ')}${more}.</p>`,
  };
}

export function taskPage(page: TaskPage): string {
  const { task, plan, csrf } = page;
  const base = `${WORK_PATH}/tasks/${task.id}`;
  const text = page.text ?? task.draft;
  const doubtful = doubtfulWords(page, text);
  const reviewing = task.stage !== 'work';
  const label = textLabel(plan);
  // A transcript heard from media: the word-level editor (assets/work.js), its words timed.
  const wordLevel = plan.editor === 'transcript' && page.hasMedia;
  const title = `${STAGES[task.stage].label}: ${productLabel(task.product)}, order ${task.orderId}`;
  const problems = page.problems?.length
    ? html`<div class="alert" role="alert"><p>Submit found problems:</p><ul>${page.problems.map((p) => html`<li>${p}</li>`)}</ul></div>`
    : '';
  const form = !page.holds
    ? html`<p>This task is waiting in the queue.</p><form method="post" action="${base}/claim">${csrfInput(csrf)}<button type="submit">Claim</button></form>`
    : html`<form id="work-form" method="post" action="${base}/${reviewing ? 'review' : 'submit'}" data-save-url="${base}/save" data-csrf="${csrf}">
${csrfInput(csrf)}
<p><label for="work-text">${label}</label></p>
${doubtful.help}
<div class="text-frame"><textarea id="work-text" name="text" rows="18" spellcheck="true" data-style-nonce="${page.styleNonce ?? ''}"${
        page.order.params.vocabulary?.length ? html` data-terms="${JSON.stringify(page.order.params.vocabulary)}"` : ''
      }${textAttributes(languagesOf(page.order.params).result)}${
        doubtful.tokens.length ? html` aria-describedby="doubt-help"` : ''
      }${wordLevel ? html` data-words-url="${base}/words"` : ''}>${text}</textarea></div>
${wordLevel ? html`<p id="editor-status" class="visually-hidden" role="status"></p>` : ''}
${wordLevel ? html`<fieldset id="speakers" hidden><legend>Speakers</legend><div id="speaker-names"></div><p><button type="button" id="add-speaker" class="secondary">Add a speaker</button></p></fieldset>` : ''}
<p id="save-status" role="status"></p>
${
  reviewing
    ? html`<p><label for="note">Note for the worker (needed to send back)</label>
<textarea id="note" name="note" rows="3"></textarea></p>
<p><button type="submit" name="decision" value="approve">Approve</button> <button type="submit" name="decision" value="send_back">Send back</button></p>`
    : html`<p><button type="submit">Submit</button></p>`
}
</form>
<form method="post" action="${base}/release">${csrfInput(csrf)}<button type="submit" class="secondary">Give the task back</button></form>`;
  return layout({
    area: 'work',
    title,
    csrf,
    current: 'queue',
    body: html`<h1>${title}</h1>
<p class="meta">${task.partNo > 0 ? `Part ${task.partNo}: ${clock(task.spanStart)}–${clock(task.spanEnd)}. ` : ''}Skill ${task.skill}. Time left ${timeLeft(task.deadline)}. Pay ${usd(task.payCents)}.
${plan.rules.timestamping !== 'not_required' ? ` Timestamps: ${plan.rules.timestamping.replace(/_/g, ' ')}.` : ''}${plan.rules.numberOfSpeakers ? ` Speakers: ${plan.rules.numberOfSpeakers.replace(/_/g, ' ')}.` : ''}</p>
${task.note && !reviewing ? alert(`Sent back by the reviewer: ${task.note}`) : ''}
${!task.draft.trim() && !reviewing && task.stage === 'work' && plan.draft !== 'none' ? html`<p class="muted">There is no machine draft for this task.</p>` : ''}
${page.order.engineNote && !reviewing ? html`<p class="muted" id="engine-note">From the engines: ${page.order.engineNote}</p>` : ''}
${page.order.mediaNote ? html`<p class="muted" id="media-note">${page.order.mediaNote}</p>` : ''}
${problems}
${player(page)}
<div class="workspace" id="workspace" data-settings="${JSON.stringify(page.settings)}">${beside(page)}${segments(page)}<div class="editor">${terms(page)}${form}</div></div>
${reviewing && task.baseText !== null ? diff(task.baseText, task.draft, page.order.params.vocabulary ?? []) : ''}`,
  });
}
