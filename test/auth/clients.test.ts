// The auth file's checks and the token lookup, as tables.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { clientsOf, digestOf, findClient, newToken } from '../../src/auth/clients.ts'

const hex = (token: string) => digestOf(token).toString('hex')

test('a new token is 32 random bytes in base64url, different every time', () => {
  const tokens = new Set(Array.from({ length: 100 }, newToken))
  assert.is(tokens.size, 100)
  for (const token of tokens) assert.match(token, /^[\w-]{43}$/)
})

test('a token finds its client; an unknown, empty or near one finds none', () => {
  const [a, b] = [newToken(), newToken()]
  const clients = clientsOf(
    {
      clients: [
        { name: 'ops', scope: 'write', sha256: hex(a) },
        { name: 'dash', scope: 'read', sha256: hex(b) },
      ],
    },
    'auth.yaml',
  )
  assert.is(findClient(clients, a)?.name, 'ops')
  assert.is(findClient(clients, b)?.scope, 'read')
  for (const other of ['', newToken(), a.slice(1), `${a}x`, hex(a)])
    assert.is(findClient(clients, other), undefined)
})

const MALFORMED: [string, RegExp][] = [
  ['clients: [{name: ops, scope: write, token: abc}]', /clients\.0\.token: the file keeps/],
  ['clients: [{name: ops, scope: write}]', /clients\.0\.sha256: missing/],
  ['clients: [{name: ops, scope: admin, sha256: ' + '0'.repeat(64) + '}]', /clients\.0\.scope/],
  ['clients: [{name: ops, scope: read, sha256: abc}]', /clients\.0\.sha256: 64 lowercase hex/],
  ['clients: [{name: local, scope: read, sha256: ' + '0'.repeat(64) + '}]', /reserved/],
  ['clients: [{name: "a b", scope: read, sha256: ' + '0'.repeat(64) + '}]', /clients\.0\.name/],
  ['client: []', /auth\.yaml: clients: missing/],
  ['- 1', /auth\.yaml: /],
  [
    `clients: [{name: a, scope: read, sha256: "${'0'.repeat(64)}"}, {name: a, scope: write, sha256: "${'1'.repeat(64)}"}]`,
    /two clients are named a/,
  ],
]
for (const [text, message] of MALFORMED) {
  test(`a malformed file is refused with where and why: ${text.slice(0, 50)}`, () => {
    assert.throws(() => clientsOf(parse(text), 'auth.yaml'), message)
  })
}

test('an empty file has no clients (every request then needs the unix socket)', () => {
  assert.equal(clientsOf(null, 'auth.yaml'), [])
})

test.run()
