// @ts-check
// GET /v1/events read with fetch, since EventSource cannot send a bearer token: the stream parsed
// as the SSE spec says, and the reconnection EventSource gave (after a pause, with Last-Event-ID).

/** @typedef {{ type: string, data: string, id: string }} StreamMessage */

/**
 * An SSE parser fed text as it arrives: calls `onMessage` for each complete event. Its `lastId`
 * (the last `id:` seen, as EventSource keeps it) and `retryMs` (the last `retry:`) outlive a chunk.
 * @param {string} lastId @param {(message: StreamMessage) => void} onMessage
 */
export function sseParser(lastId, onMessage) {
  let buffer = ''
  let type = ''
  let data = ''
  let id = lastId
  let skipLf = false
  const parser = {
    lastId,
    /** @type {number | undefined} */
    retryMs: undefined,
    /** @param {string} text */
    push(text) {
      // A line ends at CRLF, LF or CR: a CR ends it at once, and the LF of a CRLF cut in two
      // chunks is then no second line end.
      if (text === '') return
      if (skipLf && text.startsWith('\n')) text = text.slice(1)
      skipLf = text.endsWith('\r')
      buffer += text
      const lines = buffer.split(/\r\n|\n|\r/)
      buffer = lines.pop() ?? ''
      for (const line of lines) {
        if (line === '') {
          parser.lastId = id
          if (data !== '') onMessage({ type: type || 'message', data: data.slice(0, -1), id })
          type = data = ''
          continue
        }
        if (line.startsWith(':')) continue // a comment: the server's keep-alive
        const colon = line.indexOf(':')
        const field = colon === -1 ? line : line.slice(0, colon)
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
        if (field === 'event') type = value
        else if (field === 'data') data += `${value}\n`
        else if (field === 'id' && !value.includes('\0')) id = value
        else if (field === 'retry' && /^\d+$/.test(value)) parser.retryMs = Number(value)
      }
    },
  }
  return parser
}

/**
 * @typedef {object} FollowOptions
 * @property {() => string} url  read again for every connection (the page asks for rates only
 *   while it is visible)
 * @property {() => Record<string, string>} headers  read again for every connection
 * @property {number} retryMs  the pause before reconnecting, until the server sends `retry:`
 * @property {(message: StreamMessage) => void} onMessage
 * @property {(opened: { url: string, resumed: boolean }) => void} onOpen  connected to `url`:
 *   events flow from here (`resumed`: it said where it left off, so it misses none)
 * @property {() => void} onDrop  the stream ended or could not be opened: reconnecting
 * @property {(status: 401 | 403, reason: string, sent?: string) => Promise<void>} onRefused
 *   the token (`sent`: the Authorization header) was refused: resolves when there is another
 * @property {(url: string, status: number, reason: string) => void} [onFailed]  answered with
 *   another error (before the drop and the pause): `url` may be one the server does not take
 */

/**
 * Follows the stream for ever: reconnects after a drop, saying where it left off, and after a
 * refusal as soon as `onRefused` has another token. `sync()` reconnects at once, where it left
 * off, when `url()` is no longer the URL of the stream it follows (no drop, no pause), and says
 * whether it did.
 * @param {FollowOptions} options
 * @returns {{ sync(): boolean }}
 */
export function followEvents(options) {
  let lastId = ''
  let retryMs = options.retryMs
  /** The connection under way (asked or open), and what it asked for. */
  let active = /** @type {{ url: string, abort: AbortController } | undefined} */ (undefined)
  let switching = false
  const run = async () => {
    for (;;) {
      const url = options.url()
      const headers = { ...options.headers() }
      if (lastId !== '') headers['Last-Event-ID'] = lastId
      const abort = new AbortController()
      active = { url, abort }
      /** @type {Response | undefined} */
      const response = await fetch(url, { headers, signal: abort.signal }).catch(() => undefined)
      if (response?.status === 401 || response?.status === 403) {
        active = undefined
        const reason = await response.text().catch(() => '')
        await options.onRefused(response.status, reason, headers.Authorization)
        continue
      }
      const type = response?.headers.get('content-type') ?? ''
      if (response?.ok && response.body && type.startsWith('text/event-stream')) {
        options.onOpen({ url, resumed: lastId !== '' })
        const parser = sseParser(lastId, options.onMessage)
        try {
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
          for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
            parser.push(chunk.value)
        } catch {
          // the connection broke (or was let go for another URL): a drop like the stream's end
        }
        lastId = parser.lastId
        retryMs = parser.retryMs ?? retryMs
      } else if (response && !response.ok) {
        const reason = await response.text().catch(() => '')
        if (!abort.signal.aborted) options.onFailed?.(url, response.status, reason)
      } else await response?.body?.cancel().catch(() => undefined)
      active = undefined
      if (switching) {
        switching = false
        continue
      }
      options.onDrop()
      await new Promise((resolve) => setTimeout(resolve, retryMs))
    }
  }
  void run()
  return {
    sync() {
      if (!active || active.url === options.url() || switching) return false
      switching = true
      active.abort.abort()
      return true
    },
  }
}
