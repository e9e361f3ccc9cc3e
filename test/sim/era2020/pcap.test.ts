// The pcap model against spp-protocol-2020 §3.2 and §8, byte for byte.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { PcapModel } from '../../../src/sim/era2020/pcap.ts'

const text = (reply: Buffer | undefined) => reply!.toString('latin1')
const SUCCESS = '{ "results": [ { "result": "success" } ] }'
const error = (message: string) =>
  `{ "results": [ { "result": "error", "error_details": { "message": "${message}" } } ] }`
const STATUS = (status: string, filename: string) =>
  `{ "results": [ { "result": "success" } ], "info": { "client-id": 4, "status": "${status}", "master-lcore": 1, "core": [ { "core": 2, "role": "receive", "rx_port": [ { "port": "phy:0" } ] }, { "core": 3, "role": "write", "filename": "${filename}" } ] } }`

test('pcap handshake: spaced JSON, no padding, process_type pcap', () => {
  const reply = new PcapModel({ clientId: 4 }).handle('_get_client_id').reply!
  assert.is(
    text(reply),
    '{ "results": [ { "result": "success" } ], "client_id": 4, "process_type": "pcap" }',
  )
  assert.is(reply.length, 82)
})

test('pcap start and stop answer success and show in status, with the capture file name', () => {
  const pcap = new PcapModel({ now: () => new Date('2020-06-25T10:20:30Z') })
  assert.is(text(pcap.handle('status').reply), STATUS('idle', ''))
  assert.is(text(pcap.handle('start').reply), SUCCESS)
  assert.is(text(pcap.handle('start').reply), SUCCESS) // also when already running
  assert.is(
    text(pcap.handle('status').reply),
    STATUS('running', '/tmp/spp_pcap.20200625102030.phy0.1.1.pcap.lz4'),
  )
  assert.is(text(pcap.handle('stop').reply), SUCCESS)
  assert.is(text(pcap.handle('status').reply), STATUS('idle', ''))
})

test('pcap refuses extra tokens and unknown words with the 2020 texts; exit replies, then ends', () => {
  const pcap = new PcapModel()
  const cases: [string, string][] = [
    ['start now', 'Wrong message format'],
    ['status 1', 'Wrong message format'],
    ['_get_client_id x', 'Wrong message format'],
    ['capture', 'Invalid value (command)'],
    ['a b c d e f g h i', 'Wrong message format'],
  ]
  for (const [line, message] of cases) assert.is(text(pcap.handle(line).reply), error(message))
  const exit = pcap.handle('exit')
  assert.is(text(exit.reply), SUCCESS)
  assert.ok(exit.exit)
})

test.run()
