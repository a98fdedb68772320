// docker-compose.yml and docs/settings.md stay in step with the variables the code reads.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SEARCH_ATTRIBUTE_FLAGS } from '../../src/contracts/orders.js';

const configSource = readFileSync('src/config.ts', 'utf8');
const readVariables = new Set([...configSource.matchAll(/(?:env\.|\(env, ')([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string>; command?: string[] | string }>;
};
const settings = readFileSync('docs/settings.md', 'utf8');

describe('deployment description', () => {
  it('finds the configuration variables', () => {
    expect(readVariables).toContain('DATABASE_URL');
    expect(readVariables).toContain('CALLBACK_RETRY_MAX_MS');
    expect(readVariables.size).toBeGreaterThan(15);
  });

  it.each(['api', 'worker'])('gives the %s role only variables the code reads, and the ones it needs', (role) => {
    const env = compose.services[role]!.environment!;
    for (const name of Object.keys(env)) expect(readVariables, `${name} is not read by src/config.ts`).toContain(name);
    for (const needed of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'SECRET_KEY', 'OPS_TOKEN', 'PAYLOAD_KEYS']) expect(env).toHaveProperty(needed);
    expect(compose.services[role]!.command).toEqual(['node', 'dist/main.js', role]);
  });

  it('documents every variable in docs/settings.md', () => {
    for (const name of readVariables) expect(settings, `${name} is missing from docs/settings.md`).toContain(`\`${name}\``);
  });

  it('registers the search attributes the workflows upsert', () => {
    const command = String(compose.services['temporal-search-attributes']!.command);
    for (const flag of SEARCH_ATTRIBUTE_FLAGS) {
      const [name, type] = flag.split('=');
      expect(command).toContain(`--name ${name} --type ${type}`);
    }
  });
});
