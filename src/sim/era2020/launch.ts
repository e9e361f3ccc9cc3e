// What a 2020 primary's `launch` starts: the program's kind, and the controller it connects to.
import type { Launch } from '../wire.ts'

const PROGRAMS = { spp_nfv: 'nfv', spp_vf: 'vf', spp_mirror: 'mirror', spp_pcap: 'pcap' } as const

/** The secondary a `launch` starts, when its program is known and its app args say `-s IP:PORT`. */
export function launchOf(clientId: number, name: string, args: string[]): Launch | undefined {
  const kind = PROGRAMS[name as keyof typeof PROGRAMS]
  const app = args.slice(args.indexOf('--') + 1)
  const server = /^(.+):([0-9]+)$/.exec(app[app.indexOf('-s') + 1] ?? '')
  if (!kind || !args.includes('--') || !app.includes('-s') || !server) return undefined
  return { kind, clientId, host: server[1]!, port: Number(server[2]) }
}
