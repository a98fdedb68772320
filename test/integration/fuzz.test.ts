// schemathesis (PyPI, installed into .tools/ by npm install), a third-party fuzzer, against the
// running service from its own OpenAPI document: no server error, no status the document does not
// list, no response off its schema. Bounded: a fixed number of examples per operation and a seed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';

const SCHEMATHESIS = '.tools/test-tools/bin/schemathesis';
const EXAMPLES_PER_OPERATION = Number(process.env.FUZZ_EXAMPLES ?? 8);

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('schemathesis against the OpenAPI document', () => {
  let service: TestService;
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(SCHEMATHESIS)) throw new Error(`${SCHEMATHESIS} is missing: npm install puts it there (scripts/install-test-tools.mjs)`);
    service = await startService();
    dir = await mkdtemp(join(tmpdir(), 'fuzz-'));
  });
  afterAll(async () => {
    await service?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds no server error, no undocumented status and no response off its schema', async () => {
    // A real token, so that operations get past authentication and reach their validation.
    const { token } = await service.createAccount(1000);
    const config = join(dir, 'schemathesis.toml');
    await writeFile(config, 'request-timeout = 30.0\n\n[parameters]\napi_token = "${ORDER_API_TOKEN}"\n');
    // tus's PATCH body is raw bytes under its own media type; schemathesis sends it as it sends
    // application/octet-stream once told so.
    const hooks = join(dir, 'hooks.py');
    await writeFile(hooks, 'import schemathesis\nschemathesis.serializer.alias("application/offset+octet-stream", "application/octet-stream")\n');
    const { code, output } = await run(
      SCHEMATHESIS,
      [
        '--config-file',
        config,
        '--no-color',
        'run',
        `${service.baseUrl}/api/v4/openapi.json`,
        '--url',
        service.baseUrl,
        '--checks',
        'not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance',
        '--phases',
        'examples,fuzzing',
        '--max-examples',
        String(EXAMPLES_PER_OPERATION),
        '--seed',
        '20261122',
        '--workers',
        '1',
      ],
      { ORDER_API_TOKEN: token, SCHEMATHESIS_HOOKS: hooks },
    );
    const summary = output
      .split('\n')
      .filter((line) => /passed|failed|errored|Test cases|operations/i.test(line))
      .slice(-6)
      .join('\n');
    console.log(`schemathesis (${EXAMPLES_PER_OPERATION} examples per operation):\n${summary}`);
    expect(code, output.slice(-6000)).toBe(0);
    expect(output).toMatch(/passed/i);
  }, 900_000);
});
