// `fleet apply --all`'s progress: one line per host, redrawn in place on a terminal.
import type { ShownPlan } from '../../topology/plan.ts'
import type { Io } from '../progress.ts'
import type { Followed } from './follow.ts'

type Host = { host: string; plan: ShownPlan }

/** One host's line: where it is, or how it ended. */
function lineOf({ host, plan }: Host, width: number, report: Followed | undefined): string {
  const name = host.padEnd(width)
  if (!report) return `  ${name}  waiting   0/${plan.steps.length}`
  switch (report.state) {
    case 'applying': {
      const done = report.steps.length
      return `  ${name}  applying  ${done}/${report.total}  ${plan.steps[done]?.why ?? ''}`.trimEnd()
    }
    case 'converged':
      return `  ${name}  converged ${report.total}/${report.total}`
    case 'failed': {
      const { failed } = report
      return `  ${name}  FAILED    ${failed?.number ?? '?'}/${report.total}  ${failed?.why}: ${failed?.status} ${failed?.error.trim()}`
    }
    case 'refused':
      return `  ${name}  REFUSED   refused key(${report.refused?.field}): ${report.refused?.reason}`
    case 'gone':
      return `  ${name}  GONE      its alive key expired before it converged`
    case 'timeout':
      return `  ${name}  TIMEOUT   no convergence reported in time`
  }
}

/**
 * Follows every host at once. On a terminal each host's line is redrawn as it moves; otherwise a
 * host's line is printed once, when it ends. Resolves 0 when all converged, else 1.
 */
export async function followAll<H extends Host>(
  io: Io,
  hosts: H[],
  follow: (host: H) => AsyncGenerator<Followed>,
): Promise<number> {
  const tty = io.stdout.isTTY === true
  const width = Math.max(...hosts.map((h) => h.host.length))
  const last = new Map<string, Followed>()
  const lines = () => hosts.map((h) => lineOf(h, width, last.get(h.host)))
  const began = performance.now()
  const count = (n: number) => `${n} ${n === 1 ? 'host' : 'hosts'}`
  io.stdout.write(`\nApplying to ${count(hosts.length)}:\n`)
  if (tty) io.stdout.write(`${lines().join('\n')}\n`)
  const redraw = () =>
    io.stdout.write(
      `\x1b[${hosts.length}A\r${lines()
        .map((l) => `\x1b[K${l}`)
        .join('\n')}\n`,
    )
  await Promise.all(
    hosts.map(async (h) => {
      for await (const report of follow(h)) {
        last.set(h.host, report)
        if (tty) redraw()
      }
      if (!tty) io.stdout.write(`${lineOf(h, width, last.get(h.host))}\n`)
    }),
  )
  const converged = hosts.filter((h) => last.get(h.host)?.state === 'converged').length
  const seconds = ((performance.now() - began) / 1000).toFixed(1)
  io.stdout.write(`${converged}/${count(hosts.length)} converged in ${seconds} s.\n`)
  return converged === hosts.length ? 0 : 1
}
