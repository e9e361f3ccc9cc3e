// PUT /v1/primary/launch: the body checked strictly and turned into `launch` tokens (spp-protocol-2020 §10.7).
import * as v from 'valibot'

// EAL options in the order SPP's 2020 controller writes them.
const EAL_OPTS = [
  '-c', '-l', '--lcores', '--master-lcore', '-s', '-b', '--pci-blacklist', '-w',
  '--pci-whitelist', '--vdev', '-d', '--no-pci', '--proc-type', '-n', '-r', '-m', '--in-memory',
  '--iova-mode', '--no-shconf', '--no-huge', '--log-level', '--file-prefix', '--create-uio-dev',
  '--vmware-tsc-map', '--no-hpet', '--vfio-intr', '--base-virtaddr', '--legacy-mem',
  '--socket-mem', '--socket-limit', '--single-file-segments', '--huge-dir', '--huge-unlink',
  '--match-allocations', '--syslog',
] // prettier-ignore
const APP_OPTS: Record<string, string[]> = {
  spp_nfv: ['-n', '-s', '--vhost-client'],
  spp_vf: ['--client-id', '-s', '--vhost-client'],
  spp_mirror: ['--client-id', '-s', '--vhost-client'],
  spp_pcap: ['--client-id', '-s', '-c', '--out-dir', '--fsize'],
}

// A value becomes one token: printable ASCII, no space; null or "" means a flag without value.
const Value = v.nullable(
  v.union(
    [
      v.pipe(v.string(), v.regex(/^[\x21-\x7e]{0,100}$/, 'expected one word without spaces')),
      v.pipe(v.number(), v.integer(), v.minValue(0)),
    ],
    'expected a string without spaces, a non-negative integer, or null',
  ),
)
const options = (names: string[]) =>
  v.strictObject(
    Object.fromEntries(names.map((n) => [n, v.optional(Value)])),
    `expected only the options ${names.join(' ')}`,
  )

const CLIENT_ID = 'expected a client id: an integer 1 to 127, or its decimal string'
/**
 * SPP's 2020 CLI (and SPP's own 2020 API document) send `"client_id": "5"`, a string; older
 * clients a number. Both mean the same id, sent in its one decimal spelling.
 */
const LaunchClientId = v.pipe(
  v.union([v.number(CLIENT_ID), v.string(CLIENT_ID)], CLIENT_ID),
  v.transform((id) => (typeof id === 'string' && /^[1-9][0-9]{0,2}$/.test(id) ? Number(id) : id)),
  v.number(CLIENT_ID),
  v.integer(CLIENT_ID),
  v.minValue(1, CLIENT_ID),
  v.maxValue(127, CLIENT_ID),
)

/** The launch body: the primary forks the named secondary with these options. */
/** Words after `launch ID NAME` and `--` in the longest line the primary reads (47 tokens). */
const MAX_OPTIONS = 47 - 4
const tokenCount = (names: string[], given: Record<string, unknown>) =>
  names.reduce((n, name) => {
    if (!(name in given)) return n
    const value = given[name]
    return n + (value === null || value === undefined || value === '' ? 1 : 2)
  }, 0)

export const LaunchBody = v.pipe(
  v.object({
    client_id: LaunchClientId,
    proc_name: v.picklist(Object.keys(APP_OPTS), `expected ${Object.keys(APP_OPTS).join(', ')}`),
    eal: v.pipe(
      options(EAL_OPTS),
      v.check(
        (e) => ['-c', '-l', '--lcores'].some((k) => k in e) && '--proc-type' in e,
        'expected one of -c, -l, --lcores, and --proc-type',
      ),
    ),
    app: v.record(v.string(), Value, 'expected an object of application options'),
  }),
  v.forward(
    v.check(
      (b) => Object.keys(b.app).every((k) => APP_OPTS[b.proc_name]?.includes(k)),
      'expected only the options of this process',
    ),
    ['app'],
  ),
  // The primary splits a command into at most 48 tokens (`launch ID NAME EAL... -- APP...`).
  v.forward(
    v.check(
      (b) =>
        tokenCount(EAL_OPTS, b.eal) + tokenCount(APP_OPTS[b.proc_name] ?? [], b.app) <= MAX_OPTIONS,
      `expected at most ${MAX_OPTIONS} option words in eal and app together`,
    ),
    ['app'],
  ),
)
export type LaunchBody = v.InferOutput<typeof LaunchBody>

const tokensOf = (names: string[], given: Record<string, string | number | null | undefined>) =>
  names.flatMap((name) => {
    if (!(name in given)) return []
    const value = given[name]
    return value === null || value === undefined || value === '' ? [name] : [name, String(value)]
  })

/** `ID NAME EAL… -- APP…`, options in SPP's own order. */
export const launchTokens = (body: LaunchBody): string[] => [
  String(body.client_id),
  body.proc_name,
  ...tokensOf(EAL_OPTS, body.eal),
  '--',
  ...tokensOf(APP_OPTS[body.proc_name] ?? [], body.app),
]
