// The controller run with different flags, the same cases measured on each: what a flag costs.
import { execFileSync } from 'node:child_process'
import { ENDPOINTS, SIMS, type Endpoint } from './cases.ts'
import type { Generator } from './load.ts'
import { measure, type Measured } from './measure.ts'
import { startRig, type Rig } from './rig.ts'

/** One variant's figure for one case. */
export type VariantRow = {
  variant: string
  endpoint: Endpoint
  connections: number
  figures: Measured
}

/**
 * Measures each case on one fresh controller per variant (flags), with the usual processes; all
 * variants run at once and take turns case by case, so a machine's drift hits each alike.
 */
export async function compareFlags(
  generator: Generator,
  seconds: number,
  variants: { name: string; flags: string[] }[],
  endpoints: Endpoint[],
  connections: readonly number[],
  log: (line: string) => void,
): Promise<VariantRow[]> {
  const rows: VariantRow[] = []
  const rigs: Rig[] = []
  try {
    for (const { flags } of variants)
      rigs.push(await startRig(SIMS.args, SIMS.count, { flags, pollMs: 0 }))
    for (const c of connections)
      for (const endpoint of endpoints)
        for (const [i, { name }] of variants.entries()) {
          const server = { url: rigs[i]!.api, pid: rigs[i]!.controller.pid }
          const figures = await measure(generator, server, ENDPOINTS[endpoint], c, seconds)
          rows.push({ variant: name, endpoint, connections: c, figures })
          log(`${name}: ${endpoint} x${c}: ${figures.rps}/s, ${figures.cpuUs} µs CPU per request`)
        }
  } finally {
    for (const rig of rigs) await rig.stop()
  }
  return rows
}

/** Whether the shipped controller's --help lists `flag`. */
export function controllerHas(flag: string): boolean {
  const cli = new URL('../../bin/spp-ctl.js', import.meta.url).pathname
  return execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }).includes(flag)
}

/** A table of variant rows: one line per case, one column group per variant. */
export function variantTable(rows: VariantRow[]): string {
  const variants = [...new Set(rows.map((r) => r.variant))]
  const cases = [...new Set(rows.map((r) => `${r.endpoint} x${r.connections}`))]
  const cell = (v: string, c: string) => {
    const f = rows.find((r) => r.variant === v && `${r.endpoint} x${r.connections}` === c)?.figures
    return f ? `${f.rps} | ${f.p50} | ${f.p99} | ${f.cpuUs}` : '- | - | - | -'
  }
  return [
    `| case | ${variants.map((v) => `${v} req/s | p50 ms | p99 ms | CPU µs/req`).join(' | ')} |`,
    `| --- |${' --- |'.repeat(4 * variants.length)}`,
    ...cases.map((c) => `| ${c} | ${variants.map((v) => cell(v, c)).join(' | ')} |`),
  ].join('\n')
}
