-- A price has the input's step, 0.01 (docs/product-rules.md §5): a consulta_preco written with
-- a third decimal is refused with a message instead of being rounded silently. numeric(12, 2)
-- rounded the value as it was read, before any trigger could see it, so the column takes any
-- scale and a check keeps what is stored at two decimals. price_in_cents is an integer, which
-- already refuses a fraction of a cent (22P02).
alter table public.medicos
  alter column consulta_preco type numeric,
  add constraint medicos_consulta_preco_centavos
    check (consulta_preco = round(consulta_preco, 2));

create or replace function app_private.medicos_before_write() returns trigger
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
  if new.consulta_preco <> round(new.consulta_preco, 2) then
    raise exception using
      errcode = '23514',
      message = 'O preço aceita no máximo duas casas decimais (ex.: 130,50).',
      hint = 'price_precision';
  end if;
  -- The cents are the truth; consulta_preco follows them.
  new.consulta_preco := round(new.price_in_cents / 100.0, 2);
  return new;
end $$;
