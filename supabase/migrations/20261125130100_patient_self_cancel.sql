-- A patient cancels their own appointment (CONTRACT.md "paciente_cancelar_agendamento"): up to
-- the minimum notice before it starts (public.politica_agendamento.antecedencia_cancelamento);
-- a checkout hold (no guide, unpaid) can be released at any time. A paid appointment keeps
-- pagamento_status 'pago': the refund is arranged with the doctor, outside the app.
create function public.paciente_cancelar_agendamento(
  p_agendamento_id uuid, p_mutation_id uuid default null
) returns table (success boolean, message text)
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
    return query select (v_replay ->> 'success')::boolean, v_replay ->> 'message';
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
  where id = v_row.id;
  perform app_private.record_result(p_mutation_id, 'paciente_cancelar', v_row.id,
    jsonb_build_object('success', true, 'message', v_message));
  return query select true, v_message;
end $$;

revoke all on function public.paciente_cancelar_agendamento(uuid, uuid) from public;
grant execute on function public.paciente_cancelar_agendamento(uuid, uuid)
  to anon, authenticated, service_role;
