// A media server on loopback that keeps its first requests waiting until the test releases them:
// a request stays in flight (inside the service's media probe) exactly as long as a test needs,
// which must stay within the probe's deadline. Later requests are answered at once.
import { createServer, type ServerResponse } from 'node:http';
import { wavFile } from './mediaServer.js';
import { close, listen } from './net.js';

export interface HeldMediaServer {
  url: string;
  /** URL of a WAV file `seconds` long. */
  audio(seconds: number): string;
  /** Requests received so far. */
  readonly requests: number;
  /** Requests received and not answered yet. */
  readonly waiting: number;
  /** Answers every waiting request; later requests are answered at once. */
  release(): void;
  close(): Promise<void>;
}

/** Holds the first `hold` requests (default 1) until `release()`. */
export async function startHeldMediaServer(hold = 1): Promise<HeldMediaServer> {
  let requests = 0;
  let released = false;
  const waiting: Array<() => void> = [];
  const server = createServer((req, res) => {
    requests += 1;
    const audio = /^\/audio-(\d+)\.wav$/.exec(req.url ?? '/');
    const answer = (response: ServerResponse) => {
      if (!audio) return void response.writeHead(404).end('not found');
      const body = wavFile(Number(audio[1]));
      response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length }).end(body);
    };
    if (released || requests > hold) return answer(res);
    waiting.push(() => answer(res));
  });
  const url = await listen(server);
  const release = () => {
    released = true;
    for (const answer of waiting.splice(0)) answer();
  };
  return {
    url,
    audio: (seconds) => `${url}/audio-${seconds}.wav`,
    get requests() {
      return requests;
    },
    get waiting() {
      return waiting.length;
    },
    release,
    close: async () => {
      release();
      await close(server);
    },
  };
}
