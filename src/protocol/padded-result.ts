// The outcome of a primary or nfv change: an 18.11 echo says nothing, a 2019+ JSON result does.
import * as v from 'valibot'
import { fail, ok, type Result } from './result.ts'
import { cString, parseJson } from './text.ts'

// spp-protocol-2020 §4.1, §5.1: `{"result":"succeeded"|"failed","command":…}`, no message.
const JsonResult = v.looseObject({ result: v.string(), command: v.optional(v.string()) })

/**
 * An echo (any reply not starting with `{`, as every 18.11 change gets) carries no outcome and is
 * taken as done, as before. A JSON `"result": "failed"` is the process refusing the command: an
 * error, where SPP's 2020 controller answered 204 regardless.
 */
export function paddedResult(frame: Buffer): Result<undefined> {
  if (frame[0] !== 0x7b) return ok(undefined)
  const text = cString(frame)
  if (!text.ok) return text
  const json = parseJson(text.value)
  if (!json.ok) return json
  const reply = v.safeParse(JsonResult, json.value)
  if (!reply.success) return ok(undefined) // an 18.11 primary's `clear` ({"status": "cleared"})
  if (reply.output.result === 'failed')
    return fail(`command error: ${reply.output.command ?? 'command'} failed`, 'COMMAND_REJECTED')
  return ok(undefined)
}
