// Bundles the workbench's script (src/web/client/work.js and the transcript editor on CodeMirror 6)
// into one static asset, src/web/assets/work.js (generated, not kept in git), before the build
// copies the assets: the pages load it from the service's own origin under their CSP.
import { build } from 'rolldown';

await build({
  input: 'src/web/client/work.js',
  output: { file: 'src/web/assets/work.js', format: 'iife', minify: true },
  logLevel: 'warn',
});
