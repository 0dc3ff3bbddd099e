-- Sample for the REST limits suite: a function that takes its time, and the value of a
-- setting as the request runs with it.
create function public.sleep_for(seconds double precision) returns integer
language sql as $$ select pg_sleep(seconds); select 1 $$;

create function public.show_setting(name text) returns text
language sql stable as $$ select current_setting(name) $$;
