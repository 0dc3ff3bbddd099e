-- A booking without a guide is a checkout hold: a patient who picks a slot and leaves the
-- checkout no longer keeps the slot until the consultation time passes. The expiry job (and
-- every RPC that evaluates app_private.is_due_for_expiry) turns an unpaid, guide-less booking
-- older than the hold into 'expirado', which frees the slot live for everyone through
-- agenda_ocupada. The status values of the product-rules stay as they are.

-- Product policy the server enforces; one row. Its defaults must equal
-- src/domain/rules/policy.ts (tests/db/booking-policy.test.ts compares them). The service
-- role may change the values (operators, and the e2e suite's short hold); API users see nothing.
create table public.politica_agendamento (
  id boolean primary key default true check (id),
  reserva_checkout interval not null default interval '15 minutes'
    check (reserva_checkout > interval '0'),
  antecedencia_cancelamento interval not null default interval '24 hours'
    check (antecedencia_cancelamento >= interval '0'),
  updated_at timestamptz not null default now()
);

insert into public.politica_agendamento default values;

create trigger politica_agendamento_updated_at before update on public.politica_agendamento
  for each row execute function app_private.touch_updated_at();

alter table public.politica_agendamento enable row level security;
revoke all on table public.politica_agendamento from public, anon, authenticated;
-- The single row is never removed, so the readers below always find it.
revoke insert, delete, truncate on table public.politica_agendamento from service_role;
grant select, update on table public.politica_agendamento to service_role;

create function app_private.checkout_hold() returns interval
language sql stable security definer set search_path = '' as $$
  select reserva_checkout from public.politica_agendamento where id
$$;

create function app_private.cancel_notice() returns interval
language sql stable security definer set search_path = '' as $$
  select antecedencia_cancelamento from public.politica_agendamento where id
$$;

revoke all on function app_private.checkout_hold() from public;
revoke all on function app_private.cancel_notice() from public;

-- Same rule as before, plus the hold: unpaid, no guide, booked longer ago than the hold.
create or replace function app_private.is_due_for_expiry(a public.agendamentos) returns boolean
language sql stable set search_path = '' as $$
  select a.status in ('confirmado', 'reagendado', 'pendente')
    and a.pagamento_status <> 'pago'
    and (
      a.horario_fim <= now()
      or (a.guia_id is null and a.created_at <= now() - app_private.checkout_hold())
    )
$$;

create index agendamentos_hold_idx on public.agendamentos (created_at)
  where guia_id is null and status in ('confirmado', 'reagendado', 'pendente')
    and pagamento_status <> 'pago';

create or replace function public.expire_unpaid_appointments() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_count integer;
  v_hold_started_before timestamptz := now() - app_private.checkout_hold();
begin
  update public.agendamentos a set status = 'expirado'
  where a.status in ('confirmado', 'reagendado', 'pendente')
    and a.pagamento_status <> 'pago'
    and (a.horario_fim <= now() or (a.guia_id is null and a.created_at <= v_hold_started_before));
  get diagnostics v_count = row_count;
  return v_count;
end $$;
