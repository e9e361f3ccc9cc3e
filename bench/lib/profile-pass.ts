// Where each case's time goes: one controller run with `node --cpu-prof --trace-gc`, each case
// loaded in turn and its window cut out of the one profile; the collector's pauses that V8
// reports while a case runs are counted for that case.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { describe } from '../profile-summary.ts'
import { CONNECTIONS, ENDPOINTS, SIMS, type Endpoint } from './cases.ts'
import type { Generator } from './load.ts'
import { measure, type Measured } from './measure.ts'
import { GROUPS } from './profile-groups.ts'
import { ranked, summarise, type CpuProfile, type Summary } from './profile.ts'
import { startRig } from './rig.ts'

/** The collector's work that `--trace-gc` reported in one case's window. */
export type GcTrace = { scavenges: number; markCompacts: number; pauseMs: number }
/** One case under the profiler. */
export type ProfiledCase = {
  endpoint: Endpoint
  connections: number
  figures: Measured
  gc: GcTrace
  summary: Summary
}

// `[pid:0x...]   1234 ms: Scavenge 9.8 (12.3) -> 8.9 (13.3) MB, 0.95 / 0.00 ms ...`; a
// Mark-Compact adds `(+ 12.3 ms in 45 steps since start of marking, ...)` of incremental work.
const GC_LINE = /ms: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact)\S*.*? MB, ([\d.]+) \//
const INCREMENTAL = /\(\+ ([\d.]+) ms in \d+ steps/

/** Profiles every case; copies the profile to `out` and returns each case's summary. */
export async function profilePass(
  generator: Generator,
  seconds: number,
  out: string,
  log: (line: string) => void,
): Promise<{ file: string; cases: ProfiledCase[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-profile-'))
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--trace-gc']
  const rig = await startRig(SIMS.args, SIMS.count, { nodeArgs, stdout: 'pipe', pollMs: 0 })
  let current: GcTrace | undefined
  createInterface({ input: rig.controller.child.stdout! }).on('line', (line) => {
    const gc = GC_LINE.exec(line)
    if (!gc || !current) return
    if (gc[1]!.startsWith('Scavenge')) current.scavenges++
    else current.markCompacts++
    current.pauseMs += Number(gc[2]) + Number(INCREMENTAL.exec(line)?.[1] ?? 0)
  })
  const server = { url: rig.api, pid: rig.controller.pid }
  const measured: Omit<ProfiledCase, 'summary'>[] = []
  try {
    for (const connections of CONNECTIONS)
      for (const endpoint of Object.keys(ENDPOINTS) as Endpoint[]) {
        const gc = { scavenges: 0, markCompacts: 0, pauseMs: 0 }
        current = gc
        const figures = await measure(generator, server, ENDPOINTS[endpoint], connections, seconds)
        current = undefined
        measured.push({ endpoint, connections, figures, gc })
        log(`profiled ${endpoint} x${connections}: ${figures.cpuUs} µs CPU per request`)
      }
  } finally {
    await rig.stop()
  }
  const name = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
  if (!name) throw new Error('the controller wrote no .cpuprofile')
  const file = join(out, `controller-${Date.now()}.cpuprofile`)
  copyFileSync(join(dir, name), file)
  rmSync(dir, { recursive: true, force: true })
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const cases = measured.map((m) => ({
    ...m,
    summary: summarise(profile, ...m.figures.window, GROUPS),
  }))
  return { file, cases }
}

/** Each case: its figures under the profiler, the collector's share, where the time went. */
export function profileReport(cases: ProfiledCase[], top: number): string {
  return cases
    .map(({ endpoint, connections, figures: f, gc, summary: s }) => {
      const windowMs = (f.window[1] - f.window[0]) / 1000
      const busy = s.sampledUs - s.idleUs
      const perRequest = (us: number) => (us / Math.max(1, f.requests)).toFixed(1)
      return [
        `### ${endpoint} x${connections}`,
        '',
        `${f.rps} req/s; ${f.cpuUs} µs CPU per request (the process, all threads) under the ` +
          `profiler; main thread busy ${perRequest(busy)} µs per request ` +
          `(idle ${((100 * s.idleUs) / s.sampledUs).toFixed(1)}% of the window); per request ` +
          `${f.waitsPerRequest} waits and ${f.preemptionsPerRequest} preemptions of the main thread. ` +
          `--trace-gc: ${gc.scavenges} scavenges, ${gc.markCompacts} mark-compacts, ` +
          `${gc.pauseMs.toFixed(0)} ms of pauses (${((100 * gc.pauseMs) / windowMs).toFixed(1)}% ` +
          `of the window, ${perRequest(1000 * gc.pauseMs)} µs per request).`,
        '',
        "| issue 21's candidate (bench/lib/profile-groups.ts) | share of busy | µs per request |",
        '| --- | --- | --- |',
        ...[...s.byGroup].map(
          ([name, us]) => `| ${name} | ${((100 * us) / busy).toFixed(1)}% | ${perRequest(us)} |`,
        ),
        '',
        '| busy time charged to the nearest caller of ours or of a package | share | µs per request |',
        '| --- | --- | --- |',
        ...ranked(s, s.selfByCallerModule, top).map(
          (r) => `| ${r.name} | ${(100 * r.share).toFixed(1)}% | ${perRequest(r.us)} |`,
        ),
        '',
        '```',
        describe(s, top),
        '```',
      ].join('\n')
    })
    .join('\n\n')
}
