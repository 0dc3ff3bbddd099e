-- Server-authoritative mutations (docs/product-rules.md §4, §5). Every rejection raises P0001 with the
-- Portuguese message for people and a stable English reason in HINT for programs.

create function app_private.reject(p_message text, p_reason text) returns void
language plpgsql set search_path = '' as $$
begin
  raise exception using errcode = 'P0001', message = p_message, hint = p_reason;
end $$;

-- Unpaid appointments whose consultation time has passed are expired. Evaluated on read by the
-- RPCs (so a late job never lets a stale row through) and persisted by
-- public.expire_unpaid_appointments().
create function app_private.is_due_for_expiry(a public.agendamentos) returns boolean
language sql stable set search_path = '' as $$
  select a.status in ('confirmado', 'reagendado', 'pendente')
    and a.pagamento_status <> 'pago'
    and a.horario_fim <= now()
$$;

-- A previous result of the same mutation id, or null. The same id reused for another
-- operation, target or user is refused instead of answered with someone else's result.
create function app_private.replayed_result(
  p_mutation_id uuid, p_operation text, p_target_id uuid
) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  m app_private.mutations;
begin
  if p_mutation_id is null then
    return null;
  end if;
  select * into m from app_private.mutations where mutation_id = p_mutation_id;
  if not found then
    return null;
  end if;
  if m.user_id is distinct from auth.uid() or m.operation <> p_operation
     or m.target_id <> p_target_id then
    perform app_private.reject('Esta operação já foi registrada com outros dados.', 'mutation_conflict');
  end if;
  return m.result;
end $$;

create function app_private.record_result(
  p_mutation_id uuid, p_operation text, p_target_id uuid, p_result jsonb
) returns void
language sql set search_path = '' as $$
  insert into app_private.mutations (mutation_id, user_id, operation, target_id, result)
  select p_mutation_id, auth.uid(), p_operation, p_target_id, p_result
  where p_mutation_id is not null
$$;

-- The appointment a doctor may act on, locked for the rest of the transaction.
create function app_private.doctor_appointment(p_agendamento_id uuid, p_not_doctor_message text)
returns public.agendamentos
language plpgsql set search_path = '' as $$
declare
  v_medico_id uuid;
  v_row public.agendamentos;
begin
  if auth.uid() is null or app_private.current_user_role() is distinct from 'medico' then
    perform app_private.reject(p_not_doctor_message, 'not_doctor');
  end if;
  v_medico_id := app_private.current_medico_id();
  if v_medico_id is null then
    perform app_private.reject('Seu perfil de médico não foi encontrado.', 'doctor_not_linked');
  end if;
  if p_agendamento_id is null then
    perform app_private.reject('Dados incompletos.', 'invalid_params');
  end if;
  select * into v_row from public.agendamentos where id = p_agendamento_id for update;
  if not found then
    perform app_private.reject('Agendamento não encontrado.', 'not_found');
  end if;
  if v_row.medico_id <> v_medico_id then
    perform app_private.reject('Este agendamento não pertence à sua agenda.', 'not_owner');
  end if;
  if app_private.is_due_for_expiry(v_row) then
    update public.agendamentos set status = 'expirado' where id = v_row.id returning * into v_row;
  end if;
  return v_row;
end $$;

-- Human-friendly, unguessable codes: no 0/O/1/I; 32 symbols so a byte maps without bias.
create function app_private.random_code(p_length int) returns text
language sql volatile set search_path = '' as $$
  select string_agg(
    substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZ', (get_byte(b.bytes, i) % 32) + 1, 1), '' order by i)
  from (select extensions.gen_random_bytes(p_length) as bytes) b,
       generate_series(0, p_length - 1) as i
$$;

-- ---------------------------------------------------------------------------------------------
-- paciente_agendar
-- ---------------------------------------------------------------------------------------------
create function public.paciente_agendar(
  p_medico_id uuid,
  p_horario_inicio timestamptz,
  p_mutation_id uuid default null
) returns public.agendamentos
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_perfil public.perfis_usuarios;
  v_medico public.medicos;
  v_row public.agendamentos;
  v_servico_id uuid;
  v_local timestamp;
  v_minute int;
  v_constraint text;
begin
  select * into v_perfil from public.perfis_usuarios where id = v_uid;
  if v_uid is null or not found or v_perfil.role <> 'paciente' then
    perform app_private.reject(
      'Acesso negado: Você precisa estar logado como paciente para agendar.', 'not_patient');
  end if;

  if p_mutation_id is not null then
    select * into v_row from public.agendamentos where mutation_id = p_mutation_id;
    if found then
      if v_row.patient_id <> v_uid then
        perform app_private.reject(
          'Esta operação já foi registrada com outros dados.', 'mutation_conflict');
      end if;
      return v_row;
    end if;
  end if;

  if p_medico_id is null or p_horario_inicio is null then
    perform app_private.reject('Dados incompletos.', 'invalid_params');
  end if;

  if v_perfil.full_name = '' or v_perfil.cpf is null or v_perfil.data_nasc is null then
    perform app_private.reject(
      'Complete seu cadastro (nome completo, CPF e data de nascimento) antes de agendar.',
      'profile_incomplete');
  end if;

  select * into v_medico from public.medicos
  where id = p_medico_id and is_public and is_active and not _deleted;
  if not found then
    perform app_private.reject(
      'Médico não encontrado ou não está disponível publicamente.', 'doctor_unavailable');
  end if;

  if p_horario_inicio <= now() + interval '20 minutes' then
    perform app_private.reject(
      'Este horário não está mais disponível. Escolha um horário com mais de 20 minutos de antecedência.',
      'slot_in_past');
  end if;

  v_local := p_horario_inicio at time zone 'America/Sao_Paulo';
  v_minute := app_private.minute_of_day(v_local::time);
  if date_trunc('minute', p_horario_inicio) <> p_horario_inicio or not exists (
    select 1 from public.agenda_medico b
    where b.medico_id = p_medico_id
      and not b._deleted
      and b.status = 'disponivel'
      and b.dia_semana = extract(dow from v_local)
      and v_minute >= app_private.minute_of_day(b.hora_inicio)
      and v_minute + 30 <= app_private.minute_of_day(b.hora_fim)
      and (v_minute - app_private.minute_of_day(b.hora_inicio)) % b.intervalo_em_minutos = 0
  ) then
    perform app_private.reject('Horário fora da agenda do médico.', 'not_on_grid');
  end if;

  select id into v_servico_id from public.servicos where nome = 'Teleconsulta' and not _deleted;
  if v_servico_id is null then
    perform app_private.reject('Serviço de teleconsulta indisponível.', 'service_unavailable');
  end if;

  begin
    insert into public.agendamentos (
      patient_id, medico_id, servico_id, appointment_date, appointment_time, horario_inicio,
      horario_fim, price_in_cents, status, pagamento_status, source, mutation_id
    ) values (
      v_uid, p_medico_id, v_servico_id, v_local::date, v_local::time, p_horario_inicio,
      p_horario_inicio + interval '30 minutes', v_medico.price_in_cents, 'confirmado', 'pendente',
      'site', p_mutation_id
    ) returning * into v_row;
  exception
    when unique_violation or exclusion_violation then
      get stacked diagnostics v_constraint = constraint_name;
      if v_constraint = 'agendamentos_mutation_id_key' then
        -- A concurrent replay of the same mutation committed first: answer with its row.
        select * into v_row from public.agendamentos where mutation_id = p_mutation_id;
        if v_row.patient_id <> v_uid then
          perform app_private.reject(
            'Esta operação já foi registrada com outros dados.', 'mutation_conflict');
        end if;
        return v_row;
      end if;
      if v_constraint not in ('agendamentos_slot_unico', 'agendamentos_sem_sobreposicao') then
        raise;
      end if;
      -- Exact and overlapping double bookings are one thing to clients: the slot is taken.
      raise exception using
        errcode = '23505',
        message = 'duplicate key value violates unique constraint "agendamentos_slot_unico"',
        detail = 'Este horário já foi reservado.',
        hint = 'slot_taken',
        constraint = 'agendamentos_slot_unico',
        table = 'agendamentos',
        schema = 'public';
  end;
  return v_row;
end $$;

-- ---------------------------------------------------------------------------------------------
-- paciente_gerar_guia
-- ---------------------------------------------------------------------------------------------
create function public.paciente_gerar_guia(p_agendamento_id uuid, p_mutation_id uuid default null)
returns public.guias
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_row public.agendamentos;
  v_guia public.guias;
  v_perfil public.perfis_usuarios;
  v_medico public.medicos;
  v_servico public.servicos;
  v_protocolo text;
begin
  if v_uid is null or app_private.current_user_role() is distinct from 'paciente' then
    perform app_private.reject(
      'Acesso negado: Você precisa estar logado como paciente para gerar a guia.', 'not_patient');
  end if;
  if p_agendamento_id is null then
    perform app_private.reject('Dados incompletos.', 'invalid_params');
  end if;

  select * into v_row from public.agendamentos where id = p_agendamento_id for update;
  if not found or v_row.patient_id <> v_uid then
    perform app_private.reject('Agendamento não encontrado.', 'not_found');
  end if;

  select * into v_guia from public.guias where agendamento_id = p_agendamento_id;
  if found then
    return v_guia;
  end if;

  if v_row.status in ('cancelado', 'expirado') or app_private.is_due_for_expiry(v_row) then
    perform app_private.reject(
      'Não é possível gerar a guia de um agendamento cancelado ou expirado.', 'invalid_state');
  end if;

  select * into v_perfil from public.perfis_usuarios where id = v_row.patient_id;
  select * into v_medico from public.medicos where id = v_row.medico_id;
  select * into v_servico from public.servicos where id = v_row.servico_id;

  loop
    v_protocolo := format('SJ-%s-%s-%s',
      to_char(app_private.today_sao_paulo(), 'YYYY'),
      app_private.random_code(4), app_private.random_code(4));
    exit when not exists (select 1 from public.guias where protocolo = v_protocolo);
  end loop;

  insert into public.guias (
    agendamento_id, patient_id, medico_id, protocolo, qr_text, paciente_snapshot,
    medico_snapshot, servico_snapshot, mutation_id
  ) values (
    v_row.id, v_row.patient_id, v_row.medico_id, v_protocolo,
    format('SAUDEJA:GUIA:%s:%s', v_protocolo, v_row.id),
    jsonb_build_object(
      'nome', v_perfil.full_name, 'cpf', v_perfil.cpf,
      'data_nasc', to_char(v_perfil.data_nasc, 'YYYY-MM-DD'), 'whatsapp', v_perfil.whatsapp),
    jsonb_build_object(
      'nome', v_medico.public_name, 'especialidade', v_medico.specialty,
      'crm', format('%s/%s', v_medico.crm, v_medico.uf)),
    jsonb_build_object(
      'nome', v_servico.nome, 'data', to_char(v_row.appointment_date, 'YYYY-MM-DD'),
      'hora', to_char(v_row.appointment_time, 'HH24:MI'), 'preco_centavos', v_row.price_in_cents),
    p_mutation_id
  ) returning * into v_guia;

  update public.agendamentos set guia_id = v_guia.id, protocolo = v_guia.protocolo
  where id = v_row.id;
  return v_guia;
end $$;

-- ---------------------------------------------------------------------------------------------
-- Doctor actions
-- ---------------------------------------------------------------------------------------------
create function public.medico_confirmar_pagamento(
  p_agendamento_id uuid, p_mutation_id uuid default null
) returns public.agendamentos
language plpgsql security definer set search_path = '' as $$
declare
  v_row public.agendamentos;
  v_replay jsonb;
begin
  v_row := app_private.doctor_appointment(
    p_agendamento_id, 'Apenas médicos podem confirmar pagamentos.');
  v_replay := app_private.replayed_result(p_mutation_id, 'confirmar_pagamento', v_row.id);
  if v_replay is not null then
    return jsonb_populate_record(null::public.agendamentos, v_replay);
  end if;
  if v_row.status in ('cancelado', 'expirado') then
    perform app_private.reject(
      'Não é possível confirmar o pagamento de um agendamento cancelado ou expirado.',
      'invalid_state');
  end if;
  if v_row.pagamento_status = 'pago' then
    perform app_private.reject('O pagamento deste agendamento já foi confirmado.', 'already_paid');
  end if;
  update public.agendamentos set
    pagamento_status = 'pago',
    status = case when status = 'atendido' then status else 'confirmado' end,
    pagamento_confirmado_em = now(),
    pagamento_confirmado_por = auth.uid()
  where id = v_row.id
  returning * into v_row;
  perform app_private.record_result(p_mutation_id, 'confirmar_pagamento', v_row.id, to_jsonb(v_row));
  return v_row;
end $$;

create function public.medico_confirmar_atendimento(
  p_agendamento_id uuid, p_mutation_id uuid default null
) returns table (success boolean, message text)
language plpgsql security definer set search_path = '' as $$
declare
  v_row public.agendamentos;
  v_replay jsonb;
  v_message text := 'Atendimento confirmado com sucesso.';
begin
  v_row := app_private.doctor_appointment(
    p_agendamento_id, 'Apenas médicos podem confirmar atendimentos.');
  v_replay := app_private.replayed_result(p_mutation_id, 'confirmar_atendimento', v_row.id);
  if v_replay is not null then
    return query select (v_replay ->> 'success')::boolean, v_replay ->> 'message';
    return;
  end if;
  if v_row.status in ('cancelado', 'expirado') then
    perform app_private.reject(
      'Não é possível confirmar o atendimento de um agendamento cancelado ou expirado.',
      'invalid_state');
  end if;
  if v_row.status = 'atendido' then
    perform app_private.reject('O atendimento deste agendamento já foi confirmado.', 'already_attended');
  end if;
  if v_row.pagamento_status <> 'pago' then
    perform app_private.reject(
      'O pagamento precisa estar confirmado antes do check-in.', 'payment_pending');
  end if;
  update public.agendamentos set status = 'atendido' where id = v_row.id;
  perform app_private.record_result(p_mutation_id, 'confirmar_atendimento', v_row.id,
    jsonb_build_object('success', true, 'message', v_message));
  return query select true, v_message;
end $$;

create function public.medico_excluir_agendamento(
  p_agendamento_id uuid, p_mutation_id uuid default null
) returns table (success boolean, message text)
language plpgsql security definer set search_path = '' as $$
declare
  v_row public.agendamentos;
  v_replay jsonb;
  v_message text := 'Agendamento cancelado com sucesso.';
begin
  v_row := app_private.doctor_appointment(
    p_agendamento_id, 'Apenas médicos podem cancelar agendamentos.');
  v_replay := app_private.replayed_result(p_mutation_id, 'excluir_agendamento', v_row.id);
  if v_replay is not null then
    return query select (v_replay ->> 'success')::boolean, v_replay ->> 'message';
    return;
  end if;
  if v_row.status in ('cancelado', 'expirado') then
    perform app_private.reject('Este agendamento já está cancelado ou expirado.', 'invalid_state');
  end if;
  if v_row.status = 'atendido' then
    perform app_private.reject(
      'Não é possível cancelar um atendimento já realizado.', 'already_attended');
  end if;
  -- Cancelling frees the slot: cancelado is not a booked status.
  update public.agendamentos set
    status = 'cancelado',
    pagamento_status = case when pagamento_status = 'pago' then 'pago' else 'cancelado' end
  where id = v_row.id;
  perform app_private.record_result(p_mutation_id, 'excluir_agendamento', v_row.id,
    jsonb_build_object('success', true, 'message', v_message));
  return query select true, v_message;
end $$;

create function public.medico_salvar_link(
  p_agendamento_id uuid, p_link text, p_mutation_id uuid default null
) returns public.agendamentos
language plpgsql security definer set search_path = '' as $$
declare
  v_row public.agendamentos;
  v_replay jsonb;
  v_link text := btrim(coalesce(p_link, ''));
begin
  v_row := app_private.doctor_appointment(
    p_agendamento_id, 'Apenas médicos podem adicionar links de consulta.');
  v_replay := app_private.replayed_result(p_mutation_id, 'salvar_link', v_row.id);
  if v_replay is not null then
    return jsonb_populate_record(null::public.agendamentos, v_replay);
  end if;
  if v_link !~ '^https://[^\s/?#]+\.[^\s]*$' or length(v_link) > 2048 then
    perform app_private.reject(
      'Informe um link válido começando com https://.', 'invalid_link');
  end if;
  if v_row.status in ('cancelado', 'expirado') then
    perform app_private.reject(
      'Não é possível adicionar link a um agendamento cancelado ou expirado.', 'invalid_state');
  end if;
  update public.agendamentos set meeting_link = v_link where id = v_row.id returning * into v_row;
  perform app_private.record_result(p_mutation_id, 'salvar_link', v_row.id, to_jsonb(v_row));
  return v_row;
end $$;

-- ---------------------------------------------------------------------------------------------
-- Expiry job: run by the server (see CONTRACT.md "Expiry"); returns how many rows expired.
-- ---------------------------------------------------------------------------------------------
create function public.expire_unpaid_appointments() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_count integer;
begin
  update public.agendamentos a set status = 'expirado'
  where a.status in ('confirmado', 'reagendado', 'pendente')
    and a.pagamento_status <> 'pago'
    and a.horario_fim <= now();
  get diagnostics v_count = row_count;
  return v_count;
end $$;

-- Execute rights: the API roles reach the RPCs (which check the caller themselves, so a visitor
-- gets the product-rules message instead of a bare permission error); the expiry job is server-only.
revoke all on function public.paciente_agendar(uuid, timestamptz, uuid) from public;
revoke all on function public.paciente_gerar_guia(uuid, uuid) from public;
revoke all on function public.medico_confirmar_pagamento(uuid, uuid) from public;
revoke all on function public.medico_confirmar_atendimento(uuid, uuid) from public;
revoke all on function public.medico_excluir_agendamento(uuid, uuid) from public;
revoke all on function public.medico_salvar_link(uuid, text, uuid) from public;
revoke all on function public.expire_unpaid_appointments() from public, anon, authenticated;

grant execute on function public.paciente_agendar(uuid, timestamptz, uuid)
  to anon, authenticated, service_role;
grant execute on function public.paciente_gerar_guia(uuid, uuid) to anon, authenticated, service_role;
grant execute on function public.medico_confirmar_pagamento(uuid, uuid)
  to anon, authenticated, service_role;
grant execute on function public.medico_confirmar_atendimento(uuid, uuid)
  to anon, authenticated, service_role;
grant execute on function public.medico_excluir_agendamento(uuid, uuid)
  to anon, authenticated, service_role;
grant execute on function public.medico_salvar_link(uuid, text, uuid)
  to anon, authenticated, service_role;
grant execute on function public.expire_unpaid_appointments() to service_role;

revoke all on function app_private.reject(text, text) from public;
revoke all on function app_private.is_due_for_expiry(public.agendamentos) from public;
revoke all on function app_private.replayed_result(uuid, text, uuid) from public;
revoke all on function app_private.record_result(uuid, text, uuid, jsonb) from public;
revoke all on function app_private.doctor_appointment(uuid, text) from public;
revoke all on function app_private.random_code(int) from public;
