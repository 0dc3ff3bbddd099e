import type { Identity } from '../../supabase/local/request-auth.ts';

/** The statements /rest/v1 generates for the bench's two requests (see rest/plans.ts). */
export const GET_SQL =
  `select null as total, count(*) as page, coalesce(json_agg(pgrst_t), '[]')::text as body, null as inserted ` +
  `from (select pgrst_0."id" as "id", pgrst_0."name" as "name", pgrst_0."qty" as "qty", pgrst_0."created_at" as "created_at" ` +
  `from public."bench_items" pgrst_0 where pgrst_0."id" = $1 limit $2 offset $3) pgrst_t`;
export const INSERT_SQL =
  `insert into public."bench_items" as pgrst_target ("name", "qty") ` +
  `select "name", "qty" from json_populate_recordset(null::public."bench_items", $1::json)`;

/** Bound values of GET_SQL: the id, then the page PostgREST asks for (db-max-rows, no offset). */
export const getParams = (id: number) => [id, 1000, 0];

/** Who the bench's requests act as: the anon key's identity. */
export const ANON: Pick<Identity, 'role' | 'claims'> = { role: 'anon', claims: { role: 'anon' } };
