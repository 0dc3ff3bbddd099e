-- Change capture for the local Realtime service (supabase/local/realtime). Idempotent: the
-- bootstrap runs it at every start, before migrations.
--
-- Hosted Supabase reads changes from logical replication; PGlite has none, so both engines use
-- the same mechanism here: a row trigger named realtime_capture on every table of publication
-- supabase_realtime writes the change to realtime.change_log, and the server reads the log's
-- committed rows in id order and deletes them in the same statement, over and over, as the real
-- server polls its replication slot (realtime/change-feed.ts). The trigger sends no NOTIFY:
-- PostgreSQL serialises the commits of all transactions that notify, each waiting for a flush
-- of its own.
create schema if not exists realtime;

--
-- The log is unlogged (no WAL): its rows live for the moment between a commit and the server
-- reading them, and the server empties it at every start, so nothing in it has to survive a
-- crash. Logged, every captured change wrote its whole record to the WAL, and every delete of a
-- batch the server read was a transaction of its own waiting for a WAL flush (an fsync) — on
-- PostgreSQL the larger part of what the server's change feed cost the database per booking.
create unlogged table if not exists realtime.change_log (
  id bigserial primary key,
  schema_name text not null,
  table_name text not null,
  relid oid not null,
  type text not null check (type in ('INSERT', 'UPDATE', 'DELETE')),
  record jsonb,
  old_record jsonb,
  commit_timestamp timestamptz not null default clock_timestamp()
);
do $$
begin
  if (select c.relpersistence from pg_class c where c.oid = 'realtime.change_log'::regclass) <> 'u' then
    alter table realtime.change_log set unlogged;
  end if;
end $$;
-- Only the server's once-a-minute prune of orphaned rows reads commit_timestamp, over a table
-- that holds a moment's changes: an index on it cost every captured change an insert for nothing.
drop index if exists realtime.change_log_commit_timestamp;

-- old_record follows the replica identity, as logical decoding would: primary key by default,
-- every column with REPLICA IDENTITY FULL, nothing with NOTHING; a DELETE on a table with RLS
-- sends the key only, so a row the subscriber may not see never leaks through a delete.
create or replace function realtime.capture() returns trigger
language plpgsql security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  ident "char";
  rls boolean;
  key_columns text[];
  old_rec jsonb;
begin
  if tg_op <> 'INSERT' then
    select c.relreplident, c.relrowsecurity into ident, rls from pg_class c where c.oid = tg_relid;
    if ident = 'f' and not (tg_op = 'DELETE' and rls) then
      old_rec := to_jsonb(old);
    elsif ident = 'n' then
      old_rec := '{}'::jsonb;
    else
      select array_agg(a.attname) into key_columns
        from pg_index i
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
       where i.indrelid = tg_relid
         and case when ident = 'i' and not rls then i.indisreplident else i.indisprimary end;
      select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) into old_rec
        from jsonb_each(to_jsonb(old)) e
       where e.key = any (coalesce(key_columns, '{}'));
    end if;
  end if;

  insert into realtime.change_log (schema_name, table_name, relid, type, record, old_record)
  values (tg_table_schema, tg_table_name, tg_relid, tg_op,
          case when tg_op <> 'DELETE' then to_jsonb(new) end, old_rec);
  return null;
end $$;

-- Attaches realtime_capture to every ordinary table of the publication and detaches it from
-- tables that left it. Returns how many triggers it created or dropped.
--
-- The trigger is a constraint trigger deferred to commit, so a change's id is taken when its
-- transaction commits, not when its row was written: the server reads the log in id order, and
-- a transaction that started first but committed last must come last, as the real server's
-- changes follow the WAL's commit order. A trigger from before (fired with its statement) is
-- replaced.
create or replace function realtime.sync_triggers() returns integer
language plpgsql security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  t record;
  changed integer := 0;
begin
  for t in
    select c.oid::regclass as rel
      from pg_publication_tables p
      join pg_namespace n on n.nspname = p.schemaname
      join pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
     where p.pubname = 'supabase_realtime' and c.relkind = 'r'
       and not exists (select 1 from pg_trigger g
                        where g.tgrelid = c.oid and g.tgname = 'realtime_capture' and g.tginitdeferred)
  loop
    execute format('drop trigger if exists realtime_capture on %s', t.rel);
    execute format('create constraint trigger realtime_capture after insert or update or delete on %s '
                   'deferrable initially deferred for each row execute function realtime.capture()',
                   t.rel);
    changed := changed + 1;
  end loop;
  for t in
    select g.tgrelid::regclass as rel
      from pg_trigger g
      join pg_class c on c.oid = g.tgrelid
      join pg_namespace n on n.oid = c.relnamespace
     where g.tgname = 'realtime_capture'
       and not exists (select 1 from pg_publication_tables p
                        where p.pubname = 'supabase_realtime'
                          and p.schemaname = n.nspname and p.tablename = c.relname)
  loop
    execute format('drop trigger realtime_capture on %s', t.rel);
    changed := changed + 1;
  end loop;
  return changed;
end $$;

-- Keeps the triggers in step with the publication as migrations run, and tells the server that
-- the catalog changed (it caches table shapes and column privileges). A failure here must never
-- break the DDL that fired it: the server re-syncs at start and when a join names a table.
create or replace function realtime.on_ddl() returns event_trigger
language plpgsql
as $$
begin
  perform pg_notify('realtime_ddl', tg_tag);
  if tg_tag in ('CREATE PUBLICATION', 'ALTER PUBLICATION', 'CREATE TABLE') then
    begin
      perform realtime.sync_triggers();
    exception when others then
      raise warning 'realtime: could not sync capture triggers: %', sqlerrm;
    end;
  end if;
end $$;

-- Event triggers need a superuser; without one the server falls back to start-up and join-time
-- trigger sync and a short cache lifetime.
do $$
begin
  drop event trigger if exists realtime_publication_ddl;
  drop function if exists realtime.on_publication_ddl();
  if not exists (select 1 from pg_event_trigger where evtname = 'realtime_ddl') then
    create event trigger realtime_ddl on ddl_command_end execute function realtime.on_ddl();
  end if;
exception when insufficient_privilege then
  raise notice 'realtime: no event trigger (needs a superuser)';
end $$;

-- The RLS check of INSERT/UPDATE events, like the real server's (walrus `apply_rls`): for each
-- check {role, claims, relid, records}, switch to that role and those claims and return which
-- records are visible, looked up by primary key in the table as it is now. One statement for
-- all subscribers of a batch; settings are transaction-local, so they end with the statement.
-- A check whose table has no primary key, or whose policies raise, sees nothing.
create or replace function realtime.visible_rows(checks jsonb)
returns table (check_no int, row_no int)
language plpgsql volatile
as $$
declare
  c record;
  cond text;
begin
  for c in select value as v, (ordinality - 1)::int as no from jsonb_array_elements(checks) with ordinality loop
    select string_agg(format('t.%I = (x.r ->> %L)::%s', a.attname, a.attname,
                             format_type(a.atttypid, a.atttypmod)), ' and ')
      into cond
      from pg_index i
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
     where i.indrelid = (c.v ->> 'relid')::oid and i.indisprimary;
    continue when cond is null;
    begin
      perform set_config('role', c.v ->> 'role', true),
              set_config('request.jwt.claims', c.v ->> 'claims', true),
              set_config('request.method', 'GET', true),
              set_config('request.path', '/realtime/v1/websocket', true);
      return query execute format(
        'select %s, (x.n - 1)::int from jsonb_array_elements($1) with ordinality as x(r, n) '
        'where exists (select 1 from %s t where %s)',
        c.no, (c.v ->> 'relid')::oid::regclass, cond)
        using c.v -> 'records';
    exception when others then
      raise warning 'realtime: RLS check on % failed: %', (c.v ->> 'relid')::oid::regclass, sqlerrm;
    end;
  end loop;
  perform set_config('role', 'none', true);
end $$;

-- Evaluates one postgres_changes filter term against a record value given as text, the way the
-- real server does: both sides cast to the column's type. NULL and a value that does not cast
-- are no match, negated or not, as in a WHERE clause.
create or replace function realtime.filter_matches(
  op text, negate boolean, column_type text, lhs text, rhs jsonb
) returns boolean
language plpgsql stable
set search_path = pg_catalog, pg_temp
as $$
declare
  result boolean;
  sql_op text;
begin
  if op = 'is' then
    result := case rhs ->> 0
      when 'null' then lhs is null
      when 'true' then lhs::boolean is true
      when 'false' then lhs::boolean is false
      when 'unknown' then lhs::boolean is unknown
    end;
  elsif op = 'in' then
    execute format('select $1::%s = any ($2::%s[])', column_type, column_type)
      into result using lhs, array(select jsonb_array_elements_text(rhs));
  elsif op in ('like', 'ilike', 'match', 'imatch') then
    sql_op := case op when 'like' then 'like' when 'ilike' then 'ilike' when 'match' then '~' else '~*' end;
    execute format('select $1 %s $2', sql_op) into result using lhs, rhs ->> 0;
  else
    sql_op := case op
      when 'eq' then '=' when 'neq' then '<>' when 'lt' then '<' when 'lte' then '<='
      when 'gt' then '>' when 'gte' then '>=' when 'isdistinct' then 'is distinct from'
    end;
    if sql_op is null then
      return false;
    end if;
    execute format('select $1::%s %s $2::%s', column_type, sql_op, column_type)
      into result using lhs, rhs ->> 0;
  end if;
  return coalesce(case when negate then not result else result end, false);
exception when others then
  return false;
end $$;

-- Only the server (connected as the database owner) uses this schema; API roles get nothing.
revoke all on schema realtime from public;
revoke all on all tables in schema realtime from public;
revoke execute on all functions in schema realtime from public;

-- Realtime Authorization, as hosted Supabase has it: apps write RLS policies on
-- realtime.messages (SELECT = may receive, INSERT = may send) naming the channel with
-- realtime.topic() and the feature with `extension` ('broadcast' or 'presence'). The server
-- checks them at every private join in a transaction it rolls back (realtime/authorization.ts);
-- no message is ever kept here.
create table if not exists realtime.messages (
  id uuid not null default gen_random_uuid() primary key,
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now()
);
alter table realtime.messages enable row level security;
grant usage on schema realtime to anon, authenticated, service_role;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;

create or replace function realtime.topic() returns text
language sql stable as $$ select nullif(current_setting('realtime.topic', true), '')::text $$;
grant execute on function realtime.topic() to anon, authenticated, service_role;
