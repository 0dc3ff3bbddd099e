-- Roles and grants as hosted Supabase provides them. Idempotent: runs at every start.
-- CREATE ROLE is cluster-wide, so two databases bootstrapping at once may race: both
-- "already exists" outcomes are fine.
do $$ begin create role anon nologin noinherit;
exception when duplicate_object or unique_violation then null; end $$;
do $$ begin create role authenticated nologin noinherit;
exception when duplicate_object or unique_violation then null; end $$;
do $$ begin create role service_role nologin noinherit bypassrls;
exception when duplicate_object or unique_violation then null; end $$;
-- The role PostgREST logs in as on hosted Supabase and switches from to the caller's role. Its
-- `pgrst.*` settings are PostgREST's in-database configuration, which the REST API reads
-- (`alter role authenticator set pgrst.db_aggregates_enabled = 'true'`; rest/settings.ts).
do $$ begin create role authenticator login noinherit;
exception when duplicate_object or unique_violation then null; end $$;
do $$ begin grant anon, authenticated, service_role to authenticator;
exception when others then null; -- granted by another database bootstrapping at once
end $$;

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;

grant usage on schema public to anon, authenticated, service_role;
-- Exposed by default ([api] schemas); pg_graphql's endpoint is not emulated, so it stays empty.
create schema if not exists graphql_public;
grant usage on schema graphql_public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;

do $$ begin create publication supabase_realtime;
exception when duplicate_object then null; end $$;

create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  name text not null,
  applied_at timestamptz not null default now()
);
-- Seeds applied, recorded apart from the migrations (as the Supabase CLI records them), so
-- a first start interrupted between its migrations and its seed applies the seed next time.
create table if not exists supabase_migrations.seed_files (
  path text primary key,
  hash text not null
);

-- Statement timeouts per API role, as hosted Supabase sets them (anon 3s, authenticated 8s).
-- Only when the role has none yet, so `alter role anon set statement_timeout = '5s'` made by
-- an administrator survives restarts. The REST API applies the caller's role settings to each
-- request as PostgREST does (SET ROLE alone does not).
do $$
declare
  r record;
begin
  for r in select * from (values ('anon', '3s'), ('authenticated', '8s')) as d (role, timeout)
  loop
    if not exists (
      select 1 from pg_db_role_setting s join pg_roles o on o.oid = s.setrole
      where o.rolname = r.role
        and exists (select 1 from unnest(s.setconfig) c where c like 'statement_timeout=%')
    ) then
      begin
        execute format('alter role %I set statement_timeout = %L', r.role, r.timeout);
      exception when others then
        null; -- another database bootstrapping at the same moment set it (roles are shared)
      end;
    end if;
  end loop;
end $$;
