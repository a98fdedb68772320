// What the pages for people (the account area, the workbench) need: narrower than the API's deps,
// and their own, so web/ and api/ stay siblings over src/orders/. The composition root (src/app.ts)
// hands both the same object.
import type { Client } from '@temporalio/client';
import type { Db } from '../db/connection.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import type { AudioRenderer } from '../engines/audioRendition.js';
import type { MediaLimits, OutboundClient } from '../net/outbound.js';
import type { CallbackSettings } from '../orders/deliverCallback.js';
import type { FileStore } from '../storage/fileStore.js';
import type { UploadedFiles } from '../net/uploadedFiles.js';
import type { PlacementDeps } from '../orders/place.js';
import type { UploadStore } from '../storage/uploads.js';

/** `PlacementDeps`: the account area places orders (src/web/pages/newOrder.ts). */
export interface WebDeps extends PlacementDeps {
  db: Db;
  files: FileStore;
  temporal: Client;
  /** 32-byte service key: token lookups and session secrets. */
  secretKey: Buffer;
  /** Base of the result URLs and links shown, e.g. https://orders.example.com */
  publicBaseUrl: string;
  log: (message: string, meta: object) => void;
  /**
   * Sign-in attempts per client address and minute (default DEFAULT_SIGN_IN_PER_MINUTE); a share
   * link's reads per minute, and share links that open nothing per address, as the API's reads and
   * failed authentications (src/web/shared.ts).
   */
  rateLimits?: { signInPerMinute?: number; readsPerMinute?: number; failedAuthPerMinute?: number };
  /** The SSRF-guarded client: resent and sample callbacks, the player's copy of an order's media. */
  outbound: OutboundClient;
  /** Renders result files and opens workers' files in bounded child processes. */
  documentReader: DocumentReader;
  /** Callback delivery settings: the account pages resend callbacks and send samples. */
  callbacks: CallbackSettings;
  /** Limits when the player's copy of an order's media is fetched. */
  media: MediaLimits;
  /** Extracts the audio of a video once per order (the player's first play of an order no engine heard yet). */
  audioRenderer?: AudioRenderer;
  /** How many tasks one worker may hold at once (orders/tasks.ts). */
  maxHeldTasks?: number;
  /** This service's uploads: the player's copy of an order placed on one is a link to its file; the new-order page's files. */
  uploads?: UploadedFiles;
  /** Where the new-order page's uploads are received (tus at /account/uploads); none: the page offers no upload. */
  uploadStore?: UploadStore;
}
