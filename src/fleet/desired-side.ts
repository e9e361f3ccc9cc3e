// The desired key as the host's source of truth: each revision from etcd becomes what the controller
// remembers, then is restored (--restore on) or reported; what changes here goes back to etcd.
import type { Logger } from 'pino'
import type { Registry } from '../actors/registry.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { ProcessKey } from '../store/store.ts'
import type { DesiredDocument } from '../topology/document.ts'
import { shownPlan } from '../topology/plan.ts'
import { driftOf, driftSamples, inSync } from '../remember/drift.ts'
import type { Memory } from '../remember/memory.ts'
import { entriesOf, idOfKey } from '../topology/process-config.ts'
import { idText } from '../protocol/process-id.ts'
import type { Restorer, RestoreMode } from '../remember/restore.ts'
import { who } from '../remember/restore-run.ts'
import type { DesiredRevision, DesiredUpdate } from './desired-sync.ts'
import { canonical, mergeDesired, sameDesired } from './merge.ts'
import { restoreProgress } from './restore-progress.ts'
import type { ApplyProgress } from './keys.ts'

/** Where the store keeps the last desired revision this host saw (the base of the next merge). */
const SEEN = 'fleet.seen'

export type DesiredSideOptions = {
  memory: Memory
  restorer: Restorer
  registry: Registry
  hub: EventHub
  log: Logger
  mode: RestoreMode
  /** The desired key, as the journal names what changed the remembered document. */
  key: string
}

const nameOf = (key: ProcessKey) => idText(idOfKey(key))
const id = (key: ProcessKey) => `${key.section}/${key.clientId ?? ''}`

/** Between the fleet link and what the controller remembers and restores. */
export function desiredSide(options: DesiredSideOptions) {
  const { memory, restorer, registry, hub, log, mode } = options
  const { store } = memory
  let progress: ApplyProgress | undefined
  let listener: () => void = () => undefined
  let unsentMerged: () => void = () => undefined
  let takes = Promise.resolve()
  let queued = 0 // revisions handed over, not yet remembered
  let closed = false

  const remembered = () => store.remembered() as DesiredDocument
  const seen = ((): DesiredRevision | undefined => {
    const text = store.meta(SEEN)
    return text === undefined ? undefined : (JSON.parse(text) as DesiredRevision)
  })()
  let kept = canonical(seen)
  // The store's revision the link knows of, and the link's document then: a change remembered
  // after it (a request between its commit and its answer) is the link's still to write.
  let sent = store.revision()
  let base: DesiredDocument = remembered()

  /** Sets the remembered document to etcd's in one synchronous run (one transaction). */
  function remember({ document, revision }: DesiredUpdate): ProcessKey[] {
    const wanted = new Map(entriesOf(document).map(([key, config]) => [id(key), { key, config }]))
    const changed: ProcessKey[] = []
    for (const [key] of entriesOf(store.remembered()))
      if (!wanted.has(id(key))) {
        memory.forget(idOfKey(key))
        changed.push(key)
      }
    for (const { key, config } of wanted.values()) {
      if (canonical(store.recall(key)) === canonical(config)) continue
      store.put(key, config)
      changed.push(key)
      // Until restored, a client's change is added to it rather than copied from the process.
      memory.setDrifting(idOfKey(key), !inSync(driftOf(registry, key, config)))
    }
    if (changed.length > 0)
      store.journal({
        ...{ by: 'etcd', requestId: `etcd-${revision}`, method: 'PUT', path: options.key },
        ...{ body: document, commands: [], status: 200, processes: changed.map(nameOf) },
      })
    return changed
  }

  /** Applies one desired revision: remembered, then restored or reported; progress published. */
  async function take(update: DesiredUpdate) {
    queued--
    const { revision } = update
    // Local changes the link has not been given yet are merged in, as the link merges its own.
    const unsent = store.revision() !== sent
    const merged = unsent ? mergeDesired(base, remembered(), update.document) : undefined
    const lost = [...new Set([...update.lost, ...(merged?.lost ?? [])])].sort()
    if (merged?.lost.length)
      log.warn({ revision, lost: merged.lost }, 'local desired changes lost to a newer etcd one')
    const changed = remember({ ...update, document: merged?.document ?? update.document })
    keep({ document: update.document, revision })
    if (merged && !sameDesired(merged.document, update.document)) {
      base = update.document // the link's: the changes are still to write on top of it
      if (queued === 0) unsentMerged()
    } else [sent, base] = [store.revision(), remembered()] // not a change to write back
    await store.sync()
    log.info(
      { revision, processes: changed.map(nameOf), lost },
      'desired document from etcd remembered',
    )
    if (lost.length > 0) hub.publish('desired.lost', { revision, processes: lost })
    const drifting = entriesOf(remembered()).filter(
      ([key, config]) => registry.has(idOfKey(key)) && !inSync(driftOf(registry, key, config)),
    )
    const report = (next: ApplyProgress) => ((progress = next), listener())
    if (drifting.length === 0) return report({ revision, state: 'converged', total: 0, steps: [] })
    if (mode !== 'on') {
      const steps = drifting.reduce((sum, [key, config]) => {
        const drift = driftOf(registry, key, config)
        return sum + (drift.ok ? drift.plan.steps.length : 0)
      }, 0)
      if (mode === 'report')
        for (const [key, config] of drifting) {
          const drift = driftOf(registry, key, config)
          const { ok } = drift
          const about = ok
            ? { ...shownPlan(drift.plan), total: drift.plan.steps.length } // as restore.ts words it
            : { refused: drift.refusal }
          hub.publish('drift.detected', { ...who(idOfKey(key)), ...about })
        }
      const reason = `--restore ${mode}: ${steps} steps of drift left to the operator, nothing sent`
      return report({
        revision,
        state: 'refused',
        total: 0,
        steps: [],
        refused: { field: 'restore', reason },
      })
    }
    const request = `etcd-${revision}`
    const follow = restoreProgress(hub, request, revision, report)
    try {
      const run = await restorer.restore(
        drifting.map(([key]) => key),
        request,
      )
      follow.end(run)
    } finally {
      follow.close()
    }
  }

  /** Keeps the last desired revision seen, for the merge after a restart. */
  function keep(revision: DesiredRevision | undefined) {
    const text = canonical(revision)
    if (revision === undefined || text === kept) return
    kept = text
    store.putMeta(SEEN, JSON.stringify(revision))
  }

  return {
    /** What the link starts from: the remembered document (unless there is none) and the base. */
    initial: () => ({
      desired: seen || entriesOf(remembered()).length > 0 ? remembered() : undefined,
      seen,
    }),
    /** Told when progress or drift may have changed (the observed key). */
    onChange(next: () => void) {
      listener = next
    },
    /** Told when local changes merged into a revision from etcd are to be written (changed()). */
    onUnsentMerged(next: () => void) {
      unsentMerged = next
    },
    /** A desired revision from etcd: taken after the ones before it. */
    take(update: DesiredUpdate) {
      queued++
      takes = takes
        .then(() => (closed ? undefined : take(update)))
        .catch((error: Error) => log.error({ err: error }, 'applying a desired document failed'))
    },
    /** The remembered document if it changed since last asked (a change accepted here). */
    changed(link: { seen: DesiredRevision | undefined }): DesiredDocument | undefined {
      keep(link.seen)
      // With revisions still to take, the link's document is ahead of this one: the last take
      // merges the change in instead (written now, it would overwrite them blindly).
      const revision = store.revision()
      if (revision === sent || queued > 0) return undefined
      sent = revision
      base = remembered()
      return base
    },
    /** Steps from live to remembered, over connected processes (a refused one counts one). */
    drift: () =>
      driftSamples(registry, store.remembered()).reduce(
        (sum, sample) => sum + (sample.steps ?? 1),
        0,
      ),
    progress: () => progress,
    /** Takes no more revisions (the store closes after the link). */
    close() {
      closed = true
    },
  }
}

export type DesiredSide = ReturnType<typeof desiredSide>
