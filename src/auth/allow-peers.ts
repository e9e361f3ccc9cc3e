// --allow-peers: which addresses may connect to the process ports (the processes have no token).
import { BlockList, isIP } from 'node:net'
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os'

/** Loopback, IPv4 and IPv6: always allowed unless --allow-peers says otherwise. */
export const LOOPBACK = ['127.0.0.0/8', '::1/128']

/** Who may connect: `any`, or a list of networks in CIDR notation. */
export type AllowedPeers = 'any' | string[]

/** One network as `ADDRESS/PREFIX` (an address alone is itself: /32 or /128), or an error text. */
function network(text: string): { address: string; prefix: number; family: 4 | 6 } | string {
  const [address = '', prefix, extra] = text.split('/')
  const family = isIP(address) as 0 | 4 | 6
  if (family === 0 || extra !== undefined) return `not an address or a CIDR network: ${text}`
  const bits = family === 4 ? 32 : 128
  if (prefix === undefined) return { address, prefix: bits, family }
  const length = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN
  if (!(length <= bits)) return `the prefix of ${text} must be 0 to ${bits}`
  return { address, prefix: length, family }
}

/** Reads the flag's text: `any`, or CIDR networks separated by commas. Throws a text for exit 2. */
export function parseAllowedPeers(text: string): AllowedPeers {
  if (text.trim() === 'any') return 'any'
  const networks = text.split(',').map((part) => part.trim())
  for (const part of networks) {
    const parsed = network(part)
    if (typeof parsed === 'string') throw new Error(parsed)
  }
  return networks
}

/**
 * The default: loopback, and the network of the bind address's own interface (its address and
 * netmask), since SPP's multi-node setup binds the controller to the address the other hosts
 * reach; bound to 0.0.0.0, the networks of every interface.
 */
export function defaultAllowedPeers(
  host: string,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  const own = Object.values(interfaces)
    .flatMap((entries) => entries ?? [])
    .filter(
      (entry) => !entry.internal && entry.cidr && (host === '0.0.0.0' || entry.address === host),
    )
    .map((entry) => entry.cidr!)
  return [...LOOPBACK, ...own]
}

/** A check of peer addresses (IPv4-mapped IPv6 addresses count as IPv4). */
export function peerFilter(allowed: AllowedPeers): (address: string | undefined) => boolean {
  if (allowed === 'any') return () => true
  const list = new BlockList()
  for (const text of allowed) {
    const parsed = network(text)
    if (typeof parsed === 'string') throw new Error(parsed)
    list.addSubnet(parsed.address, parsed.prefix, parsed.family === 4 ? 'ipv4' : 'ipv6')
  }
  return (address) => {
    if (address === undefined) return false // a socket already gone
    return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')
  }
}
