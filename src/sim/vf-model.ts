// spp_vf and spp_mirror as a simulator model: one command line in, the process's reply out.
import { classifierTable, component, port, type Outcome } from './vf-decode.ts'
import { renderInfo } from './vf-render.ts'
import { VfState } from './vf-state.ts'
import { Rejected, reject } from './vf-tokens.ts'
import { errorReply, jsonString, successReply, type Answer, type SimModel } from './wire.ts'

const json = (text: string): Answer => ({ reply: Buffer.from(text, 'latin1') })
const answer = (outcome: Outcome): Answer =>
  outcome === 'hang' ? { hang: true } : json(successReply())

/**
 * spp_vf and spp_mirror: one decoder for both, the same rules, messages and reply bytes as the real
 * processes (../shared/spp-protocol.md 4.4 to 4.7), including their traps: a component started on
 * the main lcore hangs the process, and a ring the primary does not have breaks every later change.
 */
export class VfModel extends VfState implements SimModel {
  isStatus = (line: string) => line.split(' ').filter(Boolean)[0] === 'status'

  handle(line: string): Answer {
    const tokens = line.split(' ').filter(Boolean)
    try {
      if (tokens.length > 8) reject('bad message format')
      const single = () => tokens.length === 1 || reject('bad message format')
      switch (tokens[0]) {
        case '_get_client_id':
          single()
          return json(
            successReply(
              ['client_id', String(this.clientId)],
              ['process_type', jsonString(this.kind)],
            ),
          )
        case 'status':
          single()
          return json(successReply(['info', renderInfo(this)]))
        case 'exit':
          single()
          return { exit: true } // no reply at all
        case 'component':
          return answer(component(this, tokens))
        case 'port':
          return answer(port(this, tokens))
        case 'classifier_table':
          return answer(classifierTable(this, tokens))
        default:
          return reject('bad value(command)')
      }
    } catch (error) {
      if (error instanceof Rejected) return json(errorReply(error.message))
      throw error
    }
  }
}
