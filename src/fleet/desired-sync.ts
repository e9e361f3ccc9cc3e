// One host's desired key: watched, written back in conditioned transactions, merged on divergence.
import type { Etcd3, IKeyValue, Watcher } from 'etcd3'
import type { Logger } from 'pino'
import type { DesiredDocument } from '../topology/document.ts'
import { text } from './etcd-client.ts'
import { decodeDesired } from './keys.ts'
import { mergeDesired, sameDesired } from './merge.ts'

/** A desired document and the etcd revision it was written at (its key's mod_revision). */
export type DesiredRevision = { document: DesiredDocument; revision: number }
/** A desired document for the controller to apply; `lost` names local edits etcd overrode. */
export type DesiredUpdate = DesiredRevision & { lost: string[] }

// What this host last knew of the key: `at` is the etcd revision that knowledge is current at.
type Seen = DesiredRevision & { at: number; present: boolean }

/** What the sync tells the fleet link, and asks of it. */
export type SyncLink = {
  /** The link does not work now: nothing is sent but what the link's probe forces. */
  readonly down: boolean
  /** A call succeeded (`write`: a write did). */
  ok(write?: boolean): void
  /**
   * A call failed (or a stream broke, `stream`): true when it was the link's failure (etcd away or
   * refusing), not the call's.
   */
  failed(error: unknown, what: string, write?: boolean, stream?: boolean): boolean
  /** etcd cancelled the watch: the link decides how to watch again. */
  watchFailed(error: Error): void
}

export type DesiredSyncOptions = {
  /** The link's client now (a new one after credentials are read again). */
  client: () => Etcd3
  key: string
  log: Logger
  link: SyncLink
  onDesired: (update: DesiredUpdate) => void
  desired?: DesiredDocument
  seen?: DesiredRevision
  retryMs: number
}

/** Keeps the local desired document and the key in step (see mergeDesired for who wins). */
export function createDesiredSync(options: DesiredSyncOptions) {
  const { client, key, log, link, onDesired, retryMs } = options
  let seen: Seen | undefined = options.seen && { ...options.seen, at: 0, present: true }
  let local = options.desired ?? options.seen?.document
  let pending = local !== undefined && !(seen && sameDesired(local, seen.document))
  let writing = false
  let refusal = ''
  let closed = false
  let retry: NodeJS.Timeout | undefined
  let watcher: Watcher | undefined
  const counts = { transactions: 0, conflicts: 0, reads: 0 }
  let markRead = () => {}
  const firstRead = new Promise<void>((resolve) => (markRead = resolve))

  function hand(update: DesiredUpdate) {
    local = update.document
    try {
      onDesired(update)
    } catch (error) {
      log.error({ err: error }, 'the desired document handler failed')
    }
  }

  /** A value of the key newer than what this host knew: taken, or merged with local edits. */
  function remote(kv: IKeyValue | undefined, at: number) {
    if (seen && at <= seen.at) return // already known (a read covered it, or it is our own write)
    const revision = kv ? Number(kv.mod_revision) : at
    const decoded = kv ? decodeDesired(text(kv)) : { ok: true as const, value: {} }
    if (!decoded.ok) {
      // Not applied; the next local change replaces it (a write conditioned on this revision).
      log.error(
        { key, revision, reason: decoded.error },
        'invalid desired document in etcd ignored',
      )
      seen = { document: seen?.document ?? {}, revision, at, present: true }
      return
    }
    const document = decoded.value
    const base = seen?.document ?? {}
    seen = { document, revision, at, present: kv !== undefined }
    if (!pending || local === undefined) {
      // A deleted key is an empty document: nothing is desired any more.
      if ((kv || local) && !(local && sameDesired(local, document)))
        hand({ document, revision, lost: [] })
      return
    }
    const merged = mergeDesired(base, local, document)
    if (merged.lost.length > 0)
      log.warn(
        { key, revision, lost: merged.lost },
        'local desired changes lost to a newer etcd one',
      )
    if (!sameDesired(merged.document, local)) hand({ ...merged, revision })
    pending = !sameDesired(merged.document, document)
  }

  async function writeLoop() {
    writing = true
    try {
      while (pending && !closed && local !== undefined) {
        const document = local
        const expected = seen?.present ? seen.revision : 0 // 0: the key does not exist
        counts.transactions++
        const etcd = client()
        const result = await etcd
          .if(key, 'Mod', '==', expected)
          .then(etcd.put(key).value(JSON.stringify(document)))
          .else(etcd.get(key))
          .commit()
        link.ok(true)
        refusal = ''
        const at = Number(result.header.revision)
        if (result.succeeded) {
          if (!seen || at > seen.at) seen = { document, revision: at, at, present: true }
          // Unless a newer change came meanwhile (a merge on the same content counts as none).
          if (sameDesired(local, document)) pending = false
          continue
        }
        counts.conflicts++
        remote(result.responses[0]?.response_range.kvs[0], at)
        if ((seen?.present ? seen.revision : 0) === expected)
          throw new Error(`no progress on ${key} at revision ${at}`)
      }
    } catch (error) {
      if (link.failed(error, `writing ${key}`, true)) refusal = ''
      else if (String(error) !== refusal) {
        refusal = String(error) // logged once, not at every try
        log.error({ key, err: error }, 'etcd refused the desired document; trying again')
      }
      retry ??= setTimeout(() => {
        retry = undefined
        kick()
      }, retryMs)
    } finally {
      writing = false
    }
  }

  // While the link is down, nothing is sent: a call queued by gRPC until etcd returns would land
  // then, before the latest change, as a write of its own. The watch tells when it is back; the
  // link's probe forces a write that etcd refused (its success is what ends the refusal).
  function kick(force = false) {
    if (!writing && pending && !closed && (force || !link.down)) void writeLoop()
  }

  /** Reads the key afresh: on each (re)connection of the watch, which may have missed changes. */
  async function read() {
    counts.reads++
    const result = await client().get(key).exec()
    link.ok()
    remote(result.kvs[0], Number(result.header.revision))
    markRead()
    kick()
  }

  // Events of a watch that was replaced (a new client) are not this sync's any more.
  function watch() {
    if (closed) return
    const current = client().watch().key(key).watcher()
    watcher = current
    const mine = () => watcher === current
    current.on('connected', () => {
      if (mine()) void read().catch((error: unknown) => link.failed(error, `reading ${key}`))
    })
    current.on(
      'disconnected',
      (error) => mine() && link.failed(error, `watching ${key}`, false, true),
    )
    current.on('put', (kv) => mine() && remote(kv, Number(kv.mod_revision)))
    current.on('delete', (kv) => mine() && remote(undefined, Number(kv.mod_revision)))
    current.on('error', (error) => {
      if (!mine()) return
      watcher = undefined
      link.watchFailed(error)
    })
  }

  watch()
  return {
    /** The controller's desired document changed here: written to etcd when it can be. */
    write(document: DesiredDocument) {
      if (closed) return
      local = document
      pending = !(seen && sameDesired(document, seen.document))
      kick()
    },
    kick,
    /** Watches anew, on the link's client now (the watch's `connected` reads the key afresh). */
    rewatch() {
      const old = watcher
      watcher = undefined
      void old?.cancel().catch(() => undefined)
      watch()
    },
    /** Reads the key now (etcd's return is probed with it); rejects when etcd does not answer. */
    read,
    /** Resolves once the key has been read (and handed over, or merged) the first time. */
    ready: firstRead,
    /** The last revision of the key this host saw (to remember locally across restarts). */
    get seen(): DesiredRevision | undefined {
      return seen && { document: seen.document, revision: seen.revision }
    },
    /** Whether a local change waits to be written. */
    get pending() {
      return pending
    },
    counts,
    async close() {
      closed = true
      clearTimeout(retry)
      await watcher?.cancel()
    },
  }
}
