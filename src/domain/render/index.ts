// Result renderers: one transcript model in, a file out. Pure: bytes, no I/O.
import { Document, Packer, Paragraph, TextRun } from 'docx';
import type { Segment, Transcript } from '../transcript.js';

export interface RenderedFile { body: Buffer; contentType: string; extension: string }

export const TRANSCRIPT_FORMATS = ['docx', 'text', 'json'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

function label(s: Segment): string {
  const parts = [s.start !== undefined ? `[${clock(s.start)}]` : '', s.speaker ? `${s.speaker}:` : ''].filter(Boolean);
  return parts.join(' ');
}

export function renderText(t: Transcript): string {
  return t.segments.map((s) => [label(s), s.text].filter(Boolean).join(' ')).join('\n\n') + '\n';
}

export function renderJson(t: Transcript): string {
  return JSON.stringify({ segments: t.segments.map((s) => ({ speaker: s.speaker ?? null, start: s.start ?? null, end: s.end ?? null, text: s.text })) }, null, 2);
}

export async function renderDocx(t: Transcript, title: string): Promise<Buffer> {
  const doc = new Document({
    creator: 'order-service',
    title,
    sections: [{
      children: t.segments.map((s) => {
        const head = label(s);
        return new Paragraph({
          spacing: { after: 200 },
          children: [...(head ? [new TextRun({ text: `${head} `, bold: true })] : []), new TextRun(s.text)],
        });
      }),
    }],
  });
  return Packer.toBuffer(doc);
}

export async function renderTranscript(t: Transcript, format: TranscriptFormat, title: string): Promise<RenderedFile> {
  switch (format) {
    case 'docx':
      return { body: await renderDocx(t, title), contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extension: 'docx' };
    case 'text':
      return { body: Buffer.from(renderText(t), 'utf8'), contentType: 'text/plain; charset=utf-8', extension: 'txt' };
    case 'json':
      return { body: Buffer.from(renderJson(t), 'utf8'), contentType: 'application/json; charset=utf-8', extension: 'json' };
  }
}
