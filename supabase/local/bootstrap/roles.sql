-- Roles and grants as hosted Supabase provides them. Idempotent: runs at every start.
-- CREATE ROLE is cluster-wide, so two databases bootstrapping at once may race: both
-- "already exists" outcomes are fine.
do $$ begin create role anon nologin noinherit;
exception when duplicate_object or unique_violation then null; end $$;
do $$ begin create role authenticated nologin noinherit;
exception when duplicate_object or unique_violation then null; end $$;
do $$ begin create role service_role nologin noinherit bypassrls;
exception when duplicate_object or unique_violation then null; end $$;

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;

grant usage on schema public to anon, authenticated, service_role;
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
