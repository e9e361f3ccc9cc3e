// Scripted 2020-era SPP processes over raw loopback sockets (until the 2020 simulator lands).
import { connect, type Socket } from 'node:net'
import { once } from 'node:events'
import { registrations, type Harness } from './harness.ts'

/** A primary/nfv reply of 19.11 and later: the text NUL-padded to 32768 bytes. */
export const pad = (text: string, frame = 32768) => {
  const bytes = Buffer.alloc(frame)
  bytes.write(text, 'latin1')
  return bytes
}
/** vf/mirror/pcap spaced JSON. */
export const SUCCESS = '{ "results": [ { "result": "success" } ] }'
export const spacedId = (id: number, type: string) =>
  `{ "results": [ { "result": "success" } ], "client_id": ${id}, "process_type": "${type}" }`
export const nfvId = (id: number) =>
  `{"results":[{"result":"success"}],"client_id":${id},"process_type":"nfv"}`

/** What a peer does with one command: bytes to send (padded or not), and whether it then exits. */
export type PeerAnswer = { reply: Buffer | string; exit?: boolean } | Buffer | string
export type Peer = { socket: Socket; received: string[]; close(): void }

/**
 * Connects to a controller port and answers each command with `answer(line)`. Every reply is
 * written in two pieces split at `splitAt` (a byte offset), so framing is exercised too.
 */
export async function scriptedPeer(
  port: number,
  answer: (line: string) => PeerAnswer,
  splitAt = 1,
): Promise<Peer> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  const received: string[] = []
  socket.on('data', (chunk: Buffer) => {
    const line = chunk.toString('latin1')
    received.push(line)
    const a = answer(line)
    const { reply, exit } = typeof a === 'string' || Buffer.isBuffer(a) ? { reply: a } : a
    const bytes = typeof reply === 'string' ? Buffer.from(reply, 'latin1') : reply
    const at = Math.min(splitAt, bytes.length)
    socket.write(bytes.subarray(0, at))
    socket.write(bytes.subarray(at))
    if (exit) socket.end()
  })
  socket.on('error', () => undefined)
  return { socket, received, close: () => socket.destroy() }
}

export const NFV_STATUS =
  '{"client-id":1,"status":"running","master-lcore":1,"lcores":[1,2],"ports":["phy:0","phy:0 nq 1","ring:0"],"patches":[{"src":"phy:0","dst":"ring:0"}]}'
export const VF_STATUS =
  '{ "results": [ { "result": "success" } ], "info": { "client-id": 2, "phy": [ "0", "1" ], "vhost": [  ], "ring": [ "0" ], "master-lcore": 1, "core": [ { "core": 2, "name": "cls", "type": "classifier", "rx_port": [ { "port": "phy:0", "vlan": { "operation": "none", "id": 0, "pcp": 0 } } ], "tx_port": [ { "port": "ring:0", "vlan": { "operation": "none", "id": 0, "pcp": 0 } } ] }, { "core": 3, "type": "unuse" } ], "classifier_table": [  ] } }'
export const MIRROR_STATUS =
  '{ "results": [ { "result": "success" } ], "info": { "client-id": 3, "phy": [ "0" ], "vhost": [  ], "ring": [ "0", "1" ], "master-lcore": 1, "core": [ { "core": 2, "type": "unuse" } ] } }'
export const PCAP_STATUS =
  '{ "results": [ { "result": "success" } ], "info": { "client-id": 4, "status": "idle", "master-lcore": 1, "core": [ { "core": 2, "role": "receive", "rx_port": [ { "port": "phy:0" } ] }, { "core": 3, "role": "write", "filename": "" } ] } }'
export const PRIMARY_STATUS =
  '{"master-lcore":0,"lcores":[0,1],"forwarder":{"status":"idling","ports":["phy:0","ring:0"],"patches":[]},"phy_ports":[{"id":0,"eth":"56:48:4f:53:54:00","rx":0,"tx":0,"tx_drop":0,"nof_queues":{"rx":1,"tx":1},"flow":[]}],"ring_ports":[{"id":0,"rx":0,"rx_drop":0,"tx":0,"tx_drop":0},{"id":1,"rx":0,"rx_drop":0,"tx":0,"tx_drop":0},{"id":2,"rx":0,"rx_drop":0,"tx":0,"tx_drop":0},{"id":3,"rx":0,"rx_drop":0,"tx":0,"tx_drop":0}],"pipes":[]}'

const verb = (line: string) => line.split(' ')[0] ?? ''
const result = (command: string, extra = '') =>
  pad(`{"result":"succeeded","command":"${command}"${extra}}`)

/** A 19.11 nfv: JSON handshake, JSON results, 32768-byte frames. */
export const nfv2020 =
  (id: number) =>
  (line: string): PeerAnswer => {
    switch (verb(line)) {
      case '_get_client_id':
        return pad(nfvId(id))
      case 'status':
        return pad(NFV_STATUS.replace('"client-id":1', `"client-id":${id}`))
      case 'add':
      case 'del':
        return result(verb(line), `,"port":"${line.split(' ')[1]}"`)
      case 'patch':
        return line === 'patch reset' ? pad('patch\0reset') : result('patch')
      case 'exit':
        return { reply: result('exit'), exit: true }
      default:
        return result(verb(line))
    }
  }

/** A 19.11 vf, mirror or pcap: spaced JSON, string port indexes, `exit` answered. */
export const spaced2020 =
  (id: number, type: 'vf' | 'mirror' | 'pcap') =>
  (line: string): PeerAnswer => {
    if (line === '_get_client_id') return spacedId(id, type)
    if (line === 'status')
      return type === 'vf' ? VF_STATUS : type === 'mirror' ? MIRROR_STATUS : PCAP_STATUS
    if (line === 'exit') return { reply: SUCCESS, exit: true }
    return SUCCESS
  }

/** A 19.11 primary: compact status with lcores, JSON results, flow replies. */
export const primary2020 = (line: string): PeerAnswer => {
  const v = verb(line)
  if (v === 'status') return pad(PRIMARY_STATUS)
  if (v === 'flow')
    return pad('{"result": "success", "message": "Flow rule #0 created", "rule_id": "0"}')
  if (v === 'add' || v === 'del') return result(v, `,"port":"${line.split(' ')[1]}"`)
  if (line === 'patch reset') return pad('patch\0reset')
  return result(v)
}

/** Connects scripted 2020 peers and waits until the controller has registered all of them. */
export async function connectPeers(
  h: Harness,
  specs: [number, (line: string) => PeerAnswer][],
  splitAt = 1,
): Promise<Peer[]> {
  const registered = registrations(h.controller, specs.length)
  const connected = await Promise.all(
    specs.map(([port, answer]) => scriptedPeer(port, answer, splitAt)),
  )
  await registered
  return connected
}
