// The change journal: who changed what and when, written with the change, read newest first.
import type Database from 'better-sqlite3'
import type { Write } from './batch.ts'

/** One command a change sent, and how the process answered it. */
export type JournalCommand = { line: string; outcome: unknown }

/** One accepted change, as the request path describes it. */
export type JournalEntry = {
  /** ms since the epoch; default: when journal() is called */
  time?: number
  /**
   * the token's name, `local`, `restore`, or `anonymous` with the peer; a step of an apply, a
   * rollback or an undo: which, its id and who asked (`apply ID by ops`)
   */
  by: string
  requestId: string
  method: string
  path: string
  /** the request's body (JSON), if it had one */
  body?: unknown
  commands: readonly JournalCommand[]
  status: number
  /** the processes it touched, as the query names them (e.g. `vf:2`) */
  processes: readonly string[]
}

/**
 * A request (or the step of an apply or a restore standing for one) as its journal entry tells it:
 * who, its id, what, status; the commands and processes come from the changes it made.
 */
export type JournaledRequest = Omit<JournalEntry, 'commands' | 'processes' | 'time'>

/** A journal entry as stored, numbered in the order it was accepted. */
export type JournalRecord = Omit<JournalEntry, 'time' | 'commands' | 'processes'> & {
  id: number
  time: number
  commands: JournalCommand[]
  processes: string[]
}

/** What GET /v1/journal asks: every filter optional; newest (by time, then id) first. */
export type JournalQuery = { process?: string; since?: number; by?: string; limit: number }

/** The write that records an entry. */
export function journalWrite(entry: JournalEntry, now: number): Write {
  return {
    op: 'journal',
    time: entry.time ?? now,
    by: entry.by,
    requestId: entry.requestId,
    method: entry.method,
    path: entry.path,
    body: entry.body === undefined ? null : JSON.stringify(entry.body),
    commands: JSON.stringify(entry.commands),
    status: entry.status,
    processes: [...new Set(entry.processes)],
  }
}

type Row = Omit<JournalRecord, 'body' | 'commands' | 'processes'> & {
  body: string | null
  commands: string
  processes: string
}

const COLUMNS = `j.id, j.time, j.by, j.request_id AS requestId, j.method, j.path, j.body, j.commands,
  j.status, (SELECT json_group_array(process) FROM journal_process WHERE entry = j.id) AS processes`

/**
 * The statement for a query's filters, its values in the order process, since, by, limit. A
 * process's entries come from its own index (process, time, entry), the others from the journal's
 * indexes on time and on (by, time): each query walks one index range backwards, and stops.
 */
export function journalSql({ process, since, by }: Omit<JournalQuery, 'limit'>): string {
  const t = process !== undefined ? 'p' : 'j'
  const where = process !== undefined ? ['p.process = ?'] : ['1']
  if (since !== undefined) where.push(`${t}.time >= ?`)
  if (by !== undefined) where.push('j.by = ?')
  const from =
    process !== undefined ? 'journal_process p JOIN journal j ON j.id = p.entry' : 'journal j'
  return `SELECT ${COLUMNS} FROM ${from} WHERE ${where.join(' AND ')}
          ORDER BY ${t}.time DESC, ${t === 'p' ? 'p.entry' : 'j.id'} DESC LIMIT ?`
}

/** Reads the journal with one statement per combination of filters, each prepared once. */
export class JournalReader {
  readonly #db: Database.Database
  readonly #statements = new Map<string, Database.Statement<unknown[], Row>>()
  readonly #older: Database.Statement<[number]>

  constructor(db: Database.Database) {
    this.#db = db
    this.#older = db.prepare('SELECT 1 FROM journal WHERE time < ? LIMIT 1')
  }

  /** Committed entries that pass every filter given, newest first. */
  query({ process, since, by, limit }: JournalQuery): JournalRecord[] {
    const shape = `${process !== undefined}${since !== undefined}${by !== undefined}`
    let statement = this.#statements.get(shape)
    if (statement === undefined) {
      statement = this.#db.prepare<unknown[], Row>(journalSql({ process, since, by }))
      this.#statements.set(shape, statement)
    }
    const values = [process, since, by].filter((value) => value !== undefined)
    return statement.all(...values, limit).map(record)
  }

  /** Whether any entry is older than `before` (ms since the epoch): a prune would remove it. */
  hasOlder(before: number): boolean {
    return this.#older.get(before) !== undefined
  }
}

function record({ body, commands, processes, ...row }: Row): JournalRecord {
  return {
    ...row,
    ...(body === null ? {} : { body: JSON.parse(body) as unknown }),
    commands: JSON.parse(commands) as JournalCommand[],
    processes: JSON.parse(processes) as string[],
  }
}
