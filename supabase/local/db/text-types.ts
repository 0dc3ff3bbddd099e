/** OIDs whose values both drivers must hand back as Postgres text (see types.ts). */
export const TEXT_OIDS = {
  int8: 20,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  timetz: 1266,
  interval: 1186,
  numeric: 1700,
} as const;

export const identity = (value: string): string => value;
