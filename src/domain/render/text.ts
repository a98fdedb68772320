// Plain text, HTML and RTF renderings of the reading layout.
import { leadingMarks, LEFT_TO_RIGHT, paragraphText, type Paragraph, type TextScript } from './layout.js';

export function renderText(paragraphs: Paragraph[]): string {
  return paragraphs.map(paragraphText).join('\n\n') + '\n';
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

export function renderHtml(paragraphs: Paragraph[], title: string, script: TextScript = LEFT_TO_RIGHT): string {
  const body = paragraphs.map((p) => {
    const { lead, rest } = leadingMarks(p);
    const parts = [
      ...lead.map((m) => `<span class="time">[${m}]</span>`),
      ...(p.speaker ? [`<strong class="speaker">${escapeHtml(p.speaker)}:</strong>`] : []),
      ...rest.map((r) => ('mark' in r ? `<span class="time">[${r.mark}]</span>` : escapeHtml(r.text))),
    ];
    return `<p>${parts.join(' ')}</p>`;
  });
  return [
    '<!DOCTYPE html>',
    `<html${script.language ? ` lang="${escapeHtml(script.language)}"` : ''} dir="${script.direction}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:sans-serif;max-width:48em;margin:2em auto;line-height:1.5}.time{color:#666}</style>',
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * RTF text: the control characters escaped, everything beyond ASCII as \uN (signed 16-bit
 * units). The document declares \uc0 (no fallback characters), which every reader handles alike.
 */
function rtfText(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === '{' || ch === '}') out += `\\${ch}`;
    else if (code < 0x80) out += ch;
    else {
      // Beyond the BMP: a UTF-16 surrogate pair, each unit its own \u.
      for (const unit of String.fromCodePoint(code).split('')) {
        const u = unit.charCodeAt(0);
        out += `\\u${u > 32767 ? u - 65536 : u} `;
      }
    }
  }
  return out;
}

export function renderRtf(paragraphs: Paragraph[], title: string): string {
  const body = paragraphs.map((p) => {
    const { lead, rest } = leadingMarks(p);
    const parts = [
      ...lead.map((m) => `{\\cf1 [${m}]}`),
      ...(p.speaker ? [`{\\b ${rtfText(p.speaker)}:}`] : []),
      ...rest.map((r) => ('mark' in r ? `{\\cf1 [${r.mark}]}` : rtfText(r.text))),
    ];
    return `{\\pard\\sa200 ${parts.join(' ')}\\par}`;
  });
  return [
    '{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc0',
    '{\\fonttbl{\\f0\\fswiss Arial;}}',
    '{\\colortbl;\\red102\\green102\\blue102;}',
    `{\\info{\\title ${rtfText(title)}}}`,
    '\\f0\\fs22',
    `{\\pard\\sa300\\b\\fs28 ${rtfText(title)}\\par}`,
    ...body,
    '}',
    '',
  ].join('\n');
}
