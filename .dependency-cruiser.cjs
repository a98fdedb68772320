// The layer table of docs/architecture.md, checked (npm run lint:layers, part of npm test): each
// layer imports only the layers above it.
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
  ['api', '^src/api/(?!app\\.ts$)'],
  ['web', '^src/web/'],
  // The composition roots: the process roles, the CLI, and the HTTP app that mounts api and web.
  ['roles', '^src/(main\\.ts|config\\.ts|cli/|api/app\\.ts)'],
];

module.exports = {
  forbidden: LAYERS.slice(0, -1).map(([name, path], i) => ({
    name: `layer: ${name}`,
    comment: `${name} imports only the layers above it (docs/architecture.md)`,
    severity: 'error',
    from: { path },
    to: {
      path: LAYERS.slice(i + 1)
        .map(([, below]) => `(${below})`)
        .join('|'),
    },
  })),
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/web/assets/' },
  },
};
