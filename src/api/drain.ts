// Graceful stop of an HTTP server (SIGTERM/SIGINT, docs/operations.md): stop accepting connections,
// let every request that started finish, and end keep-alive connections only after an answer or at
// their keep-alive timeout, so no client sees a reset: a request is answered or finds the port closed.
import type { Server, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { Server as NetServer, type AddressInfo } from 'node:net';

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
        // listener closes: a client's request sent on one gets ECONNRESET, not an answer. So the
        // listener closes two turns of the event loop after the signal (each poll phase accepts what
        // is queued) and, where Linux tells the queue's length, once it is empty (at most 200 more
        // turns under a stream of new connections).
        const closeOnceAccepted = (turnsLeft: number) => {
          if (turnsLeft > 0 && (queuedConnections(server) ?? 0) > 0) return void setImmediate(() => closeOnceAccepted(turnsLeft - 1));
          NetServer.prototype.close.call(server, () => {
            clearTimeout(deadline);
            resolve();
          });
        };
        setImmediate(() => setImmediate(() => closeOnceAccepted(200)));
      });
      return drained;
    },
  };
}

/**
 * Connections the kernel has queued on the server's listening socket that Node has not accepted
 * yet: the LISTEN socket's rx_queue in /proc/net/tcp and tcp6 (what `ss -ltn` shows as Recv-Q).
 * undefined where that cannot be read (not Linux, or not listening on a port).
 */
function queuedConnections(server: Server): number | undefined {
  const address = server.address();
  if (!address || typeof address === 'string') return undefined;
  const port = (address as AddressInfo).port;
  let queued: number | undefined;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue ...; st 0A is LISTEN.
      const [, local, , state, queues] = line.trim().split(/\s+/);
      if (state !== '0A' || !local || !queues || parseInt(local.split(':')[1] ?? '', 16) !== port) continue;
      queued = (queued ?? 0) + parseInt(queues.split(':')[1] ?? '0', 16);
    }
  }
  return queued;
}
