// Reads a V8 .cpuprofile (node --cpu-prof) of the bundled controller: self and total time by
// function and by module (src file or package), GC and idle shares, over the whole profile or one
// window of it. Profile timestamps are µs of the monotonic clock `process.hrtime` reads, so a
// benchmark can name the window of each case from its own process.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

type Node = {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
/** A .cpuprofile as node writes it. */
export type CpuProfile = {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
}
/** A part of a profile: the time of the modules `is` accepts, counted `how`. */
export type Group = {
  name: string
  how: 'self' | 'caller' | 'total'
  is: (module: string) => boolean
}

/** Where the main thread's time went, in µs. */
export type Summary = {
  /** Sampled time in the window, idle included. */
  sampledUs: number
  idleUs: number
  /** Garbage collection on the main thread (V8's helper threads are not sampled). */
  gcUs: number
  /** Native code outside JavaScript: syscalls, libuv, V8's own work other than GC. */
  programUs: number
  selfByFunction: Map<string, number>
  selfByModule: Map<string, number>
  totalByFunction: Map<string, number>
  /** Time with a frame of the module anywhere on the stack. */
  totalByModule: Map<string, number>
  /**
   * Native and node-internal self time (syscalls, stream plumbing) charged to the nearest caller
   * of ours or of a package: who asked for the write.
   */
  selfByCaller: Map<string, number>
  /** The same by the caller's module: a partition of the busy time by who caused it. */
  selfByCallerModule: Map<string, number>
  byGroup: Map<string, number>
}

/** µs of the monotonic clock, as a profile's timestamps count. */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n)

// In the bundle (dist/*.js) esbuild opens each module with a `// path` comment line: a sampled
// line belongs to the module whose comment comes last before it.
const markers = new Map<string, { line: number; path: string }[]>()
const moduleOf = (url: string, line: number): string => {
  if (!/\/dist\/[^/]+\.js$/.test(url)) return url
  if (!markers.has(url)) {
    const file = url.startsWith('file:') ? fileURLToPath(url) : url
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []
    markers.set(
      url,
      lines.flatMap((text, i) => {
        const path = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(text)?.[1]
        return path ? [{ line: i, path }] : []
      }),
    )
  }
  return (
    markers
      .get(url)!
      .filter((m) => m.line <= line)
      .at(-1)?.path ?? url
  )
}

/** A short name for a module: `src/...` of ours, a package's name, `node:...`, or a marker. */
export function placeOf(url: string, line: number): string {
  const path = moduleOf(url, line)
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1]
  if (pkg) return pkg
  if (path.startsWith('src/')) return path
  if (path.includes('/src/')) return path.slice(path.indexOf('/src/') + 1)
  return path === ''
    ? '(native)'
    : path.startsWith('node:')
      ? path
      : path.split('/').slice(-2).join('/')
}

const add = (map: Map<string, number>, key: string, us: number) =>
  map.set(key, (map.get(key) ?? 0) + us)

/** Summary of the samples taken in [fromUs, toUs) (the whole profile by default). */
export function summarise(
  profile: CpuProfile,
  fromUs = -Infinity,
  toUs = Infinity,
  groups: Group[] = [],
): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const key = new Map<number, string>()
  const module = new Map<number, string>()
  for (const { id, callFrame: f } of profile.nodes) {
    const place = placeOf(f.url, f.lineNumber)
    module.set(id, f.url ? place : `(native) ${f.functionName}`)
    const name = f.functionName || '(anonymous)'
    key.set(
      id,
      f.url.includes('/dist/') ? `${name} ${place} (dist:${f.lineNumber + 1})` : `${name} ${place}`,
    )
  }
  const s: Summary = {
    sampledUs: 0,
    idleUs: 0,
    gcUs: 0,
    programUs: 0,
    selfByFunction: new Map(),
    selfByModule: new Map(),
    totalByFunction: new Map(),
    totalByModule: new Map(),
    selfByCaller: new Map(),
    selfByCallerModule: new Map(),
    byGroup: new Map(groups.map((g) => [g.name, 0])),
  }
  // The first frame from the leaf up that is ours or a package's (itself, if it is; the frame
  // just under the root if none is).
  const callers = new Map<number, number>()
  const callerOf = (id: number): number => {
    let caller = callers.get(id)
    if (caller !== undefined) return caller
    const { url } = byId.get(id)!.callFrame
    const up = parent.get(id)!
    const ours = url.includes('/dist/') && module.get(id) !== url
    caller = ours || !parent.has(up) ? id : callerOf(up)
    callers.set(id, caller)
    return caller
  }
  let t = profile.startTime
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0
    t += us
    if (t < fromUs || t >= toUs) return
    const { functionName } = byId.get(id)!.callFrame
    s.sampledUs += us
    if (functionName === '(idle)') return void (s.idleUs += us)
    if (functionName === '(garbage collector)') s.gcUs += us
    if (functionName === '(program)') s.programUs += us
    add(s.selfByFunction, key.get(id)!, us)
    add(s.selfByModule, module.get(id)!, us)
    const caller = callerOf(id)
    add(s.selfByCaller, key.get(caller)!, us)
    add(s.selfByCallerModule, module.get(caller)!, us)
    const stack = new Set<string>()
    for (let n = id; parent.has(n); n = parent.get(n)!) stack.add(module.get(n)!)
    for (const g of groups) {
      const counts =
        g.how === 'self'
          ? g.is(module.get(id)!)
          : g.how === 'caller'
            ? g.is(module.get(caller)!)
            : [...stack].some(g.is)
      if (counts) add(s.byGroup, g.name, us)
    }
    const seen = new Set<string>()
    // The root is every sample's ancestor: 100% says nothing.
    for (let n = id; parent.has(n); n = parent.get(n)!) {
      for (const k of [key.get(n)!, `module ${module.get(n)!}`]) {
        if (seen.has(k)) continue
        seen.add(k)
        if (k.startsWith('module ')) add(s.totalByModule, k.slice(7), us)
        else add(s.totalByFunction, k, us)
      }
    }
  })
  return s
}

/** The `top` largest entries, each with its share of the busy (not idle) time. */
export function ranked(s: Summary, map: Map<string, number>, top: number) {
  const busy = s.sampledUs - s.idleUs
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, us, share: busy > 0 ? us / busy : 0 }))
}
