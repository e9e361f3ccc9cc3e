// The last guard before the wire: only command lines of the strict grammar are ever written.
/** Longest command line we send: vf and mirror copy a request into an 888-byte buffer unchecked. */
export const MAX_LINE_BYTES = 887
const SAFE_LINE = /^[\x21-\x7e]{1,110}(?: [\x21-\x7e]{1,110}){0,7}$/

/**
 * The last guard before the wire: 1 to 8 printable ASCII tokens of at most 110 characters
 * (the processes' token buffer), one space apart. Schemas make this hold; this makes sure.
 */
export const isSafeLine = (line: string) => line.length <= MAX_LINE_BYTES && SAFE_LINE.test(line)

/** A 2020 primary reads up to 47 tokens into a 32768-byte buffer (launch, flow rules). */
const LONG_LINE = /^[\x21-\x7e]{1,110}(?: [\x21-\x7e]{1,110}){0,46}$/
/** The guard for the 2020 primary's long commands: up to 47 printable tokens, 4096 bytes. */
export const isSafeLongLine = (line: string) => line.length <= 4096 && LONG_LINE.test(line)
