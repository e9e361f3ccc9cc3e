// `spp-ctl journal --follow`'s wait: the controller's event stream says when a change is journaled.
import { openEventStream } from './sse-client.ts'

/**
 * The event stream's journal.entry events as a wait: `next()` resolves at the next one (or at once
 * if one came meanwhile); `live` turns false when the stream cannot be opened or ends.
 */
export async function journalEvents(url: string, headers: Record<string, string>) {
  const state = { live: false, pending: false, wake: undefined as (() => void) | undefined }
  const signal = new AbortController().signal
  const events = await openEventStream(url, signal, headers).catch(() => undefined)
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
      woken()
    })()
  }
  return {
    get live() {
      return state.live
    },
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
