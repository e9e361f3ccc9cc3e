// The simulator's traffic flags as a user types them: --traffic, --reader-pps, --traffic-macs.
import { MAX_TRAFFIC_PPS, READER_PPS } from './traffic.ts'

/** `--traffic PORT=PPS`: packets a second arriving on a phy port (`phy:0=20000`), or why not. */
export function parseTrafficFlag(
  text: string,
  phyPorts: number,
): { port: string; pps: number } | string {
  const match = /^phy:([0-9]+)=([0-9]+)$/.exec(text)
  if (!match)
    return `--traffic ${text}: expected PORT=PPS, a phy port and packets a second (phy:0=20000)`
  const port = `phy:${Number(match[1])}`
  if (Number(match[1]) >= phyPorts)
    return phyPorts === 0
      ? `--traffic ${text}: there are no phy ports (--phy-ports 0)`
      : `--traffic ${text}: no such port (phy:0 to phy:${phyPorts - 1})`
  const pps = Number(match[2])
  if (pps < 1 || pps > MAX_TRAFFIC_PPS)
    return `--traffic ${text}: packets a second must be an integer from 1 to ${MAX_TRAFFIC_PPS}`
  return { port, pps }
}

/** `--reader-pps PROC=PPS`: the most packets a second a process moves (`vf:2=5000`), or why not. */
export function parseReaderFlag(text: string): { process: string; pps: number } | string {
  const match = /^(primary|(?:nfv|vf|mirror):(-?[0-9]+))=([0-9]+)$/.exec(text)
  if (!match)
    return `--reader-pps ${text}: expected PROC=PPS, a process (primary, nfv:1, vf:2, mirror:3) and packets a second`
  const pps = Number(match[3])
  if (pps > READER_PPS)
    return `--reader-pps ${text}: packets a second must be an integer from 0 to ${READER_PPS}`
  const [kind = '', id] = match[1]!.split(':')
  return { process: id === undefined ? kind : `${kind}:${Number(id)}`, pps }
}

/** `--traffic-macs LIST`: destination MACs, comma-separated, as the classifier keeps them. */
export function parseMacList(text: string): string[] | string {
  const macs = text.split(',').map((mac) => mac.trim())
  const bad = macs.find((mac) => !/^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/.test(mac))
  if (bad !== undefined)
    return `--traffic-macs ${text}: ${bad === '' ? 'an empty entry' : `"${bad}" is not a MAC address`} (expected aa:bb:cc:dd:ee:ff,...)`
  return [...new Set(macs.map((mac) => mac.toUpperCase()))]
}
