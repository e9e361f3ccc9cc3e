// How the client commands (topology, journal) reach the controller: --url, else $SPP_CTL_URL, else
// the default; over TCP (http:, https:) or the controller's API socket (unix:PATH); with a token.
import { readCredentials, type Credentials } from './token.ts'

/** The environment variable the controller's URL may come from; --url wins over it. */
export const URL_ENV = 'SPP_CTL_URL'
export const DEFAULT_URL = 'http://localhost:7777'

/** The lines of a command's --help that tell where the controller is. */
export const URL_HELP = `      --url URL           the controller: http://HOST:PORT, or unix:PATH for its
                          --api-socket (default $${URL_ENV}, else ${DEFAULT_URL})
`

/** Why the controller could not be reached or refused a request: fit to print. */
export class ClientError extends Error {
  override name = 'ClientError'
}

/** The controller could not be reached at all (refused, reset, no such socket): it may come back. */
export class UnreachableError extends ClientError {
  override name = 'UnreachableError'
}

/** One controller, as a command talks to it. */
export type ControllerClient = {
  /** The URL as the user gave it, and where it came from, for messages. */
  url: string
  /** What request URLs start with (`http://localhost` over a unix socket). */
  base: string
  /** The token's header (none without a token). */
  headers: Record<string, string>
  /** fetch(), over the socket the URL names; a connection that fails is a ClientError. */
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** One request; a non-2xx answer is a ClientError with the controller's text. */
  request<T>(method: string, path: string, body?: unknown): Promise<{ body: T; etag: string }>
  /** Says where a refused token came from, after the controller's text of a 401 or 403. */
  refusal(response: Response, text: string): string
}

/** Where the controller is: the flag, else the environment, else the default. */
export function controllerUrl(flag: string | undefined, env: NodeJS.ProcessEnv = process.env) {
  if (flag !== undefined) return { url: flag, from: '--url' }
  const value = env[URL_ENV]?.trim()
  return value ? { url: value, from: `$${URL_ENV}` } : { url: DEFAULT_URL, from: undefined }
}

/** The transport a URL names: its base for request URLs and the fetch that reaches it. */
async function transportOf(url: string, from: string | undefined) {
  if (url.startsWith('unix:')) {
    const socketPath = url.slice('unix:'.length)
    if (socketPath === '')
      throw new ClientError(`${from}: unix: needs a PATH (unix:/run/spp/api.sock)`)
    // Node's fetch cannot take a socket path; undici (its engine, as a package) can. Loaded only here.
    const { Agent, fetch } = await import('undici')
    const dispatcher = new Agent({ connect: { socketPath } })
    const viaSocket = (input: string, init: RequestInit = {}) =>
      fetch(input, { ...(init as object), dispatcher }) as unknown as Promise<Response>
    return { base: 'http://localhost', fetch: viaSocket }
  }
  if (!/^https?:\/\/[^/]/.test(url))
    throw new ClientError(
      `${from}: expected http://HOST:PORT, https://HOST:PORT or unix:PATH, got ${JSON.stringify(url)}`,
    )
  return {
    base: url.replace(/\/+$/, ''),
    fetch: (input: string, init?: RequestInit) => fetch(input, init),
  }
}

/**
 * The controller a command's `--url` and `--token-file` name (else $SPP_CTL_URL, $SPP_CTL_TOKEN);
 * `warn` prints what is allowed but unwise (a token file others may read).
 */
export async function connectTo(
  values: { url?: string; 'token-file'?: string },
  warn: (text: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ControllerClient> {
  const { url, from } = controllerUrl(values.url, env)
  const transport = await transportOf(url, from ?? '--url')
  const credentials = await readCredentials(values['token-file'], env, warn)
  const shown = from === `$${URL_ENV}` ? `${url} (from $${URL_ENV})` : url
  return clientOf(shown, transport, credentials)
}

function clientOf(
  url: string,
  transport: Awaited<ReturnType<typeof transportOf>>,
  { headers, from }: Credentials,
): ControllerClient {
  const client: ControllerClient = {
    url,
    base: transport.base,
    headers,
    fetch: (path, init) =>
      transport.fetch(transport.base + path, init).catch((error: Error) => {
        if (error.name === 'AbortError') throw error
        const cause = (error.cause as Error | undefined)?.message ?? error.message
        throw new UnreachableError(`cannot reach the controller at ${url}: ${cause}`)
      }),
    async request<T>(method: string, path: string, body?: unknown) {
      const response = await client.fetch(path, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      })
      const text = await response.text()
      if (!response.ok)
        throw new ClientError(`${method} ${path}: ${client.refusal(response, text)}`)
      return {
        body: (text === '' ? undefined : JSON.parse(text)) as T,
        etag: response.headers.get('etag') ?? '*',
      }
    },
    refusal(response, text) {
      const said = `${response.status}: ${text.trim()}`
      const refused = response.status === 401 || response.status === 403
      return refused && from ? `${said} (the token came from ${from})` : said
    },
  }
  return client
}
