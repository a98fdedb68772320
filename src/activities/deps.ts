import type { Db } from '../db/connection.js';
import type { FileStore } from '../storage/fileStore.js';
import type { PriceTable } from '../products/registry.js';
import type { PayRates } from '../products/payRates.js';
import type { EngineSettings } from '../engines/types.js';
import type { MediaLimits, OutboundClient } from '../net/outbound.js';
import type { AudioRenderer } from '../engines/audioRendition.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import type { CallbackSettings } from '../orders/deliverCallback.js';
import type { UploadedFiles } from '../net/uploadedFiles.js';

export type { EngineSettings } from '../engines/types.js';
export type { CallbackSettings } from '../orders/deliverCallback.js';

export interface ActivityDeps {
  db: Db;
  files: FileStore;
  /** 32-byte service key: token lookups and the encrypted token copies. */
  secretKey: Buffer;
  /** Base of the result URLs given to customers, e.g. https://orders.example.com */
  publicBaseUrl: string;
  callbacks: CallbackSettings;
  priceTable: PriceTable;
  /** What workers earn per approved task (config/pay-rates.json). */
  payRates: PayRates;
  engines: EngineSettings;
  /** Limits when an engine activity downloads a customer's media. */
  media: MediaLimits;
  /** Extracts the audio of a video once per order (ffmpeg, where installed). */
  audioRenderer?: AudioRenderer;
  /** The SSRF-guarded client for every customer URL: media downloads and callbacks. */
  outbound: OutboundClient;
  /** Opens customers' and workers' files in bounded child processes (src/documents/sandbox/). */
  documentReader: DocumentReader;
  /** A claim left without a save this long returns to the queue (TASK_LEASE_MINUTES, as the workers have it). */
  taskLeaseMs: number;
  /** This service's uploads: read from the store as an order's media, ended when they expire. */
  uploads?: UploadedFiles;
}
