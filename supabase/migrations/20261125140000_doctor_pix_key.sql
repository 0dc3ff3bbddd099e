-- A doctor's PIX key and the city printed on the guide's BR Code (static "copia e cola").
-- Same rules as the doctor's other own fields: readable with the row (medicos_read), written
-- only by the doctor (medicos_update_own, the table-wide update grant). Stored normalised
-- (src/domain/rules/pix.ts, pinned by tests/db/doctor-pix-key.test.ts): CPF or CNPJ digits,
-- +55 phone, lower-case e-mail or random key.
alter table public.medicos
  add column pix_chave text
    constraint medicos_pix_chave_formato check (
      pix_chave is null or (length(pix_chave) <= 77 and pix_chave ~ '^([0-9]{11}|[0-9]{14}|\+55[1-9]{2}[0-9]{8,9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,})$')
    ),
  add column pix_cidade text
    constraint medicos_pix_cidade_tamanho check (
      pix_cidade is null or length(btrim(pix_cidade)) between 1 and 60
    ),
  add constraint medicos_pix_cidade_com_chave check (pix_chave is null or pix_cidade is not null);
