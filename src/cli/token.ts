// The bearer token of the client commands (topology, journal): --token-file FILE, else the
// environment's SPP_CTL_TOKEN. Never printed: an error says where a token came from, never what it is.
import { readFile, stat } from 'node:fs/promises'

/** The environment variable a token may come from; a --token-file wins over it. */
export const TOKEN_ENV = 'SPP_CTL_TOKEN'

// RFC 6750's b64token, as the controller reads it after `Bearer ` (src/http/auth.ts).
const TOKEN = /^[\w.~+/-]+=*$/

/** The lines of a command's --help that tell where its token comes from. */
export const TOKEN_HELP = `      --token-file FILE   the bearer token (spp-ctl auth add), for a controller with
                          --auth-file; else $${TOKEN_ENV}; keep the file to yourself (chmod 600)
`

/** Why no token could be read: fit to print, and never containing the token. */
export class TokenError extends Error {
  override name = 'TokenError'
}

/** The Authorization header to send (none without a token), and where its token came from. */
export type Credentials = { headers: Record<string, string>; from?: string }

/**
 * The Authorization header of a --token-file or $SPP_CTL_TOKEN (file first), or no header when
 * neither is given: a controller without --auth-file needs none. Surrounding blanks (the file's
 * line end) are not part of a token. A file others may read is used, with a `warn`ing.
 */
export async function readCredentials(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  warn: (text: string) => void = () => {},
): Promise<Credentials> {
  let token: string
  let from: string
  if (file !== undefined) {
    from = `--token-file ${file}`
    token = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new TokenError(`cannot read ${from}: ${error.message}`)
    })
  } else {
    from = `$${TOKEN_ENV}`
    token = env[TOKEN_ENV] ?? ''
    if (token.trim() === '') return { headers: {} }
  }
  token = token.trim()
  if (token === '') throw new TokenError(`${from} is empty`)
  if (!TOKEN.test(token))
    throw new TokenError(`${from} holds no token: one line of letters, digits and - . _ ~ + /`)
  if (file !== undefined) {
    const { mode } = await stat(file)
    const octal = (mode & 0o777).toString(8).padStart(4, '0')
    if ((mode & 0o077) !== 0)
      warn(`${from} may be read by others (mode ${octal}): chmod 600 ${file}`)
  }
  return { headers: { Authorization: `Bearer ${token}` }, from }
}
