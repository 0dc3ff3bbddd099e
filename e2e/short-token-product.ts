import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { randomCpf } from './support.ts';

/**
 * A second `npm start` (scripts/start.ts) for specs that need a setting the suite's own server
 * does not have — here access tokens that live `jwtExpiry` seconds. It runs on the suite's
 * ports + 10, over a data directory and a build directory of its own (the bundle carries the
 * API's URL, and the suite's server keeps serving dist/).
 */
export type Product = {
  appUrl: string;
  apiUrl: string;
  serviceRoleKey: string;
  stop(): Promise<void>;
};

const appPort = Number(process.env.E2E_APP_PORT ?? 4173) + 10;
const apiPort = Number(process.env.E2E_API_PORT ?? 54399) + 10;
/** Where the second product's app is served, known before it starts (for `test.use`). */
export const PRODUCT_APP_URL = `http://127.0.0.1:${appPort}`;

export async function startProduct(opts: { jwtExpiry: number; name: string }): Promise<Product> {
  const dataDir = `.data/e2e-${opts.name}`;
  rmSync(dataDir, { recursive: true, force: true });
  const child = spawn('npx', ['tsx', 'scripts/start.ts'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      APP_PORT: String(appPort),
      API_PORT: String(apiPort),
      DATA_DIR: dataDir,
      APP_DIST_DIR: `dist-e2e-${opts.name}`,
      JWT_EXPIRY: String(opts.jwtExpiry),
      AUTH_RATE_LIMIT: 'false',
      LOG_LEVEL: 'error',
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // start.ts prints the keys once the API, the app and the demo accounts are all up.
  const serviceRoleKey = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const key = /service_role key\s+(\S+)/.exec(out)?.[1];
      if (key) resolve(key);
    });
    void exited.then(() => reject(new Error('the short-token product exited before it was up')));
  });
  return {
    appUrl: PRODUCT_APP_URL,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    serviceRoleKey,
    async stop() {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

/** The service role's own requests to the product's API (admin API and REST). */
export function admin(product: Product) {
  const headers = {
    apikey: product.serviceRoleKey,
    Authorization: `Bearer ${product.serviceRoleKey}`,
    'Content-Type': 'application/json',
  };
  return {
    /** A confirmed patient with a complete profile, ready to sign in. */
    async createPatient(password: string): Promise<{ id: string; email: string }> {
      const email = `e2e-token-${randomUUID().slice(0, 8)}@saudeja.example`;
      const response = await fetch(`${product.apiUrl}/auth/v1/admin/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          email,
          password,
          email_confirm: true,
          user_metadata: {
            full_name: 'Paciente Token Teste',
            cpf: randomCpf(),
            data_nasc: '1990-03-15',
            whatsapp: '(11) 98765-4321',
            role: 'paciente',
          },
        }),
      });
      if (!response.ok) throw new Error(`createUser: ${response.status} ${await response.text()}`);
      const user = (await response.json()) as { id: string };
      return { id: user.id, email };
    },
    /** Ends every session of the user the access token belongs to (refresh tokens revoked). */
    async signOutEverywhere(accessToken: string): Promise<void> {
      const response = await fetch(`${product.apiUrl}/auth/v1/logout?scope=global`, {
        method: 'POST',
        headers: { ...headers, Authorization: `Bearer ${accessToken}` },
      });
      if (!response.ok) throw new Error(`logout: ${response.status} ${await response.text()}`);
    },
    async bookingsOf(patientId: string): Promise<number> {
      const response = await fetch(
        `${product.apiUrl}/rest/v1/agendamentos?select=id&patient_id=eq.${patientId}`,
        { headers },
      );
      if (!response.ok) throw new Error(`agendamentos: ${response.status}`);
      return ((await response.json()) as unknown[]).length;
    },
  };
}
