import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CLIENT_ID_PATTERN } from '../src/http/schemas.ts'
import { withHarness } from './helpers/harness.ts'

// Every `curl -s [-X METHOD] URL [-d 'BODY']` line of the README, run in order against the demo's
// processes. A following `# command error: ...` line is the expected 400; a following `# {...}` or
// `# [...]` line without an ellipsis is the exact JSON answer; anything else must succeed.
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8').split('\n')
const CURL = /^curl -s (?:-X (\w+) )?http:\/\/localhost:7777(\S+)(?: -d '([^']*)')?/
const examples = README.flatMap((line, i) => {
  const match = CURL.exec(line)
  if (!match) return []
  const next = README[i + 1] ?? ''
  return [
    {
      line,
      method: match[1] ?? 'GET',
      path: match[2]!,
      body: match[3],
      expected: next.startsWith('# ') && !next.includes('...') ? next.slice(2) : undefined,
    },
  ]
})

test('the README shows a curl example for every endpoint, and each answers as shown', () =>
  withHarness(
    [
      { kind: 'primary' },
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2 },
      { kind: 'mirror', clientId: 3 },
    ],
    async (h) => {
      assert.ok(examples.length >= 30, `${examples.length} examples`)
      for (const { line, method, path, body, expected } of examples) {
        const r = await h.api(method, path, body)
        if (expected?.startsWith('command error:')) {
          assert.is(r.status, 400, line)
          assert.is(r.text, expected, line)
        } else {
          assert.ok(r.status === 200 || r.status === 204, `${line}: ${r.status} ${r.text}`)
          if (expected) assert.equal(r.json(), JSON.parse(expected), line)
        }
      }
      // API routes only: the pages and their files (/, /docs, /ui/*, /docs/*) are not API routes;
      // the README names the pages in prose, checked below.
      const routes = new Set(
        h.controller.app.routes
          .filter((r) => r.method !== 'ALL')
          .filter((r) => /^\/(?:v1\/|metrics$|openapi\.json$)/.test(r.path))
          .map((r) => `${r.method} ${r.path.replaceAll(`{${CLIENT_ID_PATTERN}}`, '')}`),
      )
      const shown = new Set(
        examples.map(
          ({ method, path }) =>
            `${method} ${path.replace(/\/-?\d+(?=\/|$)/, '/:client_id').replace(/(components\/)[^/]+/, '$1:name')}`,
        ),
      )
      assert.match(
        README.join('\n'),
        /curl -sN http:\/\/localhost:7777\/v1\/events/,
        'the event stream is shown (it never ends, so it is not run here)',
      )
      assert.ok(routes.has('GET /openapi.json') && routes.has('GET /metrics'))
      assert.match(README.join('\n'), /http:\/\/localhost:7777\/ /, 'the page is named')
      assert.match(README.join('\n'), /http:\/\/localhost:7777\/docs/, 'the docs are named')
      for (const route of routes)
        if (route !== 'GET /v1/events')
          assert.ok(shown.has(route), `no README example for ${route}`)
    },
  ))

test.run()
