// How the client commands (topology, journal) reach the controller: --url, else $SPP_CTL_URL, else
// the default; over TCP (http:, https:) or the controller's API socket (unix:PATH); with a token.
import { readCredentials, type Credentials } from './token.ts'

/** The environment variable the controller's URL may come from; --url wins over it. */
export const URL_ENV = 'SPP_CTL_URL'
export const DEFAULT_URL = 'http://localhost:7777'

/** The lines of a command's --help that tell where the controller is. */
export const URL_HELP = `      --url URL           the controller: http://HOST:PORT, or unix:PATH for its
                          --api-socket (default $${URL_ENV}, else ${DEFAULT_URL})
      --quiet             leave out the first line on stderr, which names the controller
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

/**
 * The line a client command prints first on stderr (stdout stays the command's output, JSON
 * included): which controller it talks to, and why that one. Another controller on the default
 * port, or a $SPP_CTL_URL forgotten in the shell, is seen before anything is changed.
 */
export const controllerLine = ({ url, from }: ReturnType<typeof controllerUrl>) =>
  `controller ${url} (${from === undefined ? 'default' : from === '--url' ? from : `from ${from}`})`

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

/** What a command's client prints on stderr: the controller line, and warnings. */
export type ClientOutput = {
  /** Prints a line as it is (the controller line). */
  say: (line: string) => void
  /** Prints what is allowed but unwise (a token file others may read). */
  warn: (text: string) => void
}

/**
 * The controller a command's `--url` and `--token-file` name (else $SPP_CTL_URL, $SPP_CTL_TOKEN).
 * Which one is said on stderr, unless `--quiet`, as the first line, when the first request is
 * made: a mistake in the command line, refused before, says only what it is.
 */
export async function connectTo(
  values: { url?: string; 'token-file'?: string; quiet?: boolean },
  { say, warn }: ClientOutput,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ControllerClient> {
  const where = controllerUrl(values.url, env)
  const { url, from } = where
  const transport = await transportOf(url, from ?? '--url')
  const warnings: string[] = []
  const credentials = await readCredentials(values['token-file'], env, (w) => warnings.push(w))
  const shown = from === `$${URL_ENV}` ? `${url} (from $${URL_ENV})` : url
  let told = false
  const tell = () => {
    if (told) return
    told = true
    if (!values.quiet) say(controllerLine(where))
    for (const text of warnings) warn(text)
  }
  return clientOf(shown, transport, credentials, tell)
}

/**
 * Why a connection failed, in words that say what to do: a port that answers something other
 * than HTTP is most likely a process port (the primary's or the secondaries').
 */
function unreachable(url: string, error: Error): UnreachableError {
  const cause = (error.cause as Error | undefined) ?? error
  if (cause.name === 'HTTPParserError')
    return new UnreachableError(
      `cannot reach the controller at ${url}: it answers, but not in HTTP (${cause.message})\n` +
        "A process port answers so (spp-ctl's --pri-port, default 5555, and --sec-port, 6666): " +
        "the REST API is on spp-ctl's --api-port (default 7777)",
    )
  return new UnreachableError(`cannot reach the controller at ${url}: ${cause.message}`)
}

function clientOf(
  url: string,
  transport: Awaited<ReturnType<typeof transportOf>>,
  { headers, from }: Credentials,
  tell: () => void,
): ControllerClient {
  const client: ControllerClient = {
    url,
    base: transport.base,
    headers,
    fetch: (path, init) => {
      tell()
      return transport.fetch(transport.base + path, init).catch((error: Error) => {
        if (error.name === 'AbortError') throw error
        throw unreachable(url, error)
      })
    },
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
