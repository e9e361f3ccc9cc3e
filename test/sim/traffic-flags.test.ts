// The simulator's traffic flags as typed: what each takes, and a refusal naming the flag otherwise.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseMacList, parseReaderFlag, parseTrafficFlag } from '../../src/sim/traffic-flags.ts'

test('--traffic PORT=PPS: a phy port of the host and a rate', () => {
  assert.equal(parseTrafficFlag('phy:0=20000', 2), { port: 'phy:0', pps: 20000 })
  assert.equal(parseTrafficFlag('phy:01=5', 2), { port: 'phy:1', pps: 5 })
  const refused: [string, number, RegExp][] = [
    ['phy:2=100', 2, /^--traffic phy:2=100: no such port \(phy:0 to phy:1\)$/],
    ['phy:0=100', 0, /^--traffic phy:0=100: there are no phy ports/],
    ['ring:0=100', 2, /^--traffic ring:0=100: expected PORT=PPS, a phy port/],
    ['phy:0', 2, /^--traffic phy:0: expected PORT=PPS/],
    ['phy:0=fast', 2, /^--traffic phy:0=fast: expected PORT=PPS/],
    ['phy:0=0', 2, /^--traffic phy:0=0: packets a second must be an integer from 1 to 100000000$/],
    ['phy:0=100000001', 2, /packets a second must be an integer from 1 to 100000000$/],
    ['phy:0=-5', 2, /expected PORT=PPS/],
  ]
  for (const [text, ports, message] of refused) {
    const parsed = parseTrafficFlag(text, ports)
    assert.type(parsed, 'string', text)
    assert.match(parsed as string, message)
  }
})

test('--reader-pps PROC=PPS: a process and its pace, 0 included', () => {
  assert.equal(parseReaderFlag('vf:2=5000'), { process: 'vf:2', pps: 5000 })
  assert.equal(parseReaderFlag('nfv:01=0'), { process: 'nfv:1', pps: 0 })
  assert.equal(parseReaderFlag('primary=100'), { process: 'primary', pps: 100 })
  assert.equal(parseReaderFlag('mirror:3=7'), { process: 'mirror:3', pps: 7 })
  for (const text of ['vf=10', 'pcap:4=10', 'vf:2', 'vf:2=x', 'vf:2=1000000001', 'vf:2=-1']) {
    const parsed = parseReaderFlag(text)
    assert.type(parsed, 'string', text)
    assert.ok((parsed as string).startsWith(`--reader-pps ${text}: `), parsed as string)
  }
})

test('--traffic-macs LIST: MAC addresses, comma-separated, kept upper case once each', () => {
  assert.equal(parseMacList('52:54:00:00:00:0a,fa:16:3e:7d:cc:35'), [
    '52:54:00:00:00:0A',
    'FA:16:3E:7D:CC:35',
  ])
  assert.equal(parseMacList('aa:bb:cc:dd:ee:ff, AA:BB:CC:DD:EE:FF'), ['AA:BB:CC:DD:EE:FF'])
  assert.match(
    parseMacList('52:54:00:00:00') as string,
    /^--traffic-macs 52:54:00:00:00: "52:54:00:00:00" is not a MAC address/,
  )
  assert.match(parseMacList('aa:bb:cc:dd:ee:ff,') as string, /an empty entry/)
  assert.match(parseMacList('default') as string, /"default" is not a MAC address/)
})

test.run()
