// SPP releases in order, what each brought, and what one connection has shown of its release.
import { ControllerError } from './errors.ts'
import type { ProcessKind } from './bodies.ts'

/**
 * The releases the controller tells apart, oldest first (spp-protocol-2020 §0). The spec's `18.11`
 * is commit d5c6c97 (18.08.1 speaks the same wire); the 18.08.x bumps that followed it on the same
 * line came before 19.08 and 19.11. `2020` is the name the API gives every release after 18.11.
 */
export const RELEASES = ['18.11', '18.08.2', '18.08.3', '18.08.4', '19.08', '19.11'] as const
export type Release = (typeof RELEASES)[number]
const rank = (release: Release) => RELEASES.indexOf(release)
/**
 * When each came out, from SPP's history (its version commits; `18.11` is d5c6c97's date): the
 * 405 texts say it, since 18.08.2 came after 18.11 although its number looks older.
 */
export const RELEASED: Record<Release, string> = {
  '18.11': 'November 2018',
  '18.08.2': 'March 2019',
  '18.08.3': 'July 2019',
  '18.08.4': 'October 2019',
  '19.08': 'November 2019',
  '19.11': 'April 2020',
}
/** The later of two releases. */
export const later = (a: Release, b: Release): Release => (rank(a) >= rank(b) ? a : b)

/** The first release with each capability; a process has it from that release on (§0, §9.2). */
export const CAPABILITIES = {
  /** A vf or mirror answers `exit` before it closes (§6.4). */
  exitReply: '18.08.2',
  /** The primary's launch, ports, forwarder and patches: launch came first, and a primary's
   * status cannot tell 18.08.2 from 18.08.4 (§9.2), so they are offered together (the 405 text
   * names the release that brought each: ports 18.08.4, forwarder and patches 19.08). */
  primaryRoutes: '18.08.2',
  /** A primary's status lists its lcores, which GET /v1/cpu_usage reports (18.08.3 on in SPP's
   * controller; the primary's lcores from 18.08.2). */
  lcoreUsage: '18.08.2',
  /** A secondary's status shows `master-lcore`, and its errors say `Invalid value (…)` (§6.3). */
  masterLcore: '18.08.3',
  /** A vf's classifier component is called `classifier`, no longer `classifier_mac` (§6.2). */
  classifierWord: '18.08.4',
  /** Primary and nfv replies are padded to 32768 bytes (§2.1). */
  longFrame: '19.11',
  flowRules: '19.11',
  memif: '19.11',
  pipe: '19.11',
  /** tap ports, listed by 2020 processes (§2.3: its release is not pinned down; taken as 19.11's). */
  tap: '19.11',
  /** The queues of a multi-queue physical port, `phy:0nq1` (§2.3). */
  phyQueues: '19.11',
  /** A vf's or mirror's status lists port indexes as strings (§6.1). */
  stringPortIndexes: '19.11',
} as const satisfies Record<string, Release>
export type Capability = keyof typeof CAPABILITIES

/** Reply frame lengths of a primary or nfv: before 19.11, and from 19.11 on (MSG_SIZE). */
export const SHORT_FRAME_BYTES = 2048
export const LONG_FRAME_BYTES = 32768

/** A vf's words for its classifier component: 18.11's, and 18.08.4's on (§6.2). */
export const CLASSIFIER_WORDS = ['classifier_mac', 'classifier'] as const
export type ClassifierWord = (typeof CLASSIFIER_WORDS)[number]
/** Either word: clients may use either, whichever their vf speaks. */
export const isClassifier = (type: string): type is ClassifierWord =>
  (CLASSIFIER_WORDS as readonly string[]).includes(type)
/** A component type in one vocabulary: a 2020 vf's `classifier` is the spec's `classifier_mac`. */
export const specType = (type: string) => (isClassifier(type) ? 'classifier_mac' : type)

/** What a reply showed of its sender's release: the oldest release that sends it, and more. */
export type Shown = { release: Release; classifierWord?: ClassifierWord }

/** Status members that first appeared in a release, by kind (§9.2); spp_pcap came in 18.08.2. */
const STATUS_MARKERS: Record<ProcessKind, [member: string, since: Release][]> = {
  primary: [
    ['lcores', '18.08.2'],
    ['master-lcore', '19.08'],
  ],
  nfv: [
    ['lcores', '18.08.2'],
    ['master-lcore', '18.08.3'],
  ],
  vf: [['master-lcore', '18.08.3']],
  mirror: [['master-lcore', '18.08.3']],
  pcap: [['master-lcore', '18.08.3']],
}

/** What a status shows: its members; a vf's or mirror's index strings and component types. */
export function statusShows(
  kind: ProcessKind,
  status: object,
  more: { stringIndexes?: boolean; types?: string[] } = {},
): Shown {
  let release: Release = kind === 'pcap' ? '18.08.2' : '18.11'
  for (const [member, since] of STATUS_MARKERS[kind])
    if (member in status) release = later(release, since)
  if (more.stringIndexes) release = later(release, CAPABILITIES.stringPortIndexes)
  const word = more.types?.find(isClassifier)
  if (word === 'classifier') release = later(release, CAPABILITIES.classifierWord)
  return word ? { release, classifierWord: word } : { release }
}

/**
 * What one connection has shown of its release. `release` is a lower bound (the oldest release
 * that sends what it sent); `frameBytes` and `statusRead` say what is still to be learnt.
 */
export type Learnt = {
  kind: ProcessKind
  release: Release
  frameBytes?: number
  statusRead: boolean
  classifierWord?: ClassifierWord
}

/** A new connection's record, from its handshake (a primary's is its status: see `shown`). */
export const firstLearnt = (kind: ProcessKind, shown: Shown): Learnt => ({
  kind,
  statusRead: kind === 'primary',
  ...shown,
})

/** The record after a reply: a status's markers, or a measured frame length (the same if nothing new). */
export function learn(learnt: Learnt, seen: Shown | { frameBytes: number }): Learnt {
  if ('frameBytes' in seen) {
    const release =
      seen.frameBytes === LONG_FRAME_BYTES ? later(learnt.release, '19.11') : learnt.release
    return { ...learnt, frameBytes: seen.frameBytes, release }
  }
  const classifierWord = seen.classifierWord ?? learnt.classifierWord
  const release = later(learnt.release, seen.release)
  // Every status read tells again what the last one told: the same record, not a new one.
  if (learnt.statusRead && release === learnt.release && classifierWord === learnt.classifierWord)
    return learnt
  return { ...learnt, release, statusRead: true, ...(classifierWord ? { classifierWord } : {}) }
}

/** Whether nothing the process could still send would show a later release. */
export function settled({ kind, release, frameBytes, statusRead }: Learnt): boolean {
  switch (kind) {
    case 'primary': // a status without master-lcore is older than 19.08: it cannot be 19.11
      return rank(release) < rank('19.08') || frameBytes !== undefined
    case 'nfv': // an 18.11 handshake settles it; a later one pads to a length still to measure
      return release === '18.11' || (frameBytes !== undefined && statusRead)
    case 'pcap':
      return true
    default:
      return statusRead
  }
}

const WHO = { primary: 'the primary', nfv: 'nfv', vf: 'vf', mirror: 'mirror', pcap: 'pcap' }

/** What a connection has shown, asked by capability: never "which era?". */
export type Caps = Readonly<Learnt> & {
  readonly settled: boolean
  has(cap: Capability): boolean
  /**
   * 405, nothing sent, unless the process's release has `cap`; `what` names the route, `since`
   * the release that brought it when that is not the capability's own.
   */
  require(cap: Capability, what: string, since?: Release): void
  /** The word this vf takes for a component type (one vocabulary for clients, §9.4). */
  word(type: string): string
}

/** The capability view of a record; `clientId` names the process in the 405 text. */
export function capsOf(learnt: Learnt, clientId?: number): Caps {
  const has = (cap: Capability) => rank(learnt.release) >= rank(CAPABILITIES[cap])
  return {
    ...learnt,
    settled: settled(learnt),
    has,
    require(cap, what, since = CAPABILITIES[cap]) {
      if (has(cap)) return
      const who = clientId === undefined ? WHO[learnt.kind] : `${WHO[learnt.kind]} ${clientId}`
      const release = `SPP ${learnt.release} of ${RELEASED[learnt.release]}`
      throw new ControllerError(
        'NOT_IN_RELEASE',
        `${what} is not supported by the release of ${who} (${release}); it needs SPP ${since} of ${RELEASED[since]} or later`,
      )
    },
    // §9.4: an 18.08.3 vf running no classifier is the one blind spot; later releases are likelier.
    word(type) {
      if (!isClassifier(type)) return type
      const word = learnt.classifierWord ?? (has('masterLcore') ? 'classifier' : 'classifier_mac')
      return has('classifierWord') ? 'classifier' : word
    },
  }
}

/** A label for logs, events and metrics: 18.11, 2020, or unknown (a vf or mirror not read yet). */
export function eraLabel(learnt: Learnt | undefined): '18.11' | '2020' | 'unknown' {
  if (!learnt || (learnt.release === '18.11' && !settled(learnt))) return 'unknown'
  return learnt.release === '18.11' ? '18.11' : '2020'
}
