-- REST conformance additions, after the samples above: a view (no xmax, no primary key) and an
-- overloaded function the RPC resolver must pick by argument type.
create view public.published_posts as
  select id, author_id, title from public.posts where published;

create function public.overloaded(x integer) returns text language sql immutable as $$ select 'integer' $$;
create function public.overloaded(x text) returns text language sql immutable as $$ select 'text' $$;
