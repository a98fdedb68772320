// Bundles the pages' scripts (TypeScript under src/web/client, type-checked by tsconfig.client.json)
// into dist/web/assets, beside the styles and the icon scripts/copy-assets.mjs copies there: the
// workbench's (work.ts and its editors on CodeMirror 6) into work.js, the new-order page's
// (newOrder.ts with tus-js-client) into new-order.js, and the account area's (account.ts) into app.js.
// The pages load them from the service's own origin under their CSP.
import { build } from 'rolldown';

const PAGES = [
  ['src/web/client/work.ts', 'dist/web/assets/work.js'],
  ['src/web/client/newOrder.ts', 'dist/web/assets/new-order.js'],
  ['src/web/client/account.ts', 'dist/web/assets/app.js'],
];

for (const [input, file] of PAGES) {
  // platform browser: tus-js-client's browser build (XMLHttpRequest, localStorage), not its Node one.
  await build({ input, platform: 'browser', tsconfig: 'tsconfig.client.json', output: { file, format: 'iife', minify: true }, logLevel: 'warn' });
}
