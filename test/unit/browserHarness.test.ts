// The browser tests see what users see: no test context may switch off what a real browser enforces.
// A page that only works with its CSP bypassed, or with certificate errors ignored, is broken for users.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Built from parts, so that this file does not match itself.
const SWITCHES = [new RegExp(`${'bypass'}CSP`), new RegExp(`${'ignoreHTTPS'}Errors`)];
const THIS_FILE = relative('.', new URL(import.meta.url).pathname);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : /\.(ts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

describe('the browser harness', () => {
  it("no test or helper bypasses a page's CSP or ignores certificate errors", () => {
    const files = sources('test').filter((file) => file !== THIS_FILE);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return SWITCHES.filter((s) => s.test(text)).map((s) => `${file}: ${s.source}`);
    });
    expect(offenders).toEqual([]);
  });
});
