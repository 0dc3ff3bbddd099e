-- Sample for the REST suite: GET and HEAD run read-only, as PostgREST runs them.
-- Writes (to a scratch table of its own transaction): callable with POST only.
create function public.scratch_write() returns integer language plpgsql as $$
begin
  create temp table if not exists rpc_scratch (n integer) on commit drop;
  insert into rpc_scratch values (1);
  return (select count(*) from rpc_scratch);
end $$;
