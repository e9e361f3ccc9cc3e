// The controller run with different flags, the same cases measured on each: what a flag costs.
import { execFileSync } from 'node:child_process'
import { ENDPOINTS, SIMS, type Endpoint } from './cases.ts'
import type { Generator } from './load.ts'
import { measure, medianOf, type Measured } from './measure.ts'
import { startRig, type Rig } from './rig.ts'

/** One variant's figure for one case. */
export type VariantRow = {
  variant: string
  endpoint: Endpoint
  connections: number
  figures: Measured
}

/**
 * Measures each case on one fresh controller per variant (flags, node's flags and environment, or another build;
 * `peaks` gets each one's peak RSS in MiB), with the usual processes; all
 * variants run at once and take turns case by case, so a machine's drift hits each alike. With
 * `repeat` rounds each figure is the median of its rounds.
 */
export async function compareFlags(
  generator: Generator,
  { seconds, repeat = 1, peaks }: { seconds: number; repeat?: number; peaks?: Map<string, number> },
  variants: {
    name: string
    flags: string[]
    cli?: string
    nodeArgs?: string[]
    env?: Record<string, string>
  }[],
  endpoints: Endpoint[],
  connections: readonly number[],
  log: (line: string) => void,
): Promise<VariantRow[]> {
  const runs = new Map<string, Measured[]>()
  const rigs: Rig[] = []
  try {
    for (const { flags, cli, nodeArgs, env } of variants)
      rigs.push(
        await startRig(SIMS.args, SIMS.count, {
          flags,
          pollMs: 0,
          ...(cli ? { cli } : {}),
          ...(nodeArgs ? { nodeArgs } : {}),
          ...(env ? { env } : {}),
        }),
      )
    for (let round = 1; round <= repeat; round++)
      for (const c of connections)
        for (const endpoint of endpoints)
          for (const [i, { name }] of variants.entries()) {
            const server = { url: rigs[i]!.api, pid: rigs[i]!.controller.pid }
            const figures = await measure(generator, server, ENDPOINTS[endpoint], c, seconds)
            const key = `${name}\n${endpoint}\n${c}`
            runs.set(key, [...(runs.get(key) ?? []), figures])
            log(
              `${round}/${repeat} ${name}: ${endpoint} x${c}: ${figures.rps}/s, ${figures.cpuUs} µs/req`,
            )
          }
    for (const [i, { name }] of variants.entries())
      peaks?.set(name, rigs[i]!.controller.peakRssMiB())
  } finally {
    for (const rig of rigs) await rig.stop()
  }
  return [...runs].map(([key, measured]) => {
    const [variant, endpoint, c] = key.split('\n') as [string, Endpoint, string]
    return { variant, endpoint, connections: Number(c), figures: medianOf(measured) }
  })
}

/** Whether the shipped controller's --help lists `flag`. */
export function controllerHas(flag: string): boolean {
  const cli = new URL('../../bin/spp-ctl.js', import.meta.url).pathname
  return execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }).includes(flag)
}

/** A table of variant rows: one line per case, one column group per variant; with two, their CPU difference. */
export function variantTable(rows: VariantRow[]): string {
  const variants = [...new Set(rows.map((r) => r.variant))]
  const cases = [...new Set(rows.map((r) => `${r.endpoint} x${r.connections}`))]
  const of = (v: string, c: string) =>
    rows.find((r) => r.variant === v && `${r.endpoint} x${r.connections}` === c)?.figures
  const cell = (v: string, c: string) => {
    const f = of(v, c)
    return f ? `${f.rps} | ${f.p50} | ${f.p99} | ${f.cpuUs}` : '- | - | - | -'
  }
  const [a, b] = variants
  const two = variants.length === 2 && a !== undefined && b !== undefined
  const difference = (c: string) => {
    const [x, y] = [of(a!, c)?.cpuUs, of(b!, c)?.cpuUs]
    return x === undefined || y === undefined ? '-' : `${Math.round(x - y)}`
  }
  return [
    `| case | ${variants.map((v) => `${v} req/s | p50 ms | p99 ms | CPU µs/req`).join(' | ')} |` +
      (two ? ` ${a} − ${b} µs/req |` : ''),
    `| --- |${' --- |'.repeat(4 * variants.length + (two ? 1 : 0))}`,
    ...cases.map(
      (c) =>
        `| ${c} | ${variants.map((v) => cell(v, c)).join(' | ')} |` +
        (two ? ` ${difference(c)} |` : ''),
    ),
  ].join('\n')
}
