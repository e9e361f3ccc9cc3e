// Summarises a V8 .cpuprofile (node --cpu-prof): where the time goes, by function and by package.
// Usage: tsx bench/profile-summary.ts FILE.cpuprofile [TOP]
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

type Node = {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
const [file, top = '25'] = process.argv.slice(2)
const profile = JSON.parse(readFileSync(file!, 'utf8')) as {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const self = new Map<number, number>()
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
const total = [...self.values()].reduce((a, b) => a + b, 0)

// In the bundle (dist/*.js) esbuild opens each module with a `// path` comment line: a sampled
// line is attributed to the module whose comment comes last before it.
const markers = new Map<string, { line: number; path: string }[]>()
const bundled = (url: string, line: number) => {
  if (!/\/dist\/[^/]+\.js$/.test(url)) return url
  if (!markers.has(url)) {
    const file = url.startsWith('file:') ? fileURLToPath(url) : url
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []
    markers.set(
      url,
      lines.flatMap((text, i) => {
        const path = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(text)?.[1]
        return path ? [{ line: i, path: `/${path}` }] : []
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

const where = (bundleUrl: string, line: number) => {
  const url = bundled(bundleUrl, line)
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]
  if (pkg) return pkg
  if (url.includes('/src/')) return `spp-ctl ${url.slice(url.indexOf('/src/') + 1)}`
  return url.startsWith('node:')
    ? url
    : url === ''
      ? '(native/gc)'
      : url.split('/').slice(-2).join('/')
}
const add = (map: Map<string, number>, key: string, us: number) =>
  map.set(key, (map.get(key) ?? 0) + us)
const functions = new Map<string, number>()
const packages = new Map<string, number>()
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame
  const place = where(url, lineNumber)
  add(functions, `${functionName || '(anonymous)'} ${place}:${lineNumber + 1}`, us)
  add(packages, place, us)
}
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`)
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
    process.stdout.write(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}\n`)
}
process.stdout.write(`${(total / 1e6).toFixed(1)} s of samples\n`)
show('self time by package or file', packages)
show('self time by function', functions)
