// Every product of the service. Adding a product: one folder (its definition, with its OpenAPI
// example and its sample orders), one line here (and its import), one section in
// config/prices.json. ProductKey, the API's routes and OpenAPI document, the price table, the
// languages listing, records, callbacks and the sample orders all read this.
import { z } from 'zod';
import { LANGUAGE_SETS, languageName } from '../domain/languages.js';
import { isResultKind, RESULT_KIND_DEFINITIONS, type ResultKind } from '../domain/resultKinds.js';
import { transcription } from './transcription/index.js';
import { aiTranscription } from './ai-transcription/index.js';
import { proofreading } from './proofreading/index.js';
import { forcedAlignment } from './forced-alignment/index.js';
import { translation } from './translation/index.js';
import { captions } from './captions/index.js';
import { subtitles } from './subtitles/index.js';
import { humanOcr } from './human-ocr/index.js';
import type { LearntParams, ProductDefinition as DefinitionOfAnyKey, ResultField } from './types.js';
import { parameterNames } from './requestFields.js';
import { productResults, workPlanOf } from './shared.js';
import { isResultFormat } from '../domain/formats.js';
import type { OrderPlan, WorkPlan } from '../contracts/orders.js';

/** The products, in the order the API lists them; each definition names its own key. */
const DEFINITIONS = [transcription, aiTranscription, proofreading, forcedAlignment, translation, captions, subtitles, humanOcr] as const;

/** A product's key: 'transcription', 'ai_transcription', … (each definition's `key`). */
export type ProductKey = (typeof DEFINITIONS)[number]['key'];

/** A product of the registry: its key and its hand-off's product are keys of the registry. */
export type ProductDefinition = DefinitionOfAnyKey<Record<string, unknown>, unknown, ProductKey, ProductKey>;

type Requests = z.output<(typeof DEFINITIONS)[number]['request']>;
type KeyOfAny<T> = T extends unknown ? keyof T & string : never;
type ValueOfAny<T, K extends string> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/**
 * An order's parameters as placement kept them: its product's parsed request (each name typed as
 * the products declare it) and what was learnt since. Read past placement as this, never re-parsed.
 */
export type OrderParams = { readonly [K in KeyOfAny<Requests>]?: ValueOfAny<Requests, K> } & Readonly<LearntParams>;

// Typed as a product with any key a hand-off may name: a hand-off to no product here fails tsc.
export const PRODUCT_LIST: readonly ProductDefinition[] = DEFINITIONS;

export const PRODUCTS = Object.fromEntries(PRODUCT_LIST.map((p) => [p.key, p])) as Readonly<Record<ProductKey, ProductDefinition>>;

/** Every parameter of a v4 creation operation, whichever product declares it (requestFields.ts). */
export const V4_PARAMETERS: ReadonlySet<string> = new Set(PRODUCT_LIST.flatMap(parameterNames));

export function isProductKey(value: string): value is ProductKey {
  return Object.hasOwn(PRODUCTS, value);
}

export function productOf(key: string): ProductDefinition {
  if (!isProductKey(key)) throw new Error(`unknown product ${key}`);
  return PRODUCTS[key];
}

/** An order as the plan's readers need it: a row of `orders`, or what is being placed. */
type PlannedOrder = { product: string; params: OrderParams; plan: OrderPlan };

/**
 * An order's workbench plan: the one fixed at placement (or at an engine's hand-off to a
 * translator), kept on the order. Undefined when no person does the order.
 */
export const workPlanOfOrder = (order: PlannedOrder): WorkPlan | undefined => order.plan.work;

/** The order's kept input file its plan names as the source (a document, a page image, a supplied transcript). */
export function keptSourceOf<F>(order: PlannedOrder & { inputFiles: Record<string, F> }): F | undefined {
  const name = workPlanOfOrder(order)?.sourceFile;
  return name ? order.inputFiles[name] : undefined;
}

/** The URL of the media an order's engines and workers hear: its engine job's audio, or its work plan's media. */
export function mediaUrlOf(order: PlannedOrder): string | undefined {
  const param = productOf(order.product).engineJob?.audioParam ?? workPlanOfOrder(order)?.mediaParam;
  return param ? order.params[param] : undefined;
}

/** The order's results, each with the formats it is served in (the first by default): the ones its plan fixed at placement. */
export function orderResults(order: Pick<PlannedOrder, 'plan'>): Required<ResultField>[] {
  return order.plan.results.filter((r): r is Required<ResultField> => isResultKind(r.kind) && r.formats.every(isResultFormat));
}

/** The order's result of `kind`; undefined when the order has none of that kind. */
export const orderResult = (order: PlannedOrder, kind: ResultKind) => orderResults(order).find((r) => r.kind === kind);

/** The kinds of the order's results. */
export const orderResultKinds = (order: PlannedOrder): ResultKind[] => orderResults(order).map((r) => r.kind);

/** Whether the order's results include cues (captions, subtitles), which need times to render. */
export const resultsNeedCues = (order: PlannedOrder): boolean => orderResultKinds(order).some((kind) => RESULT_KIND_DEFINITIONS[kind].needs === 'cues');

/** The price table: a section per product, each validated by its product's own schema. */
export const priceTableSchema = z.strictObject(Object.fromEntries(PRODUCT_LIST.map((p) => [p.key, p.prices])) as Record<ProductKey, z.ZodType>);
export type PriceTable = Record<ProductKey, unknown>;

export interface LanguageEntry {
  slug: string;
  name: string;
}

/** Products GET /api/v4/languages accepts in `product`. */
export const LANGUAGE_LISTED_PRODUCTS = PRODUCT_LIST.filter((p) => p.languageSet).map((p) => p.key);

/** The body of GET /api/v4/languages: products with a language list, keyed by product. */
export function languagesByProduct(only?: ProductKey): Record<string, LanguageEntry[]> {
  const out: Record<string, LanguageEntry[]> = {};
  for (const product of PRODUCT_LIST) {
    if (!product.languageSet || (only && product.key !== only)) continue;
    out[product.key] = LANGUAGE_SETS[product.languageSet].map((slug) => ({ slug, name: languageName(slug) }));
  }
  return out;
}
