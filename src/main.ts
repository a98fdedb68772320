// Starts the service. `node dist/main.js` (npm start) runs everything embedded: a Temporal dev
// server, PGlite, the worker and the API. `api` or `worker` runs one role against
// TEMPORAL_ADDRESS and DATABASE_URL for the scaled topology.
import { join } from 'node:path';
import type { Server } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from './config.js';
import { migrate, openDatabase } from './db/connection.js';
import { countAccounts, createAccount } from './db/accounts.js';
import { localFileStore } from './storage/fileStore.js';
import { startDevServer, type DevServer } from './temporal/devServer.js';
import { createOrderWorkers, type OrderWorkers } from './temporal/worker.js';
import { startLocalEngine, type LocalEngine } from './engines/localEngine.js';
import { buildEngines, needsLocalProcess } from './engines/settings.js';
import { createApp } from './api/app.js';
import { log } from './log.js';

type Role = 'all' | 'api' | 'worker';

async function main(role: Role): Promise<void> {
  const config = await loadConfig();
  if (role !== 'all' && !config.databaseUrl) {
    throw new Error(`the ${role} role shares its database with other processes: set DATABASE_URL (PGlite serves one process)`);
  }
  if (role !== 'all' && !config.temporal.address) throw new Error(`the ${role} role needs TEMPORAL_ADDRESS`);

  const stops: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err) => log('shutdown step failed', { error: String(err) }));
  };
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log('stopping', { signal });
      void stopAll().then(() => process.exit(0));
    });
  }

  try {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(config.dataDir, 'pg') });
    stops.push(() => database.close());
    const applied = await migrate(database.db);
    if (applied.length) log('database migrated', { engine: database.engine, applied });

    let address = config.temporal.address;
    let devServer: DevServer | undefined;
    if (!address) {
      devServer = await startDevServer({
        cliPath: config.temporal.cliPath, port: config.temporal.devServerPort, uiPort: config.temporal.uiPort,
        dbFile: join(config.dataDir, 'temporal.db'), namespace: config.temporal.namespace,
      });
      stops.push(() => devServer!.stop());
      address = devServer.address;
    }

    // The worker's engines; the local one runs as a child process, like the dev server.
    const { choices } = config.engines;
    let localEngine: LocalEngine | undefined;
    if (role !== 'api' && needsLocalProcess(choices)) {
      localEngine = await startLocalEngine(config.engines.local);
      stops.push(() => localEngine!.stop());
      log('local speech engine started', { url: localEngine.url });
    }

    const deps = {
      db: database.db,
      files: localFileStore(join(config.dataDir, 'files')),
      secretKey: config.secretKey,
      publicBaseUrl: config.publicBaseUrl,
      callbacks: config.callbacks,
      priceTable: config.priceTable,
      engines: role === 'api' ? {} : buildEngines(choices, {
        model: config.engines.model, ...(config.engines.apiKey ? { apiKey: config.engines.apiKey } : {}), ...(localEngine ? { localUrl: localEngine.url } : {}),
      }),
      media: config.media,
    };

    let worker: OrderWorkers | undefined;
    if (role !== 'api') {
      const connection = await NativeConnection.connect({ address });
      worker = await createOrderWorkers({
        connection, namespace: config.temporal.namespace, taskQueue: config.temporal.taskQueue, deps, engineConcurrency: config.engines.concurrency,
      });
      const running = worker.run();
      stops.push(async () => {
        worker!.shutdown();
        await running;
        await connection.close();
      });
    }

    if (role !== 'worker') {
      const connection = await Connection.connect({ address });
      stops.push(() => connection.close());
      const app = createApp({
        ...deps, temporal: new Client({ connection, namespace: config.temporal.namespace }), taskQueue: config.temporal.taskQueue,
        opsToken: config.opsToken, documents: config.documents, qualityCheck: config.qualityCheck,
        payment: config.payment, log,
      });
      const server: Server = await new Promise((resolve) => {
        const s = app.listen(config.port, () => resolve(s));
      });
      stops.push(() => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); }));

      if ((await countAccounts(database.db)) === 0) {
        const demo = await createAccount(database.db, config.secretKey, { name: 'demo', balanceCents: 100_00 });
        console.log(`\nFirst start: created a demo account (id ${demo.accountId}) with $100.00 in its wallet.\n  api_token: ${demo.apiToken}\n  (shown once; keep it)\n`);
      }
      console.log(`Order API:   ${config.publicBaseUrl}/api/v4/  (languages: ${config.publicBaseUrl}/api/v4/languages)`);
    }
    if (devServer?.uiUrl) console.log(`Temporal UI: ${devServer.uiUrl}`);
    if (role !== 'api') console.log(`Engines:     AI transcription: ${choices.speech.kind}, forced alignment: ${choices.alignment.kind}`);
    log('started', { role, temporal: address, database: database.engine, taskQueue: config.temporal.taskQueue });
  } catch (err) {
    await stopAll();
    throw err;
  }
}

const role = (process.argv[2] ?? 'all') as Role;
if (!['all', 'api', 'worker'].includes(role)) {
  console.error(`usage: node dist/main.js [all|api|worker] (got ${role})`);
  process.exit(2);
}
main(role).catch((err) => {
  console.error(`order-service failed to start: ${(err as Error).message}`);
  process.exit(1);
});
