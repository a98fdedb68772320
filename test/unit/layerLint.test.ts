// The layer table's check (npm run lint:layers, part of npm test) fails when a lower layer imports
// a higher one, or modules import each other in a circle: dependency-cruiser with the project's own configuration, run on a small tree that
// mirrors src/ (a domain module, a use case, a workflow, an API module), once as the table allows and once not.
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const DEPCRUISE = resolve('node_modules/.bin/depcruise');
const CONFIG = resolve('.dependency-cruiser.cjs');
let dir: string | undefined;

async function cruise(files: Record<string, string>): Promise<{ code: number; output: string }> {
  dir = await mkdtemp(join(tmpdir(), 'layers-'));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowJs: true } }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return promisify(execFile)(DEPCRUISE, ['src', '--config', CONFIG, '--output-type', 'err'], { cwd: dir }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, output: err.stdout + err.stderr }),
  );
}

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the layer check', () => {
  it('passes imports that go downward the table (api → workflows → orders → domain)', async () => {
    const result = await cruise({
      'src/domain/rule.ts': 'export const rule = 1;\n',
      'src/orders/place.ts': "import { rule } from '../domain/rule.js';\nexport const place = rule;\n",
      'src/workflows/order.ts': "import { place } from '../orders/place.js';\nexport const order = place;\n",
      'src/api/routes/create.ts': "import { order } from '../../workflows/order.js';\nexport const create = order;\n",
    });
    expect(result.output).toContain('no dependency violations');
    expect(result.code).toBe(0);
  });

  it('fails when a lower layer imports a higher one, naming the rule and the import', async () => {
    const result = await cruise({
      'src/api/routes/create.ts': 'export const create = 1;\n',
      'src/domain/rule.ts': "import { create } from '../api/routes/create.js';\nexport const rule = create;\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('layer: domain');
    expect(result.output).toContain('src/domain/rule.ts → src/api/routes/create.ts');
  });

  it('keeps api and web siblings: neither imports the other; both import the use cases; the app mounts both', async () => {
    const shared = {
      'src/orders/place.ts': 'export const place = 1;\n',
      'src/api/routes/create.ts': "import { place } from '../../orders/place.js';\nexport const create = place;\n",
      'src/web/pages/orders.ts': "import { place } from '../../orders/place.js';\nexport const page = place;\n",
      'src/app.ts': "import { create } from './api/routes/create.js';\nimport { page } from './web/pages/orders.js';\nexport const app = [create, page];\n",
    };
    const fine = await cruise(shared);
    expect(fine.output).toContain('no dependency violations');
    const webOnApi = await cruise({
      ...shared,
      'src/web/pages/orders.ts': "import { create } from '../../api/routes/create.js';\nexport const page = create;\n",
    });
    expect(webOnApi.code).not.toBe(0);
    expect(webOnApi.output).toContain('layer: web');
    const apiOnWeb = await cruise({
      ...shared,
      'src/api/routes/create.ts': "import { page } from '../../web/pages/orders.js';\nexport const create = page;\n",
    });
    expect(apiOnWeb.code).not.toBe(0);
    expect(apiOnWeb.output).toContain('layer: api');
  });

  it('fails on a circle inside one layer, also when one of its imports is only a type', async () => {
    const result = await cruise({
      'src/products/registry.ts': "import { one } from './one/index.js';\nexport const LIST = [one];\nexport type Key = 'one';\n",
      'src/products/one/index.ts': "import type { Key } from '../registry.js';\nexport const one = { key: 'one' as Key };\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no circle');
  });
});
