// `spp-ctl auth add|ls|rm`: the clients of an auth file. `add` prints a new token once and keeps
// its digest; `ls` shows names and scopes (never a digest); `rm` removes a client.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname } from 'node:path'
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
import { readClients } from '../auth/read-clients.ts'
import { readArgs, usageText, UsageError } from './args.ts'
import { columns } from './columns.ts'

/** Where `auth` reads and writes when no --auth-file is given. */
export const DEFAULT_AUTH_FILE = '/etc/spp-ctl/auth.yaml'

const COMMAND = 'spp-ctl auth'

const HELP = `Usage: spp-ctl auth add NAME --scope read|write [--auth-file FILE]
       spp-ctl auth ls [--json] [--auth-file FILE]
       spp-ctl auth rm NAME [--auth-file FILE]

  add   adds a client to the auth file (default ${DEFAULT_AUTH_FILE}; created, with its
        directory, if missing) and prints its new token on stdout, once: the file keeps only
        the token's SHA-256
  ls    lists the clients: names and scopes
  rm    removes a client: its token is refused once the controller reads the file again

Start the controller with --auth-file FILE; clients send "Authorization: Bearer TOKEN".
The controller reads the file again on SIGHUP (kill -HUP PID; systemctl reload spp-ctl).
Scopes: read (every GET, the event stream, /metrics), write (everything).
`

const HEADER = `# spp-ctl clients (spp-ctl auth add NAME --scope read|write): each token's SHA-256, never the token.
`

const OPTIONS = {
  scope: { type: 'string' },
  'auth-file': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Runs `spp-ctl auth ARGS`; returns the exit status (2 for bad arguments or a bad file). */
export function runAuth(args: string[]): number {
  try {
    const { values, positionals } = readArgs(args, OPTIONS)
    if (values.help) {
      process.stdout.write(HELP)
      return 0
    }
    const [command, name, ...rest] = positionals
    const file = values['auth-file'] ?? DEFAULT_AUTH_FILE
    if (command === 'ls') {
      if (name !== undefined) throw new UsageError(`ls takes no NAME, got ${name}`)
      if (values.scope !== undefined) throw new UsageError('ls takes no --scope')
      return listClients(file, values.json === true)
    }
    if (command !== 'add' && command !== 'rm')
      throw new UsageError(
        command === undefined
          ? 'expected a command: add, ls or rm'
          : `unknown command ${command}: expected add, ls or rm`,
      )
    if (name === undefined) throw new UsageError(`${command} needs a NAME`)
    if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`)
    if (command === 'rm') {
      if (values.scope !== undefined) throw new UsageError('rm takes no --scope')
      return removeClient(file, name)
    }
    const named = v.safeParse(ClientName, name)
    if (!named.success)
      throw new UsageError(`NAME ${JSON.stringify(name)}: ${named.issues[0].message}`)
    const scope = values.scope
    if (scope === undefined) throw new UsageError('add needs --scope read or --scope write')
    if (!(SCOPES as readonly string[]).includes(scope))
      throw new UsageError(`--scope must be read or write, got ${JSON.stringify(scope)}`)
    addClient(file, name, scope as Scope)
    return 0
  } catch (error) {
    if (error instanceof UsageError) process.stderr.write(usageText(COMMAND, error.message))
    else if (error instanceof AuthFileError) process.stderr.write(`${COMMAND}: ${error.message}\n`)
    else throw error
    return 2
  }
}

/** `ls`: each client's name and scope; the digests stay in the file. */
function listClients(file: string, json: boolean) {
  const clients = readClients(file).map(({ name, scope }) => ({ name, scope }))
  if (json) process.stdout.write(`${JSON.stringify(clients, null, 2)}\n`)
  else if (clients.length === 0) process.stdout.write(`No clients in ${file}\n`)
  else {
    process.stdout.write(columns([['NAME', 'SCOPE'], ...clients.map((c) => [c.name, c.scope])]))
  }
  return 0
}

/** Reads FILE as a YAML document (comments kept), or the empty file's when it does not exist. */
function readDocument(file: string, exists: boolean): Document {
  let document: Document
  try {
    document = parseDocument(exists ? readFileSync(file, 'utf8') : `${HEADER}clients: []\n`)
  } catch (error) {
    throw new AuthFileError(`${file}: ${(error as Error).message}`)
  }
  if (document.errors.length > 0)
    throw new AuthFileError(`${file}: not YAML: ${document.errors[0]!.message.split('\n')[0]}`)
  return document
}

/** Replaces FILE by `document`: written next to it and renamed over it, never half a file. */
function replaceFile(file: string, document: Document, mode: number) {
  const temporary = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, document.toString(), { mode })
    chmodSync(temporary, mode)
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw new AuthFileError(`${file}: ${(error as Error).message}`)
  }
}

/** `rm`: removes NAME from FILE (its comments kept); a name not there is an error. */
function removeClient(file: string, name: string) {
  if (!existsSync(file)) throw new AuthFileError(`${file}: no such file`)
  const document = readDocument(file, true)
  const clients = document.get('clients')
  const index = clientsOf(document.toJS(), file).findIndex((c) => c.name === name)
  if (index < 0 || !isSeq(clients))
    throw new AuthFileError(`${file}: no client is named ${name} (spp-ctl auth ls lists them)`)
  clients.delete(index)
  replaceFile(file, document, statSync(file).mode & 0o777)
  process.stderr.write(
    `${COMMAND}: removed ${name} from ${file}; a controller started with it refuses the token once it reads the file again (SIGHUP or a restart)\n`,
  )
  return 0
}

/** Adds NAME to FILE (its comments kept) and prints the token; the file is replaced in one rename. */
function addClient(file: string, name: string, scope: Scope) {
  const exists = existsSync(file)
  const document = readDocument(file, exists)
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
  if (!exists) {
    // As the help says: the file is created, and so is its directory (/etc/spp-ctl on a new host).
    try {
      const made = mkdirSync(dirname(file), { recursive: true })
      if (made !== undefined) process.stderr.write(`${COMMAND}: created ${made}\n`)
    } catch (error) {
      throw new AuthFileError(`${file}: ${(error as Error).message}`)
    }
  }
  replaceFile(file, document, exists ? statSync(file).mode & 0o777 : 0o600)
  process.stdout.write(`${token}\n`)
  process.stderr.write(
    `spp-ctl auth: added ${name} (scope ${scope}) to ${file}; this is the only time the token is shown\n`,
  )
}
