// Summarises a V8 .cpuprofile (node --cpu-prof): idle and GC shares, self time by module and by
// function, total time by function; of the whole profile or of one window of it.
// Usage: tsx bench/profile-summary.ts FILE.cpuprofile [--top 25] [--from US] [--to US]
//   (--from/--to: µs of the monotonic clock, as the windows bench/ writes next to its profiles)
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { GROUPS } from './lib/profile-groups.ts'
import { ranked, summarise, type CpuProfile, type Summary } from './lib/profile.ts'

/** The summary as text: shares of busy time (idle is a share of the window). */
export function describe(s: Summary, top: number): string {
  const busy = s.sampledUs - s.idleUs
  const pct = (us: number, of: number) => `${((100 * us) / Math.max(1, of)).toFixed(1)}%`
  const table = (title: string, map: Map<string, number>) => [
    '',
    title,
    ...ranked(s, map, top).map(
      ({ name, share }) => `${(100 * share).toFixed(1).padStart(5)}%  ${name}`,
    ),
  ]
  return [
    "issue 21's candidates (bench/lib/profile-groups.ts; they overlap), share of busy time",
    ...[...s.byGroup].map(([name, us]) => `${pct(us, busy).padStart(6)}  ${name}`),
    '',
    `${(s.sampledUs / 1e6).toFixed(2)} s sampled: idle ${pct(s.idleUs, s.sampledUs)}; ` +
      `of the busy ${(busy / 1e6).toFixed(2)} s: GC ${pct(s.gcUs, busy)}, ` +
      `(program) ${pct(s.programUs, busy)}`,
    ...table('self time by module (share of busy time)', s.selfByModule),
    ...table('self time by function', s.selfByFunction),
    ...table('total time by module (callees included)', s.totalByModule),
    ...table('total time by function (callees included)', s.totalByFunction),
    ...table(
      'self time charged to the nearest caller of ours or of a package, by module',
      s.selfByCallerModule,
    ),
    ...table('the same by function', s.selfByCaller),
  ].join('\n')
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
  })
  const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as CpuProfile
  const from = values.from === undefined ? -Infinity : Number(values.from)
  const to = values.to === undefined ? Infinity : Number(values.to)
  process.stdout.write(
    `${describe(summarise(profile, from, to, GROUPS), Number(values.top ?? 25))}\n`,
  )
}
