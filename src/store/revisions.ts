// The revisions of the remembered configuration: one per change remembered, with the whole document.
import type Database from 'better-sqlite3'
import type { Write } from './batch.ts'
import type { RememberedDocument } from './remembered.ts'

/** What made a revision. */
export type RevisionKind = 'change' | 'apply' | 'rollback' | 'undo' | 'expired'

/** What a change says of itself when it is remembered (the rest comes from its journal entry). */
export type RevisionNote = {
  /** Who made it, as the journal names them; default: the journal entry's `by`. */
  by?: string
  /** The request; default: the journal entry's. */
  requestId?: string
  /** Default `change`. */
  what?: RevisionKind
  /** A rollback's revision. */
  to?: number
  /** What changed, counted by action as a plan's summary counts them. */
  summary?: Record<string, number>
  /**
   * The changes of one group (an apply's steps) made one after the other share one revision; a
   * change of anyone else in between starts a new one.
   */
  group?: string
}

/** One revision as GET /v1/topology/history lists it. */
export type Revision = {
  rev: number
  /** ms since the epoch: its last change */
  time: number
  by: string
  requestId: string
  what: RevisionKind
  to?: number
  summary: Record<string, number>
}

/** A revision and the remembered document it made. */
export type RevisionWithDocument = Revision & { document: RememberedDocument }

type Row = Omit<Revision, 'to' | 'summary'> & { to: number | null; summary: string }
const COLUMNS = 'rev, time, by, request_id AS requestId, what, to_rev AS "to", summary'

/** The write that keeps a revision (or rewrites it, for a group's later change). */
export function revisionWrite(revision: Revision, document: string): Write {
  const { rev, time, by, requestId, what, to, summary } = revision
  const written = JSON.stringify(summary)
  return {
    op: 'revision',
    rev,
    time,
    by,
    requestId,
    what,
    to: to ?? null,
    summary: written,
    document,
  }
}

/** Reads revisions, newest first, and one revision's document. */
export class RevisionReader {
  readonly #list: Database.Statement<[number], Row>
  readonly #one: Database.Statement<[number], Row & { document: string }>
  readonly #newest: Database.Statement<[], number | null>

  constructor(db: Database.Database) {
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM revision ORDER BY rev DESC LIMIT ?`)
    this.#one = db.prepare(`SELECT ${COLUMNS}, document FROM revision WHERE rev = ?`)
    this.#newest = db.prepare<[], number | null>('SELECT max(rev) FROM revision').pluck()
  }

  /** The newest revisions, newest first. */
  list(limit: number): Revision[] {
    return this.#list.all(limit).map(revision)
  }

  /** One revision with its document, or undefined when none by that number is kept. */
  get(rev: number): RevisionWithDocument | undefined {
    const row = this.#one.get(rev)
    if (row === undefined) return undefined
    const { document, ...rest } = row
    return { ...revision(rest), document: JSON.parse(document) as RememberedDocument }
  }

  /** The highest revision number ever kept (0: none): the next is one more. */
  newest(): number {
    return this.#newest.get() ?? 0
  }
}

function revision({ to, summary, ...row }: Row): Revision {
  return {
    ...row,
    ...(to === null ? {} : { to }),
    summary: JSON.parse(summary) as Record<string, number>,
  }
}

/** Two summaries added up. */
export function addSummaries(a: Record<string, number>, b: Record<string, number>) {
  const sum = { ...a }
  for (const [action, n] of Object.entries(b)) sum[action] = (sum[action] ?? 0) + n
  return sum
}
