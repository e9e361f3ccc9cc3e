// Confirmed applies: an apply made with `confirm_within` is undone when its time runs out, unless
// it is confirmed first. One at a time, kept in the state directory from before its first step, so
// that a controller that restarts with one pending undoes it at start (it was never confirmed).
import type { Logger } from 'pino'
import { ControllerError } from '../protocol/errors.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { Store } from '../store/store.ts'
import { runBy, type Applier } from '../topology/apply.ts'
import type { DesiredDocument } from '../topology/document.ts'
import { entriesOf } from '../topology/process-config.ts'
import { processesOf } from '../topology/undo.ts'

/** The time and a timer: node's, or a test's that fires when the test says. */
export type Clock = {
  /** ms since the epoch */
  now(): number
  /** Calls `callback` once, after `ms`; returns how to cancel it. */
  after(ms: number, callback: () => void): () => void
}

export const NODE_CLOCK: Clock = {
  now: () => Date.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms)
    return () => clearTimeout(timer)
  },
}

/** How a confirmation ended, as spp_apply_confirmations_total counts it. */
export type ConfirmationOutcome = 'confirmed' | 'expired' | 'undone_at_start'

/** The apply waiting for its confirmation, as kept (meta `apply.confirmation`). */
export type Pending = {
  apply: string
  by: string
  /** ms since the epoch; until the apply's steps are over, its start plus the time given */
  deadline: number
  /** seconds given to confirm, from the end of the apply */
  within: number
  /** the applied processes as they were before: what an undo brings them back to */
  before: DesiredDocument
  /** false while the apply's steps run */
  armed: boolean
}

/** What GET /v1/topology shows of a pending confirmation. */
export type ConfirmationShown = {
  apply: string
  by: string
  deadline: string
  seconds_left: number
  processes: string[]
}

const KEY = 'apply.confirmation'

type Options = {
  /** Where the pending confirmation is kept (none with --state-dir none: then only in memory). */
  store?: Store
  applier: () => Applier
  hub: EventHub
  log: Logger
  clock?: Clock
  onOutcome?: (outcome: ConfirmationOutcome) => void
}

/**
 * Starts the confirmations; one found pending in the store is undone at once: what is remembered
 * of its processes goes back to what they were before, and each is restored to it (--restore) as
 * it connects.
 */
export function startConfirmations(options: Options) {
  const { store, hub, log, clock = NODE_CLOCK, onOutcome = () => {} } = options
  let pending: Pending | undefined
  let cancel: (() => void) | undefined
  let expiring = false

  const save = async (value: Pending | undefined) => {
    pending = value
    if (!store) return
    store.putMeta(KEY, value && JSON.stringify(value))
    await store.sync()
  }

  const left = (p: Pending) => Math.max(0, Math.ceil((p.deadline - clock.now()) / 1000))

  async function expire() {
    const was = pending
    if (!was || expiring) return
    expiring = true
    cancel = undefined
    log.warn({ apply: was.apply, by: was.by }, 'apply not confirmed in time: undoing it')
    hub.publish('apply.expired', { apply: was.apply, by: was.by })
    onOutcome('expired')
    try {
      await options.applier().undo(was.before, was.apply, was.by)
      await save(undefined)
    } catch (error) {
      // Kept: a restart undoes it then (an undo that failed at once, as the store did).
      log.error({ err: error, apply: was.apply }, 'the undo of an unconfirmed apply failed')
    } finally {
      expiring = false
    }
  }

  const saved = store?.meta(KEY)
  if (saved !== undefined && store) {
    const was = JSON.parse(saved) as Pending
    const processes = processesOf(was.before)
    // One synchronous run: the document goes back and the confirmation goes, in one transaction.
    for (const [key, config] of entriesOf(was.before)) store.put(key, config)
    store.putMeta(KEY, undefined)
    store.journal(
      {
        ...{ by: runBy('expired', `${was.apply}-undo`, was.by), requestId: `${was.apply}-undo` },
        method: 'POST',
        ...{ path: '/v1/topology/apply', commands: [], status: 200, processes },
      },
      { by: was.by, what: 'expired', summary: { undo: processes.length } },
    )
    store.sync().catch(() => undefined) // a failed commit is the store's to report
    log.warn(
      { apply: was.apply, by: was.by, processes },
      'a confirmation was pending when the controller stopped: the apply is undone, each process restored to what it was before as it connects',
    )
    hub.publish('apply.expired', { apply: was.apply, by: was.by, at_start: true })
    onOutcome('undone_at_start')
  }

  return {
    /** The confirmation pending now, if any. */
    pending(): ConfirmationShown | undefined {
      if (!pending) return undefined
      const { apply, by, deadline, before } = pending
      const time = new Date(deadline).toISOString()
      const processes = processesOf(before)
      return { apply, by, deadline: time, seconds_left: left(pending), processes }
    },

    /** Why no apply may start now: one waits for its confirmation. */
    refusal(): ControllerError | undefined {
      if (!pending) return undefined
      return new ControllerError(
        'CONFIRMATION_PENDING',
        `apply ${pending.apply} waits for its confirmation (${left(pending)} s left): confirm it (POST /v1/topology/confirm) or let it be undone first`,
      )
    },

    /** Keeps a confirmed apply's record before its first step: a crash from then on undoes it. */
    async begin(apply: string, by: string, within: number, before: DesiredDocument) {
      const deadline = clock.now() + within * 1000
      await save({ apply, by, deadline, within, before, armed: false })
    },

    /** The apply's steps are over, some done: its time to be confirmed starts now. */
    async arm(apply: string) {
      if (pending?.apply !== apply) return
      const deadline = clock.now() + pending.within * 1000
      await save({ ...pending, deadline, armed: true })
      cancel = clock.after(pending.within * 1000, () => void expire())
      const { by, within } = pending
      const time = new Date(deadline).toISOString()
      hub.publish('apply.confirm_pending', { apply, by, deadline: time, seconds: within })
      log.info({ apply, by, deadline: time }, 'apply waits for its confirmation')
    },

    /** The apply's steps were all undone (or none done): nothing is left to confirm. */
    async drop(apply: string) {
      if (pending?.apply === apply) await save(undefined)
    },

    /** POST /v1/topology/confirm: the pending apply stays. */
    async confirm(by: string) {
      if (!pending || !pending.armed || expiring)
        throw new ControllerError(
          'NOTHING_TO_CONFIRM',
          // Once undone, the confirmation is gone while its end is still being synced.
          expiring && pending
            ? `apply ${pending.apply} was not confirmed in time: it is being undone`
            : 'no apply waits for a confirmation',
        )
      cancel?.()
      cancel = undefined
      const { apply } = pending
      await save(undefined)
      log.info({ apply, by }, 'apply confirmed')
      hub.publish('apply.confirmed', { apply, by })
      onOutcome('confirmed')
      return { apply }
    },

    /** Stops the timer (the controller stops): a restart undoes the apply. */
    close() {
      cancel?.()
      cancel = undefined
    },
  }
}

export type Confirmations = ReturnType<typeof startConfirmations>
