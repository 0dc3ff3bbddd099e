-- PostgREST's in-database configuration, set in a migration as the upstream supabase-js test
-- project sets it, but for this database only (`in database`): roles are shared by every
-- database of a PostgreSQL server, and test files run at once.
do $$
declare
  setting record;
begin
  for setting in select * from (values
    ('db_aggregates_enabled', 'true'),
    ('db_plan_enabled', 'true'),
    ('db_max_rows', '3'),
    ('db_schemas', 'public, extra'),
    ('db_extra_search_path', 'public, extensions, extra')
  ) as s (key, value)
  loop
    execute format('alter role authenticator in database %I set pgrst.%s = %L',
                   current_database(), setting.key, setting.value);
  end loop;
end $$;

create table public.items (id integer primary key, n integer not null);
insert into public.items select i, i * 10 from generate_series(1, 5) as i;

create schema extra;
create function extra.helper() returns text language sql as $$ select 'from extra' $$;
grant usage on schema extra to anon, authenticated, service_role;
grant execute on all functions in schema extra to anon, authenticated, service_role;
create table extra.notes (id integer primary key, body text not null);
grant all on extra.notes to anon, authenticated, service_role;
insert into extra.notes values (1, 'nota');

-- A request's search_path: its schema, then db-extra-search-path.
create function public.request_search_path() returns text
  language sql as $$ select current_setting('search_path') $$;
-- Found only through db-extra-search-path.
create function public.call_helper() returns text
  language plpgsql as $$ begin return helper(); end $$;

create function public.changing() returns integer language sql as $$ select 1 $$;
