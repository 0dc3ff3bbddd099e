import { fail, ok, type Result } from './http.ts';
import type { ServiceClient } from './service-client.ts';

/** The signed-in person calling a function: the user id of the session in `Authorization`. */
export async function callerId(admin: ServiceClient, req: Request): Promise<Result<string>> {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '')?.[1];
  if (!token) return fail('Usuário não autenticado.', 401);
  const { data, error } = await admin.auth.getUser(token);
  return error || !data.user ? fail('Usuário não autenticado.', 401) : ok(data.user.id);
}
