import * as v from 'valibot';

const Text = v.nullable(v.string());

/**
 * A `medicos` row as the replica holds it (sync/schemas.ts `MedicoDoc` is its output plus
 * `server_modified`) and as the booking page's first read validates it
 * (src/features/booking/first-schedule.ts). Columns a role may not read come as null. The
 * RxDB schema of the collection is checked against this type by the compiler.
 */
export const doctorRowSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  user_id: v.nullish(v.string(), null),
  name: Text,
  public_name: Text,
  specialty: Text,
  crm: Text,
  uf: Text,
  bio: Text,
  price_in_cents: v.nullable(v.pipe(v.number(), v.integer())),
  consulta_preco: v.nullish(v.number(), null),
  image_url: Text,
  doctoralia_reviews_url: Text,
  pix_chave: v.nullish(v.string(), null),
  pix_cidade: v.nullish(v.string(), null),
  /** The doctor's consultation room: 'integrada' (the built-in room) or 'link_externo'. */
  sala_consulta: v.nullish(v.string(), null),
  is_public: v.nullable(v.boolean()),
  is_active: v.nullable(v.boolean()),
  created_at: Text,
});

export type DoctorRow = v.InferOutput<typeof doctorRowSchema>;
