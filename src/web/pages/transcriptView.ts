// A finished order's transcript beside its media, for the customer (issue 44, item 4): the media in a
// player, the transcript word by word (each word an element with data-start and data-end, seconds;
// a paragraph without word times timed as a whole), speakers by name, and a search box. The result
// file is read in the document sandbox, as every download is; assets/app.js plays from a word, marks
// the word heard and finds what is searched.
import type { WebDeps } from '../context.js';
import type { OrderFileRow, OrderRow } from '../../db/schema.js';
import type { Transcript } from '../../domain/transcript.js';
import { mediaUrlOf, orderResultKinds } from '../../products/registry.js';
import { html, type Html } from '../html.js';

/**
 * The result kinds read as a transcript of the order's media, in the order they are preferred: the
 * transcript (a proofreading's, an alignment's word by word), then the cues.
 */
const TRANSCRIPT_KINDS = ['transcription', 'proofread_transcription', 'forced_alignment', 'captions', 'proofread_captions', 'subtitles'] as const;

/**
 * The section, or nothing where the order has no finished transcript of media. `base` serves the
 * media: the account's order path, or a share link's.
 */
export async function transcriptSection(deps: WebDeps, order: OrderRow, files: OrderFileRow[], base: string): Promise<Html> {
  // The media is kept on its first play where no engine or person has heard it yet (orderMedia).
  if (order.status !== 'finished' || !(order.inputFiles.media || mediaUrlOf(order))) return html``;
  const kinds = new Set<string>(orderResultKinds(order));
  const kind = TRANSCRIPT_KINDS.find((k) => kinds.has(k) && files.some((f) => f.kind === k));
  const file = kind && files.filter((f) => f.kind === kind).at(-1);
  if (!file) return html``;
  let transcript: Transcript;
  try {
    transcript = await deps.documentReader.importDocument(await deps.files.get(file.blobKey), file.fileName);
  } catch {
    return html``; // a file that cannot be read as a transcript is still downloadable, as it is
  }
  if (!transcript.segments.length) return html``;
  return html`<section id="transcript-view" aria-labelledby="transcript-heading"><h2 id="transcript-heading">Transcript</h2>
<audio id="transcript-player" controls preload="metadata" src="${base}/media"></audio>
<p><label for="transcript-search">Search the transcript</label> <input type="search" id="transcript-search" autocomplete="off"> <span id="transcript-found" role="status"></span></p>
<div id="transcript" class="transcript" dir="auto">${transcript.segments.map((segment) => paragraph(segment))}</div></section>`;
}

function paragraph(segment: Transcript['segments'][number]): Html {
  const speaker = segment.speaker ? html`<span class="speaker">${segment.speaker}:</span> ` : '';
  if (segment.words?.length)
    return html`<p>${speaker}${segment.words.map((w) => html`<span class="word" data-start="${String(w.start)}" data-end="${String(w.end)}">${w.text}</span> `)}</p>`;
  // No word times: the paragraph is timed as a whole, where it has times.
  return segment.start !== undefined
    ? html`<p>${speaker}<span class="word" data-start="${String(segment.start)}" data-end="${String(segment.end ?? segment.start)}">${segment.text}</span></p>`
    : html`<p>${speaker}${segment.text}</p>`;
}
