// The remembered configuration in memory: what the database holds plus every write queued since.
import type Database from 'better-sqlite3'
import type { Write } from './batch.ts'

/** A remembered process: a secondary by its section and client id, or the primary (it has none). */
export type ProcessKey =
  | { section: 'nfvs' | 'vfs' | 'mirrors'; clientId: number }
  | { section: 'primary'; clientId?: undefined }

/** One process's remembered configuration, as it was given to put(). */
export type RememberedConfig = Record<string, unknown>

/** The remembered document: the desired-document shape that plan/apply reads, keyed by client id. */
export type RememberedDocument = {
  primary?: RememberedConfig
  nfvs: Record<string, RememberedConfig>
  vfs: Record<string, RememberedConfig>
  mirrors: Record<string, RememberedConfig>
}

type Row = { section: ProcessKey['section']; clientId: number; config: string }

const keyOf = ({ section, clientId }: { section: string; clientId?: number }) =>
  `${section}/${clientId ?? 0}`

/** Each process's configuration as JSON text, so that a read always hands out a fresh copy. */
export class RememberedConfigs {
  readonly #rows = new Map<string, Row>()

  constructor(db: Database.Database) {
    const rows = db
      .prepare<[], Row>('SELECT section, client_id AS clientId, config FROM process_config')
      .all()
    for (const row of rows) this.#rows.set(keyOf(row), row)
  }

  /** Applies a put to memory; answers the write to queue, or nothing when nothing changed. */
  put(process: ProcessKey, config: object | undefined, time: number): Write | undefined {
    const key = keyOf(process)
    const json = config === undefined ? undefined : JSON.stringify(config)
    if (json === this.#rows.get(key)?.config) return undefined
    const clientId = process.clientId ?? 0
    if (json === undefined) this.#rows.delete(key)
    else this.#rows.set(key, { section: process.section, clientId, config: json })
    return { op: 'config', section: process.section, clientId, config: json ?? null, time }
  }

  /** One process's configuration, or undefined when none is remembered. */
  get(process: ProcessKey): RememberedConfig | undefined {
    const row = this.#rows.get(keyOf(process))
    return row === undefined ? undefined : (JSON.parse(row.config) as RememberedConfig)
  }

  /** The whole document as JSON text, as document() would be written, made from the rows' text. */
  documentJson(): string {
    const rows = [...this.#rows.values()]
    const section = (name: string) =>
      `"${name}":{${rows
        .filter((row) => row.section === name)
        .sort((a, b) => a.clientId - b.clientId)
        .map(({ clientId, config }) => `"${clientId}":${config}`)
        .join(',')}}`
    const primary = rows.find((row) => row.section === 'primary')
    const first = primary === undefined ? '' : `"primary":${primary.config},`
    return `{${first}${['nfvs', 'vfs', 'mirrors'].map(section).join(',')}}`
  }

  /** The whole document; client ids are object keys, so they come out in numeric order. */
  document(): RememberedDocument {
    const document: RememberedDocument = { nfvs: {}, vfs: {}, mirrors: {} }
    for (const { section, clientId, config } of this.#rows.values()) {
      const value = JSON.parse(config) as RememberedConfig
      if (section === 'primary') document.primary = value
      else document[section][String(clientId)] = value
    }
    return document
  }
}
