/**
 * A foreign key as the schema cache reads it from the catalog (schema-cache.ts), and as
 * view-keys.ts carries it through views: `columns` of `table` reference `refColumns` of
 * `refTable`.
 */
export type ForeignKey = {
  name: string;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
};
