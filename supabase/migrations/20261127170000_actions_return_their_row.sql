-- Check-in and both cancellations also answer with the appointment as they left it
-- (CONTRACT.md "Doctor actions", "paciente_cancelar_agendamento"), as confirm-payment does: the
-- client stores that row before the action leaves its queue, with no second request that a
-- lost connection could fail (sync/SPEC.md O6). `success` and `message` keep their names and
-- meaning, so a client that reads only them keeps working. A replay (same p_mutation_id)
-- answers the recorded flag and message with the row as it is now.
drop function public.medico_confirmar_atendimento(uuid, uuid);
drop function public.medico_excluir_agendamento(uuid, uuid);
drop function public.paciente_cancelar_agendamento(uuid, uuid);

create function public.medico_confirmar_atendimento(
  p_agendamento_id uuid, p_mutation_id uuid default null
) returns table (success boolean, message text, agendamento jsonb)
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
    return query select (v_replay ->> 'success')::boolean, v_replay ->> 'message', to_jsonb(v_row);
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
  update public.agendamentos set status = 'atendido' where id = v_row.id returning * into v_row;
  perform app_private.record_result(p_mutation_id, 'confirmar_atendimento', v_row.id,
    jsonb_build_object('success', true, 'message', v_message));
  return query select true, v_message, to_jsonb(v_row);
end $$;

create function public.medico_excluir_agendamento(
  p_agendamento_id uuid, p_mutation_id uuid default null
) returns table (success boolean, message text, agendamento jsonb)
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
    return query select (v_replay ->> 'success')::boolean, v_replay ->> 'message', to_jsonb(v_row);
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
  where id = v_row.id
  returning * into v_row;
  perform app_private.record_result(p_mutation_id, 'excluir_agendamento', v_row.id,
    jsonb_build_object('success', true, 'message', v_message));
  return query select true, v_message, to_jsonb(v_row);
end $$;

create function public.paciente_cancelar_agendamento(
  p_agendamento_id uuid, p_mutation_id uuid default null
) returns table (success boolean, message text, agendamento jsonb)
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_row public.agendamentos;
  v_replay jsonb;
  v_notice interval := app_private.cancel_notice();
  v_message text := 'Agendamento cancelado com sucesso.';
begin
  if v_uid is null or app_private.current_user_role() is distinct from 'paciente' then
    perform app_private.reject(
      'Acesso negado: Você precisa estar logado como paciente para cancelar.', 'not_patient');
  end if;
  if p_agendamento_id is null then
    perform app_private.reject('Dados incompletos.', 'invalid_params');
  end if;
  select * into v_row from public.agendamentos where id = p_agendamento_id for update;
  if not found or v_row.patient_id <> v_uid then
    perform app_private.reject('Agendamento não encontrado.', 'not_found');
  end if;
  v_replay := app_private.replayed_result(p_mutation_id, 'paciente_cancelar', v_row.id);
  if v_replay is not null then
    return query select (v_replay ->> 'success')::boolean, v_replay ->> 'message', to_jsonb(v_row);
    return;
  end if;
  if app_private.is_due_for_expiry(v_row) then
    update public.agendamentos set status = 'expirado' where id = v_row.id returning * into v_row;
  end if;
  if v_row.status in ('cancelado', 'expirado') then
    perform app_private.reject('Este agendamento já está cancelado ou expirado.', 'invalid_state');
  end if;
  if v_row.status = 'atendido' then
    perform app_private.reject(
      'Não é possível cancelar um atendimento já realizado.', 'already_attended');
  end if;
  -- A hold is released freely; a confirmed booking only before the notice.
  if (v_row.guia_id is not null or v_row.pagamento_status = 'pago')
     and v_row.horario_inicio - now() < v_notice then
    perform app_private.reject(
      format(
        'O cancelamento pelo paciente só é possível até %s horas antes da consulta. Fale com o médico.',
        round(extract(epoch from v_notice) / 3600)),
      'cancel_too_late');
  end if;
  if v_row.pagamento_status = 'pago' then
    v_message := 'Agendamento cancelado. O reembolso do valor pago é combinado diretamente com o médico.';
  end if;
  update public.agendamentos set
    status = 'cancelado',
    pagamento_status = case when pagamento_status = 'pago' then 'pago' else 'cancelado' end
  where id = v_row.id
  returning * into v_row;
  perform app_private.record_result(p_mutation_id, 'paciente_cancelar', v_row.id,
    jsonb_build_object('success', true, 'message', v_message));
  return query select true, v_message, to_jsonb(v_row);
end $$;

revoke all on function public.medico_confirmar_atendimento(uuid, uuid) from public;
revoke all on function public.medico_excluir_agendamento(uuid, uuid) from public;
revoke all on function public.paciente_cancelar_agendamento(uuid, uuid) from public;
grant execute on function public.medico_confirmar_atendimento(uuid, uuid)
  to anon, authenticated, service_role;
grant execute on function public.medico_excluir_agendamento(uuid, uuid)
  to anon, authenticated, service_role;
grant execute on function public.paciente_cancelar_agendamento(uuid, uuid)
  to anon, authenticated, service_role;
