import { callerId } from '../_shared/caller.ts';
import { UUID, json, preflight, readJsonObject } from '../_shared/http.ts';
import { serviceClient } from '../_shared/service-client.ts';
import { iceConfig, iceServersFor } from '../_shared/turn.ts';

/**
 * The consultation room's ICE servers, with short-lived TURN credentials (_shared/turn.ts), for
 * the two people of an appointment whose room is open now: body `{agendamentoId}`, the person's
 * session in `Authorization`. Who may use the room is the database's rule
 * (`public.sala_consulta_recusa`, the same as the room's Realtime channel).
 */

/** HTTP status of each refusal of the room: unknown to this person, or not open now. */
const REFUSAL_STATUS: Record<string, number> = { not_found: 404 };

type Refusal = { motivo: string; mensagem: string } | null;

export async function handleTurnCredentials(req: Request): Promise<Response> {
  const early = preflight(req);
  if (early) return early;
  if (req.method !== 'POST') return json({ success: false, message: 'Método não permitido.' }, 405);
  const body = await readJsonObject(req);
  const agendamentoId = body?.agendamentoId;
  if (typeof agendamentoId !== 'string' || !UUID.test(agendamentoId)) {
    return json({ success: false, message: 'Parâmetros inválidos. agendamentoId ausente.' }, 400);
  }
  const admin = serviceClient();
  if (!admin.ok) return json({ success: false, message: admin.message }, 500);

  const caller = await callerId(admin.value, req);
  if (!caller.ok) return json({ success: false, message: caller.message }, caller.status);
  const userId = caller.value;

  const checked = await admin.value.rpc('sala_consulta_recusa', {
    p_agendamento_id: agendamentoId,
    p_user_id: userId,
  });
  if (checked.error) return json({ success: false, message: checked.error.message }, 500);
  const refusal = checked.data as Refusal;
  if (refusal) {
    return json(
      { success: false, message: refusal.mensagem, reason: refusal.motivo },
      REFUSAL_STATUS[refusal.motivo] ?? 403,
    );
  }
  const servers = await iceServersFor(iceConfig(Deno.env), userId, Math.floor(Date.now() / 1000));
  return json(servers);
}
