-- Fixture for tests/platform/postgrest.test.ts, after PostgREST's own test schema: channels,
-- messages, users and best_friends, with the functions and shapes its documentation describes.
create table public.users (
  id integer primary key,
  username text not null
);

create table public.channels (
  id integer primary key,
  slug text not null
);

create table public.messages (
  id integer primary key,
  message text not null,
  channel_id integer not null references public.channels (id),
  sender_id integer constraint messages_sender_fkey references public.users (id),
  reviewer_id integer constraint messages_reviewer_fkey references public.users (id),
  data jsonb
);

create table public.best_friends (
  id integer primary key,
  first_user integer references public.users (id),
  second_user integer references public.users (id)
);

-- Self-reference: each employee's manager is an employee.
create table public.employees (
  id integer primary key,
  name text not null,
  manager_id integer references public.employees (id)
);

create table public.reservations (
  id integer primary key,
  during int4range not null
);

create table public.profiles (
  id integer primary key,
  status text not null default 'active',
  note text
);

create view public.channel_names as select id, slug from public.channels;
-- Views renaming the key columns of their table, and a view over such a view.
create view public.message_authors as
  select id as vid, sender_id as author, message as body from public.messages;
create view public.author_ids as select vid as mid, author as uid from public.message_authors;
create view public.people as select id as pid, username as handle from public.users;

-- A computed field and a computed relationship (set-returning function over a row).
create function public.blurb_message(public.messages) returns text
  language sql stable as $$ select substr($1.message, 1, 5) $$;
create function public.get_messages(public.channels) returns setof public.messages
  language sql stable as $$ select * from public.messages where channel_id = $1.id order by id $$;

-- RPC overloads and unnamed parameters.
create function public.overloaded_args() returns text language sql as $$ select 'none' $$;
create function public.overloaded_args(a integer) returns text language sql as $$ select 'a' $$;
create function public.overloaded_args(a integer, b integer) returns text
  language sql as $$ select 'a,b' $$;
create function public.overloaded_args(c text) returns text language sql as $$ select 'c' $$;
create function public.unnamed_json_param(json) returns json language sql as $$ select $1 $$;
create function public.unnamed_text_param(text) returns text language sql as $$ select $1 $$;
create function public.unnamed_int_param(integer) returns integer language sql as $$ select $1 $$;
create function public.single_object_param(payload jsonb) returns jsonb
  language sql as $$ select payload $$;

-- Row-returning functions for counts and max-affected.
create function public.list_messages() returns setof public.messages
  language sql stable as $$ select * from public.messages order by id $$;
create function public.rename_messages(prefix text) returns setof public.messages
  language sql as $$
    update public.messages set message = prefix || message returning *
  $$;
create function public.first_message() returns public.messages
  language sql stable as $$ select * from public.messages order by id limit 1 $$;

create schema extra;
create table extra.notes (id integer primary key, body text not null);
grant usage on schema extra to anon, authenticated, service_role;
grant all on all tables in schema extra to anon, authenticated, service_role;

insert into public.users values (1, 'ana'), (2, 'bia'), (3, 'caio');
insert into public.channels values (1, 'geral'), (2, 'avisos');
insert into public.messages values
  (1, 'Hello world', 1, 1, 2, '{"a": 1}'),
  (2, 'Second, "quoted"', 1, 2, null, '{"b": [1, 2]}'),
  (3, 'Third message', 2, 1, 3, null);
insert into public.best_friends values (1, 1, 2), (2, 2, 3);
insert into public.employees values (1, 'Chefe', null), (2, 'Ana', 1), (3, 'Bia', 1);
insert into public.reservations values (1, '[1,5)'), (2, '[10,20)');
insert into public.profiles values (1, 'blocked', 'first');
insert into extra.notes values (1, 'nota extra');
