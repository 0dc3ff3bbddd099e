-- The consultation room (CONTRACT.md "Consultation room"): the video call happens inside the
-- product, and the appointment records it — when the patient entered the waiting room, when the
-- call started and ended, how long it lasted, and whether it fell back to audio. Never the media.
-- The columns live on agendamentos (the replicas already hold it; a new collection would count
-- against the replica's open-collection limit, sync/SPEC.md "Known limits"). Only
-- public.registrar_evento_sala writes them: agendamentos has no API write grants.

alter table public.agendamentos
  add column sala_paciente_entrou_em timestamptz,
  add column chamada_iniciada_em timestamptz,
  add column chamada_encerrada_em timestamptz,
  add column chamada_duracao_segundos integer
    constraint agendamentos_chamada_duracao_positiva check (chamada_duracao_segundos >= 0),
  add column chamada_so_audio boolean not null default false;

-- The doctor's choice in perfil: the built-in room (default) or their own link per appointment
-- (medico_salvar_link, unchanged). A doctor's own column, written like the others
-- (medicos_update_own; the write trigger guards only the immutable fields).
alter table public.medicos
  add column sala_consulta text not null default 'integrada'
    constraint medicos_sala_consulta_valida check (sala_consulta in ('integrada', 'link_externo'));

-- When the room of an appointment is open: from ROOM_OPENS_MINUTES_BEFORE before its start to
-- the end of its São Paulo day, and never before ROOM_STAYS_OPEN_HOURS_AFTER_END after its end
-- (a late consultation that runs past midnight). The numbers are those of
-- src/domain/rules/consultation-room.ts, pinned by tests/db/consultation-room.test.ts.
create function app_private.sala_abre_em(a public.agendamentos) returns timestamptz
language sql stable set search_path = '' as $$
  select a.horario_inicio - interval '30 minutes'
$$;

create function app_private.sala_fecha_em(a public.agendamentos) returns timestamptz
language sql stable set search_path = '' as $$
  select greatest(
    ((a.horario_inicio at time zone 'America/Sao_Paulo')::date + 1)::timestamp
      at time zone 'America/Sao_Paulo',
    a.horario_fim + interval '2 hours')
$$;

-- Why `p_user_id` may not use the room of `a` now, or null when they may. One rule for the RPC,
-- the Realtime channel policies and the TURN credentials function:
-- * not_found: no such appointment, or the user is neither its patient nor its doctor (the
--   same answer, so nobody learns which appointments exist);
-- * invalid_state: cancelled, or expired (also when due for expiry) before its call started —
--   a call already under way is not cut off when an unpaid appointment reaches its end;
-- * room_not_open / room_closed: outside the window above.
create function app_private.sala_recusa(a public.agendamentos, p_user_id uuid) returns text
language sql stable security definer set search_path = '' as $$
  select case
    when a.id is null or a._deleted or p_user_id is null then 'not_found'
    when a.patient_id is distinct from p_user_id and not exists (
      select 1 from public.medicos m where m.id = a.medico_id and m.user_id = p_user_id
    ) then 'not_found'
    when a.status = 'cancelado' then 'invalid_state'
    when (a.status = 'expirado' or app_private.is_due_for_expiry(a))
      and a.chamada_iniciada_em is null then 'invalid_state'
    when now() < app_private.sala_abre_em(a) then 'room_not_open'
    when now() >= app_private.sala_fecha_em(a) then 'room_closed'
  end
$$;

-- Realtime Authorization of the room's private channel `consulta:<agendamento id>`: true when the
-- signed-in caller may use that room now. Any other topic is not this policy's business.
create function app_private.pode_usar_canal_da_consulta(p_topic text) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  v_row public.agendamentos;
begin
  if p_topic is null
     or p_topic !~ '^consulta:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then
    return false;
  end if;
  select * into v_row from public.agendamentos where id = substr(p_topic, 10)::uuid;
  return found and app_private.sala_recusa(v_row, auth.uid()) is null;
end $$;

-- SELECT = receive broadcast and presence, INSERT = send them (and track presence). Both people
-- of the appointment may do both; nobody else may do either.
create policy consulta_participantes_recebem on realtime.messages
  for select to authenticated
  using (
    realtime.messages.extension in ('broadcast', 'presence')
    and (select app_private.pode_usar_canal_da_consulta(realtime.topic()))
  );

create policy consulta_participantes_enviam on realtime.messages
  for insert to authenticated
  with check (
    realtime.messages.extension in ('broadcast', 'presence')
    and (select app_private.pode_usar_canal_da_consulta(realtime.topic()))
  );

-- The words for each refusal of app_private.sala_recusa, said by the RPC and by the
-- turn-credentials function alike.
create function app_private.sala_mensagem(p_motivo text) returns text
language sql immutable set search_path = '' as $$
  select case p_motivo
    when 'not_found' then 'Agendamento não encontrado.'
    when 'invalid_state' then 'Esta consulta foi cancelada ou expirou.'
    when 'room_not_open' then 'A sala da consulta abre 30 minutos antes do horário marcado.'
    when 'room_closed' then 'O horário desta consulta já passou.'
  end
$$;

-- For the turn-credentials function (service role): null when this user may use the room now,
-- else `{motivo, mensagem}`. Same rule as the channel (app_private.sala_recusa).
create function public.sala_consulta_recusa(p_agendamento_id uuid, p_user_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_row public.agendamentos;
  v_motivo text := 'not_found';
begin
  select * into v_row from public.agendamentos where id = p_agendamento_id;
  if found then
    v_motivo := app_private.sala_recusa(v_row, p_user_id);
  end if;
  if v_motivo is null then
    return null;
  end if;
  return jsonb_build_object('motivo', v_motivo, 'mensagem', app_private.sala_mensagem(v_motivo));
end $$;

-- ---------------------------------------------------------------------------------------------
-- registrar_evento_sala: what happened in the room, recorded on the appointment.
-- ---------------------------------------------------------------------------------------------
create function public.registrar_evento_sala(
  p_agendamento_id uuid, p_evento text, p_mutation_id uuid default null
) returns public.agendamentos
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_row public.agendamentos;
  v_replay jsonb;
  v_is_patient boolean;
  v_refusal text;
begin
  if v_uid is null then
    perform app_private.reject(
      'Acesso negado: Você precisa estar logado para entrar na consulta.', 'not_signed_in');
  end if;
  if p_agendamento_id is null or p_evento is null then
    perform app_private.reject('Dados incompletos.', 'invalid_params');
  end if;
  if p_evento not in ('paciente_entrou', 'chamada_iniciada', 'chamada_encerrada', 'so_audio') then
    perform app_private.reject('Evento da sala inválido.', 'invalid_params');
  end if;

  select * into v_row from public.agendamentos where id = p_agendamento_id for update;
  v_refusal := case when found then app_private.sala_recusa(v_row, v_uid) else 'not_found' end;
  if v_refusal = 'not_found' then
    perform app_private.reject(app_private.sala_mensagem(v_refusal), v_refusal);
  end if;

  v_replay := app_private.replayed_result(p_mutation_id, 'sala_' || p_evento, v_row.id);
  if v_replay is not null then
    return jsonb_populate_record(null::public.agendamentos, v_replay);
  end if;

  v_is_patient := v_row.patient_id = v_uid;
  if p_evento = 'paciente_entrou' and not v_is_patient then
    perform app_private.reject(
      'Apenas o paciente desta consulta entra na sala de espera.', 'not_patient');
  end if;
  if p_evento = 'chamada_iniciada' and v_is_patient then
    perform app_private.reject('Apenas o médico pode iniciar a consulta.', 'not_doctor');
  end if;

  if v_refusal is not null then
    perform app_private.reject(app_private.sala_mensagem(v_refusal), v_refusal);
  end if;

  if p_evento = 'paciente_entrou' then
    update public.agendamentos set sala_paciente_entrou_em = now()
    where id = v_row.id returning * into v_row;
  elsif p_evento = 'chamada_iniciada' then
    -- The first start stays the consultation's start; starting again after an end resumes it,
    -- so the end and the duration wait for the next end.
    update public.agendamentos set
      chamada_iniciada_em = coalesce(chamada_iniciada_em, now()),
      chamada_encerrada_em = null,
      chamada_duracao_segundos = null
    where id = v_row.id returning * into v_row;
  elsif p_evento = 'chamada_encerrada' then
    if v_row.chamada_iniciada_em is null then
      perform app_private.reject('A consulta ainda não foi iniciada.', 'call_not_started');
    end if;
    -- Both people may hang up at once: the first end counts, a second changes nothing.
    if v_row.chamada_encerrada_em is null then
      update public.agendamentos set
        chamada_encerrada_em = now(),
        chamada_duracao_segundos = floor(extract(epoch from now() - chamada_iniciada_em))::integer
      where id = v_row.id returning * into v_row;
    end if;
  else
    update public.agendamentos set chamada_so_audio = true
    where id = v_row.id returning * into v_row;
  end if;

  perform app_private.record_result(p_mutation_id, 'sala_' || p_evento, v_row.id, to_jsonb(v_row));
  return v_row;
end $$;

revoke all on function app_private.sala_abre_em(public.agendamentos) from public;
revoke all on function app_private.sala_fecha_em(public.agendamentos) from public;
revoke all on function app_private.sala_recusa(public.agendamentos, uuid) from public;
revoke all on function app_private.pode_usar_canal_da_consulta(text) from public;
revoke all on function app_private.sala_mensagem(text) from public;
-- The channel policies run as the caller.
grant execute on function app_private.pode_usar_canal_da_consulta(text) to authenticated;

revoke all on function public.sala_consulta_recusa(uuid, uuid) from public, anon, authenticated;
grant execute on function public.sala_consulta_recusa(uuid, uuid) to service_role;

revoke all on function public.registrar_evento_sala(uuid, text, uuid) from public;
grant execute on function public.registrar_evento_sala(uuid, text, uuid)
  to anon, authenticated, service_role;
