// The layer table of docs/architecture.md, checked (npm run lint:layers, part of npm test): each
// layer imports only the layers above it, siblings (api, web) never each other, and no module
// reaches itself again through its imports (types included).
const LAYERS = [
  ['contracts and shared utilities', '^src/(contracts/|runtime/|log\\.ts$|metrics\\.ts$)'],
  ['domain', '^src/domain/'],
  ['documents', '^src/documents/'],
  ['products', '^src/products/'],
  ['storage, db', '^src/(storage|db)/'],
  ['net', '^src/net/'],
  ['engines', '^src/engines/'],
  // The use cases (place, deliver, hand off, the workbench): below them only the adapters.
  ['orders', '^src/orders/'],
  ['activities', '^src/activities/'],
  ['workflow', '^src/workflows/'],
  ['temporal', '^src/temporal/'],
  // What the API and the pages share over HTTP (result files, token buckets, zod messages).
  ['http', '^src/http/'],
  // Siblings over the use cases: the API and the pages for people never import each other.
  [
    ['api', '^src/api/'],
    ['web', '^src/web/'],
  ],
  // The composition roots: the process roles, the CLI, and the HTTP app that mounts api and web.
  ['roles', '^src/(main\\.ts|config\\.ts|cli/|app\\.ts)'],
];

/** Each level: one layer, or siblings (a list of layers). */
const levels = LAYERS.map((level) => (Array.isArray(level[0]) ? level : [level]));
const below = (i) =>
  levels
    .slice(i + 1)
    .flat()
    .map(([, path]) => `(${path})`);

module.exports = {
  forbidden: [
    ...levels.flatMap((level, i) =>
      level.map(([name, path]) => ({
        name: `layer: ${name}`,
        comment: `${name} imports only the layers above it, not its siblings (docs/architecture.md)`,
        severity: 'error',
        from: { path },
        to: {
          path: [...below(i), ...level.filter(([other]) => other !== name).map(([, sibling]) => `(${sibling})`)].join('|') || '^$',
        },
      })),
    ),
    {
      name: 'no circle',
      comment: 'no module imports, through others, a module that imports it (a type import included)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'browser code',
      comment:
        "the pages' scripts (src/web/client, bundled for the browser) import only each other, the pure domain and packages: no other layer, no Node built-in",
      severity: 'error',
      from: { path: '^src/web/client/' },
      to: { pathNot: '^(src/web/client/|src/domain/|node_modules/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
