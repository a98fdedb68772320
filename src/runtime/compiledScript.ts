// Scripts a module starts in another thread or process are run compiled, from dist/, also when
// that module itself runs from its TypeScript source (the tests).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled script `name` beside the module at `moduleUrl` (`import.meta.url`): in dist/ when that module is a .ts under src/. */
export function compiledScript(moduleUrl: string, name: string): string {
  const here = fileURLToPath(moduleUrl);
  return join(dirname(here.endsWith('.ts') ? here.replace(/([\\/])src([\\/])/, '$1dist$2') : here), name);
}
