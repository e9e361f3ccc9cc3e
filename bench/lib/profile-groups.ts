// The candidates of issue 21's "How", as parts of a profile to compare before and after: each
// the time of some modules, counted as self time, as time charged to the nearest caller of ours or
// of a package (a syscall to who made it), or with callees (a module anywhere on the stack).
import type { Group } from './profile.ts'

const among =
  (...modules: string[]) =>
  (module: string) =>
    modules.includes(module)

/** What each case's profile is cut into for the before/after comparison. */
export const GROUPS: Group[] = [
  { name: 'state machine: xstate, its own code', how: 'self', is: among('xstate') },
  {
    name: 'actor code: src/actors (the command write charged here)',
    how: 'caller',
    is: (m) => m.startsWith('src/actors/'),
  },
  {
    name: 'command write: socket.write by socket-link',
    how: 'caller',
    is: among('src/actors/socket-link.ts'),
  },
  {
    name: 'timers: node:timers (timeouts set and cleared)',
    how: 'self',
    is: among('node:timers', 'node:internal/timers'),
  },
  {
    name: 'log lines: pino, sonic-boom, src/logger.ts',
    how: 'total',
    is: among('pino', 'sonic-boom', 'src/logger.ts'),
  },
  {
    name: 'metrics: prom-client, src/observe/metrics.ts',
    how: 'total',
    is: among('prom-client', 'src/observe/metrics.ts'),
  },
  {
    name: 'events: src/observe (event hub, command events)',
    how: 'total',
    is: among(
      'src/observe/event-hub.ts',
      'src/observe/events.ts',
      'src/observe/observe-processes.ts',
    ),
  },
  {
    name: 'framing: src/protocol/frames.ts, padded-frames.ts',
    how: 'total',
    is: among('src/protocol/frames.ts', 'src/protocol/padded-frames.ts'),
  },
  {
    name: 'reply decoding and views: the rest of src/protocol, src/state',
    how: 'total',
    is: (m) =>
      (m.startsWith('src/protocol/') && !m.includes('frames.ts')) || m.startsWith('src/state/'),
  },
  { name: 'response JSON: src/http/json.ts', how: 'total', is: among('src/http/json.ts') },
  {
    name: 'schemas: valibot (bodies and replies), src/http/validate.ts',
    how: 'total',
    is: among('valibot', 'src/http/validate.ts'),
  },
  {
    name: 'HTTP stack: hono, @hono/node-server (the response write charged here)',
    how: 'caller',
    is: among('hono', '@hono/node-server'),
  },
  {
    name: 'garbage collection (main thread)',
    how: 'self',
    is: among('(native) (garbage collector)'),
  },
]
