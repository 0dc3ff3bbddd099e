-- Saúde Já data model: tables, constraints and the triggers that keep derived columns honest.
-- Runs unchanged on hosted Supabase, PostgreSQL 15 and PGlite (see CONTRACT.md).

create extension if not exists btree_gist with schema extensions;

-- Internals the API never exposes: helpers for policies/RPCs and the mutation log.
create schema if not exists app_private;
revoke all on schema app_private from public;
grant usage on schema app_private to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------------------------

-- CPF check digits (Receita Federal algorithm); digits only, repeated-digit numbers are invalid.
create function app_private.is_valid_cpf(p_cpf text) returns boolean
language plpgsql immutable set search_path = '' as $$
declare
  d int[];
  s int;
  r int;
  i int;
begin
  if p_cpf is null or p_cpf !~ '^[0-9]{11}$' or p_cpf ~ '^(.)\1{10}$' then
    return false;
  end if;
  for i in 1..11 loop
    d[i] := substr(p_cpf, i, 1)::int;
  end loop;
  s := 0;
  for i in 1..9 loop
    s := s + d[i] * (11 - i);
  end loop;
  r := (s * 10) % 11;
  if r = 10 then r := 0; end if;
  if r <> d[10] then return false; end if;
  s := 0;
  for i in 1..10 loop
    s := s + d[i] * (12 - i);
  end loop;
  r := (s * 10) % 11;
  if r = 10 then r := 0; end if;
  return r = d[11];
end $$;

-- The calendar day in São Paulo, where ages and appointment dates are reckoned.
create function app_private.today_sao_paulo() returns date
language sql stable set search_path = '' as $$
  select (now() at time zone 'America/Sao_Paulo')::date
$$;

-- Minutes since midnight of a wall-clock time ('24:00' counts as 1440).
create function app_private.minute_of_day(p_time time) returns int
language sql immutable set search_path = '' as $$
  select (extract(hour from p_time) * 60 + extract(minute from p_time))::int
$$;

-- Replication cursor: RxDB pulls by (_modified, id), so every write must move _modified.
-- clock_timestamp, not now(): rows written in one transaction still get distinct, ordered stamps.
create function app_private.touch_modified() returns trigger
language plpgsql set search_path = '' as $$
begin
  new._modified := clock_timestamp();
  return new;
end $$;

create function app_private.touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end $$;

-- True when the statement comes from an API caller (PostgREST switches to these roles); false
-- for the service role, migrations and security definer RPCs, which own their rules.
create function app_private.is_api_user() returns boolean
language sql stable set search_path = '' as $$
  select current_user in ('anon', 'authenticated')
$$;

-- ---------------------------------------------------------------------------------------------
-- servicos
-- ---------------------------------------------------------------------------------------------
create table public.servicos (
  id uuid primary key default gen_random_uuid(),
  nome text not null unique check (length(btrim(nome)) > 0),
  created_at timestamptz not null default now(),
  _modified timestamptz not null default clock_timestamp(),
  _deleted boolean not null default false
);

-- ---------------------------------------------------------------------------------------------
-- medicos
-- ---------------------------------------------------------------------------------------------
create table public.medicos (
  id uuid primary key default gen_random_uuid(),
  user_id uuid unique references auth.users (id) on delete set null,
  name text not null check (length(btrim(name)) > 0),
  public_name text not null check (length(btrim(public_name)) > 0),
  specialty text not null check (length(btrim(specialty)) > 0),
  crm text not null check (length(btrim(crm)) between 1 and 20),
  uf text not null check (uf ~ '^[A-Z]{2}$'),
  bio text,
  price_in_cents integer not null default 0 check (price_in_cents >= 0),
  consulta_preco numeric(12, 2) not null default 0,
  image_url text check (image_url is null or image_url ~ '^https?://'),
  doctoralia_reviews_url text
    check (doctoralia_reviews_url is null or doctoralia_reviews_url ~ '^https?://[^\s]+$'),
  is_public boolean not null default false,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  _modified timestamptz not null default clock_timestamp(),
  _deleted boolean not null default false
);

-- consulta_preco is what the original client sent alongside the cents; the cents are the truth.
create function app_private.medicos_before_write() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'UPDATE' and app_private.is_api_user() and (
    new.id <> old.id
    or new.user_id is distinct from old.user_id
    or new.is_public <> old.is_public
    or new.is_active <> old.is_active
    or new.created_at <> old.created_at
    or new._deleted <> old._deleted
  ) then
    raise exception using
      errcode = '42501',
      message = 'Este campo do perfil do médico não pode ser alterado.',
      hint = 'immutable_field';
  end if;
  new.consulta_preco := round(new.price_in_cents / 100.0, 2);
  return new;
end $$;

create trigger medicos_before_write before insert or update on public.medicos
  for each row execute function app_private.medicos_before_write();

-- ---------------------------------------------------------------------------------------------
-- perfis_usuarios
-- ---------------------------------------------------------------------------------------------
create table public.perfis_usuarios (
  id uuid primary key references auth.users (id) on delete cascade,
  role text not null default 'paciente' check (role in ('paciente', 'medico')),
  full_name text not null default '',
  email text,
  cpf text constraint perfis_usuarios_cpf_key unique
    constraint perfis_usuarios_cpf_check check (cpf is null or app_private.is_valid_cpf(cpf)),
  data_nasc date check (data_nasc is null or data_nasc >= date '1900-01-01'),
  whatsapp text check (whatsapp is null or length(whatsapp) <= 30),
  created_at timestamptz not null default now(),
  _modified timestamptz not null default clock_timestamp(),
  _deleted boolean not null default false
);

-- CPF arrives masked from forms ('000.000.000-00'); store digits so uniqueness means something.
-- A CPF, once set, never changes — not even through the service role.
create function app_private.perfis_before_write() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.cpf := nullif(regexp_replace(coalesce(new.cpf, ''), '[^0-9]', '', 'g'), '');
  new.full_name := btrim(coalesce(new.full_name, ''));

  if tg_op = 'UPDATE' then
    if old.cpf is not null and new.cpf is distinct from old.cpf then
      raise exception using
        errcode = '42501', message = 'O CPF não pode ser alterado.', hint = 'cpf_immutable';
    end if;
    if app_private.is_api_user() and (
      new.id <> old.id
      or new.role <> old.role
      or new.email is distinct from old.email
      or new.created_at <> old.created_at
      or new._deleted <> old._deleted
    ) then
      raise exception using
        errcode = '42501', message = 'Este campo do perfil não pode ser alterado.',
        hint = 'immutable_field';
    end if;
  end if;

  if new.cpf is not null and not app_private.is_valid_cpf(new.cpf) then
    raise exception using errcode = '23514', message = 'CPF inválido.', hint = 'invalid_cpf';
  end if;

  if new.data_nasc is not null
     and (tg_op = 'INSERT' or new.data_nasc is distinct from old.data_nasc)
     and new.data_nasc > app_private.today_sao_paulo() - interval '18 years' then
    raise exception using
      errcode = '23514', message = 'Você deve ter no mínimo 18 anos.', hint = 'underage';
  end if;
  return new;
end $$;

create trigger perfis_before_write before insert or update on public.perfis_usuarios
  for each row execute function app_private.perfis_before_write();

-- ---------------------------------------------------------------------------------------------
-- agenda_medico: weekly availability blocks, wall-clock São Paulo time
-- ---------------------------------------------------------------------------------------------
create table public.agenda_medico (
  id uuid primary key default gen_random_uuid(),
  medico_id uuid not null references public.medicos (id) on delete cascade,
  dia_semana smallint not null check (dia_semana between 0 and 6),
  hora_inicio time not null,
  hora_fim time not null,
  intervalo_em_minutos integer not null default 15
    check (intervalo_em_minutos in (5, 10, 15, 20, 30, 60)),
  status text not null default 'disponivel' check (status = 'disponivel'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  _modified timestamptz not null default clock_timestamp(),
  _deleted boolean not null default false,
  constraint agenda_medico_fim_depois_inicio check (hora_fim > hora_inicio),
  -- A doctor cannot be available twice at once; soft-deleted blocks no longer count.
  constraint agenda_medico_sem_sobreposicao exclude using gist (
    medico_id with =,
    dia_semana with =,
    tsrange(date '2000-01-01' + hora_inicio, date '2000-01-01' + hora_fim) with &&
  ) where (not _deleted)
);

create trigger agenda_medico_updated_at before update on public.agenda_medico
  for each row execute function app_private.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- agendamentos: written only by the RPCs
-- ---------------------------------------------------------------------------------------------
create table public.agendamentos (
  id uuid primary key default gen_random_uuid(),
  patient_id uuid not null references public.perfis_usuarios (id),
  medico_id uuid not null references public.medicos (id),
  servico_id uuid not null references public.servicos (id),
  appointment_date date not null,
  appointment_time time not null,
  horario_inicio timestamptz not null,
  horario_fim timestamptz not null,
  price_in_cents integer not null check (price_in_cents >= 0),
  status text not null default 'confirmado'
    check (status in ('confirmado', 'atendido', 'reagendado', 'pendente', 'cancelado', 'expirado')),
  pagamento_status text not null default 'pendente'
    check (pagamento_status in ('pendente', 'pago', 'cancelado')),
  source text not null default 'site',
  pagamento_confirmado_em timestamptz,
  pagamento_confirmado_por uuid,
  meeting_link text check (meeting_link is null or meeting_link ~ '^https://[^\s/?#]+\.[^\s]*$'),
  guia_id uuid,
  protocolo text,
  mutation_id uuid constraint agendamentos_mutation_id_key unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  _modified timestamptz not null default clock_timestamp(),
  _deleted boolean not null default false,
  constraint agendamentos_fim_depois_inicio check (horario_fim > horario_inicio)
);

-- One live booking per doctor and start (docs/product-rules.md §4). Created before the exclusion constraint so
-- an exact double booking reports this index (23505) rather than the overlap (23P01).
create unique index agendamentos_slot_unico on public.agendamentos (medico_id, horario_inicio)
  where status in ('confirmado', 'atendido', 'reagendado', 'pendente');

-- Overlapping consultations of one doctor (slots step by the block interval but last 30 min).
alter table public.agendamentos add constraint agendamentos_sem_sobreposicao
  exclude using gist (medico_id with =, tstzrange(horario_inicio, horario_fim) with &&)
  where (status in ('confirmado', 'atendido', 'reagendado', 'pendente'));

create index agendamentos_patient_idx on public.agendamentos (patient_id, horario_inicio desc);
create index agendamentos_medico_idx on public.agendamentos (medico_id, horario_inicio desc);
create index agendamentos_due_idx on public.agendamentos (horario_fim)
  where status in ('confirmado', 'reagendado', 'pendente') and pagamento_status <> 'pago';

create trigger agendamentos_updated_at before update on public.agendamentos
  for each row execute function app_private.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- guias: one per appointment, issued by paciente_gerar_guia
-- ---------------------------------------------------------------------------------------------
create table public.guias (
  id uuid primary key default gen_random_uuid(),
  agendamento_id uuid not null unique references public.agendamentos (id) on delete cascade,
  patient_id uuid not null references public.perfis_usuarios (id),
  medico_id uuid not null references public.medicos (id),
  protocolo text not null unique,
  pdf_url text,
  data_emissao timestamptz not null default now(),
  qr_text text not null,
  paciente_snapshot jsonb not null,
  medico_snapshot jsonb not null,
  servico_snapshot jsonb not null,
  mutation_id uuid unique,
  created_at timestamptz not null default now(),
  _modified timestamptz not null default clock_timestamp(),
  _deleted boolean not null default false
);

alter table public.agendamentos add constraint agendamentos_guia_id_fkey
  foreign key (guia_id) references public.guias (id) on delete set null;

-- ---------------------------------------------------------------------------------------------
-- agenda_ocupada: public projection of booked slots (no patient data), kept by trigger
-- ---------------------------------------------------------------------------------------------
create table public.agenda_ocupada (
  id uuid primary key references public.agendamentos (id) on delete cascade,
  medico_id uuid not null references public.medicos (id) on delete cascade,
  horario_inicio timestamptz not null,
  horario_fim timestamptz not null,
  status text not null,
  _modified timestamptz not null default clock_timestamp(),
  -- A slot that is no longer booked (cancelado/expirado) is a tombstone, so replicas drop it.
  _deleted boolean not null default false
);

create index agenda_ocupada_medico_idx on public.agenda_ocupada (medico_id, horario_inicio);

create function app_private.project_agenda_ocupada() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.agenda_ocupada as o (id, medico_id, horario_inicio, horario_fim, status, _deleted)
  values (
    new.id, new.medico_id, new.horario_inicio, new.horario_fim, new.status,
    new.status not in ('confirmado', 'atendido', 'reagendado', 'pendente') or new._deleted
  )
  on conflict (id) do update set
    medico_id = excluded.medico_id,
    horario_inicio = excluded.horario_inicio,
    horario_fim = excluded.horario_fim,
    status = excluded.status,
    _deleted = excluded._deleted
  where (o.medico_id, o.horario_inicio, o.horario_fim, o.status, o._deleted)
    is distinct from (excluded.medico_id, excluded.horario_inicio, excluded.horario_fim,
                      excluded.status, excluded._deleted);
  return null;
end $$;

create trigger agendamentos_project_ocupada
  after insert or update of medico_id, horario_inicio, horario_fim, status, _deleted
  on public.agendamentos
  for each row execute function app_private.project_agenda_ocupada();

-- ---------------------------------------------------------------------------------------------
-- doctor_applications: decided through the process-doctor-application function
-- ---------------------------------------------------------------------------------------------
create table public.doctor_applications (
  id uuid primary key default gen_random_uuid(),
  full_name text not null check (length(btrim(full_name)) > 0),
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$'),
  crm text not null check (length(btrim(crm)) between 1 and 20),
  uf text not null check (uf ~ '^[A-Z]{2}$'),
  specialty text not null check (length(btrim(specialty)) > 0),
  whatsapp text,
  message text,
  status text not null default 'pendente' check (status in ('pendente', 'aprovado', 'rejeitado')),
  decided_at timestamptz,
  medico_id uuid references public.medicos (id) on delete set null,
  created_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Mutation log: a replayed p_mutation_id returns the first result (offline outbox retries).
-- ---------------------------------------------------------------------------------------------
create table app_private.mutations (
  mutation_id uuid primary key,
  user_id uuid not null,
  operation text not null,
  target_id uuid not null,
  result jsonb not null,
  created_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Replication columns: _modified on every write, (_modified, id) cursor index
-- ---------------------------------------------------------------------------------------------
do $$
declare
  t text;
begin
  foreach t in array array['servicos', 'medicos', 'perfis_usuarios', 'agenda_medico',
                           'agendamentos', 'guias', 'agenda_ocupada'] loop
    execute format(
      'create trigger %I before insert or update on public.%I
         for each row execute function app_private.touch_modified()',
      t || '_touch_modified', t);
    execute format('create index %I on public.%I (_modified, id)', t || '_modified_idx', t);
  end loop;
end $$;
