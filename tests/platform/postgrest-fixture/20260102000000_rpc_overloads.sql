-- Overloads as the upstream supabase-js (postgrest-js) test project declares them: by type,
-- by arity, with unnamed parameters and with defaults.
create function public.unresolvable(a integer) returns integer language sql as $$ select 1 $$;
create function public.unresolvable(a text) returns integer language sql as $$ select 2 $$;

create function public.resolvable() returns void language sql as $$ select $$;
create function public.resolvable(a text) returns integer language sql as $$ select 1 $$;
create function public.resolvable(b integer) returns text language sql as $$ select 'foo' $$;
create function public.resolvable(cid bigint, search text default '') returns setof public.messages
  language sql stable as $$ select * from public.messages where channel_id = cid and message like search || '%' $$;

create function public.by_type(boolean) returns integer language sql as $$ select 1 $$;
create function public.by_type(integer) returns integer language sql as $$ select 2 $$;
create function public.by_type(text) returns text language sql as $$ select 'foo' $$;

create function public.none_or_unnamed() returns integer language sql as $$ select 1 $$;
create function public.none_or_unnamed(boolean) returns integer language sql as $$ select 2 $$;
create function public.none_or_unnamed(text) returns text language sql as $$ select 'foo' $$;

create function public.function_with_unnamed_integer(integer) returns integer language sql as $$ select 1 $$;
create function public.function_with_unnamed_text(text) returns integer language sql as $$ select 1 $$;

create function public.unnamed_default() returns integer language sql as $$ select 1 $$;
create function public.unnamed_default(integer default 42) returns integer language sql as $$ select 2 $$;
create function public.unnamed_default(text default 'default') returns text
  language sql as $$ select 'foo' $$;
