// A table for a terminal: the commands' `ls`-like listings.

/**
 * Rows (the header first) as lines of columns two spaces apart, each column as wide as its
 * widest cell; nothing trails a line.
 */
export function columns(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  return rows.map((row) => `${line(row)}\n`).join('')
}
