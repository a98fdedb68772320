// A media server on loopback: real WAV files of any length, and the failures customers' URLs have.
import { createServer } from 'node:http';
import { close, listen } from './net.js';

/** A PCM WAV file: 8 kHz, mono, 8-bit silence, `seconds` long. */
export function wavFile(seconds: number): Buffer {
  const rate = 8000;
  const dataBytes = rate * seconds;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes, 0x80)]);
}

export interface MediaServer {
  url: string;
  /** URL of a WAV file `seconds` long. */
  audio(seconds: number): string;
  /** The paths requested so far, in order. */
  hits: string[];
  close(): Promise<void>;
}

export async function startMediaServer(): Promise<MediaServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const audio = /^\/audio-(\d+)\.wav$/.exec(path);
    if (audio) {
      const body = wavFile(Number(audio[1]));
      return void res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length }).end(body);
    }
    if (path === '/notes.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('these are not audio samples\n'.repeat(50));
    if (path === '/redirect') return void res.writeHead(302, { location: '/audio-90.wav' }).end();
    if (path === '/hang') return; // never answers
    if (path === '/noise.mp3') {
      // Says audio, holds no frame: a parser has to read to the end looking for one.
      return void res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(Buffer.alloc(1_000_000, 0));
    }
    if (path === '/drop.mp3') {
      // Promises a long file, sends a little and cuts the connection.
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': 10_000_000 });
      res.write(Buffer.alloc(2000, 0xff));
      return void setTimeout(() => res.socket?.destroy(), 50);
    }
    res.writeHead(404).end('not found');
  });
  const url = await listen(server);
  return { url, hits, audio: (seconds) => `${url}/audio-${seconds}.wav`, close: () => close(server) };
}
