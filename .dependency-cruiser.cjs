// The house's layers, checked by `npm test` (test/project.test.ts runs depcruise): a room only
// imports from the rooms below it. Bottom first; `log` serves every room; `ui` and `sim` stand
// apart (the simulator speaks the protocol; the command line runs it); entry points sit in src/.
const LAYERS = [
  'protocol',
  'auth',
  'state',
  'actors',
  'requests',
  'store',
  'observe',
  'topology',
  'remember',
  'fleet',
  'http',
  'controller',
  'cli',
]
const ROOMS = [...LAYERS, 'log', 'sim', 'ui']
const room = (name) => `^src/${name}/`

/** For each layer, every room it may not import: those above it, and the ones that stand apart. */
const upward = LAYERS.map((name, i) => ({
  name: `${name}-imports-downward`,
  comment: `src/${name} imports only from the rooms below it (${LAYERS.slice(0, i).join(', ') || 'none'}) and log`,
  severity: 'error',
  from: { path: room(name) },
  to: {
    path: [...LAYERS.slice(i + 1), 'ui', ...(name === 'cli' ? [] : ['sim'])].map(room),
  },
}))

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'log-serves-everyone',
      comment: 'src/log imports no other room',
      severity: 'error',
      from: { path: room('log') },
      to: { path: ROOMS.filter((r) => r !== 'log').map(room) },
    },
    {
      name: 'sim-stands-apart',
      comment: 'the simulator speaks the protocol and nothing else of the controller',
      severity: 'error',
      from: { path: room('sim') },
      to: { path: ROOMS.filter((r) => !['sim', 'protocol', 'log'].includes(r)).map(room) },
    },
    {
      name: 'only-entry-points-at-the-root',
      comment: 'nothing imports an entry point (src/*.ts)',
      severity: 'error',
      from: {},
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle, type imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/ui/vendor' },
  },
}
