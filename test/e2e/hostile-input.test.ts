import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness, type Harness } from '../helpers/harness.ts'

// The strict grammar of what may reach each kind of process (spec and protocol document).
const NUM = '(?:0|[1-9][0-9]*)'
const NAME = '[A-Za-z0-9_][A-Za-z0-9_.-]{0,30}'
const CORE = '(?:[0-9]|[1-9][0-9]|1[01][0-9]|12[0-7])'
const VID = '(?:[0-9]|[1-9][0-9]{1,2}|[1-3][0-9]{3}|40[0-8][0-9]|409[0-5])'
const MAC = '(?:(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}|default)'
const VF_PORT = '(?:phy|vhost|ring):(?:[0-9]|[12][0-9]|3[01])'
const NFV_PORT = `(?:ring|vhost|pcap|nullpmd):${NUM}`
const PATCH_PORT = `(?:phy|ring|vhost|pcap|nullpmd):${NUM}`
const GRAMMAR = {
  nfv: new RegExp(
    `^(?:status|forward|stop|exit|patch reset|(?:add|del) ${NFV_PORT}|patch ${PATCH_PORT} ${PATCH_PORT})$`,
  ),
  vf: new RegExp(
    `^(?:status|component start ${NAME} ${CORE} (?:forward|merge|classifier_mac)|component stop ${NAME}|port add ${VF_PORT} (?:rx|tx) ${NAME}(?: add_vlantag ${VID} [0-7]| del_vlantag)?|port del ${VF_PORT} (?:rx|tx) ${NAME}|classifier_table (?:add|del) (?:mac|vlan ${VID}) ${MAC} ${VF_PORT})$`,
  ),
  mirror: new RegExp(
    `^(?:status|component start ${NAME} ${CORE} mirror|component stop ${NAME}|port (?:add|del) ${VF_PORT} (?:rx|tx) ${NAME})$`,
  ),
}

// Hostile values: separators, quotes, control characters, encodings, numbers of every shape, and
// valid values with something appended; mixed with valid ones so that many requests do get through.
const nasty = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\r',
  '\0',
  '"',
  "'",
  ';',
  '%20',
  '%00',
  '/',
  '\\',
  ':',
  '{',
  '\u00a0',
  '\u2028',
  'é',
  '\ud800',
)
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc
    .tuple(fc.string({ maxLength: 8 }), nasty, fc.string({ maxLength: 8 }))
    .map((parts) => parts.join('')),
  fc.constantFrom(
    '',
    ' ',
    'x'.repeat(32),
    'ring:01',
    'ring:-1',
    'ring: 1',
    'ring:1 ',
    'phy:0 rx',
    '1e3',
    '0x10',
    '-0',
    'default ',
  ),
)
const hostile = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e300, -1, 4096, 128, 2 ** 53, 0.5, true, false, null),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue(), { maxKeys: 3 }),
)
/** A field that is usually one of the valid values, sometimes hostile, sometimes absent. */
const field = <T>(...valid: T[]) =>
  fc.option(
    fc.oneof(
      { arbitrary: fc.constantFrom(...valid), weight: 3 },
      { arbitrary: hostile, weight: 2 },
    ),
    { nil: undefined, freq: 8 },
  )
const body = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
  fc.oneof(
    { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 6 },
    { arbitrary: fc.jsonValue(), weight: 1 },
    { arbitrary: hostileString, weight: 1 }, // raw text, usually not JSON at all
  )
/** Percent-encodes a segment; a lone surrogate (not encodable as UTF-8) becomes a question mark. */
const encodeSegment = (name: string) => {
  try {
    return encodeURIComponent(name)
  } catch {
    return encodeURIComponent(name.replace(/[\ud800-\udfff]/g, '?'))
  }
}
const segment = fc.oneof(
  fc.oneof(fc.constantFrom('fw1', 'mr1', 'c.1', 'a_b-c'), hostileString).map(encodeSegment),
  fc.constantFrom('%zz', '%', '%C0%AF', '%E2%80', '%ED%A0%80', 'a%2Fb', '..', '.', '%2e%2e'), // malformed or tricky encodings, sent raw
)

const vlanObject = fc.oneof(
  fc.record(
    { operation: field('add', 'del', 'none'), id: field(0, 100, 4095), pcp: field(0, 7) },
    { requiredKeys: [] },
  ),
  hostile,
)
const ENDPOINTS: {
  kind: keyof typeof GRAMMAR
  method: string
  path: fc.Arbitrary<string>
  body?: fc.Arbitrary<unknown>
}[] = [
  {
    kind: 'nfv',
    method: 'PUT',
    path: fc.constant('/v1/nfvs/1/forward'),
    body: body({ action: field('start', 'stop') }),
  },
  {
    kind: 'nfv',
    method: 'PUT',
    path: fc.constant('/v1/nfvs/1/ports'),
    body: body({
      action: field('add', 'del'),
      port: field('ring:0', 'vhost:1', 'pcap:2', 'nullpmd:3', 'phy:0'),
    }),
  },
  {
    kind: 'nfv',
    method: 'PUT',
    path: fc.constant('/v1/nfvs/1/patches'),
    // Mostly ports it has: a patch naming one it lacks is refused before it is sent.
    body: body({
      src: field('phy:0', 'phy:1', 'ring:0'),
      dst: field('phy:1', 'ring:0', 'vhost:1'),
    }),
  },
  {
    kind: 'vf',
    method: 'POST',
    path: fc.constant('/v1/vfs/2/components'),
    body: body({
      // Several names: a second component of a name is refused before it is sent.
      name: field('fw1', 'c.1', 'fw2', 'x_3', 'm-4', 'n5'),
      core: field(2, 3, 4, 127),
      type: field('forward', 'merge', 'classifier_mac'),
    }),
  },
  { kind: 'vf', method: 'DELETE', path: segment.map((name) => `/v1/vfs/2/components/${name}`) },
  {
    kind: 'vf',
    method: 'PUT',
    path: segment.map((name) => `/v1/vfs/2/components/${name}/ports`),
    body: body({
      action: field('attach', 'detach'),
      port: field('ring:0', 'phy:1', 'vhost:31'),
      dir: field('rx', 'tx'),
      vlan: fc.option(vlanObject, { nil: undefined }),
    }),
  },
  {
    kind: 'vf',
    method: 'PUT',
    path: fc.constant('/v1/vfs/2/classifier_table'),
    body: body({
      action: field('add', 'del'),
      type: field('mac', 'vlan'),
      vlan: field<number | string>(0, 100, '101', 4095),
      mac_address: field('FA:16:3E:7D:CC:35', 'default', 'fa:16:3e:7d:cc:35'),
      port: field('ring:0', 'phy:0'),
    }),
  },
  {
    kind: 'mirror',
    method: 'POST',
    path: fc.constant('/v1/mirrors/3/components'),
    body: body({
      name: field('mr1', 'mr2', 'mr3', 'mr4'),
      core: field(2, 3),
      type: field('mirror', 'forward'),
    }),
  },
  {
    kind: 'mirror',
    method: 'DELETE',
    path: segment.map((name) => `/v1/mirrors/3/components/${name}`),
  },
  {
    kind: 'mirror',
    method: 'PUT',
    path: segment.map((name) => `/v1/mirrors/3/components/${name}/ports`),
    body: body({
      action: field('attach', 'detach'),
      port: field('ring:0', 'phy:1'),
      dir: field('rx', 'tx'),
      vlan: fc.option(vlanObject, { nil: undefined }),
    }),
  },
]

/**
 * One request through the API's real socket, as production takes it: node's request stream is
 * what the body is read from. The commands it causes travel over loopback TCP.
 */
async function send(h: Harness, method: string, path: string, payload: unknown) {
  const init: RequestInit = { method }
  if (payload !== undefined)
    init.body = typeof payload === 'string' ? payload : JSON.stringify(payload)
  const response = await fetch(`http://127.0.0.1:${h.controller.apiPort}${path}`, init)
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  }
}

const OUTCOME = /^(?:key\(|invalid key\(|request body |command error: )/

test('hostile bodies and URL segments for every endpoint: only strict commands reach a process, every rejection is a text/plain 400', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2 },
      { kind: 'mirror', clientId: 3 },
    ],
    async (h) => {
      const statuses = new Map<number, number>()
      for (const endpoint of ENDPOINTS) {
        await fc.assert(
          fc.asyncProperty(
            endpoint.path,
            endpoint.body ?? fc.constant(undefined),
            async (path, payload) => {
              const r = await send(h, endpoint.method, path, payload)
              statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
              if (r.status === 204) return
              // An empty name segment routes nowhere, and a dot segment is resolved away by URL parsing
              // (`x/%2e%2e` is the parent path): another route, or none. Nothing is sent either way.
              if (r.status === 404 || r.status === 405)
                return assert.match(
                  path,
                  /components\/(?:(?:\.|%2e){1,2})?(?:\/|$)/i,
                  `${path}: ${r.status} ${r.text}`,
                )
              assert.is(
                r.status,
                400,
                `${endpoint.method} ${path} ${JSON.stringify(payload)}: ${r.status} ${r.text}`,
              )
              assert.match(r.type, /^text\/plain/)
              assert.match(r.text, OUTCOME)
            },
          ),
          { numRuns: 450, seed: 20261122 },
        )
      }
      for (const sim of h.sims) {
        const grammar = GRAMMAR[sim.options.kind as keyof typeof GRAMMAR]
        for (const line of commandsOf(sim))
          assert.match(line, grammar, `${sim.label} received ${JSON.stringify(line)}`)
      }
      assert.ok((statuses.get(204) ?? 0) > 250, 'many requests get through')
      const sent = h.sims.reduce((n, sim) => n + commandsOf(sim).length, 0)
      assert.ok(
        sent > 500,
        `only ${sent} commands got through: the generators are too hostile to test the grammar`,
      )
      assert.ok((statuses.get(400) ?? 0) > 1000, 'most requests are rejected')
    },
  ))

test.run()
