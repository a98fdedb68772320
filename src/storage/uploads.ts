// Where uploads live (issue 52): their bytes in the file store's own directory (`<files>/uploads/<id>`,
// written by @tus/file-store), their state in the database (src/db/uploads.ts), so that any API
// process continues an upload another one began. One request at a time per upload: in one process a
// lock in memory; across processes on PostgreSQL an advisory lock, whose holder is asked to let go
// (NOTIFY) when a newer request for the same upload comes, as a client resuming after a dropped
// connection does.
import { join } from 'node:path';
import type pg from 'pg';
import { FileStore as TusFileStore } from '@tus/file-store';
import { ERRORS, MemoryLocker, type KvStore, type Lock, type Locker, type RequestRelease, type Upload } from '@tus/server';
import type { Db } from '../db/connection.js';
import { openUploadIds, setUploadInfo, uploadInfo } from '../db/uploads.js';
import { log } from '../log.js';

export interface UploadSettings {
  /** An unused upload is deleted this long after its creation (UPLOAD_TTL_HOURS). */
  ttlMs: number;
  /** The largest upload taken (MEDIA_MAX_BYTES). */
  maxBytes: number;
}

export interface UploadStore extends UploadSettings {
  /** @tus/file-store on the uploads directory, its state kept in the database. */
  dataStore: TusFileStore;
  locker: Locker;
  /** The file holding the upload's bytes. */
  pathOf(id: string): string;
  close(): Promise<void>;
}

/** The tus ids this service makes: 32 hex characters (16 random bytes). */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** @tus/file-store's record of an upload, in the uploads table instead of a JSON file beside it. */
function databaseKvStore(db: Db): KvStore<Upload> {
  return {
    get: async (id) => (await uploadInfo(db, id)) as Upload | undefined,
    set: (id, upload) => setUploadInfo(db, id, JSON.parse(JSON.stringify(upload)) as Record<string, unknown>),
    // Terminated or expired: the row stays (who owned it, and when it ended), its state goes.
    delete: async () => undefined,
    list: () => openUploadIds(db),
  };
}

export function createUploadStore(db: Db, filesDir: string, settings: UploadSettings, pool?: pg.Pool): UploadStore {
  const directory = join(filesDir, 'uploads');
  const dataStore = new TusFileStore({ directory, configstore: databaseKvStore(db), expirationPeriodInMilliseconds: settings.ttlMs });
  const locker = pool ? new PostgresLocker(pool) : new MemoryLocker();
  return {
    ...settings,
    dataStore,
    locker,
    pathOf: (id) => {
      if (!UPLOAD_ID.test(id)) throw new Error(`not an upload id: ${id}`);
      return join(directory, id);
    },
    close: async () => (locker instanceof PostgresLocker ? locker.close() : undefined),
  };
}

const RELEASE_CHANNEL = 'upload_lock_release';
/** How long a request waits for an upload's lock (as @tus/server's memory lock). */
const LOCK_TIMEOUT_MS = 30_000;
const RETRY_MS = 50;

/**
 * One request per upload across API processes: first the upload's lock in this process, then a
 * session advisory lock on this process's one lock session, held while the request reads or writes
 * the upload. A request that finds it held asks its holder, wherever it runs, to let go (a NOTIFY
 * every process listens for on its lock session), then tries again. One session for all of a
 * process's locks: a lock is held for a whole PATCH, and a connection per lock taken from the pool
 * left none for the requests' own queries once as many uploads as the pool has connections were
 * under way (every request of the process then waited for ever).
 */
class PostgresLocker implements Locker {
  /** The release callbacks of the locks this process holds, by upload id. */
  readonly held = new Map<string, RequestRelease>();
  /** One request per upload in this process: advisory locks are re-entrant within their session. */
  readonly local = new MemoryLocker({ acquireLockTimeout: LOCK_TIMEOUT_MS });
  private session?: Promise<pg.PoolClient>;

  constructor(readonly pool: pg.Pool) {
    // Listening from the start: a holder here is asked to let go before any request of its own comes.
    this.connect().catch((err: Error) => log('upload lock session not started', { error: err.message }));
  }

  /** The lock session, listening for release requests; a new one once it is lost. */
  connect(): Promise<pg.PoolClient> {
    this.session ??= this.pool.connect().then(
      async (client) => {
        client.on('notification', (message) => {
          const release = message.payload ? this.held.get(message.payload) : undefined;
          if (release) void Promise.resolve(release()).catch(() => undefined);
        });
        let lost = false;
        client.on('error', (err) => {
          if (lost) return;
          lost = true;
          log('upload lock session lost', { error: err.message });
          this.session = undefined;
          client.release(err);
          // Its advisory locks went with it: their requests are asked to stop.
          for (const release of this.held.values()) void Promise.resolve(release()).catch(() => undefined);
        });
        await client.query(`LISTEN ${RELEASE_CHANNEL}`);
        return client;
      },
      (err: Error) => {
        this.session = undefined;
        throw err;
      },
    );
    return this.session;
  }

  newLock(id: string): Lock {
    return new PostgresLock(this, id);
  }

  async close(): Promise<void> {
    const session = await this.session?.catch(() => undefined);
    this.session = undefined;
    session?.release(true);
  }
}

class PostgresLock implements Lock {
  private readonly local: Lock;
  /** The session holding the advisory lock, while it is held. */
  private session?: pg.PoolClient;

  constructor(
    private readonly locker: PostgresLocker,
    private readonly id: string,
  ) {
    this.local = locker.local.newLock(id);
  }

  async lock(stop: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.local.lock(stop, requestRelease);
    const deadline = Date.now() + LOCK_TIMEOUT_MS;
    try {
      for (;;) {
        const session = await this.locker.connect();
        const { rows } = await session.query<{ taken: boolean }>(`SELECT pg_try_advisory_lock(hashtextextended('upload:' || $1, 0)) AS taken`, [this.id]);
        if (rows[0]?.taken) {
          this.session = session;
          this.locker.held.set(this.id, requestRelease);
          return;
        }
        if (stop.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
        await session.query('SELECT pg_notify($1, $2)', [RELEASE_CHANNEL, this.id]);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    } catch (err) {
      await this.local.unlock();
      throw err;
    }
  }

  async unlock(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.locker.held.delete(this.id);
    try {
      // A session lost meanwhile took its locks with it.
      await session?.query(`SELECT pg_advisory_unlock(hashtextextended('upload:' || $1, 0))`, [this.id]).catch(() => undefined);
    } finally {
      await this.local.unlock();
    }
  }
}
