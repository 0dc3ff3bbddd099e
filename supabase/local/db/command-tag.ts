/** `SELECT 1`, `INSERT 0 3`, `UPDATE 2`: the row count is the tag's last number, if any. */
export function commandRowCount(tag: string): number | undefined {
  const count = /(\d+)$/.exec(tag)?.[1];
  return count === undefined ? undefined : Number(count);
}
