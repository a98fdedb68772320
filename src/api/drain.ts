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
        // The kernel resets the connections it has queued but Node has not yet accepted when the
        // listener closes: a client's request sent on one gets ECONNRESET, not an answer. Under
        // load the signal and such a connection come in the same turn of the event loop, so the
        // listener closes one turn later (two immediates span a poll phase), once they are accepted.
        setImmediate(() =>
          setImmediate(() =>
            NetServer.prototype.close.call(server, () => {
              clearTimeout(deadline);
              resolve();
            }),
          ),
        );
      });
      return drained;
    },
  };
}
