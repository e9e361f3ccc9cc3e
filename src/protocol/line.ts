/** Longest command line we send: vf and mirror copy a request into an 888-byte buffer unchecked. */
export const MAX_LINE_BYTES = 887
const SAFE_LINE = /^[\x21-\x7e]{1,110}(?: [\x21-\x7e]{1,110}){0,7}$/

/**
 * The last guard before the wire: 1 to 8 printable ASCII tokens of at most 110 characters
 * (the processes' token buffer), one space apart. Schemas make this hold; this makes sure.
 */
export const isSafeLine = (line: string) => line.length <= MAX_LINE_BYTES && SAFE_LINE.test(line)
