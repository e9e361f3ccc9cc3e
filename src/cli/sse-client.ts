// Reads a Server-Sent Events stream (GET /v1/events) as parsed events, for the CLI and tests.
import type { ControllerClient } from './controller-client.ts'

/** One event of the stream; `data` is its JSON payload. */
export type StreamEvent = { id?: string; event: string; data: Record<string, unknown> }

/**
 * Opens /v1/events at a URL (with `headers`: a token) or of a client (with its token); the
 * subscription is active once this resolves (the hub subscribes first). A refusal is an error
 * with the controller's text.
 */
export async function openEventStream(
  to: string | ControllerClient,
  signal: AbortSignal,
  headers = {},
) {
  const response =
    typeof to === 'string'
      ? await fetch(`${to}/v1/events`, { signal, headers })
      : await to.fetch('/v1/events', { signal, headers: to.headers })
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '')
    const said =
      typeof to === 'string' ? `${response.status}: ${text.trim()}` : to.refusal(response, text)
    throw new Error(`GET /v1/events: ${said}`)
  }
  return parseEvents(response.body.pipeThrough(new TextDecoderStream()))
}

/** Yields each event of an SSE text stream; comments (keep-alives) are skipped. */
export async function* parseEvents(text: ReadableStream<string>): AsyncGenerator<StreamEvent> {
  let buffer = ''
  for await (const chunk of text as unknown as AsyncIterable<string>) {
    buffer += chunk
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const fields = new Map<string, string>()
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue
        const colon = line.indexOf(':')
        fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''))
      }
      const event = fields.get('event')
      if (event === undefined) continue
      const data = JSON.parse(fields.get('data') ?? '{}') as Record<string, unknown>
      yield { id: fields.get('id'), event, data }
    }
  }
}
