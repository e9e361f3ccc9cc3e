import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { processConnection } from '../src/actors/process-connection.ts'
import { chartBlock, documentedChart, mermaidOf } from '../scripts/statechart.ts'

test('docs/design.md shows the statechart the machine has (npx tsx scripts/statechart.ts --write)', () => {
  assert.is(documentedChart(), chartBlock())
})

test('the drawing names every state and the reply deadline', () => {
  const chart = mermaidOf(processConnection)
  for (const state of ['identifying', 'ready', 'awaitingReply', 'discardingLateReply', 'closed'])
    assert.ok(chart.includes(state), state)
  assert.match(chart, /awaitingReply --> discardingLateReply : after replyTimeout/)
})

test.run()
