import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_UNPAID_BOOKINGS_PER_DOCTOR,
  MAX_UNPAID_BOOKINGS_TOTAL,
} from '../../src/domain/rules/limits.ts';
import { migratedDatabase, type TestDatabase } from './support.ts';

/** The product constants of src/domain/rules and the SQL that enforces them agree. */
let t: TestDatabase;

beforeAll(async () => {
  t = await migratedDatabase();
}, 60_000);
afterAll(() => t.dispose());

describe('open unpaid bookings per patient', () => {
  it('are capped in SQL with the numbers of src/domain/rules/limits.ts', async () => {
    const { rows } = await t.db.query<{ per_doctor: number; total: number }>(
      'select per_doctor, total from app_private.unpaid_booking_limits()',
    );
    expect(rows[0]).toEqual({
      per_doctor: MAX_UNPAID_BOOKINGS_PER_DOCTOR,
      total: MAX_UNPAID_BOOKINGS_TOTAL,
    });
  });

  it('are checked through that function only (no second copy of the numbers)', async () => {
    const { rows } = await t.db.query<{ def: string }>(
      `select pg_get_functiondef('app_private.check_unpaid_booking_cap()'::regprocedure) as def`,
    );
    const def = rows[0]!.def;
    expect(def).toContain('app_private.unpaid_booking_limits()');
    expect(def).not.toMatch(/>=\s*\d/);
  });
});
