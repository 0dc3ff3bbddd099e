-- Appointment reminders by e-mail and the patient's LGPD rights (CONTRACT.md "Reminders",
-- "Consents", "Data export", "Account deletion").

-- ---------------------------------------------------------------------------------------------
-- Reminders: opt-out on the profile, and one row per reminder sent, so each goes out once
-- ---------------------------------------------------------------------------------------------
alter table public.perfis_usuarios
  add column lembretes_email boolean not null default true;

create table public.lembretes_enviados (
  agendamento_id uuid not null references public.agendamentos (id) on delete cascade,
  tipo text not null check (tipo in ('24h', '1h')),
  enviado_em timestamptz not null,
  primary key (agendamento_id, tipo)
);
-- Service role only: no grants, no policies for API roles.
alter table public.lembretes_enviados enable row level security;
revoke all on table public.lembretes_enviados from anon, authenticated;

-- Reminders whose moment has come at p_now (the scheduler's clock; now() when null), claimed
-- in the same statement: the primary key makes a concurrent run skip what another claimed.
-- The 24 h reminder is due from 24 h to 1 h before the start, the 1 h one from 1 h to the
-- start; a booking (with guide, not cancelled) of a patient who did not opt out, with e-mail.
create function public.reivindicar_lembretes(p_agora timestamptz default null)
returns table (
  agendamento_id uuid, tipo text, email text, full_name text, medico text,
  appointment_date date, appointment_time time, meeting_link text, guia_id uuid
)
language sql security definer set search_path = '' as $$
  with due as (
    select a.id, k.tipo
    from public.agendamentos a
    join public.perfis_usuarios p on p.id = a.patient_id
    cross join (values ('24h', interval '24 hours', interval '1 hour'),
                       ('1h', interval '1 hour', interval '0 seconds')) as k (tipo, antes, ate)
    where a.status in ('confirmado', 'reagendado') and a.guia_id is not null and not a._deleted
      and p.lembretes_email and p.email is not null
      and coalesce(p_agora, now()) >= a.horario_inicio - k.antes
      and coalesce(p_agora, now()) < a.horario_inicio - k.ate
      and not exists (
        select 1 from public.lembretes_enviados l where l.agendamento_id = a.id and l.tipo = k.tipo)
    order by a.horario_inicio
    limit 200
  ), claimed as (
    insert into public.lembretes_enviados (agendamento_id, tipo, enviado_em)
    select id, tipo, coalesce(p_agora, now()) from due
    on conflict do nothing
    returning agendamento_id, tipo
  )
  select a.id, c.tipo, p.email, p.full_name, m.public_name, a.appointment_date,
         a.appointment_time, a.meeting_link, a.guia_id
  from claimed c
  join public.agendamentos a on a.id = c.agendamento_id
  join public.perfis_usuarios p on p.id = a.patient_id
  join public.medicos m on m.id = a.medico_id
$$;

-- A reminder whose e-mail could not be sent is given back, so the next run tries again.
create function public.liberar_lembrete(p_agendamento_id uuid, p_tipo text) returns void
language sql security definer set search_path = '' as $$
  delete from public.lembretes_enviados where agendamento_id = p_agendamento_id and tipo = p_tipo
$$;

revoke all on function public.reivindicar_lembretes(timestamptz) from public, anon, authenticated;
revoke all on function public.liberar_lembrete(uuid, text) from public, anon, authenticated;
grant execute on function public.reivindicar_lembretes(timestamptz) to service_role;
grant execute on function public.liberar_lembrete(uuid, text) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Consents: recorded by the server at sign-up, readable by their owner, changed by nobody
-- ---------------------------------------------------------------------------------------------
create table public.consentimentos (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  tipo text not null check (tipo = 'telemedicina'),
  versao_termos text not null check (versao_termos ~ '^\d{4}-\d{2}-\d{2}$'),
  aceito_em timestamptz not null default now(),
  unique (user_id, tipo, versao_termos)
);
alter table public.consentimentos enable row level security;
revoke all on table public.consentimentos from anon, authenticated;
grant select on table public.consentimentos to authenticated;
create policy consentimentos_read_own on public.consentimentos for select to authenticated
  using (user_id = (select auth.uid()));

-- The version of the telemedicine terms the sign-up form shows (src/domain/rules/consent.ts).
create function app_private.current_terms_version() returns text
language sql immutable set search_path = '' as $$
  select '2026-11-25'
$$;

-- Sign-up metadata `consentimento_telemedicina: '<version>'` (the form's required checkbox)
-- becomes a consent row, timed by the server. Another version is not recorded.
create function app_private.record_signup_consent() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.raw_user_meta_data ->> 'consentimento_telemedicina' = app_private.current_terms_version() then
    insert into public.consentimentos (user_id, tipo, versao_termos)
    values (new.id, 'telemedicina', app_private.current_terms_version())
    on conflict do nothing;
  end if;
  return null;
end $$;
revoke all on function app_private.record_signup_consent() from public;

-- Named to fire after on_auth_user_created (the profile) and before the personal data leaves.
create trigger on_auth_user_created_consent after insert on auth.users
  for each row execute function app_private.record_signup_consent();

-- ---------------------------------------------------------------------------------------------
-- Account deletion: the account goes, the appointments stay (anonymised)
-- ---------------------------------------------------------------------------------------------
-- A profile outlives its account when appointments need it: instead of the cascade, a trigger
-- on auth.users deletes the profile, or anonymises it when appointments or guides point at it.
alter table public.perfis_usuarios drop constraint perfis_usuarios_id_fkey;

create function app_private.account_is_gone(p_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select not exists (select 1 from auth.users u where u.id = p_id)
$$;
revoke all on function app_private.account_is_gone(uuid) from public;
grant execute on function app_private.account_is_gone(uuid) to anon, authenticated, service_role;

-- As before (20260601000000), except that the CPF of a profile whose account is gone may be
-- erased: anonymisation is the one change an immutable CPF allows.
create or replace function app_private.perfis_before_write() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.cpf := nullif(regexp_replace(coalesce(new.cpf, ''), '[^0-9]', '', 'g'), '');
  new.full_name := btrim(coalesce(new.full_name, ''));

  if tg_op = 'UPDATE' then
    if old.cpf is not null and new.cpf is distinct from old.cpf
       and not (new.cpf is null and app_private.account_is_gone(new.id)) then
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

create function app_private.forget_deleted_account() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if exists (select 1 from public.agendamentos a where a.patient_id = old.id)
     or exists (select 1 from public.guias g where g.patient_id = old.id) then
    update public.perfis_usuarios set
      full_name = 'Paciente removido', email = null, cpf = null, data_nasc = null,
      whatsapp = null, lembretes_email = false
    where id = old.id;
    update public.guias set paciente_snapshot = jsonb_build_object(
      'nome', 'Paciente removido', 'cpf', null, 'data_nasc', null, 'whatsapp', null)
    where patient_id = old.id;
  else
    delete from public.perfis_usuarios where id = old.id;
  end if;
  return null;
end $$;
revoke all on function app_private.forget_deleted_account() from public;

create trigger on_auth_user_deleted after delete on auth.users
  for each row execute function app_private.forget_deleted_account();

-- 'Excluir minha conta': a patient's future bookings are cancelled (their slots free up),
-- then the account is deleted and the trigger above anonymises what the appointments keep.
create function public.excluir_minha_conta() returns table (success boolean, message text)
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null or app_private.current_user_role() is distinct from 'paciente' then
    perform app_private.reject(
      'Acesso negado: apenas pacientes podem excluir a própria conta por aqui.', 'not_patient');
  end if;
  update public.agendamentos set
    status = 'cancelado',
    pagamento_status = case when pagamento_status = 'pago' then 'pago' else 'cancelado' end
  where patient_id = v_uid and horario_inicio > now()
    and status in ('confirmado', 'reagendado', 'pendente');
  delete from auth.users where id = v_uid;
  return query select true, 'Sua conta foi excluída.';
end $$;
revoke all on function public.excluir_minha_conta() from public;
grant execute on function public.excluir_minha_conta() to authenticated;

-- ---------------------------------------------------------------------------------------------
-- 'Baixar meus dados': everything the server holds about the caller, as one JSON document
-- ---------------------------------------------------------------------------------------------
create function public.exportar_meus_dados() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null or not exists (select 1 from public.perfis_usuarios where id = v_uid) then
    perform app_private.reject('Usuário não autenticado.', 'not_authenticated');
  end if;
  return jsonb_build_object(
    'gerado_em', now(),
    'conta', (
      select jsonb_build_object('id', u.id, 'email', u.email, 'criada_em', u.created_at,
        'email_confirmado_em', u.email_confirmed_at, 'ultimo_login_em', u.last_sign_in_at)
      from auth.users u where u.id = v_uid),
    'perfil', (
      select jsonb_build_object('nome_completo', p.full_name, 'email', p.email, 'cpf', p.cpf,
        'data_nascimento', p.data_nasc, 'whatsapp', p.whatsapp, 'papel', p.role,
        'lembretes_email', p.lembretes_email, 'criado_em', p.created_at)
      from public.perfis_usuarios p where p.id = v_uid),
    'consentimentos', coalesce((
      select jsonb_agg(jsonb_build_object('tipo', c.tipo, 'versao_termos', c.versao_termos,
        'aceito_em', c.aceito_em) order by c.aceito_em)
      from public.consentimentos c where c.user_id = v_uid), '[]'::jsonb),
    'agendamentos', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'medico', m.public_name,
        'especialidade', m.specialty, 'data', a.appointment_date, 'hora', a.appointment_time,
        'inicio', a.horario_inicio, 'fim', a.horario_fim, 'status', a.status,
        'pagamento_status', a.pagamento_status, 'preco_centavos', a.price_in_cents,
        'link_sala', a.meeting_link, 'protocolo', a.protocolo, 'criado_em', a.created_at,
        'lembretes_enviados', coalesce((
          select jsonb_agg(jsonb_build_object('tipo', l.tipo, 'enviado_em', l.enviado_em))
          from public.lembretes_enviados l where l.agendamento_id = a.id), '[]'::jsonb))
        order by a.horario_inicio)
      from public.agendamentos a join public.medicos m on m.id = a.medico_id
      where a.patient_id = v_uid), '[]'::jsonb),
    'guias', coalesce((
      select jsonb_agg(jsonb_build_object('id', g.id, 'protocolo', g.protocolo,
        'agendamento_id', g.agendamento_id, 'emitida_em', g.data_emissao,
        'paciente', g.paciente_snapshot, 'medico', g.medico_snapshot,
        'servico', g.servico_snapshot) order by g.data_emissao)
      from public.guias g where g.patient_id = v_uid), '[]'::jsonb)
  );
end $$;
revoke all on function public.exportar_meus_dados() from public;
grant execute on function public.exportar_meus_dados() to authenticated;
