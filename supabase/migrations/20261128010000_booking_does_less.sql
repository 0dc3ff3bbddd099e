-- A booking (paciente_agendar) did more work in the database than its rules need (issue 34):
-- six statements before its insert, four calls of a SQL helper that PostgreSQL could not inline,
-- and a query to walk the lock windows. The rules, the order in which they refuse and every
-- message stay exactly as they were.

-- minute_of_day carried `set search_path`, which keeps the planner from inlining a SQL function:
-- every use was a function call that parsed and planned its body again (four per booking). Its
-- operators and cast are schema-qualified instead (extract is pg_catalog's by grammar), so its
-- meaning does not depend on the caller's search_path and the planner folds it into the query.
create or replace function app_private.minute_of_day(p_time time) returns int
language sql immutable as $$
  select (extract(hour from p_time) operator(pg_catalog.*) 60
          operator(pg_catalog.+) extract(minute from p_time))::pg_catalog.int4
$$;

-- As before (20260601000200), with everything the checks read fetched by one statement: the
-- patient's profile, a previous booking of the same mutation id, the doctor's price, whether the
-- start lies on the doctor's grid and the service. Each check still refuses in its old order.
create or replace function public.paciente_agendar(
  p_medico_id uuid,
  p_horario_inicio timestamptz,
  p_mutation_id uuid default null
) returns public.agendamentos
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_local timestamp := p_horario_inicio at time zone 'America/Sao_Paulo';
  v_minute int := app_private.minute_of_day(v_local::time);
  v_role text;
  v_incomplete boolean;
  v_replayed_id uuid;
  v_price integer;
  v_on_grid boolean;
  v_servico_id uuid;
  v_row public.agendamentos;
  v_constraint text;
begin
  select p.role,
         p.full_name = '' or p.cpf is null or p.data_nasc is null,
         (select a.id from public.agendamentos a where a.mutation_id = p_mutation_id),
         (select m.price_in_cents from public.medicos m
           where m.id = p_medico_id and m.is_public and m.is_active and not m._deleted),
         exists (
           select 1 from public.agenda_medico b
           where b.medico_id = p_medico_id
             and not b._deleted
             and b.status = 'disponivel'
             and b.dia_semana = extract(dow from v_local)
             and v_minute >= app_private.minute_of_day(b.hora_inicio)
             and v_minute + 30 <= app_private.minute_of_day(b.hora_fim)
             and (v_minute - app_private.minute_of_day(b.hora_inicio)) % b.intervalo_em_minutos = 0),
         (select s.id from public.servicos s where s.nome = 'Teleconsulta' and not s._deleted)
    into v_role, v_incomplete, v_replayed_id, v_price, v_on_grid, v_servico_id
    from public.perfis_usuarios p
   where p.id = v_uid;
  if not found or v_role <> 'paciente' then
    perform app_private.reject(
      'Acesso negado: Você precisa estar logado como paciente para agendar.', 'not_patient');
  end if;

  if v_replayed_id is not null then
    select * into v_row from public.agendamentos where id = v_replayed_id;
    if v_row.patient_id <> v_uid then
      perform app_private.reject(
        'Esta operação já foi registrada com outros dados.', 'mutation_conflict');
    end if;
    return v_row;
  end if;

  if p_medico_id is null or p_horario_inicio is null then
    perform app_private.reject('Dados incompletos.', 'invalid_params');
  end if;

  if v_incomplete then
    perform app_private.reject(
      'Complete seu cadastro (nome completo, CPF e data de nascimento) antes de agendar.',
      'profile_incomplete');
  end if;

  if v_price is null then
    perform app_private.reject(
      'Médico não encontrado ou não está disponível publicamente.', 'doctor_unavailable');
  end if;

  if p_horario_inicio <= now() + interval '20 minutes' then
    perform app_private.reject(
      'Este horário não está mais disponível. Escolha um horário com mais de 20 minutos de antecedência.',
      'slot_in_past');
  end if;

  if date_trunc('minute', p_horario_inicio) <> p_horario_inicio or not v_on_grid then
    perform app_private.reject('Horário fora da agenda do médico.', 'not_on_grid');
  end if;

  if v_servico_id is null then
    perform app_private.reject('Serviço de teleconsulta indisponível.', 'service_unavailable');
  end if;

  begin
    insert into public.agendamentos (
      patient_id, medico_id, servico_id, appointment_date, appointment_time, horario_inicio,
      horario_fim, price_in_cents, status, pagamento_status, source, mutation_id
    ) values (
      v_uid, p_medico_id, v_servico_id, v_local::date, v_local::time, p_horario_inicio,
      p_horario_inicio + interval '30 minutes', v_price, 'confirmado', 'pendente',
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

-- As before (20261128000000), walking the windows with an integer loop instead of a query.
create or replace function app_private.lock_doctor_bookings() returns trigger
language plpgsql set search_path = '' as $$
declare
  v_doctor integer := hashtext(new.medico_id::text);
begin
  for v_window in
    floor(extract(epoch from new.horario_inicio) / 1800)::integer ..
    floor((extract(epoch from new.horario_fim) - 0.000001) / 1800)::integer
  loop
    perform pg_advisory_xact_lock(v_doctor, v_window);
  end loop;
  return new;
end $$;

-- touch_booked_patient (20261128000100) asks whether the patient already has an appointment with
-- the doctor. No index led there: the planner scanned one of the two single-column indexes whole
-- (every appointment of the doctor), or the table, for every booking.
create index agendamentos_patient_medico_idx on public.agendamentos (patient_id, medico_id);
