// Reading the auth file (--auth-file): its own module, so that the YAML parser is loaded only when
// there is a file to read (the controller's start imports it then; 250 KB of bundle otherwise).
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { AuthFileError, clientsOf, type Client } from './clients.ts'

/** Reads and checks an auth file (a missing, unreadable or malformed one throws AuthFileError). */
export function readClients(file: string): Client[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new AuthFileError(`${file}: ${(error as Error).message}`)
  }
  let document: unknown
  try {
    document = parse(text)
  } catch (error) {
    throw new AuthFileError(`${file}: not YAML: ${(error as Error).message.split('\n')[0]}`)
  }
  return clientsOf(document, file)
}
