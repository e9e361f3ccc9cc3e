import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, normalize } from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { curlLine, TRY_CHAIN } from '../src/cli/demo-try.ts'
import { CLIENT_ID_PATTERN } from '../src/protocol/tokens.ts'
import { buildDist } from './helpers/build.ts'
import { registrations, withHarness } from './helpers/harness.ts'
import { primary2020, scriptedPeer, spaced2020 } from './helpers/peer-2020.ts'

// Every `curl -s [-X METHOD] URL [-d 'BODY']` line of the README's quick start, and then of the
// reference under docs/ in the README's order, run in order against the demo's processes. A following
// `# command error: ...` line is the expected 400; a following `# {...}` or `# [...]` line without an
// ellipsis is the exact JSON answer; anything else must succeed.
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')
const README = read('README.md')
/** The reference pages, in the order the README's table links them. */
const PAGES = [...README.matchAll(/^\| \[[^\]]+\]\((docs\/[\w-]+\.md)\)/gm)].map((m) => m[1]!)
const DOCS = PAGES.flatMap((page) => read(page).split('\n'))
const CURL = /^curl -s (?:-X (\w+) )?http:\/\/localhost:7777(\S+)(?: -d '([^']*)')?/
/** The curl examples of some lines; those between the 2020 markers run against 2020 processes. */
const examplesOf = (lines: string[]) => {
  const from2020 = lines.indexOf('<!-- 2020 examples -->')
  const to2020 = lines.indexOf('<!-- /2020 examples -->')
  return lines.flatMap((line, i) => {
    const match = CURL.exec(line)
    if (!match) return []
    const next = lines[i + 1] ?? ''
    return [
      {
        line,
        method: match[1] ?? 'GET',
        path: match[2]!,
        body: match[3],
        expected: next.startsWith('# ') && !next.includes('...') ? next.slice(2) : undefined,
        era2020: i > from2020 && i < to2020 && from2020 >= 0,
      },
    ]
  })
}
const examples = examplesOf(DOCS)
const DEMO = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]

/** Runs examples in order; each answers as shown. */
const runAll = async (
  h: {
    api: (
      m: string,
      p: string,
      b?: string,
    ) => Promise<{ status: number; text: string; json(): unknown }>
  },
  lines: typeof examples,
) => {
  for (const { line, method, path, body, expected } of lines) {
    const r = await h.api(method, path, body)
    if (expected?.startsWith('command error:')) {
      assert.is(r.status, 400, line)
      assert.is(r.text, `${expected}\n`, line)
    } else {
      assert.ok(r.status === 200 || r.status === 204, `${line}: ${r.status} ${r.text}`)
      if (expected) assert.equal(r.json(), JSON.parse(expected), line)
    }
  }
}

/** The 2020 examples, in order, against a 2020 primary, vf 2, mirror 3 and pcap 4. */
const run2020 = (lines: typeof examples) =>
  withHarness([], async (h) => {
    const { primaryPort: p, secondaryPort: s } = h.controller
    const registered = registrations(h.controller, 4)
    const answers = [
      primary2020,
      spaced2020(2, 'vf'),
      spaced2020(3, 'mirror'),
      spaced2020(4, 'pcap'),
    ]
    await Promise.all(answers.map((answer, i) => scriptedPeer(i === 0 ? p : s, answer)))
    await registered
    for (const { line, method, path, body, expected } of lines) {
      const r = await h.api(method, path, body)
      assert.ok(r.status === 200 || r.status === 204, `${line}: ${r.status} ${r.text}`)
      if (expected) assert.equal(r.json(), JSON.parse(expected), line)
    }
  })

test("the README's quick start answers as it says, on a fresh demo", () =>
  withHarness(DEMO, async (h) => {
    const quick = examplesOf(README.split('\n'))
    assert.ok(quick.length >= 3, `${quick.length} quick-start examples`)
    await runAll(h, quick)
    const nfv = await h.api('GET', '/v1/nfvs/1')
    assert.equal(nfv.json(), {
      'client-id': 1,
      status: 'Running',
      ports: ['phy:0', 'phy:1', 'ring:0'],
      patches: [{ src: 'phy:0', dst: 'ring:0' }],
    })
    // The demo's Try list, as the demo prints it: the same changes, in the same order.
    const changes = (lines: string[]) => lines.filter((line) => / -X /.test(line))
    assert.equal(
      changes(quick.map((e) => e.line)),
      changes(TRY_CHAIN.map((request) => curlLine(request, 'http://localhost:7777'))),
    )
    assert.match(README, /http:\/\/localhost:7777\/ /, 'the page is named')
    assert.match(README, /http:\/\/localhost:7777\/docs/, 'the docs are named')
    for (const page of PAGES) assert.ok(page.startsWith('docs/'), page)
    assert.ok(PAGES.includes('docs/rest-api.md'), 'the reference links the REST API')
  }))

test('the quick start’s spp-ctl lines run as shown, in the directory a user runs them in', async () => {
  buildDist()
  const from = README.indexOf('## Quick start')
  const quick = README.slice(from, README.indexOf('\n## ', from))
  const lines = quick.split('\n').filter((line) => line.startsWith('npx spp-ctl '))
  assert.ok(
    lines.some((line) => line.startsWith('npx spp-ctl topology apply ')),
    quick,
  )
  const work = mkdtempSync(join(tmpdir(), 'spp-ctl-quick-'))
  const cli = new URL('../bin/spp-ctl.js', import.meta.url).pathname
  try {
    await withHarness(
      DEMO,
      async (h) => {
        await runAll(h, examplesOf(quick.split('\n')))
        // As a shell runs them: the built command for npx's, on the harness's port.
        const url = `http://127.0.0.1:${h.controller.apiPort}`
        const script = [
          `npx() { shift; ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@" --url ${url}; }`,
          'set -e',
          ...lines,
        ].join('\n')
        const { SPP_CTL_TOKEN: _, ...env } = process.env
        // In a directory of the test's, as a user runs them in the clone (npm test passes with
        // the chain.yaml they write there: test/project.test.ts).
        const { stdout } = await promisify(execFile)('bash', ['-c', script], { env, cwd: work })
        assert.match(stdout, 'No changes: the live topology already matches.')
        assert.match(stdout, /^No problems: \d+ hops? on \d+ paths? /m, 'check finds nothing wrong')
        assert.match(stdout, /PUT +\/v1\/nfvs\/1\/forward/, 'the journal lists the changes')
        assert.ok(existsSync(join(work, 'chain.yaml')), 'the document is where they were run')
      },
      { stateDir: join(work, 'state') },
    )
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

test('the first document of Declarative provisioning, written from scratch, applies as a whole chain', () =>
  withHarness(DEMO, async (h) => {
    const text = read('docs/provisioning.md')
    const from = text.indexOf('<!-- applied by test/readme.test.ts -->')
    assert.ok(from > 0, 'the document is marked')
    const document = parse(/```yaml\n([\s\S]*?)```/.exec(text.slice(from))![1]!) as object
    const applied = await h.api('POST', '/v1/topology/apply', document)
    assert.is(applied.status, 200, applied.text)
    const again = (await h.api('POST', '/v1/topology/plan', document)).json() as { steps: [] }
    assert.equal(again.steps, [], 'applied, it plans nothing')
    const nfv = (await h.api('GET', '/v1/nfvs/1')).json() as { status: string; patches: object[] }
    assert.equal([nfv.status, nfv.patches], ['Running', [{ src: 'phy:0', dst: 'ring:0' }]])
    type Component = { name?: string; rx_port: { port: string }[]; tx_port: { port: string }[] }
    const vf = (await h.api('GET', '/v1/vfs/2')).json() as { components: Component[] }
    const fwd1 = vf.components.find((c) => c.name === 'fwd1')
    assert.equal(
      [fwd1?.rx_port.map((p) => p.port), fwd1?.tx_port.map((p) => p.port)],
      [['ring:0'], ['phy:1']],
    )
  }))

// The examples of Remembering and restoring need a controller that remembers.
const stateDir = mkdtempSync(join(tmpdir(), 'spp-ctl-readme-'))
test.after(() => rmSync(stateDir, { recursive: true, force: true }))
const remembering = (body: Parameters<typeof withHarness>[1]) =>
  withHarness(DEMO, body, { stateDir })

test('the reference shows a curl example for every endpoint, and each answers as shown', () =>
  remembering(async (h) => {
    assert.ok(examples.length >= 30, `${examples.length} examples`)
    assert.ok(
      examples.some((e) => e.era2020),
      'the 2020 examples are marked',
    )
    await runAll(
      h,
      examples.filter((e) => !e.era2020),
    )
    await run2020(examples.filter((e) => e.era2020))
    // API routes only: the pages and their files (/, /docs, /ui/*, /docs/*) are not API routes.
    const routes = new Set(
      h.controller.app.routes
        .filter((r) => r.method !== 'ALL')
        .filter((r) => /^\/(?:v1\/|metrics$|openapi\.json$)/.test(r.path))
        .map((r) => `${r.method} ${r.path.replaceAll(`{${CLIENT_ID_PATTERN}}`, '')}`),
    )
    const shown = new Set(
      examples.map(
        ({ method, path }) =>
          `${method} ${path
            .replace(/flow_rules\/\d+/, 'flow_rules/:rule_id')
            .replace(/(history\/)\d+/, '$1:rev')
            .replace(/port_id\/\d+/, 'port_id/:port_id')
            .replace(/\/-?\d+(?=\/|$)/, '/:client_id')
            .replace(/(components\/)[^/]+/, '$1:name')
            .replace(/(desired\/)(?:primary|[a-z]+:\d+)$/, '$1:process')
            .replace(/(desired\/)[a-z]+(?=\/)/, '$1:kind')}`,
      ),
    )
    assert.match(
      DOCS.join('\n'),
      /curl -sN http:\/\/localhost:7777\/v1\/events/,
      'the event stream is shown (it never ends, so it is not run here)',
    )
    // The journal needs a state directory (a harness has none: 404): shown, quoted, not run.
    assert.match(
      DOCS.join('\n'),
      /curl -s 'http:\/\/localhost:7777\/v1\/journal\?/,
      'the journal is shown',
    )
    // The fleet link needs --etcd (a harness has none: 404): shown, quoted, not run.
    assert.match(
      DOCS.join('\n'),
      /curl -s 'http:\/\/localhost:7777\/v1\/fleet\/link'/,
      'the fleet link is shown',
    )
    assert.ok(routes.has('GET /openapi.json') && routes.has('GET /metrics'))
    const notRun = ['GET /v1/events', 'GET /v1/journal', 'GET /v1/fleet/link']
    for (const route of routes)
      if (!notRun.includes(route)) assert.ok(shown.has(route), `no example for ${route}`)
  }))

/** The anchors of a markdown page's headings, as GitHub makes them (outside fenced code). */
const anchorsOf = (text: string) => {
  const seen = new Map<string, number>()
  let fenced = false
  const anchors = new Set<string>()
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = fenced ? undefined : /^#{1,6} (.*)$/.exec(line)?.[1]
    if (heading === undefined) continue
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replaceAll(' ', '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    anchors.add(n === 0 ? slug : `${slug}-${n}`)
  }
  return anchors
}

test('every link between the README and the docs leads to a page, and to a heading of it', () => {
  const pages = [
    'README.md',
    ...readdirSync(new URL('../docs/', import.meta.url))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ]
  const broken: string[] = []
  for (const page of pages) {
    const text = read(page).replace(/^```[\s\S]*?^```/gm, '') // links in code are not links
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue // http:, mailto:
      const [path = '', anchor] = target!.split('#')
      const file = path === '' ? page : normalize(join(dirname(page), path))
      if (!existsSync(new URL(`../${file}`, import.meta.url)))
        broken.push(`${page}: ${target} (no file)`)
      else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor))
        broken.push(`${page}: ${target} (no heading)`)
    }
  }
  assert.equal(broken, [])
  assert.ok(PAGES.includes('docs/getting-started.md') && PAGES.includes('docs/troubleshooting.md'))
})

test.run()
