// How a simulated process puts a reply on its socket: whole, in pieces, or never finished.
import type { Socket } from 'node:net'

/** Writes a reply in `pieces` separate writes (1: at once). */
export function writeInPieces(socket: Socket, reply: Buffer, pieces: number) {
  const size = Math.max(1, Math.ceil(reply.length / pieces))
  for (let at = 0; at < reply.length; at += size) socket.write(reply.subarray(at, at + size))
}

/** Starts a reply and never finishes it: an object that stays open, written as fast as it drains. */
export function writeEndless(socket: Socket, json: boolean) {
  const opener = json ? '{ "results": [ ' : ''
  const filler = Buffer.alloc(64 * 1024, json ? ' ' : '\0')
  socket.write(opener)
  const pump = () => {
    while (!socket.destroyed && socket.write(filler));
  }
  socket.on('drain', pump)
  pump()
}
