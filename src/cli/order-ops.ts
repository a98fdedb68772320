#!/usr/bin/env node
// order-ops: worker tooling. Talks to the service's /ops endpoints (ORDER_SERVICE_URL, OPS_TOKEN
// or the token file in DATA_DIR). Prints one JSON object, or JSON lines for lists.
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = `usage:
  order-ops account create --name NAME [--balance USD] [--created-at ISO] [--callback-url URL]   (prints the API token and webhook secret)
  order-ops account topup ACCOUNT_ID USD
  order-ops account grant-minutes ACCOUNT_ID MINUTES                 (AI transcription subscription minutes)
  order-ops account webhook-secret ACCOUNT_ID                        (the secret that signs its callbacks)
  order-ops account rotate-webhook-secret ACCOUNT_ID [--window-hours H]   (new secret; the old one also signs for H hours, default 24)
  order-ops pending [--product PRODUCT]                              (orders waiting for a person, late ones first)
  order-ops show ORDER_ID                                            (state, result kinds, who works on it, files, callbacks)
  order-ops complete ORDER_ID --file KIND=PATH [--file KIND=PATH ...]
  order-ops refund ORDER_ID [--reason TEXT]
  order-ops cancel ORDER_ID
  order-ops reject-transcript ORDER_ID                               (proofreading: the supplied transcript is too poor)
  order-ops qc ORDER_ID (--pass | --fix KIND=PATH ...)
  order-ops delete ORDER_ID                                          (deletes a settled order's data, as its customer's DELETE does;
                                                                      the record stays for the bill with deleted_at)
  order-ops callbacks ORDER_ID                                   (JSON lines of delivery attempts)
  order-ops worker create --name NAME --skills SKILLS                (prints worker_id and sign_in_token; SKILLS e.g.
                                                                      transcription:english,review:english,translation:english>french,ocr:english)
  order-ops worker list                                              (JSON lines)
  order-ops worker skills WORKER_ID SKILLS                           (replaces the worker's skills)
  order-ops worker disable WORKER_ID                                 (no more sign-in or claims; held tasks go back to the queue)
  order-ops tasks [--status waiting|claimed] [--late]                (open tasks of the workbench, JSON lines, soonest deadline first)
  order-ops release TASK_ID [--reason TEXT]                          (a claimed task back to the queue; its draft is kept)
  order-ops reassign TASK_ID WORKER_ID                               (the task to another worker with the skill)
  order-ops earnings [--since ISO_DATE]                              (workers' approved earnings as CSV)
  order-ops patches                                                  (JSON lines: the release and the open workflows started before it
                                                                      (an older major version's: none, and it has none left running);
                                                                      then each workflow patch since, the open workflows started before
                                                                      it (none: may_deprecate) and those with its marker (none of
                                                                      either: may_remove))
environment: ORDER_SERVICE_URL (default http://localhost:$PORT or :3000), OPS_TOKEN (default: DATA_DIR/ops-token)`;

class UsageError extends Error {}

/**
 * `value` as JSON whose every control, format or invisible character is written as its JSON escape
 * (`\u202e`): what the service stored before such characters were refused (an order's terms, say)
 * can neither reorder nor drive the terminal, and the line is still the same JSON.
 */
function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu, (c) =>
    c
      .split('')
      .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}

async function opsToken(): Promise<string> {
  if (process.env.OPS_TOKEN) return process.env.OPS_TOKEN;
  const path = join(resolve(process.env.DATA_DIR ?? 'data'), 'ops-token');
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    throw new Error(`no operator token: set OPS_TOKEN or run from the directory whose ${path} npm start created`);
  }
}

async function call(method: string, path: string, body?: unknown, raw?: Buffer): Promise<unknown> {
  const base = (process.env.ORDER_SERVICE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${await opsToken()}`,
        ...(raw ? { 'content-type': 'application/octet-stream' } : body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: raw ? new Uint8Array(raw) : body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw new Error(`cannot reach the order service at ${base}: ${String((err as Error).cause ?? err)}`);
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`unexpected answer from ${path} (HTTP ${response.status}): ${text.slice(0, 200)}`);
  }
  if (!response.ok) throw new Error((data as { error?: string }).error ?? `HTTP ${response.status}`);
  return data;
}

/** A text answer (CSV) of a GET. */
async function callText(path: string): Promise<string> {
  const base = (process.env.ORDER_SERVICE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
  const response = await fetch(base + path, { headers: { authorization: `Bearer ${await opsToken()}` } }).catch((err: Error) => {
    throw new Error(`cannot reach the order service at ${base}: ${String(err.cause ?? err)}`);
  });
  const text = await response.text();
  if (!response.ok) throw new Error(text.slice(0, 300));
  return text;
}

/** Uploads KIND=PATH files into the file store and returns their claim checks. */
async function uploadFiles(specs: string[]): Promise<Array<{ kind: string; key: string; file_name: string }>> {
  if (specs.length === 0) throw new UsageError('at least one --file KIND=PATH is needed');
  const out = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new UsageError(`--file takes KIND=PATH, got ${spec}`);
    const [kind, path] = [spec.slice(0, eq), spec.slice(eq + 1)];
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (err) {
      throw new Error(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
    const { key } = (await call('PUT', '/ops/files', undefined, bytes)) as { key: string };
    out.push({ kind, key, file_name: basename(path) });
  }
  return out;
}

function orderId(value: string | undefined): string {
  if (!value || !/^\d+$/.test(value)) throw new UsageError(`ORDER_ID must be a number, got ${value ?? 'nothing'}`);
  return value;
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      balance: { type: 'string' },
      'created-at': { type: 'string' },
      'callback-url': { type: 'string' },
      product: { type: 'string' },
      file: { type: 'string', multiple: true },
      fix: { type: 'string', multiple: true },
      pass: { type: 'boolean' },
      reason: { type: 'string' },
      skills: { type: 'string' },
      status: { type: 'string' },
      late: { type: 'boolean' },
      since: { type: 'string' },
      'window-hours': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  const print = (value: unknown) => console.log(terminalSafeJson(value));
  if (values.help || !command) return void console.log(USAGE);

  switch (command) {
    case 'account': {
      const [sub, ...args] = rest;
      if (sub === 'create') {
        if (!values.name) throw new UsageError('account create needs --name');
        return print(
          await call('POST', '/ops/accounts', {
            name: values.name,
            balance: values.balance,
            created_at: values['created-at'],
            callback_url: values['callback-url'],
          }),
        );
      }
      if (sub === 'topup') {
        const [account, amount] = args;
        if (!account || !amount) throw new UsageError('account topup needs ACCOUNT_ID and USD');
        return print(await call('POST', `/ops/accounts/${encodeURIComponent(account)}/topup`, { amount }));
      }
      if (sub === 'grant-minutes') {
        const [account, minutes] = args;
        if (!account || !minutes) throw new UsageError('account grant-minutes needs ACCOUNT_ID and MINUTES');
        return print(await call('POST', `/ops/accounts/${encodeURIComponent(account)}/ai-minutes`, { minutes }));
      }
      if (sub === 'webhook-secret') {
        if (!args[0]) throw new UsageError('account webhook-secret needs ACCOUNT_ID');
        return print(await call('GET', `/ops/accounts/${encodeURIComponent(args[0])}/webhook-secret`));
      }
      if (sub === 'rotate-webhook-secret') {
        if (!args[0]) throw new UsageError('account rotate-webhook-secret needs ACCOUNT_ID');
        const body = values['window-hours'] !== undefined ? { window_hours: values['window-hours'] } : {};
        return print(await call('POST', `/ops/accounts/${encodeURIComponent(args[0])}/webhook-secret/rotate`, body));
      }
      throw new UsageError(`unknown account command: ${sub ?? '(none)'}`);
    }
    case 'pending': {
      const query = values.product ? `?product=${encodeURIComponent(values.product)}` : '';
      const { orders } = (await call('GET', `/ops/orders/pending${query}`)) as { orders: unknown[] };
      for (const order of orders) print(order);
      return;
    }
    case 'complete':
      return print(await call('POST', `/ops/orders/${orderId(rest[0])}/complete`, { files: await uploadFiles(values.file ?? []) }));
    case 'refund':
      return print(await call('POST', `/ops/orders/${orderId(rest[0])}/refund`, values.reason ? { reason: values.reason } : {}));
    case 'cancel':
      return print(await call('POST', `/ops/orders/${orderId(rest[0])}/cancel`, {}));
    case 'reject-transcript':
      return print(await call('POST', `/ops/orders/${orderId(rest[0])}/reject-transcript`, {}));
    case 'show':
      return print(await call('GET', `/ops/orders/${orderId(rest[0])}`));
    case 'delete':
      return print(await call('DELETE', `/ops/orders/${orderId(rest[0])}`));
    case 'qc': {
      const id = orderId(rest[0]);
      if (values.pass === (values.fix !== undefined)) throw new UsageError('qc needs exactly one of --pass or --fix KIND=PATH');
      const body = values.pass ? { pass: true } : { fix: await uploadFiles(values.fix ?? []) };
      return print(await call('POST', `/ops/orders/${id}/qc`, body));
    }
    case 'patches': {
      const { release, patches } = (await call('GET', '/ops/patches')) as { release: unknown; patches: unknown[] };
      print({ release });
      for (const patch of patches) print(patch);
      return;
    }
    case 'callbacks': {
      const { attempts } = (await call('GET', `/ops/orders/${orderId(rest[0])}/callbacks`)) as { attempts: unknown[] };
      for (const attempt of attempts) print(attempt);
      return;
    }
    case 'worker': {
      const [sub, id, skills] = rest;
      if (sub === 'create') {
        if (!values.name || !values.skills) throw new UsageError('worker create needs --name and --skills');
        return print(await call('POST', '/ops/workers', { name: values.name, skills: values.skills }));
      }
      if (sub === 'list') {
        const { workers } = (await call('GET', '/ops/workers')) as { workers: unknown[] };
        for (const worker of workers) print(worker);
        return;
      }
      if (sub === 'skills') {
        if (!id || !skills) throw new UsageError('worker skills needs WORKER_ID and SKILLS');
        return print(await call('POST', `/ops/workers/${encodeURIComponent(id)}/skills`, { skills }));
      }
      if (sub === 'disable') {
        if (!id) throw new UsageError('worker disable needs WORKER_ID');
        return print(await call('POST', `/ops/workers/${encodeURIComponent(id)}/disable`, {}));
      }
      throw new UsageError(`unknown worker command: ${sub ?? '(none)'}`);
    }
    case 'tasks': {
      const query = new URLSearchParams({ ...(values.status ? { status: values.status } : {}), ...(values.late ? { late: '1' } : {}) }).toString();
      const { tasks } = (await call('GET', `/ops/tasks${query ? `?${query}` : ''}`)) as { tasks: unknown[] };
      for (const task of tasks) print(task);
      return;
    }
    case 'release':
      if (!rest[0]) throw new UsageError('release needs TASK_ID');
      return print(await call('POST', `/ops/tasks/${encodeURIComponent(rest[0])}/release`, values.reason ? { reason: values.reason } : {}));
    case 'reassign':
      if (!rest[0] || !rest[1]) throw new UsageError('reassign needs TASK_ID and WORKER_ID');
      return print(await call('POST', `/ops/tasks/${encodeURIComponent(rest[0])}/reassign`, { worker_id: rest[1] }));
    case 'earnings':
      return void process.stdout.write(await callText(`/ops/earnings.csv${values.since ? `?since=${encodeURIComponent(values.since)}` : ''}`));
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

run(process.argv.slice(2)).catch((err: Error) => {
  console.error(`order-ops: ${err.message}`);
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(USAGE);
  process.exit(1);
});
