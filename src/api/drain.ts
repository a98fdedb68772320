// Graceful stop of an HTTP server (SIGTERM/SIGINT, docs/operations.md): stop accepting connections,
// let every request that started finish, and end keep-alive connections only after an answer or at
// their keep-alive timeout, so no client sees a reset: a request is answered or finds the port closed.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

export interface Drainable {
  /** Stops accepting, waits for in-flight requests (at most `timeoutMs`, then closes what is left). */
  drain(timeoutMs: number): Promise<void>;
}

/** Call right after creating the server: it tracks the answers in flight from then on. */
export function drainable(server: Server): Drainable {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  /** The answer ends its connection: a keep-alive client opens a new one, which finds the port closed. */
  const lastOnItsConnection = (res: ServerResponse) => {
    if (!res.headersSent && !res.writableEnded) res.setHeader('Connection', 'close');
  };
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    if (draining) lastOnItsConnection(res);
  });
  let drained: Promise<void> | undefined;
  return {
    drain(timeoutMs) {
      drained ??= new Promise<void>((resolve) => {
        draining = true;
        for (const res of inFlight) lastOnItsConnection(res);
        // Stop listening only. http's server.close() would also close the idle keep-alive
        // connections at once, racing a client that is just sending its next request on one (a
        // reset). Instead each such connection carries one more request, answered with
        // `Connection: close`, or ends at the keep-alive timeout, which clients know from the
        // `Keep-Alive: timeout=` header and stop reusing before.
        const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
        NetServer.prototype.close.call(server, () => {
          clearTimeout(deadline);
          resolve();
        });
      });
      return drained;
    },
  };
}
