// `spp-ctl auth add NAME --scope read|write`: a new token, printed once, its digest added to the file.
import {
  chmodSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { parseArgs } from 'node:util'
import * as v from 'valibot'
import { isMap, isSeq, parseDocument, type Document } from 'yaml'
import {
  AuthFileError,
  ClientName,
  clientsOf,
  digestOf,
  newToken,
  SCOPES,
  type Scope,
} from '../auth/clients.ts'

/** Where `auth add` writes when no --auth-file is given. */
export const DEFAULT_AUTH_FILE = '/etc/spp-ctl/auth.yaml'

const HELP = `Usage: spp-ctl auth add NAME --scope read|write [--auth-file FILE]

Adds a client to the auth file (default ${DEFAULT_AUTH_FILE}; created if missing) and prints
its new token on stdout, once: the file keeps only the token's SHA-256. Start the controller
with --auth-file FILE; clients send "Authorization: Bearer TOKEN".
Scopes: read (every GET, the event stream, /metrics), write (everything).
`

const HEADER = `# spp-ctl clients (spp-ctl auth add NAME --scope read|write): each token's SHA-256, never the token.
`

/** Runs `spp-ctl auth ARGS`; returns the exit status (2 for bad arguments or a bad file). */
export function runAuth(args: string[]): number {
  const fail = (message: string) => {
    process.stderr.write(`spp-ctl auth: ${message}\n`)
    return 2
  }
  let parsed
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        scope: { type: 'string' },
        'auth-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${HELP}`)
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(HELP)
    return 0
  }
  const [command, name, ...rest] = positionals
  if (command !== 'add' || name === undefined || rest.length > 0)
    return fail(`expected: add NAME --scope read|write\n\n${HELP}`)
  const named = v.safeParse(ClientName, name)
  if (!named.success) return fail(`NAME ${JSON.stringify(name)}: ${named.issues[0].message}`)
  const scope = values.scope
  if (!(SCOPES as readonly string[]).includes(scope ?? ''))
    return fail(`--scope must be read or write, got ${JSON.stringify(scope)}`)
  try {
    addClient(values['auth-file'] ?? DEFAULT_AUTH_FILE, name, scope as Scope)
  } catch (error) {
    if (error instanceof AuthFileError) return fail(error.message)
    throw error
  }
  return 0
}

/** Adds NAME to FILE (its comments kept) and prints the token; the file is replaced in one rename. */
function addClient(file: string, name: string, scope: Scope) {
  const exists = existsSync(file)
  let document: Document
  try {
    document = parseDocument(exists ? readFileSync(file, 'utf8') : `${HEADER}clients: []\n`)
  } catch (error) {
    throw new AuthFileError(`${file}: ${(error as Error).message}`)
  }
  if (document.errors.length > 0)
    throw new AuthFileError(`${file}: not YAML: ${document.errors[0]!.message.split('\n')[0]}`)
  if (clientsOf(document.toJS(), file).some((c) => c.name === name))
    throw new AuthFileError(`${file}: a client is already named ${name}`)
  const token = newToken()
  const entry = { name, scope, sha256: digestOf(token).toString('hex') }
  if (!isMap(document.contents) || !isSeq(document.get('clients')))
    document.set('clients', document.createNode([]))
  const clients = document.get('clients')
  if (isSeq(clients)) {
    clients.flow = false // `clients: []` would stay a one-line list
    clients.add(document.createNode(entry))
  }
  // Written next to it and renamed over it: a crash never leaves half a file.
  const mode = exists ? statSync(file).mode & 0o777 : 0o600
  const temporary = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, document.toString(), { mode })
    chmodSync(temporary, mode)
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw new AuthFileError(`${file}: ${(error as Error).message}`)
  }
  process.stdout.write(`${token}\n`)
  process.stderr.write(
    `spp-ctl auth: added ${name} (scope ${scope}) to ${file}; this is the only time the token is shown\n`,
  )
}
