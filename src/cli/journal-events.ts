// `spp-ctl journal --follow`'s wait: the controller's event stream says when a change is journaled.
import type { ControllerClient } from './controller-client.ts'
import { openEventStream } from './sse-client.ts'

/**
 * The event stream's journal.entry events as a wait: `next()` resolves at the next one (or at once
 * if one came meanwhile); `live` turns false when the stream cannot be opened or ends, and `ended`
 * says it ended after it was open (the controller went away or restarted).
 */
export async function journalEvents(client: ControllerClient) {
  const state = {
    live: false,
    ended: false,
    pending: false,
    wake: undefined as (() => void) | undefined,
  }
  const abort = new AbortController()
  const events = await openEventStream(client, abort.signal).catch(() => undefined)
  const woken = () => {
    state.pending = true
    state.wake?.()
  }
  if (events) {
    state.live = true
    void (async () => {
      try {
        for await (const { event } of events) if (event === 'journal.entry') woken()
      } catch {
        // the stream broke: polling takes over
      }
      state.live = false
      state.ended = !abort.signal.aborted
      woken()
    })()
  }
  return {
    get live() {
      return state.live
    },
    get ended() {
      return state.ended
    },
    /** Stops listening. */
    close: () => abort.abort(),
    next: () =>
      new Promise<void>((resolve) => {
        if (state.pending) {
          state.pending = false
          return resolve()
        }
        state.wake = () => {
          state.pending = false
          state.wake = undefined
          resolve()
        }
      }),
  }
}
