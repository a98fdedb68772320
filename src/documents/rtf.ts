// Plain text of an RTF document, one line per paragraph. Written here because the RTF reader on
// npm (rtf-parser) keeps the \ucN fallback characters that every Word and LibreOffice file
// carries after each \uN escape (docs/decisions/doc-and-rtf.md). Handles groups, ignorable and non-text
// destinations, \uN with \ucN, \'hh in the document's ANSI code page, and the usual symbols.

import { TranscriptImportError } from '../domain/transcript.js';
import { refusal } from './limits.js';

/** Destinations whose content is not document text. */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'footnote',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'fldinst',
  'shppict',
  'nonshppict',
  'pgdsctbl',
  'filetbl',
  'revtbl',
  'mmathPr',
  'ftnsep',
  'ftnsepc',
  'aftnsep',
  'aftnsepc',
  'pnseclvl',
  'userprops',
  'bkmkstart',
  'bkmkend',
]);

const SYMBOLS: Record<string, string> = {
  par: '\n',
  line: '\n',
  sect: '\n',
  page: '\n',
  row: '\n',
  cell: '\t',
  tab: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  emspace: '\u2003',
  enspace: '\u2002',
};

interface GroupState {
  skip: boolean;
  uc: number;
}

/** `maxNesting`: groups nested deeper are refused (a file of 300,000 open braces costs memory, not text). */
export function rtfToText(rtf: string, maxNesting = Infinity): string {
  if (!rtf.trimStart().startsWith('{\\rtf')) throw new TranscriptImportError('it does not start with {\\rtf');
  let decoder = new TextDecoder('windows-1252');
  const stack: GroupState[] = [];
  let state: GroupState = { skip: false, uc: 1 };
  let out = '';
  let bytes: number[] = [];
  const flushBytes = () => {
    if (bytes.length) out += state.skip ? '' : decoder.decode(new Uint8Array(bytes));
    bytes = [];
  };
  const emit = (text: string) => {
    flushBytes();
    if (!state.skip) out += text;
  };

  let i = 0;
  /** Skips the fallback of a \uN: `count` characters, a \'hh or a control word counting as one. */
  const skipFallback = (count: number) => {
    for (let n = 0; n < count && i < rtf.length; n++) {
      const c = rtf[i]!;
      if (c === '{' || c === '}') return;
      if (c === '\\') {
        const m = /^\\(?:'[0-9a-fA-F]{2}|[a-zA-Z]+-?\d* ?|.)/.exec(rtf.slice(i, i + 40));
        i += m ? m[0].length : 1;
      } else if (c !== '\r' && c !== '\n') i++;
      else {
        i++;
        n--;
      }
    }
  };

  while (i < rtf.length) {
    const c = rtf[i]!;
    if (c === '{') {
      flushBytes();
      if (stack.length >= maxNesting) throw refusal.nesting({ maxNesting });
      stack.push(state);
      state = { ...state };
      i++;
    } else if (c === '}') {
      flushBytes();
      state = stack.pop() ?? state;
      i++;
    } else if (c === '\\') {
      const next = rtf[i + 1];
      if (next === "'") {
        if (!state.skip) bytes.push(parseInt(rtf.slice(i + 2, i + 4), 16));
        i += 4;
        continue;
      }
      const word = /^\\([a-zA-Z]+)(-?\d+)? ?/.exec(rtf.slice(i, i + 64));
      if (!word) {
        // A control symbol.
        i += 2;
        if (next === '*')
          state.skip = true; // an ignorable destination this reader does not know
        else if (next === '\\' || next === '{' || next === '}') emit(next);
        else if (next === '~') emit('\u00a0');
        else if (next === '_') emit('\u2011');
        else if (next === '\n' || next === '\r') emit('\n');
        continue;
      }
      i += word[0].length;
      const [, name, param] = word as unknown as [string, string, string | undefined];
      if (name === 'u' && param !== undefined) {
        const n = Number(param);
        emit(String.fromCharCode(n < 0 ? n + 65536 : n));
        skipFallback(state.uc);
      } else if (name === 'uc' && param !== undefined) state.uc = Number(param);
      else if (name === 'ansicpg' && param !== undefined) {
        try {
          decoder = new TextDecoder(`windows-${param}`);
        } catch {
          /* keep windows-1252 */
        }
      } else if (SKIPPED.has(name)) state.skip = true;
      else if (SYMBOLS[name]) emit(SYMBOLS[name]!);
    } else {
      if (c !== '\r' && c !== '\n') {
        if (state.skip) {
          /* nothing */
        } else {
          flushBytes();
          out += c;
        }
      }
      i++;
    }
  }
  flushBytes();
  return out;
}
